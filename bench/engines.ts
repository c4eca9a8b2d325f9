/**
 * Opens each engine the way Engram itself does (`createEngram`), on a fresh
 * system of record per case: the `memory_vectors` column dimension is fixed by
 * the migration, so every (dimension, N, spaces) case gets a new PGlite
 * directory or a recreated `engram_bench` database.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { configFromEnv, type AppConfig } from '../src/config.js';
import { createEngram, type Engram } from '../src/container.js';
import type { Embedder } from '../src/ports/embedder.js';
import { PgClient } from '../src/store/pg-client.js';
import { PgliteClient } from '../src/store/pglite-client.js';
import { tidyTables } from '../src/store/housekeeping.js';
import type { SqlClient } from '../src/store/sql-client.js';

export const ENGINES = ['pgvector', 'pgvector-pglite', 'lancedb', 'qdrant'] as const;
export type EngineName = (typeof ENGINES)[number];

export const DEFAULT_BENCH_URL = 'postgres://engram:engram@127.0.0.1:5432/engram_bench';

export function benchDatabaseUrl(): string {
  const url = process.env.BENCH_DATABASE_URL ?? DEFAULT_BENCH_URL;
  const name = new URL(url).pathname.replace(/^\//, '');
  // The bench drops and recreates this database for every case.
  if (!name.includes('bench')) throw new Error(`refusing to use database "${name}" for the bench: its name must contain "bench"`);
  return url;
}

/** Drops and recreates the bench database (as a superuser through the `postgres` database). */
export async function recreateBenchDatabase(url: string): Promise<void> {
  const u = new URL(url);
  const name = u.pathname.replace(/^\//, '');
  u.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: u.toString() });
  await admin.connect();
  try {
    await admin.query(`drop database if exists "${name}" with (force)`);
    await admin.query(`create database "${name}"`);
  } finally {
    await admin.end();
  }
}

export interface BenchStore {
  db: SqlClient;
  /** Config overrides that point Engram at this store (`databaseUrl` or `dataDir`), engine pgvector, silent logs. */
  overrides: Partial<AppConfig>;
  /** The PGlite data directory, or null on the server. */
  dir: string | null;
  /** Removes the PGlite directory (nothing on the server: the next run recreates the database). */
  cleanup(): Promise<void>;
}

/**
 * A fresh store for a bench run: the recreated bench database on the server (a pool of
 * `poolSize`), or PGlite in a new temporary directory named after `prefix`.
 */
export async function openBenchStore(server: boolean, prefix: string, poolSize = 4): Promise<BenchStore> {
  const overrides: Partial<AppConfig> = { logLevel: 'silent', engine: 'pgvector' };
  if (server) {
    const url = benchDatabaseUrl();
    await recreateBenchDatabase(url);
    overrides.databaseUrl = url;
    return { db: new PgClient(url, poolSize), overrides, dir: null, cleanup: async () => {} };
  }
  const dir = await mkdtemp(join(tmpdir(), prefix));
  overrides.dataDir = dir;
  return { db: await PgliteClient.open(dir), overrides, dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** Whether the PostgreSQL server answers (the server engines are skipped with a notice otherwise). */
export async function serverReachable(url: string): Promise<boolean> {
  const u = new URL(url);
  u.pathname = '/postgres';
  const c = new pg.Client({ connectionString: u.toString(), connectionTimeoutMillis: 3000 });
  try {
    await c.connect();
    await c.end();
    return true;
  } catch {
    return false;
  }
}

export interface OpenEngine {
  name: EngineName;
  /** Where the system of record lives for this engine. */
  store: 'pg' | 'pglite';
  engram: Engram;
  /** Waits until the engine has applied every outbox row (no-op for pgvector). */
  settle(): Promise<number>;
  /** Engine housekeeping after a bulk load (LanceDB: compaction and, past its threshold, the ANN index). */
  maintain(): Promise<void>;
  close(): Promise<void>;
}

async function settleOutbox(e: Engram): Promise<number> {
  const ob = e.deps.outbox as (typeof e.deps.outbox & { pendingCount?: () => Promise<number> }) | null;
  if (!ob || !ob.pendingCount) return 0;
  const t = performance.now();
  for (;;) {
    if ((await ob.pendingCount()) === 0) return performance.now() - t;
    // (a kick may wait to gather more commits: `gatherWrites`)
    await ob.drain().catch(() => new Promise((r) => setTimeout(r, 20)));
  }
}

/**
 * `recordStore` is where LanceDB and Qdrant keep their system of record: the
 * PostgreSQL server by default (so the engine is what differs from pgvector),
 * or a fresh PGlite directory (the smoke test, machines without a server).
 */
export async function openEngine(name: EngineName, embedder: Embedder, recordStore: 'pg' | 'pglite' = 'pg'): Promise<OpenEngine> {
  const cleanups: (() => Promise<void>)[] = [];
  let db: SqlClient;
  let store: 'pg' | 'pglite';
  const overrides: Partial<AppConfig> = { logLevel: 'silent', engine: name === 'pgvector-pglite' ? 'pgvector' : name };
  if (name === 'pgvector-pglite' || (recordStore === 'pglite' && name !== 'pgvector')) {
    const dir = await mkdtemp(join(tmpdir(), 'engram-bench-pglite-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    db = await PgliteClient.open(dir);
    overrides.dataDir = dir;
    store = 'pglite';
  } else {
    // Outbox engines keep their system of record on the server too: the engine is what differs.
    const url = benchDatabaseUrl();
    await recreateBenchDatabase(url);
    db = new PgClient(url, 4);
    overrides.databaseUrl = url;
    store = 'pg';
  }
  if (name === 'lancedb') {
    const dir = await mkdtemp(join(tmpdir(), 'engram-bench-lancedb-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    overrides.lancedbDir = dir;
  }
  if (name === 'qdrant') {
    if (!process.env.QDRANT_URL) throw new Error('qdrant needs QDRANT_URL');
    overrides.qdrantUrl = process.env.QDRANT_URL;
    overrides.qdrantApiKey = process.env.QDRANT_API_KEY;
  }
  const config = configFromEnv({}, overrides);
  const engram = await createEngram(config, { embedder, db });
  return {
    name, store, engram,
    settle: () => settleOutbox(engram),
    async maintain() {
      // PGlite's housekeeping, which the service runs every five minutes (src/store/housekeeping.ts)
      if (db instanceof PgliteClient) await tidyTables(db);
      const idx = engram.deps.index as unknown as { optimize?: () => Promise<void> };
      if (typeof idx.optimize === 'function') await idx.optimize();
    },
    async close() {
      await engram.close();
      await db.close();
      for (const c of cleanups) await c();
    },
  };
}
