/**
 * Remember asks the vector engine to read ahead while its quote is embedded, with the statuses its
 * recognition search will want (ACTIVE): the embedded store then reads the rows of other statuses
 * in the embedding's shadow, and the search after it reads none (test/store/pgvector-mirror-statuses.test.ts,
 * "recognition's search read ahead"). With a client's vector nothing is waited for: the engine
 * reads ahead only the copy, and the statuses are read, if at all, with the search. The statements
 * kept from the quote's own message (a next-sentence correction's candidates) need no vector and are
 * read in the embedding's shadow as well.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { Wall } from '../../src/eval/wall.js';
import { remember } from '../../src/memory/remember.js';
import { overriding, watchedEmbedder } from '../helpers/override.js';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); }, 120_000);
afterAll(async () => { await t?.close(); });

describe('remember: the vector engine read ahead in the quote\'s shadow', () => {
  it('asks for ACTIVE statements ahead when it embeds the quote, for nothing more with a client\'s vector; for exact distances either way', async () => {
    const deps = t.app.engram.deps;
    const wall = await Wall.open(deps, 'remember-read-ahead');
    try {
      const asked: unknown[][] = [];
      const index = overriding(deps.index, { prepare: async (...args: unknown[]) => {
        asked.push(args);
        return (deps.index.prepare as (...a: unknown[]) => Promise<void>)(...args);
      } });
      const said = async (text: string, vector?: number[]) => {
        const conv = await wall.say(`c-${text}`, 'USER', text);
        return remember({ ...deps, index }, wall.assistant, { conversationId: conv.id, quote: text, type: 'FACT', vector });
      };
      await said('My sister lives in Lisbon.');
      expect(asked).toEqual([[wall.spaceId, 'STATEMENT', ['ACTIVE'], true]]);
      asked.length = 0;
      const [v] = await deps.embedder.embed(['I keep bees in the back garden.']);
      const kept = await said('I keep bees in the back garden.', Array.from(v!));
      expect(kept.outcome).toBe('CREATED');
      expect(asked).toEqual([[wall.spaceId, 'STATEMENT', undefined, true]]);
    } finally {
      await wall.drop();
    }
  }, 120_000);

  it('reads the statements of the quote\'s own message while the quote is embedded: a next-sentence correction still corrects', async () => {
    const deps = t.app.engram.deps;
    const wall = await Wall.open(deps, 'remember-same-message');
    try {
      const text = 'My anniversary is June 3. Actually, scratch that, it is June 13.';
      const conv = await wall.say('c-anniversary', 'USER', text);
      const first = await remember(deps, wall.assistant, { conversationId: conv.id, quote: 'My anniversary is June 3.', type: 'FACT' });
      // The embedding is held back until the same message's statements are asked for: a read made
      // in its shadow comes first whatever the machine's load. A read made only after the embedding
      // (as before) would never come, so the hold ends after 10 s and the read is then seen after it.
      let asked!: () => void;
      const askedFor = new Promise<void>((r) => { asked = r; });
      let bound: NodeJS.Timeout | undefined;
      const held = overriding(deps.embedder, { embed: async (texts: string[]) => {
        const v = await deps.embedder.embed(texts);
        await Promise.race([askedFor, new Promise((r) => { bound = setTimeout(r, 10_000); })]);
        clearTimeout(bound);
        return v;
      } });
      const { embedder, embedded } = watchedEmbedder(held);
      const reads: boolean[] = [];
      const store = overriding(deps.store, { activeOfMessage: (...args: unknown[]) => {
        reads.push(embedded());
        asked();
        return (deps.store.activeOfMessage as (...a: unknown[]) => Promise<unknown>)(...args);
      } });
      const second = await remember({ ...deps, store, embedder }, wall.assistant, { conversationId: conv.id, quote: 'Actually, scratch that, it is June 13.', type: 'FACT' });
      expect(second).toMatchObject({ outcome: 'CORRECTED', superseded: { id: first.memory.id }, rule: 'next-sentence' });
      // The same message's statements were read once, while the quote was being embedded.
      expect(reads).toEqual([false]);
    } finally {
      await wall.drop();
    }
  }, 120_000);
});
