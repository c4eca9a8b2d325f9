/**
 * A request's answer bounded in words (ENGRAM_MAX_READ_CHARS): a memory's quote, context, basis,
 * attribution and explanation count each time a field answers them, and a list of memories is not
 * read once the words are spent. An adversarial probe's request (ten aliases of `memories(first:
 * 500) { nodes { context } }` over memories whose messages were 100,000 characters) passed every
 * limit and was answered 500 MB after 8 s, the process at 2.1 GB.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { lexicalText } from '../../src/memory/lexical.js';
import { recall } from '../../src/memory/recall.js';

let t: TestApp;
const READ_CHARS = 300_000;
beforeAll(async () => {
  t = await createTestApp({ env: { ENGRAM_MAX_READ_CHARS: String(READ_CHARS) } });
});
afterAll(async () => t?.close());

/** `n` memories whose source message (their context) is `chars` characters long, written through the store. */
async function withContexts(spaceId: string, n: number, chars: number): Promise<void> {
  const { store } = t.app.engram;
  await store.transaction(async (tx) => {
    for (let i = 0; i < n; i++) {
      const id = randomUUID();
      const quote = `Fact number ${i} is here.`;
      await store.insertMemory(tx, {
        id, spaceId, kind: 'STATEMENT', type: 'FACT', quote, normalized: quote.toLowerCase(), conversationId: null, messageId: null,
        context: `${quote} ${'More words of the message. '.repeat(chars / 27 + 1)}`.slice(0, chars), basis: null, saidAt: new Date(Date.UTC(2026, 0, 1, 0, i)),
        importance: null, valence: null, entities: [], themes: [], tags: [], embeddingStatus: 'OK', review: null, lexicalText: lexicalText([quote]), events: [],
      });
    }
  });
}

const LIST = (alias: string) => `${alias}: memories(spaceId: $s, first: 20) { ... on MemoryConnection { nodes { quote context } } }`;

describe("a request's words answered", () => {
  it('answers the memories within the budget', async () => {
    const s = await t.space({ name: 'within' });
    await withContexts(s.id, 10, 20_000);
    const r = await t.gql(s.operator, `query($s: ID!) { ${LIST('a')} }`, { s: s.id });
    expect(r.errors).toBeUndefined();
    expect(r.data.a.nodes).toHaveLength(10);
    expect(r.data.a.nodes.every((m: { context: string }) => m.context.length === 20_000)).toBe(true);
  });

  it('reads a list no further than the budget: a page cut short has a next page', async () => {
    const s = await t.space({ name: 'cut' });
    await withContexts(s.id, 20, 20_000);
    // 20 memories of ~20,050 characters of text each: 401,000, over 300,000
    const r = await t.gql(s.operator, `query($s: ID!) { a: memories(spaceId: $s, first: 20) { ... on MemoryConnection { nodes { quote } pageInfo { hasNextPage endCursor } } } }`, { s: s.id });
    expect(r.errors).toBeUndefined();
    expect(r.data.a.nodes).toHaveLength(14);
    expect(r.data.a.pageInfo.hasNextPage).toBe(true);
    const rest = await t.gql(s.operator, `query($s: ID!, $c: String) { memories(spaceId: $s, first: 20, after: $c) { ... on MemoryConnection { nodes { quote } } } }`, { s: s.id, c: r.data.a.pageInfo.endCursor });
    expect(rest.data.memories.nodes).toHaveLength(6);
  });

  it('stops at the budget however the texts are asked for: ten aliases of one list, fifteen of one memory', async () => {
    const s = await t.space({ name: 'past' });
    await withContexts(s.id, 20, 20_000);
    // ten aliases of the list: 4,000,000 characters; refused past the budget, nothing more read
    const lists = await t.gql(s.operator, `query($s: ID!) { ${Array.from({ length: 10 }, (_, i) => LIST(`a${i}`)).join(' ')} }`, { s: s.id });
    expect(lists.errors?.map((e: { extensions: unknown }) => e.extensions)).toContainEqual({ code: 'LIMIT_EXCEEDED', limit: 'readChars' });
    expect(JSON.stringify(lists).length).toBeLessThan(READ_CHARS);
    // one memory read once, its context answered by fifteen aliases: 300,000 characters, the last ones null
    const [one] = (await t.gql(s.operator, `query($s: ID!) { memories(spaceId: $s, first: 1) { ... on MemoryConnection { nodes { id } } } }`, { s: s.id })).data.memories.nodes;
    const aliases = await t.gql(s.operator, `query($id: ID!) { ${Array.from({ length: 15 }, (_, i) => `m${i}: memory(id: $id) { ... on Memory { quote context } }`).join(' ')} }`, { id: one.id });
    expect(aliases.errors?.map((e: { extensions: unknown }) => e.extensions)).toContainEqual({ code: 'LIMIT_EXCEEDED', limit: 'readChars' });
    const contexts = Object.values(aliases.data as Record<string, { quote: string; context: string | null }>);
    expect(contexts.every((m) => m.quote.startsWith('Fact number'))).toBe(true);
    expect(contexts.filter((m) => m.context !== null).length).toBe(14);
  });

  it("hands out recall's hits without their messages' words, read only when asked and within the budget", async () => {
    const s = await t.space({ name: 'recalled' });
    await withContexts(s.id, 20, 20_000);
    const found = await recall(t.app.engram.deps, s.id, 'Which fact number is here?', 20);
    expect(found.statements).toHaveLength(20);
    expect(found.statements.every((h) => !('context' in h.memory) && !('basis' in h.memory))).toBe(true);
    // asked for: 20 contexts of 20,000 characters, read in the hits' order while they fit in the words
    const r = await t.gql(s.operator, `query($s: ID!) { a: recallSpace(spaceId: $s, query: "Which fact number is here?", first: 20) { ... on RecallResult { statements { memory { id quote context } } } } }`, { s: s.id });
    const hits = r.data.a.statements as { memory: { id: string; quote: string; context: string | null } }[];
    expect(hits.map((h) => h.memory.id)).toEqual(found.statements.map((h) => h.memory.id));
    expect(hits.every((h) => h.memory.quote.startsWith('Fact number'))).toBe(true);
    const answered = hits.filter((h) => h.memory.context !== null);
    expect(answered.every((h) => h.memory.context!.startsWith(h.memory.quote) && h.memory.context!.length === 20_000)).toBe(true);
    // 300,000 characters: 15 contexts read, 14 answered with the quotes; the rest LIMIT_EXCEEDED
    expect(answered.length).toBe(14);
    expect(r.errors?.map((e: { extensions: unknown }) => e.extensions)).toContainEqual({ code: 'LIMIT_EXCEEDED', limit: 'readChars' });
    expect(hits.slice(0, 14).every((h) => h.memory.context !== null)).toBe(true);
  });

  it('fails a list whose records could not be read, never answering it short', async () => {
    const s = await t.space({ name: 'failed read' });
    await withContexts(s.id, 3, 100);
    const store = t.app.engram.deps.store;
    const getMemories = store.getMemories;
    store.getMemories = async () => { throw new Error('the connection was lost'); };
    try {
      const r = await t.gql(s.operator, `query($s: ID!) { ${LIST('a')} }`, { s: s.id });
      expect(r.errors?.length).toBeGreaterThan(0);
      expect(r.data?.a?.nodes ?? null).toBeNull();
    } finally {
      store.getMemories = getMemories;
    }
  });
});
