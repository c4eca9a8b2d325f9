/**
 * A quote with a word that names one of Object's own members is kept and found like any other
 * (src/core/table.ts). Before the forty-second round, "I prefer constructor injection." failed
 * the remember itself: the lexical keys threw (`k.split is not a function`), and so did the
 * rules for any later statement that met such a memory.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

describe("Object's member names in a quote", () => {
  it('are remembered, recognised and recalled as words', async () => {
    const s = await t.space({ name: 'object words' });
    const keep = async (text: string) => {
      const conv = (await t.gql(s.chat, `mutation { openConversation { ... on Conversation { id } } }`)).data.openConversation.id;
      await t.gql(s.chat, `mutation($c: ID!, $x: String!) { recordMessage(conversationId: $c, role: USER, text: $x) { ... on Message { id } } }`, { c: conv, x: text });
      const r = await t.gql(s.assistant, `mutation($i: RememberInput!) { remember(input: $i) {
        ... on RememberOutcome { outcome memory { id } } ... on Error { code message } } }`, { i: { conversationId: conv, quote: text, type: 'PREFERENCE' } });
      expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
      return r.data.remember;
    };
    const first = await keep('I prefer constructor injection.');
    expect(first.outcome).toBe('CREATED');
    // a later statement meets it as a candidate: the rules read its words
    const again = await keep('I prefer constructor injection, as I said.');
    expect(['REINFORCED', 'CREATED']).toContain(again.outcome);
    const other = await keep('My toString helper and my __proto__ notes are in the valueOf folder.');
    expect(other.outcome).toBe('CREATED');
    const r = await t.gql(s.operator, `query($s: ID) { recallSpace(spaceId: $s, query: "constructor injection") {
      ... on RecallResult { statements { memory { quote } } } ... on Error { code message } } }`, { s: s.id });
    expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
    expect(r.data.recallSpace.statements?.[0]?.memory.quote, JSON.stringify(r.data)).toMatch(/constructor injection/);
  }, 60_000);
});
