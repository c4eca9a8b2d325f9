/**
 * Explicit corrections keep one memory per fact and a chain that always ends in a current
 * version (docs/corrections.md, "Explicit corrections"), on both stores: `correct` never makes
 * a second copy of a wording an active memory holds, never corrects a memory with its own
 * wording; `markErroneous` names only a current memory as the corrector.
 */
import { describe, expect, it } from 'vitest';
import { testAppOn } from '../helpers/app.js';
import { testDatabases } from '../helpers/db.js';
import { actors, contentCounts, ERROR_FIELDS, MEMORY_FIELDS, QUOTE_FIELDS } from '../helpers/memory.js';

const CORRECT = `mutation($m: ID!, $c: ID!, $q: String!) { correct(memoryId: $m, conversationId: $c, quote: $q) {
  __typename ... on Correction { memory { ${MEMORY_FIELDS} } superseded { id status } } ${ERROR_FIELDS} ${QUOTE_FIELDS} } }`;
const MARK = `mutation($m: ID!, $by: ID) { markErroneous(memoryId: $m, correctedBy: $by) {
  __typename ... on Memory { id status correctedBy { id } } ${ERROR_FIELDS} } }`;

for (const target of testDatabases()) {
  describe(`explicit corrections (${target.name})`, () => {
    const app = testAppOn(target);

    async function threeFacts(name: string) {
      const s = await app.t.space({ name });
      const a = actors(app.t.gql, s);
      const c = await a.open();
      await a.say(c, 'My nephew is called Tobias. I grow tomatoes on my balcony. I play the oboe.');
      const m1 = (await a.remember({ conversationId: c, quote: 'My nephew is called Tobias.', themes: ['family'], entities: ['Tobias'], tags: ['kin'] })).memory;
      const m2 = (await a.remember({ conversationId: c, quote: 'I grow tomatoes on my balcony.', themes: ['garden'] })).memory;
      const m3 = (await a.remember({ conversationId: c, quote: 'I play the oboe.' })).memory;
      return { s, a, c, m1, m2, m3 };
    }
    const events = async (s: { operator: string }) =>
      (await app.t.gql(s.operator, `query { spaceEvents(first: 1000) { ... on SpaceEventsSuccess { data { id } } } }`)).data.spaceEvents.data.length;

    it('a memory corrected with its own wording: refused, naming the field, nothing changed', async () => {
      const { s, a, c, m2 } = await threeFacts('own wording');
      const before = [await contentCounts(app.t.app.engram.db, s.id), await events(s)];
      const r = (await app.t.gql(s.assistant, CORRECT, { m: m2.id, c, q: 'I grow tomatoes on my balcony.' })).data.correct;
      expect(r).toMatchObject({ __typename: 'InvalidInput', field: 'quote' });
      expect([await contentCounts(app.t.app.engram.db, s.id), await events(s)]).toEqual(before);
      expect((await a.memory(m2.id)).status).toBe('ACTIVE');
    });

    it('a correction with the wording another active memory holds: that memory supersedes, no second copy', async () => {
      const { s, a, c, m1, m2 } = await threeFacts('existing wording');
      const before = await contentCounts(app.t.app.engram.db, s.id);
      const r = (await app.t.gql(s.assistant, CORRECT, { m: m1.id, c, q: 'I grow tomatoes on my balcony.' })).data.correct;
      expect(r).toMatchObject({ __typename: 'Correction', memory: { id: m2.id, status: 'ACTIVE', mentionCount: 2 }, superseded: { id: m1.id, status: 'SUPERSEDED' } });
      // no new memory; one more mention (on m2)
      expect(await contentCounts(app.t.app.engram.db, s.id)).toMatchObject({ memories: before.memories, mentions: before.mentions + 1 });
      const active = (await a.list({ first: 50 })).nodes.filter((m: any) => m.quote === 'I grow tomatoes on my balcony.');
      expect(active.map((m: any) => m.id)).toEqual([m2.id]);
      // linked both ways, and m2 keeps its own topic (m1's are not copied onto it)
      const old = await a.memory(m1.id);
      expect(old).toMatchObject({ status: 'SUPERSEDED', supersededBy: { id: m2.id }, currentVersion: { id: m2.id } });
      const holder = await a.memory(m2.id);
      expect(holder.supersedes.map((m: any) => m.id)).toEqual([m1.id]);
      expect(holder).toMatchObject({ themes: ['garden'], entities: [], tags: [] });
      expect(holder.events.map((e: any) => e.kind)).toEqual(['CREATED', 'REINFORCED', 'CORRECTED']);
    });

    it('a new correction keeps the old memory\'s themes and tags, not its entities', async () => {
      const { s, c, a, m1 } = await threeFacts('topic kept');
      await a.say(c, 'Sorry, my nephew is called Tobin.');
      const r = (await app.t.gql(s.assistant, CORRECT, { m: m1.id, c, q: 'Sorry, my nephew is called Tobin.' })).data.correct;
      expect(r).toMatchObject({ __typename: 'Correction', superseded: { id: m1.id, status: 'SUPERSEDED' } });
      expect(r.memory).toMatchObject({ quote: 'Sorry, my nephew is called Tobin.', themes: ['family'], tags: ['kin'], entities: [] });
    });

    it('markErroneous refuses a corrector that is not current: no cycle, nothing changed', async () => {
      const { s, a, m1, m2, m3 } = await threeFacts('no cycle');
      const ok = (await app.t.gql(s.operator, MARK, { m: m2.id, by: m3.id })).data.markErroneous;
      expect(ok).toMatchObject({ __typename: 'Memory', status: 'ERRONEOUS', correctedBy: { id: m3.id } });
      const before = await events(s);
      // m2 is ERRONEOUS now: it cannot correct m3 (a cycle), nor m1
      for (const m of [m3.id, m1.id]) {
        const r = (await app.t.gql(s.operator, MARK, { m, by: m2.id })).data.markErroneous;
        expect(r).toMatchObject({ __typename: 'InvalidInput', field: 'correctedBy' });
        expect(r.message).toContain('ERRONEOUS');
        expect((await a.memory(m)).status).toBe('ACTIVE');
      }
      // a muted corrector is not current either
      await a.status('mute', m1.id);
      const muted = (await app.t.gql(s.operator, MARK, { m: m3.id, by: m1.id })).data.markErroneous;
      expect(muted).toMatchObject({ __typename: 'InvalidInput', field: 'correctedBy' });
      expect(await events(s)).toBe(before + 1); // the mute's event only
      expect(await a.memory(m3.id)).toMatchObject({ status: 'ACTIVE', currentVersion: { id: m3.id } });
      expect(await a.memory(m2.id)).toMatchObject({ status: 'ERRONEOUS', currentVersion: { id: m3.id } });
    });
  });
}
