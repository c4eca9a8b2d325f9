/**
 * PGlite's housekeeping (src/store/housekeeping.ts): the tables autovacuum would vacuum or
 * analyse, by its default rule, are vacuumed and analysed; the others are left alone. Run
 * against a real PGlite store (the service's client), whose statistics views count each write.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PgliteClient } from '../../src/store/pglite-client.js';
import { tablesDue, tidyTables } from '../../src/store/housekeeping.js';
import { migrate } from '../../src/store/migrations.js';
import { configFromEnv } from '../../src/config.js';
import { createEngram } from '../../src/container.js';
import { testEmbedder } from '../helpers/app.js';
import { addStatements } from '../helpers/db.js';

describe('PGlite housekeeping', () => {
  let dir: string;
  let db: PgliteClient;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'engram-housekeeping-'));
    db = await PgliteClient.open(dir);
    await db.query('create table kept (id int primary key, note text)');
    await db.query('create table quiet (id int primary key)');
    await db.query('insert into quiet select g from generate_series(1, 10) g');
    await tidyTables(db);
  });
  afterAll(async () => {
    await db?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const stat = async (table: string) => (await db.query('select pg_stat_force_next_flush()'), await db.query<{ dead: number; vacuumed: boolean; analysed: boolean; visible: number }>(
    `select n_dead_tup::int as dead, vacuum_count + autovacuum_count > 0 as vacuumed, analyze_count + autoanalyze_count > 0 as analysed,
            (select relallvisible from pg_class where relname = $1)::int as visible
     from pg_stat_user_tables where relname = $1`, [table])).rows[0]!;
  const due = async () => new Map((await tablesDue(db)).map((t) => [t.table, t]));

  it('vacuums and analyses a table once its inserts pass autovacuum\'s threshold, and only then', async () => {
    await db.query(`insert into kept select g, 'row ' || g from generate_series(1, 900) g`);
    expect((await due()).get('kept')).toEqual({ table: 'kept', vacuum: false, analyze: true });
    await db.query(`insert into kept select g, 'row ' || g from generate_series(901, 3000) g`);
    expect((await due()).get('kept')).toEqual({ table: 'kept', vacuum: true, analyze: true });
    expect((await stat('kept')).visible).toBe(0);
    const did = await tidyTables(db);
    expect(did.map((t) => t.table)).toContain('kept');
    const after = await stat('kept');
    expect(after.vacuumed && after.analysed).toBe(true);
    // the visibility map is set: an index-only scan need not read the table
    expect(after.visible).toBeGreaterThan(0);
    expect((await due()).has('kept')).toBe(false);
  });

  it('reclaims dead rows past the threshold, and leaves a table with few changes alone', async () => {
    await db.query('update kept set note = note where id <= 40');
    expect((await due()).has('kept')).toBe(false);
    await db.query('delete from kept where id <= 1000');
    expect((await stat('kept')).dead).toBeGreaterThanOrEqual(1000);
    expect((await due()).get('kept')?.vacuum).toBe(true);
    await tidyTables(db);
    expect((await stat('kept')).dead).toBe(0);
    expect((await due()).has('quiet')).toBe(false);
  });
});

describe('statistics at start', () => {
  // A store that holds memories but was never analysed (a fresh import) is analysed shortly after
  // start, not among the start's own statements (PGlite runs one at a time: docs/bench-rounds.md, "Fifteenth round").
  it('analyses a store never analysed after the start\'s statements, not among them', { timeout: 60_000 }, async () => {
    const db = await PgliteClient.open(':memory:');
    const sent: string[] = [];
    const query = db.query.bind(db);
    (db as { query: PgliteClient['query'] }).query = ((sql: string, params?: unknown[]) => { sent.push(sql); return query(sql, params); }) as PgliteClient['query'];
    await migrate(db, { dimensions: testEmbedder().dimensions });
    await db.query(`insert into spaces (id, name) values ('s1', 'imported')`);
    await addStatements(db, 's1', Array.from({ length: 50 }, (_, i) => `m${i + 1}`));
    const analysed = async () => (await query<{ n: number }>(
      `select count(*)::int as n from pg_statistic s join pg_class c on c.oid = s.starelid where c.relname = 'memory_state'`)).rows[0]!.n > 0;
    expect(await analysed()).toBe(false);
    const config = configFromEnv({ ...process.env, DATABASE_URL: '' }, { dataDir: ':memory:', logLevel: 'silent' });
    sent.length = 0;
    const engram = await createEngram(config, { db, embedder: testEmbedder(), lazyLoad: true });
    // what the start sent, read as it returns (no timer can run before this line)
    const atStart = [...sent];
    try {
      expect(atStart.length).toBeGreaterThan(0);
      expect(atStart.some((s) => /pg_statistic|^analyze/.test(s))).toBe(false);
      // then (bounded: 30 s) the check runs and analyses
      await vi.waitFor(async () => expect(await analysed()).toBe(true), { timeout: 30_000, interval: 200 });
    } finally {
      await engram.close();
      await db.close();
    }
  });
});
