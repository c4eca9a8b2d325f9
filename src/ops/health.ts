import { useReadinessCheck, type Plugin } from 'graphql-yoga';
import type { Engram } from '../container.js';
import { MIGRATIONS } from '../store/migrations.js';
import { MeteredEmbedder } from './metrics.js';

export type CheckState = 'ok' | 'fail' | 'fallback';
export interface Readiness {
  ready: boolean;
  checks: { store: CheckState; migrations: CheckState; embedder: CheckState; engine: CheckState; accepting: CheckState };
  detail: Record<string, string>;
}

/** A check that does not answer in time counts as failed (an unreachable server may take long to refuse). */
const CHECK_TIMEOUT_MS = 2_000;

function within<T>(p: Promise<T>, ms = CHECK_TIMEOUT_MS): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    p.finally(() => clearTimeout(timer)),
    new Promise<T>((_, reject) => { timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms); }),
  ]);
}

const short = (e: unknown) => String((e as Error)?.message ?? e).slice(0, 200);

/**
 * Whether this instance can serve (docs/operations.md): the store answers, every migration
 * this build knows is applied, the embedder is loaded, and the vector engine answers — or,
 * for an engine fed through the outbox (LanceDB, Qdrant), its fallback (exact search in
 * PostgreSQL) is active. Not ready while shutting down.
 */
export async function readiness(engram: Engram, accepting: () => boolean): Promise<Readiness> {
  const { db, deps } = engram;
  const detail: Record<string, string> = {};
  const checks: Readiness['checks'] = { store: 'ok', migrations: 'ok', embedder: 'ok', engine: 'ok', accepting: accepting() ? 'ok' : 'fail' };
  try {
    const applied = new Set((await within(db.query<{ version: number }>('select version from schema_migrations'))).rows.map((r) => Number(r.version)));
    const missing = MIGRATIONS.filter((m) => !applied.has(m.version)).map((m) => m.version);
    if (missing.length) {
      checks.migrations = 'fail';
      detail.migrations = `not applied: ${missing.join(', ')}`;
    }
  } catch (e) {
    checks.store = 'fail';
    checks.migrations = 'fail';
    detail.store = short(e);
  }
  const embedder = deps.embedder;
  if (embedder instanceof MeteredEmbedder && !embedder.loaded) {
    // A model that loads on first use (the server) is no reason to turn traffic away.
    if (embedder.lazy) detail.embedder = 'not loaded yet: loads on first use';
    else {
      checks.embedder = 'fail';
      detail.embedder = 'not loaded';
    }
  }
  try {
    await within(deps.index.search({ vector: unitVector(embedder.dimensions), spaceId: 'readyz-probe', k: 1 }));
  } catch (e) {
    // An outbox engine's searches fall back to exact scans of PostgreSQL while it is away.
    checks.engine = deps.outbox && checks.store === 'ok' ? 'fallback' : 'fail';
    detail.engine = short(e);
  }
  const ready = Object.values(checks).every((c) => c !== 'fail');
  return { ready, checks, detail };
}

/**
 * `/healthz` (process up: Yoga's health check) is configured on createYoga; this adds
 * `/readyz`: 200 with the checks as JSON when ready, 503 with the failing ones otherwise.
 */
export function readinessPlugin(engram: Engram, accepting: () => boolean, endpoint = '/readyz'): Plugin {
  return useReadinessCheck({
    endpoint,
    check: async ({ fetchAPI }) => {
      const r = await readiness(engram, accepting);
      return new fetchAPI.Response(JSON.stringify(r), {
        status: r.ready ? 200 : 503, headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
      });
    },
  });
}

function unitVector(n: number): Float32Array {
  const v = new Float32Array(n);
  v[0] = 1;
  return v;
}
