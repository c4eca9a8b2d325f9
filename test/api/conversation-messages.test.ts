/**
 * `Conversation.messages` in pages (`first`, `after`), and a request's reads of message text
 * bounded in all (`ENGRAM_MAX_READ_CHARS`). The field read every message of the conversation: an
 * adversarial probe asked for the conversations of 100 memories, each of 80 messages of 100,000
 * characters, and the server answered HTTP 500 "Unexpected error." (a result longer than a string
 * can be) after holding every request of the process for seconds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
const READ_CHARS = 300_000;
beforeAll(async () => {
  t = await createTestApp({ env: { ENGRAM_MAX_READ_CHARS: String(READ_CHARS) } });
});
afterAll(async () => t?.close());

const OPEN = `mutation { openConversation { ... on Conversation { id } } }`;
const RECORD = `mutation($c: ID!, $t: String!) { recordMessage(conversationId: $c, role: USER, text: $t) { ... on Message { id } } }`;
const PAGE = `query($c: ID!, $n: Int, $a: ID) { conversation(id: $c) { ... on Conversation { messages(first: $n, after: $a) { id text } } } }`;

async function conversation(chat: string, texts: string[]): Promise<{ id: string; ids: string[] }> {
  const id = (await t.gql(chat, OPEN)).data.openConversation.id as string;
  const ids: string[] = [];
  for (const text of texts) ids.push((await t.gql(chat, RECORD, { c: id, t: text })).data.recordMessage.id);
  return { id, ids };
}

describe('Conversation.messages', () => {
  it('pages in the order recorded: first, then after the last one read, until a page comes back short', async () => {
    const s = await t.space({ name: 'pages' });
    const texts = Array.from({ length: 23 }, (_, i) => `Message number ${i}.`);
    const c = await conversation(s.chat, texts);
    const seen: string[] = [];
    let after: string | null = null;
    for (let pages = 0; pages < 10; pages++) {
      const r = await t.gql(s.operator, PAGE, { c: c.id, n: 10, a: after });
      expect(r.errors).toBeUndefined();
      const page = r.data.conversation.messages as { id: string; text: string }[];
      seen.push(...page.map((m) => m.text));
      if (page.length < 10) break;
      after = page[page.length - 1]!.id;
    }
    expect(seen).toEqual(texts);
    // without `first`: the first 100 (all 23 here); first: 0, none
    expect((await t.gql(s.operator, PAGE, { c: c.id })).data.conversation.messages).toHaveLength(23);
    expect((await t.gql(s.operator, PAGE, { c: c.id, n: 0 })).data.conversation.messages).toEqual([]);
    // after the last message: an empty page
    expect((await t.gql(s.operator, PAGE, { c: c.id, a: c.ids.at(-1) })).data.conversation.messages).toEqual([]);
  });

  it('refuses a first out of bounds and an after that is not a message of the conversation, naming the argument', async () => {
    const s = await t.space({ name: 'bad pages' });
    const c = await conversation(s.chat, ['One.', 'Two.']);
    const other = await conversation(s.chat, ['Elsewhere.']);
    for (const [vars, field] of [[{ n: 501 }, 'first'], [{ n: -1 }, 'first'], [{ a: other.ids[0] }, 'after'], [{ a: 'no-such-message' }, 'after'], [{ a: 'x'.repeat(5_000) }, 'after']] as const) {
      const r = await t.gql(s.operator, PAGE, { c: c.id, ...vars });
      expect(r.errors?.[0]?.extensions).toMatchObject({ code: 'INVALID_INPUT', field });
      expect(r.errors?.[0]?.message).not.toMatch(/Unexpected/);
    }
  });

  it('stops a request at its read budget with LIMIT_EXCEEDED, the other fields answered', async () => {
    const s = await t.space({ name: 'budget' });
    const long = (i: number) => `Long message ${i}. ${'Words and more words. '.repeat(4_000)}`.slice(0, 90_000);
    const c1 = await conversation(s.chat, [long(0), long(1)]);
    const c2 = await conversation(s.chat, [long(2), long(3)]);
    // 180,000 characters: within the budget
    expect((await t.gql(s.operator, PAGE, { c: c1.id })).data.conversation.messages).toHaveLength(2);
    // 360,000 characters in one request: over it
    const both = await t.gql(s.operator, `query($a: ID!, $b: ID!) {
      one: conversation(id: $a) { ... on Conversation { messages { text } } }
      two: conversation(id: $b) { ... on Conversation { messages { text } } }
      viewer { __typename } }`, { a: c1.id, b: c2.id });
    expect(both.errors?.map((e: { extensions: unknown }) => e.extensions)).toContainEqual({ code: 'LIMIT_EXCEEDED', limit: 'readChars' });
    expect(both.data.viewer).not.toBeNull();
  });

  it('counts a page each time the answer gives it: aliases of one conversation, or many objects sharing it, stop at the budget', async () => {
    const s = await t.space({ name: 'answered twice' });
    const long = (i: number) => `Long message ${i}. ${'Words and more words. '.repeat(4_000)}`.slice(0, 90_000);
    const c = await conversation(s.chat, [long(0), long(1)]);
    // one read of 180,000 characters, within the budget; answered twice, 360,000: over it
    const twice = await t.gql(s.operator, `query($c: ID!) {
      a: conversation(id: $c) { ... on Conversation { messages { text } } }
      b: conversation(id: $c) { ... on Conversation { messages { text } } }
      viewer { __typename } }`, { c: c.id });
    expect(twice.errors?.map((e: { extensions: unknown }) => e.extensions)).toContainEqual({ code: 'LIMIT_EXCEEDED', limit: 'readChars' });
    expect([twice.data.a.messages, twice.data.b.messages].filter((m) => m === null)).toHaveLength(1);
    expect(twice.data.viewer).not.toBeNull();
    // ten aliases: nothing past the budget is answered
    const many = await t.gql(s.operator, `query($c: ID!) { ${Array.from({ length: 10 }, (_, i) => `a${i}: conversation(id: $c) { ... on Conversation { messages { text } } }`).join(' ')} }`, { c: c.id });
    expect(JSON.stringify(many.data).length).toBeLessThan(READ_CHARS + 10_000);
  });
});
