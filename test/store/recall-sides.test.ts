/**
 * recall()'s two sides need nothing of each other (docs/recall.md, "Two sides at once"): the
 * vector neighbours wait only for the question's embedding, never for the BM25 postings, so on
 * a server the two run on two connections at once. Here the postings are held until the vector
 * engine is asked: if the vector search waited for them, neither would ever move and the test
 * would fail at its timeout.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { Wall } from '../../src/eval/wall.js';
import { keepSaid } from '../helpers/wall.js';
import { recall } from '../../src/memory/recall.js';
import type { MemoryDeps } from '../../src/memory/deps.js';
import { overriding } from '../helpers/override.js';

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
});
