/**
 * Forgetting a correction (docs/erasure.md, "A correction forgotten"), on both stores: what it
 * replaced is not made current again; its chain goes on to the next version that stays, or ends
 * with no current version, said so in its explanation; recall does not bring the old value back.
 */
import { describe, expect, it } from 'vitest';
import { testAppOn } from '../helpers/app.js';
import { testDatabases } from '../helpers/db.js';
import { actors } from '../helpers/memory.js';

const FORGET = `mutation($ids: [ID!]!) { forgetMemories(ids: $ids, confirm: true) { ... on BulkResult { changed } } }`;
const MARK = `mutation($m: ID!, $by: ID) { markErroneous(memoryId: $m, correctedBy: $by) { __typename } }`;

for (const target of testDatabases()) {
  describe(`forgetting a correction (${target.name})`, () => {
    const app = testAppOn(target);

    it('the last correction forgotten: the old value stays replaced, with no current version', async () => {
      const s = await app.t.space({ name: 'forget the correction' });
      const a = actors(app.t.gql, s);
      const lisbon = await a.state('I live in Lisbon.', {}, '2026-05-01T10:00:00Z');
      const porto = await a.state('Actually, I moved to Porto.', {}, '2026-05-02T10:00:00Z');
      expect(porto).toMatchObject({ outcome: 'CORRECTED', superseded: { id: lisbon.memory.id } });
      const wrong = await a.state('My favourite colour is teal.');
      const right = await a.state('I play the oboe.');
      expect((await app.t.gql(s.operator, MARK, { m: wrong.memory.id, by: right.memory.id })).data.markErroneous.__typename).toBe('Memory');

      expect((await app.t.gql(s.operator, FORGET, { ids: [porto.memory.id, right.memory.id] })).data.forgetMemories.changed).toBe(2);

      const old = await a.memory(lisbon.memory.id);
      expect(old).toMatchObject({ status: 'SUPERSEDED', current: false, supersededBy: null, currentVersion: null });
      expect(old.correctionChain.map((m: any) => m.id)).toEqual([lisbon.memory.id]);
      expect(old.explanation).toContain('forgotten for good');
      const w = await a.memory(wrong.memory.id);
      expect(w).toMatchObject({ status: 'ERRONEOUS', correctedBy: null, currentVersion: null });
      expect(w.explanation).toContain('Nothing current replaces it');
      // not resurrected: not in the active view, not recalled
      expect((await a.list({ first: 50 })).nodes).toEqual([]);
      const c = await a.open();
      expect((await a.recall(c, 'Where do I live?')).statements.map((h: any) => h.memory.id)).not.toContain(lisbon.memory.id);
    });

    it('a correction in the middle forgotten: the chain goes on to the version that stays', async () => {
      const s = await app.t.space({ name: 'forget the middle' });
      const a = actors(app.t.gql, s);
      const one = await a.state('I live in Lisbon.', {}, '2026-05-01T10:00:00Z');
      const two = await a.state('Actually, I moved to Porto.', {}, '2026-05-02T10:00:00Z');
      const three = await a.state('Actually, I moved to Braga.', {}, '2026-05-03T10:00:00Z');
      expect(two.superseded.id).toBe(one.memory.id);
      expect(three.superseded.id).toBe(two.memory.id);

      expect((await app.t.gql(s.operator, FORGET, { ids: [two.memory.id] })).data.forgetMemories.changed).toBe(1);

      const first = await a.memory(one.memory.id);
      expect(first).toMatchObject({ status: 'SUPERSEDED', supersededBy: { id: three.memory.id }, currentVersion: { id: three.memory.id } });
      expect(first.correctionChain.map((m: any) => m.id)).toEqual([one.memory.id, three.memory.id]);
      expect((await a.memory(three.memory.id)).supersedes.map((m: any) => m.id)).toEqual([one.memory.id]);
    });
  });
}
