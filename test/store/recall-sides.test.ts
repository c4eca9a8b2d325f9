/**
 * recall()'s two sides need nothing of each other (docs/recall.md, "Two sides at once"): the
 * vector neighbours wait only for the question's embedding, never for the BM25 postings, so on
 * a server the two run on two connections at once. Here the postings are held until the vector
 * engine is asked: if the vector search waited for them, neither would ever move and the test
 * would fail at its timeout.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { Wall } from '../../src/eval/wall.js';
import { keepSaid } from '../helpers/wall.js';
import { recall } from '../../src/memory/recall.js';
import type { MemoryDeps } from '../../src/memory/deps.js';
import { overriding, storeClient, watchedEmbedder } from '../helpers/override.js';
import { changeStatus } from '../../src/memory/statuses.js';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); }, 120_000);
afterAll(async () => { await t?.close(); });

describe('recall: vector and lexical sides side by side', () => {
  it('the vector engine is asked while the BM25 postings are still being read', async () => {
    const deps = t.app.engram.deps;
    const wall = await Wall.open(deps, 'recall-sides');
    try {
      await keepSaid(deps, wall, ['I keep bees in the back garden.', 'My sister lives in Lisbon.']);
      const order: string[] = [];
      let releasePostings!: () => void;
      const postingsHeld = new Promise<void>((r) => { releasePostings = r; });
      const store = overriding(deps.store, { lexicalSearch: async (...args: unknown[]) => {
        order.push('postings asked');
        await postingsHeld;
        order.push('postings read');
        return (deps.store.lexicalSearch as (...a: unknown[]) => Promise<unknown>)(...args);
      } });
      const index = overriding(deps.index, { search: async (...args: unknown[]) => {
        order.push('vectors asked');
        releasePostings();
        return (deps.index.search as (...a: unknown[]) => Promise<unknown>)(...args);
      } });
      const held: MemoryDeps = { ...deps, store, index };
      const r = await recall(held, wall.spaceId, 'Where does my sister live?', 5);
      expect(order).toEqual(['postings asked', 'vectors asked', 'postings read']);
      // and the two sides still meet: the answer is the one recall gives undisturbed
      const plain = await recall(deps, wall.spaceId, 'Where does my sister live?', 5);
      expect(r.statements.map((h) => h.memory.quote)).toEqual(plain.statements.map((h) => h.memory.quote));
      expect(r.statements[0]?.memory.quote).toBe('My sister lives in Lisbon.');
    } finally {
      await wall.drop();
    }
  }, 120_000);

  it('reads no status once the question is embedded: the embedded store read the rows of other statuses meanwhile', async () => {
    const deps = t.app.engram.deps;
    const wall = await Wall.open(deps, 'recall-statuses');
    try {
      const [lisbon, porto] = await keepSaid(deps, wall, ['My sister lives in Lisbon.', 'My sister lives in Porto.', 'I keep bees in the back garden.']);
      await changeStatus(deps, wall.assistant, wall.spaceId, 'mute', [lisbon!]);
      const { db, query } = storeClient(deps.store);
      /** The statements each recall ran after its question's embedding came back, and its vector search's hits. */
      const asked = async (engine: MemoryDeps['index']) => {
        const { embedder, embedded } = watchedEmbedder(deps.embedder);
        const after: string[] = [];
        const hits: string[] = [];
        const index = overriding(engine, { search: async (...args: unknown[]) => {
          const found = await (engine.search as (...a: unknown[]) => Promise<{ memoryId: string }[]>)(...args);
          hits.push(...found.map((h) => h.memoryId));
          return found;
        } });
        const spy = vi.spyOn(db, 'query').mockImplementation((sql, params) => {
          if (embedded()) after.push(sql);
          return query(sql, params);
        });
        try {
          return { r: await recall({ ...deps, embedder, index }, wall.spaceId, 'Where does my sister live?', 5), after, hits };
        } finally {
          spy.mockRestore();
        }
      };
      // The vector search's status read (adapters/pgvector/pgvector-quantised.ts); the lexical side's own may still run.
      const statusRead = (sqls: string[]) => sqls.filter((x) => /array_agg\(memory_id\) as ids, array_agg\(status\) as statuses[\s\S]*from memory_state where memory_id = any/.test(x));
      const ahead = await asked(deps.index);
      expect(statusRead(ahead.after)).toEqual([]);
      // The engine read ahead without the statuses: it reads them after the embedding, and answers the same.
      const plainIndex = overriding(deps.index, { prepare: (spaceId: string, kind: 'STATEMENT' | 'INFERENCE') => deps.index.prepare!(spaceId, kind) });
      const plain = await asked(plainIndex);
      expect(statusRead(plain.after).length).toBeGreaterThan(0);
      expect(ahead.r.statements.map((h) => h.memory.id)).toEqual(plain.r.statements.map((h) => h.memory.id));
      expect(ahead.r.statements[0]?.memory.id).toBe(porto);
      // The muted memory is left out by the vector search itself (recall would drop it later anyway).
      expect(ahead.hits).not.toContain(lisbon);
      expect(ahead.hits).toContain(porto);
      expect(ahead.hits).toEqual(plain.hits);
    } finally {
      await wall.drop();
    }
  }, 120_000);
});
