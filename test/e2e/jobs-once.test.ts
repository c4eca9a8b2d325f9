/**
 * Background work once across instances (src/ops/jobs.ts): two instances on one PostgreSQL
 * database with the LanceDB engine (one shared directory), the outbox loop at 100 ms and a
 * consolidation every second, for a few seconds of writes through both.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { say, until } from '../helpers/live.js';
import { PgClient } from '../../src/store/pg-client.js';
import { assertTestDatabase } from '../helpers/db.js';

const RUN_SECONDS = 8;

async function counter(t: TestApp, job: string, result: string): Promise<number> {
  const m = await t.app.metrics.registry.getSingleMetric('engram_job_runs_total')!.get();
  return m.values.filter((v) => v.labels.job === job && v.labels.result === result).reduce((s, v) => s + v.value, 0);
}

describe.skipIf(!process.env.DATABASE_URL)('two instances: every background job once', () => {
  const dbs: PgClient[] = [];
  const apps: TestApp[] = [];
  let dir: string;
  const upserted = new Map<string, number>();
  // A database of its own: on the suite's shared one, every space other tests left behind is
  // consolidated each second and rebuilt into the fresh LanceDB directory at start, so the
  // due times and the drain would measure the other suites' leftovers, not the jobs.
  const base = new URL(process.env.DATABASE_URL ?? 'postgres://x@localhost/none_test');
  const ownName = `${base.pathname.slice(1)}_jobs_${process.pid}`;
  const ownUrl = Object.assign(new URL(base.href), { pathname: `/${ownName}` }).href;
  let admin: PgClient;

  beforeAll(async () => {
    assertTestDatabase(process.env.DATABASE_URL!);
    admin = new PgClient(process.env.DATABASE_URL!, 1);
    await admin.query(`drop database if exists ${ownName} with (force)`);
    await admin.query(`create database ${ownName}`);
    dir = mkdtempSync(join(tmpdir(), 'engram-jobs-'));
    for (let i = 0; i < 2; i++) {
      const db = new PgClient(ownUrl, 4);
      dbs.push(db);
      const t = await createTestApp({
        db, engine: 'lancedb',
        env: { DATABASE_URL: ownUrl, ENGRAM_LANCEDB_DIR: dir, ENGRAM_CONSOLIDATE_EVERY: '1', ENGRAM_OUTBOX_INTERVAL_MS: '100' },
      });
      // Count what each instance hands to the engine.
      const index = t.app.engram.deps.index as unknown as { upsert(items: { memoryId: string }[]): Promise<void> };
      const upsert = index.upsert.bind(index);
      index.upsert = async (items) => {
        for (const it of items) upserted.set(it.memoryId, (upserted.get(it.memoryId) ?? 0) + 1);
        return upsert(items);
      };
      apps.push(t);
    }
  });
  afterAll(async () => {
    for (const t of apps) await t.close();
    for (const d of dbs) await d.close();
    rmSync(dir, { recursive: true, force: true });
    await admin.query(`drop database if exists ${ownName} with (force)`).catch(() => {});
    await admin.close();
  });

  it('runs each consolidation due time on one instance, and drains each outbox row on one', async () => {
    const [a, b] = apps;
    const urls = [(await a.app.start()).url, (await b.app.start()).url];
    const sp = await a.space({ name: 'jobs' });
    const facts = ['I have two sisters.', 'My car is green.', 'I teach chemistry.', 'I was married in June.', 'My dog is called Rex.',
      'I collect old maps.', 'I swim every Tuesday.', 'My flat is on the fourth floor.', 'I am allergic to peanuts.', 'I play the drums.'];
    const ids: string[] = [];
    const end = Date.now() + RUN_SECONDS * 1000;
    for (let i = 0; i < facts.length; i++) ids.push((await say(urls[i % 2], sp, facts[i])).id);
    while (Date.now() < end) await new Promise((r) => setTimeout(r, 200));
    await until(async () => (await dbs[0].query<{ n: number }>(`select count(*)::int as n from vector_outbox where engine = 'lancedb'`)).rows[0].n === 0,
      30_000, 'the outbox to drain');

    // Outbox: each memory went to the engine once, by whichever instance held the drain.
    for (const id of ids) expect(upserted.get(id), id).toBe(1);
    const skippedDrains = (await counter(a, 'outbox:lancedb', 'skipped')) + (await counter(b, 'outbox:lancedb', 'skipped'));

    // Schedules stopped (a run in progress finishes first): every claimed due time is counted.
    await a.app.engram.jobs!.stop();
    await b.app.engram.jobs!.stop();
    // Consolidation: as many runs (both instances' metrics together) as due times claimed, none twice.
    const instances = apps.map((t) => t.app.engram.jobs!.instance);
    const rows = (await dbs[0].query<{ due_at: Date; instance: string }>(
      `select due_at, instance from job_runs where job = 'consolidate' and instance = any($1::text[]) order by due_at`, [instances])).rows;
    const ran = (await counter(a, 'consolidate', 'ran')) + (await counter(b, 'consolidate', 'ran'))
      + (await counter(a, 'consolidate', 'failed')) + (await counter(b, 'consolidate', 'failed'));
    const skipped = (await counter(a, 'consolidate', 'skipped')) + (await counter(b, 'consolidate', 'skipped'));
    const dues = rows.map((r) => new Date(r.due_at).getTime());
    console.log(JSON.stringify({
      seconds: RUN_SECONDS, dueTimes: rows.length, ran, skipped, skippedDrains,
      byInstance: Object.fromEntries([...new Set(rows.map((r) => r.instance))].map((i) => [i, rows.filter((r) => r.instance === i).length])),
    }));
    expect(rows.length).toBeGreaterThanOrEqual(RUN_SECONDS - 3);
    expect(new Set(dues).size).toBe(dues.length);
    for (const d of dues) expect(d % 1000).toBe(0);
    // Both instances ticked and tried to claim due times (which one wins a second is a race: at
    // rest one instance can win them all, as a run at 07:20 showed); each due time ran on one
    // of them only (one job_runs row per due time, one run per row).
    for (const t of apps) {
      const tries = (await counter(t, 'consolidate', 'ran')) + (await counter(t, 'consolidate', 'failed')) + (await counter(t, 'consolidate', 'skipped'));
      expect(tries, `instance ${t.app.engram.jobs!.instance} never tried a due time`).toBeGreaterThan(0);
    }
    expect(ran).toBe(rows.length);
  });
});
