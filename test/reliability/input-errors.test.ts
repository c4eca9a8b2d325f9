/**
 * Every input error is typed (issue 12): values the client controls that used to reach the
 * database and come back as "Unexpected error." answer InvalidInput naming the field, write
 * nothing (NUL and lone UTF-16 surrogates alike), and a quote longer than a btree entry (~8,000 characters) is stored.
 * Runs on PGlite and on the PostgreSQL server when DATABASE_URL is set.
 */
import { describe, expect, it } from 'vitest';
import { testAppOn } from '../helpers/app.js';
import { testDatabases } from '../helpers/db.js';
import { actors, ERROR_FIELDS, REMEMBER } from '../helpers/memory.js';

for (const target of testDatabases()) {
  describe(`typed input errors (${target.name})`, () => {
    const h = testAppOn(target);

    it('NUL bytes, negative first, oversized cursor, 5e-324, year 0000, unknown space: InvalidInput naming the field', async () => {
      const { t } = h;
      const s = await t.space({ name: 'inputs' });
      const a = actors(t.gql, s);
      const c = await a.open();
      await a.say(c, 'My cat is called Miso.');
      const rememberWith = (input: Record<string, unknown>) =>
        t.gql(s.assistant, REMEMBER, { input: { conversationId: c, quote: 'My cat is called Miso.', type: 'FACT', ...input } });
      const cases: Array<[string, Promise<{ data: any; errors?: any[] }>, string, (d: any) => any]> = [
        ['NUL in a message', t.gql(s.chat, `mutation($c: ID!, $t: String!) { recordMessage(conversationId: $c, role: USER, text: $t) { __typename ${ERROR_FIELDS} } }`, { c, t: 'a\u0000b' }), 'text', (d) => d.recordMessage],
        ['NUL in a quote', rememberWith({ quote: 'My cat\u0000 is called Miso.' }), 'quote', (d) => d.remember],
        ['NUL in a recall query', t.gql(s.assistant, `query($c: ID!) { recall(conversationId: $c, query: "cat\\u0000") { __typename ${ERROR_FIELDS} } }`, { c }), 'query', (d) => d.recall],
        ['negative first', t.gql(s.operator, `query { memories(first: -1) { __typename ${ERROR_FIELDS} } }`), 'first', (d) => d.memories],
        ['first over the maximum', t.gql(s.operator, `query { spaceEvents(first: 1500) { __typename ${ERROR_FIELDS} } }`), 'first', (d) => d.spaceEvents],
        ['oversized cursor', t.gql(s.operator, `query($a: String) { memories(after: $a) { __typename ${ERROR_FIELDS} } }`, { a: Buffer.from(`o:${'9'.repeat(40)}`).toString('base64url') }), 'after', (d) => d.memories],
        ['importance 5e-324', rememberWith({ importance: 5e-324 }), 'importance', (d) => d.remember],
        ['year 0000', rememberWith({ startsAt: '0000-01-01T00:00:00Z' }), 'startsAt', (d) => d.remember],
        ['createToken in a space that does not exist', t.gql(t.adminToken, `mutation { createToken(role: chat, spaceId: "no-such-space") { __typename ${ERROR_FIELDS} } }`), 'spaceId', (d) => d.createToken],
      ];
      for (const [what, pending, field, pick] of cases) {
        const r = await pending;
        expect(r.errors, what).toBeUndefined();
        const payload = pick(r.data);
        // A space that does not exist reads as NotFound (as everywhere); everything else is InvalidInput.
        if (payload.__typename === 'NotFound') expect(what).toMatch(/space that does not exist/);
        else expect([what, payload.__typename, payload.field]).toEqual([what, 'InvalidInput', field]);
      }
      const list = await a.list();
      expect(list.nodes ?? list.edges ?? []).toHaveLength(0);
    });

    it('lone UTF-16 surrogates, in strings, ids, list items and free-form JSON: InvalidInput naming the field, nothing stored', async () => {
      const { t } = h;
      const s = await t.space({ name: 'surrogates' });
      const a = actors(t.gql, s);
      const c = await a.open();
      const said = 'I like green tea.';
      await a.say(c, said);
      const record = `mutation($c: ID!, $t: String!) { recordMessage(conversationId: $c, role: USER, text: $t) { __typename ${ERROR_FIELDS} } }`;
      const rememberWith = (input: Record<string, unknown>) =>
        t.gql(s.assistant, REMEMBER, { input: { conversationId: c, quote: said, type: 'FACT', ...input } });
      const dims = t.app.engram.deps.embedder.dimensions;
      // One at a time: a failure leaves no request in flight.
      const cases: Array<[string, () => Promise<{ data: any; errors?: any[] }>, string, (d: any) => any]> = [
        ['a lone high surrogate in a message', () => t.gql(s.chat, record, { c, t: 'I like \ud800 green tea.' }), 'text', (d) => d.recordMessage],
        ['a lone low surrogate at the end of a message', () => t.gql(s.chat, record, { c, t: 'I like green tea.\udc00' }), 'text', (d) => d.recordMessage],
        ['a pair reversed', () => t.gql(s.chat, record, { c, t: 'I like \ude00\ud83d green tea.' }), 'text', (d) => d.recordMessage],
        ['a space name', () => t.gql(t.adminToken, `mutation($n: String!) { createSpace(name: $n) { __typename ${ERROR_FIELDS} } }`, { n: 'Home \ud800' }), 'name', (d) => d.createSpace],
        ['an id', () => t.gql(s.chat, record, { c: `${c}\ud800`, t: said }), 'conversationId', (d) => d.recordMessage],
        ['a quote', () => rememberWith({ quote: 'I like \ud800 green tea.' }), 'quote', (d) => d.remember],
        ['a theme (a list item)', () => rememberWith({ themes: ['tea', 'drinks\udfff'] }), 'themes', (d) => d.remember],
        ['a client vector given as text', () => rememberWith({ vector: `[${new Array(dims).fill('0.1').join(',')}]\ud800` }), 'vector', (d) => d.remember],
        ['a client vector holding a string', () => rememberWith({ vector: [...new Array(dims - 1).fill(0.1), '\ud800'] }), 'vector', (d) => d.remember],
      ];
      for (const [what, send, field, pick] of cases) {
        const r = await send();
        expect(r.errors, what).toBeUndefined();
        const payload = pick(r.data);
        expect([what, payload.__typename, payload.field]).toEqual([what, 'InvalidInput', field]);
        expect(payload.message, what).toMatch(/surrogate/);
      }
      // The same escape written in the document is refused by graphql-js itself: a syntax error, nothing run.
      const inline = await t.gql(s.chat, `mutation($c: ID!) { recordMessage(conversationId: $c, role: USER, text: "I like \\ud800 green tea.") { __typename ${ERROR_FIELDS} } }`, { c });
      expect(inline.errors?.[0]?.message).toMatch(/Invalid Unicode escape sequence/);
      const list = await a.list();
      expect(list.nodes ?? list.edges ?? []).toHaveLength(0);
      const messages = await t.gql(s.operator, `query($c: ID!) { conversation(id: $c) { ... on Conversation { messages { text } } } }`, { c });
      expect(messages.data.conversation.messages.map((m: { text: string }) => m.text)).toEqual([said]);
      // A well-formed pair (an emoji) is a character like any other.
      const emoji = await t.gql(s.chat, record, { c, t: 'I like green tea \ud83c\udf75.' });
      expect(emoji.data.recordMessage.__typename).toBe('Message');
    });

    it('a first out of bounds names the field\'s own bounds, on either side', async () => {
      const { t } = h;
      const s = await t.space({ name: 'first bounds' });
      const c = await actors(t.gql, s).open();
      const messages = async (field: string, args: string, values: number[], token = s.assistant) => {
        const out: string[] = [];
        for (const v of values) {
          const r = await t.gql(token, `query${args.includes('$c') ? '($c: ID!)' : ''} { ${field}(${args}first: ${v}) { __typename ${ERROR_FIELDS} } }`, args.includes('$c') ? { c } : {});
          expect(r.errors).toBeUndefined();
          expect([v, r.data[field].__typename, r.data[field].field]).toEqual([v, 'InvalidInput', 'first']);
          out.push(r.data[field].message);
        }
        return out;
      };
      // recall asks for at least one: -1 and 0 are refused alike, and so is one past the maximum.
      const recall = await messages('recall', 'conversationId: $c, query: "cats", ', [-1, 0, 101]);
      expect(new Set(recall).size).toBe(1);
      expect(recall[0]).toMatch(/between 1 and 100/);
      const space = await messages('recallSpace', 'query: "cats", ', [-1, 0, 101]);
      expect(new Set(space)).toEqual(new Set(recall));
      const memories = await messages('memories', '', [-1, 0, 501], s.operator);
      expect(new Set(memories).size).toBe(1);
      expect(memories[0]).toMatch(/between 1 and 500/);
    });

    it('first: 0 is an empty page where a field allows it (profile, inferences, spaceEvents)', async () => {
      const { t } = h;
      const s = await t.space({ name: 'first zero' });
      const a = actors(t.gql, s);
      const c = await a.open();
      await a.say(c, 'My cat is called Miso.');
      expect((await a.remember({ conversationId: c, quote: 'My cat is called Miso.' })).outcome).toBe('CREATED');
      const page = (field: string, first: number) => `${field}${first}: ${field}(first: ${first}) { __typename ... on ${field[0]!.toUpperCase()}${field.slice(1)}Success { data { __typename } } ${ERROR_FIELDS} }`;
      const r = await t.gql(s.operator, `query { ${['profile', 'inferences', 'spaceEvents'].flatMap((f) => [page(f, 0), page(f, 1)]).join(' ')} }`);
      expect(r.errors).toBeUndefined();
      const sizes = Object.fromEntries(Object.entries(r.data).map(([k, v]: [string, any]) => [k, v.data?.length ?? v.__typename]));
      expect(sizes).toEqual({ profile0: 0, profile1: 1, inferences0: 0, inferences1: 0, spaceEvents0: 0, spaceEvents1: 1 });
    });

    it('a quote of over 8,500 characters is stored and recognised again', async () => {
      const { t } = h;
      const s = await t.space({ name: 'long quote' });
      const a = actors(t.gql, s);
      const c = await a.open();
      const words = Array.from({ length: 1500 }, (_, i) => `w${(i * 7919) % 10007}x`).join(' ');
      const quote = `I keep a list of words: ${words}.`;
      expect(quote.length).toBeGreaterThan(8_500);
      await a.say(c, quote);
      const first = await a.remember({ conversationId: c, quote });
      expect(first.__typename, JSON.stringify(first).slice(0, 300)).toBe('RememberOutcome');
      expect(first.outcome).toBe('CREATED');
      // said again (a second message: the same message's sentence remembered again is a retry, answered CREATED)
      await a.say(c, quote);
      const again = await a.remember({ conversationId: c, quote });
      expect(again.outcome).toBe('REINFORCED');
      expect(again.memory.id).toBe(first.memory.id);
    });
  });
}
