/**
 * Dates read back as they were given (docs/limits.md): every year the service accepts
 * (0001-9999) is stored and returned unchanged, on PGlite (whose own parser misread years under
 * 100: 0001-06-15 came back as 2015-01-06) and on the PostgreSQL server; a date-time whose
 * calendar fields do not exist (2026-02-30) is refused, naming the field, instead of rolled
 * forward to another day. Runs on PGlite and on the server when DATABASE_URL is set.
 */
import { describe, expect, it } from 'vitest';
import { testAppOn } from '../helpers/app.js';
import { testDatabases } from '../helpers/db.js';
import { actors, ERROR_FIELDS, MEMORY_FIELDS } from '../helpers/memory.js';

const RECORD = `mutation($c: ID!, $t: String!, $at: DateTime) {
  recordMessage(conversationId: $c, role: USER, text: $t, at: $at) { __typename ... on Message { id at } ${ERROR_FIELDS} } }`;

for (const target of testDatabases()) {
  describe(`dates (${target.name})`, () => {
    const h = testAppOn(target);

    it('stores and returns every accepted year unchanged, in messages and in memories', async () => {
      const { t } = h;
      const s = await t.space({ name: 'years' });
      const a = actors(t.gql, s);
      const c = await a.open();
      const dates = ['0001-06-15T00:00:00.000Z', '0012-03-04T05:06:07.123Z', '0050-06-15T00:00:00.000Z', '0099-12-31T23:59:59.999Z',
        '0100-01-01T00:00:00.000Z', '1582-10-10T12:00:00.000Z', '2024-02-29T00:00:00.000Z'];
      for (const at of dates) {
        const r = await t.gql(s.chat, RECORD, { c, t: `Written on ${at}.`, at });
        expect(r.data.recordMessage, at).toMatchObject({ __typename: 'Message', at });
      }
      const read = await t.gql(s.operator, `query($c: ID!) { conversation(id: $c) { ... on Conversation { messages { at text } } } }`, { c });
      const messages = read.data.conversation.messages as { at: string; text: string }[];
      expect(messages.map((m) => m.at).sort()).toEqual([...dates].sort());
      for (const m of messages) expect(m.text).toBe(`Written on ${m.at}.`);
      // A memory's saidAt comes from its message's time (read through another statement).
      const quote = 'Written on 0012-03-04T05:06:07.123Z.';
      const kept = await a.remember({ conversationId: c, quote });
      expect(kept.__typename, JSON.stringify(kept)).toBe('RememberOutcome');
      const memory = await t.gql(s.operator, `query($id: ID!) { memory(id: $id) { ... on Memory { ${MEMORY_FIELDS} } } }`, { id: kept.memory.id });
      expect(memory.data.memory.saidAt).toBe('0012-03-04T05:06:07.123Z');
      // The last year accepted, where a date may lie ahead: an appointment's time (a message is never
      // typed in the future: refused on at, more than a day after the server's clock)
      const last = '9999-12-31T23:59:59.999Z';
      expect((await t.gql(s.chat, RECORD, { c, t: 'Written at the end of time.', at: last })).data.recordMessage).toMatchObject({ __typename: 'InvalidInput', field: 'at' });
      await a.say(c, 'My appointment is at the end of time.');
      const appointment = await a.remember({ conversationId: c, quote: 'My appointment is at the end of time.', type: 'APPOINTMENT', startsAt: last });
      expect(appointment.__typename, JSON.stringify(appointment)).toBe('RememberOutcome');
      const kept2 = await t.gql(s.operator, `query($id: ID!) { memory(id: $id) { ... on Memory { startsAt } } }`, { id: appointment.memory.id });
      expect(kept2.data.memory.startsAt).toBe(last);
    });

    it('refuses a date-time that is not on the calendar, naming the field, and stores nothing', async () => {
      const { t } = h;
      const s = await t.space({ name: 'calendar' });
      const a = actors(t.gql, s);
      const c = await a.open();
      const cases: [string, string][] = [
        ['2026-02-30T00:00:00Z', 'day'], ['2026-02-29T00:00:00Z', 'day'], ['1900-02-29T00:00:00Z', 'day'],
        ['2026-04-31T00:00:00Z', 'day'], ['2026-13-01T00:00:00Z', 'month'], ['2026-00-10T00:00:00Z', 'month'],
        ['2026-01-01T24:00:00Z', 'hour'], ['2026-01-01T10:60:00Z', 'minute'], ['2026-01-01T10:00:61Z', 'second'],
      ];
      for (const [at, field] of cases) {
        const r = await t.gql(s.chat, RECORD, { c, t: 'Hello.', at });
        expect(r.data, at).toBeFalsy();
        expect(r.errors?.[0]?.extensions, at).toMatchObject({ code: 'INVALID_INPUT', dateField: field });
        expect(r.errors?.[0]?.message, at).toMatch(new RegExp(`\\$at.*${field}`));
        expect(r.errors?.[0]?.message, at).not.toMatch(/Unexpected error/);
      }
      // The same in a literal: the argument is named by GraphQL, the field by the scalar.
      const literal = await t.gql(s.chat, `mutation($c: ID!) { recordMessage(conversationId: $c, role: USER, text: "Hi.", at: "2026-02-30T00:00:00Z") { __typename } }`, { c });
      expect(literal.errors?.[0]?.extensions).toMatchObject({ code: 'INVALID_INPUT', dateField: 'day' });
      const read = await t.gql(s.operator, `query($c: ID!) { conversation(id: $c) { ... on Conversation { messages { at } } } }`, { c });
      expect(read.data.conversation.messages).toEqual([]);
    });
  });
}
