/**
 * The engines under the real use cases: recognition gives the same outcomes
 * on every engine as on pgvector (the reference), and an engine outside
 * PostgreSQL can be unavailable for writes, restarted, and drained with
 * nothing lost. Run for every engine, narrowed by ENGINES=...
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { remember } from '../../src/memory/remember.js';
import { changeStatus, forget } from '../../src/memory/statuses.js';
import { Wall } from '../../src/eval/wall.js';
import type { Pair } from '../../src/eval/pairs.js';
import type { MemoryDeps } from '../../src/memory/deps.js';
import type { MemoryStatus } from '../../src/core/types.js';
import { parseVector } from '../../src/core/vectors.js';
import { configFromEnv } from '../../src/config.js';
import { createEngram } from '../../src/container.js';
import { recall } from '../../src/memory/recall.js';
import { testEmbedder } from '../helpers/app.js';
import { contractEngines, depsFor, referenceFixture, UnreliableIndex, type EngineFixture, type OpenEngine } from './harness.js';

const PAIRS: Pair[] = readFileSync(new URL('./recognition-pairs.jsonl', import.meta.url), 'utf8')
  .split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as Pair);

interface Step { text: string; outcome: string; tier: string | null; rule: string | null; score: number | null; target: string | null }

/**
 * Every "old" sentence, then every "new" one, kept in ONE space (so each new
 * sentence has the whole space as neighbours), through the real remember path.
 * Memory ids are replaced by the sentence that created them, so runs compare.
 */
async function runScenario(deps: MemoryDeps): Promise<Step[]> {
  const wall = await Wall.open(deps, 'contract-recognition');
  const createdBy = new Map<string, string>();
  const steps: Step[] = [];
  const t0 = Date.parse('2026-01-05T10:00:00Z');
  const sentences = [...PAIRS.map((p) => p.old), ...PAIRS.map((p) => p.new)];
  for (const [i, s] of sentences.entries()) {
    const c = await wall.say(`c${i}`, 'USER', s.text, new Date(t0 + i * 60_000));
    const r = await remember(deps, wall.assistant, { conversationId: c.id, quote: s.text, type: s.type, entities: s.entities, themes: s.themes });
    if (r.outcome !== 'REINFORCED') createdBy.set(r.memory.id, s.text);
    steps.push({
      text: s.text, outcome: r.outcome,
      tier: r.outcome === 'REINFORCED' ? r.tier : null,
      rule: r.outcome === 'CORRECTED' ? r.rule : null,
      score: r.outcome === 'CREATED' || r.score === null ? null : Math.round(r.score * 1000) / 1000,
      target: r.outcome === 'REINFORCED' ? createdBy.get(r.memory.id) ?? '?' : r.outcome === 'CORRECTED' ? createdBy.get(r.superseded.id) ?? '?' : null,
    });
  }
  return steps;
}

const fixtures = contractEngines();
let reference: Promise<Step[]> | null = null;

/** pgvector on PGlite is the reference every engine is compared with (computed once per file). */
function referenceSteps(): Promise<Step[]> {
  reference ??= (async () => {
    return withEngine(referenceFixture(), async (e) => runScenario(depsFor(e.db, e.index, testEmbedder()).deps));
  })();
  return reference;
}

async function withEngine<T>(fx: EngineFixture, fn: (e: OpenEngine) => Promise<T>): Promise<T> {
  const e = await fx.open();
  try {
    return await fn(e);
  } finally {
    await e.close();
  }
}

beforeAll(async () => {
  await testEmbedder().init();
});

for (const fx of fixtures) {
  const suite = fx.skip ? describe.skip : describe;
  suite(`engine under the use cases: ${fx.label}${fx.skip ? ' (SKIPPED: server not configured)' : ''}`, () => {
    it('recognises exactly as pgvector does on the same sentences', async () => {
      const expected = await referenceSteps();
      const kinds = new Set(expected.map((s) => s.outcome));
      expect(kinds).toEqual(new Set(['CREATED', 'REINFORCED', 'CORRECTED'])); // the scenario exercises every outcome
      const got = await withEngine(fx, async (e) => {
        const { deps, outbox } = depsFor(e.db, e.index, testEmbedder());
        const steps = await runScenario(deps);
        if (outbox) {
          await outbox.drain();
          expect(await outbox.pendingCount()).toBe(0);
        }
        return steps;
      });
      expect(got.map((s) => [s.text, s.outcome, s.tier, s.rule, s.target])).toEqual(expected.map((s) => [s.text, s.outcome, s.tier, s.rule, s.target]));
      got.forEach((s, i) => {
        if (s.score === null) expect(expected[i].score).toBeNull();
        else expect(s.score).toBeCloseTo(expected[i].score!, 2);
      });
    }, 600_000);

    // An engine in PostgreSQL has no outbox: its writes are in the memory's transaction.
    const outboxIt = fx.engine === 'pgvector' ? it.skip : it;
    outboxIt('accepts writes while the engine is unavailable, restarts it, drains, and loses nothing', async () => {
      await withEngine(fx, async (e) => {
        const flaky = new UnreliableIndex(e.index);
        const { deps, outbox } = depsFor(e.db, flaky, testEmbedder());
        expect(outbox).not.toBeNull();
        const wall = await Wall.open(deps, 'contract-outage');
        let n = 0;
        const say = async (text: string) => {
          const c = await wall.say(`c${n++}`, 'USER', text);
          return remember(deps, wall.assistant, { conversationId: c.id, quote: text, type: 'FACT' });
        };
        const before = [];
        for (const t of ['I grew up in Duluth.', 'My cat is called Miso.', 'I drive a blue Honda Civic.', 'I play tennis on Tuesdays.']) before.push(await say(t));
        await outbox!.drain();
        expect(await e.count(wall.spaceId)).toBe(4);

        // The engine goes away for writes.
        flaky.writesDown = true;
        const during = [];
        for (const t of ['My wife\'s name is Priya.', 'I support Liverpool FC.', 'I have type 1 diabetes.', 'My mother lives in Lagos.']) {
          const r = await say(t);
          expect(r.outcome).toBe('CREATED'); // accepted
          during.push(r);
        }
        await expect(outbox!.drain()).rejects.toThrow(/unavailable/);
        // Read-your-writes: a restatement of a memory the engine has never seen is recognised through the outbox.
        const again = await say('Priya is my wife.');
        expect(again.outcome).toBe('REINFORCED');
        expect(again.memory.id).toBe(during[0].memory.id);
        // A status change and a forget queue up too; the muted memory is not recognised meanwhile.
        const actor = wall.operator;
        await changeStatus(deps, actor, wall.spaceId, 'mute', [before[1].memory.id, during[1].memory.id]);
        await forget(deps, actor, wall.spaceId, [before[3].memory.id], true);
        const restated = await say('My cat is called Miso.');
        expect(restated.outcome).toBe('CREATED');
        // Recall sees the pending memories as well.
        const found = await recall(deps, wall.spaceId, 'diabetes');
        expect(found.statements.map((h) => h.memory.id)).toContain(during[2].memory.id);
        expect(await outbox!.pendingCount()).toBeGreaterThan(0);
        expect(flaky.failedWrites).toBeGreaterThan(0);

        // Restart: the old adapter is closed, a new one opens the same stored data.
        await flaky.inner.close();
        flaky.swap(await e.reopen());
        flaky.writesDown = false;
        await outbox!.drain();
        expect(await outbox!.pendingCount()).toBe(0);

        // Every memory with a vector in PostgreSQL is in the engine, with its present status; the forgotten one is gone.
        const rows = (await e.db.query<{ memory_id: string; status: MemoryStatus; embedding: string }>(
          `select v.memory_id, s.status, v.embedding::text as embedding from memory_vectors v
           join memory_state s on s.memory_id = v.memory_id where v.space_id = $1`, [wall.spaceId])).rows;
        expect(rows.length).toBe(4 + 4 + 1 - 1); // restated cat is new, the forgotten tennis one is gone
        expect(await e.count(wall.spaceId)).toBe(rows.length);
        for (const r of rows) {
          const hits = await flaky.search({ spaceId: wall.spaceId, vector: parseVector(r.embedding), k: 1, statuses: [r.status], exact: true });
          expect(hits[0]?.memoryId, `memory ${r.memory_id} (${r.status})`).toBe(r.memory_id);
        }
        const muted = await flaky.search({ spaceId: wall.spaceId, vector: parseVector(rows[0].embedding), k: 10, statuses: ['MUTED'], exact: true });
        expect(new Set(muted.map((h) => h.memoryId))).toEqual(new Set([before[1].memory.id, during[1].memory.id]));
        const all = await flaky.search({ spaceId: wall.spaceId, vector: parseVector(rows[0].embedding), k: 50, statuses: ['ACTIVE', 'MUTED'], exact: true });
        expect(all.map((h) => h.memoryId)).not.toContain(before[3].memory.id);
        await outbox!.stop();
      });
    }, 300_000);

    // The configured path: ENGRAM_VECTOR_ENGINE picks the adapter, the container wires the outbox.
    const wiredIt = fx.engine === 'lancedb' ? it : it.skip;
    wiredIt('is chosen by configuration and fed through the outbox by the container', async () => {
      const config = configFromEnv({ ...process.env, DATABASE_URL: '' }, { engine: fx.engine, dataDir: ':memory:', logLevel: 'silent' });
      const engram = await createEngram(config, { embedder: testEmbedder() });
      try {
        expect(engram.deps.index.name).toBe(fx.engine);
        expect(engram.deps.outbox).not.toBeNull();
        const wall = await Wall.open(engram.deps, 'contract-wiring');
        const c = await wall.say('c', 'USER', 'I keep bees in my garden.');
        const r = await remember(engram.deps, wall.assistant, { conversationId: c.id, quote: 'I keep bees in my garden.', type: 'FACT' });
        const hits = await recall(engram.deps, wall.spaceId, 'bees');
        expect(hits.statements[0]?.memory.id).toBe(r.memory.id);
        await wall.drop();
      } finally {
        await engram.close();
      }
    }, 120_000);
  });
}
