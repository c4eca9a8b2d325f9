/**
 * The reads a request weighs before it reads (src/graphql/loaders.ts): a list's ids with the bytes
 * of each record's texts, and a correction chain's members with each quote's bytes, none past the
 * longest chain read whole; on both databases.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { testAppOn } from '../helpers/app.js';
import { testDatabases } from '../helpers/db.js';
import { SqlStore } from '../../src/store/sql-store.js';
import { lexicalText } from '../../src/memory/lexical.js';

for (const target of testDatabases()) {
  describe(`weighed reads (${target.name})`, () => {
    const app = testAppOn(target);

    async function written(spaceId: string, quote: string, context: string | null, saidAt: Date): Promise<string> {
      const store = new SqlStore(app.db);
      const id = randomUUID();
      await store.transaction(async (tx) => {
        await store.insertMemory(tx, {
          id, spaceId, kind: 'STATEMENT', type: 'FACT', quote, normalized: quote.toLowerCase(), conversationId: null, messageId: null, context,
          basis: null, saidAt, importance: null, valence: null, entities: [], themes: [], tags: [], embeddingStatus: 'OK', review: null,
          lexicalText: lexicalText([quote]), events: [],
        });
      });
      return id;
    }

    it("gives a list's page as ids and the bytes of each record's texts, in the list's order", async () => {
      const s = await app.t.space({ name: 'sizes' });
      const a = await written(s.id, 'Short one.', null, new Date(Date.UTC(2026, 0, 1)));
      const b = await written(s.id, 'With a long message.', 'With a long message. ' + 'é'.repeat(1_000), new Date(Date.UTC(2026, 0, 2)));
      await written(s.id, 'A third.', null, new Date(Date.UTC(2026, 0, 3)));
      const store = new SqlStore(app.db);
      const page = await store.listMemorySizes(s.id, { kind: 'STATEMENT' }, 'CREATED', 2, 0);
      expect(page.items.map((x) => x.id)).toEqual([a, b]);
      expect(page.hasNext).toBe(true);
      // quote and normalized, and the context in bytes (each é two)
      expect(page.items[0]!.bytes).toBe(2 * 'Short one.'.length);
      expect(page.items[1]!.bytes).toBe(2 * 'With a long message.'.length + 'With a long message. '.length + 2_000);
      const full = await store.listMemories(s.id, { kind: 'STATEMENT' }, 'CREATED', 2, 0);
      expect(full.items.map((m) => m.id)).toEqual(page.items.map((x) => x.id));
    });

    it("reads memories without their message's words, and those words alone, in order, none past the bytes allowed", async () => {
      const s = await app.t.space({ name: 'heads and texts' });
      const a = await written(s.id, 'First.', 'First. ' + 'é'.repeat(500), new Date(Date.UTC(2026, 0, 1)));
      const b = await written(s.id, 'Second.', null, new Date(Date.UTC(2026, 0, 2)));
      const c = await written(s.id, 'Third.', 'Third. ' + 'x'.repeat(500), new Date(Date.UTC(2026, 0, 3)));
      const store = new SqlStore(app.db);
      const [whole] = await store.getMemories([a]);
      const heads = await store.getMemoryHeads([c, 'no-such-memory', a], s.id);
      expect(heads[1]).toBeNull();
      // the same record without context and basis (absent, not null: a field asking reads them)
      const { context, basis, ...head } = whole!;
      expect(context).toMatch(/^First\. é/);
      expect(basis).toBeNull();
      expect(heads[2]).toEqual(head);
      expect(Object.keys(heads[0]!)).not.toContain('context');
      // 'First. ' + 500 é is 1,007 bytes; the texts of a and b fit in 1,007, c's (507 more) does not
      const cBytes = 'Third. '.length + 500;
      expect(await store.memoryTexts([a, 'no-such-memory', b, c], 1_007)).toEqual([
        { context, basis: null }, null, { context: null, basis: null }, undefined,
      ]);
      expect(await store.memoryTexts([c, a], 1_007 + cBytes)).toEqual([{ context: 'Third. ' + 'x'.repeat(500), basis: null }, { context, basis: null }]);
      expect(await store.memoryTexts([a], 0)).toEqual([undefined]);
      expect(await store.memoryTexts([], 10)).toEqual([]);
    });

    it("gives a chain's members oldest first with their quotes' bytes, and null for a chain longer than asked", async () => {
      const s = await app.t.space({ name: 'members' });
      const ids: string[] = [];
      for (let i = 0; i < 4; i++) ids.push(await written(s.id, `Version ${i} of the fact.`, null, new Date(Date.UTC(2026, 0, 1 + i))));
      const store = new SqlStore(app.db);
      for (let i = 0; i + 1 < ids.length; i++) await store.setStatus(undefined, s.id, [ids[i]!], 'SUPERSEDED', { supersededBy: ids[i + 1]! });
      const [whole, none] = await store.chainMembers([ids[3]!, 'no-such-memory'], 4);
      expect(whole).toEqual(ids.map((id, i) => ({ id, chars: `Version ${i} of the fact.`.length })));
      expect(none).toEqual([]);
      expect(await store.chainMembers([ids[0]!, ids[2]!], 3)).toEqual([null, null]);
    });
  });
}
