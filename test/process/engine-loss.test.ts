/**
 * Issue 13, engines that notice loss: the LanceDB directory is deleted while the server
 * runs; at the next start the missing engine is detected (epoch marker), rebuilt from
 * PostgreSQL in the background (counted in /metrics), recall finds every active memory
 * and a restatement reinforces instead of duplicating.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../helpers/app.js';
import { actors } from '../helpers/memory.js';
import { checkEngine } from '../../src/engine-epoch.js';

const root = mkdtempSync(join(tmpdir(), 'engram-h13-loss-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const FACTS = [
  'My brother Owen lives in Bristol.',
  'I am allergic to peanuts.',
  'My cat is called Miso.',
  'I drive a blue Honda Civic.',
  'I play tennis on Tuesdays.',
  'My mother grew up in Lagos.',
  'I work as a nurse at the Royal Infirmary.',
  'My daughter Ada starts school in September.',
];

describe('a lost LanceDB directory', () => {
  it('is noticed at start and rebuilt from PostgreSQL; recall finds every memory; a restatement reinforces', { timeout: 600_000 }, async () => {
    const dataDir = join(root, 'data');
    let t = await createTestApp({ dataDir, engine: 'lancedb' });
    const s = await t.space({ name: 'loss' });
    let a = actors(t.gql, s);
    const ids: string[] = [];
    for (const f of FACTS) {
      const r = await a.state(f);
      expect(r.outcome).toBe('CREATED');
      ids.push(r.memory.id);
    }
    await t.app.engram.deps.outbox!.drain();
    expect(await checkEngine(t.app.engram.db, t.app.engram.deps.index)).toEqual({ ok: true });

    // The directory goes while the server runs.
    rmSync(join(dataDir, 'lancedb'), { recursive: true, force: true });
    await t.close().catch(() => {});

    t = await createTestApp({ dataDir, engine: 'lancedb' });
    a = actors(t.gql, s);
    // Recall answers from PostgreSQL while the rebuild runs, then from the rebuilt engine.
    const c = await a.open();
    const during = await a.recall(c, 'Where does my brother live?');
    expect(JSON.stringify(during)).toContain('Owen lives in Bristol');
    expect(t.app.engram.rebuild).toBeTruthy();
    await t.app.engram.rebuild;
    expect(existsSync(join(dataDir, 'lancedb'))).toBe(true);
    expect(await (t.app.engram.deps.index.count!)()).toBe(FACTS.length);
    expect(await checkEngine(t.app.engram.db, t.app.engram.deps.index)).toEqual({ ok: true });
    const metric = await t.app.metrics.registry.getSingleMetricAsString('engram_engine_rebuilds_total');
    expect(metric).toMatch(/engram_engine_rebuilds_total\{engine="lancedb",reason="missing"\} 1/);

    for (const [i, f] of FACTS.entries()) {
      const r = await a.recall(c, f, 3);
      expect(JSON.stringify(r), f).toContain(ids[i]);
    }
    const again = await a.state('My cat is called Miso!');
    expect(again.outcome).toBe('REINFORCED');
    expect(again.memory.id).toBe(ids[2]);
    const n = await t.app.engram.db.query<{ n: number }>(`select count(*)::int as n from memories where space_id = $1`, [s.id]);
    expect(Number(n.rows[0].n)).toBe(FACTS.length);
    await t.close();
  });

  it('an engine that agrees with the store is not rebuilt at the next start', { timeout: 600_000 }, async () => {
    const dataDir = join(root, 'data');
    const t = await createTestApp({ dataDir, engine: 'lancedb' });
    expect(t.app.engram.rebuild).toBeNull();
    await t.close();
  });
});
