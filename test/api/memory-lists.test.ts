/**
 * A memory's wordings and events in pages (`first`, `after`), the wordings' quotes counted in the
 * request's words read (ENGRAM_MAX_READ_CHARS): both lists grew with every restatement, read whole.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { lexicalText } from '../../src/memory/lexical.js';
import { CHAIN_MAX } from '../../src/graphql/loaders.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { ENGRAM_MAX_READ_CHARS: '100000' } });
});
afterAll(async () => t?.close());

/** A memory written through the store, restated `n` times (each a mention and a REINFORCED event), quotes of `chars` characters. */
async function restated(spaceId: string, n: number, chars = 40): Promise<string> {
  const { store } = t.app.engram;
  const id = randomUUID();
  const quote = `A fact said many times. ${'x'.repeat(chars)}`.slice(0, chars);
  await store.transaction(async (tx) => {
    await store.insertMemory(tx, {
      id, spaceId, kind: 'STATEMENT', type: 'FACT', quote, normalized: quote.toLowerCase(), conversationId: null, messageId: null, context: null,
      basis: null, saidAt: new Date(Date.UTC(2026, 0, 1)), importance: null, valence: null, entities: [], themes: [], tags: [], embeddingStatus: 'OK',
      review: null, lexicalText: lexicalText([quote]), events: [{ spaceId, actor: 'test', detail: null, memoryId: id, kind: 'CREATED', tier: null, score: null, rule: null, relatedId: null }],
    });
    for (let i = 0; i < n; i++) {
      await store.reinforce(tx, {
        memoryId: id, lastMentionedAt: new Date(Date.UTC(2026, 0, 2, 0, i)), importance: null, valence: null, entities: [], themes: [], tags: [],
        lexicalText: lexicalText([quote]),
        mention: { id: randomUUID(), quote: `${i} ${quote}`.slice(0, chars), conversationId: null, messageId: null, saidAt: new Date(Date.UTC(2026, 0, 2, 0, i)), tier: 'CLOSE', score: 0.9 },
        events: [{ spaceId, actor: 'test', detail: null, memoryId: id, kind: 'REINFORCED', tier: 'CLOSE', score: 0.9, rule: null, relatedId: null }],
      }, spaceId);
    }
  });
  return id;
}

const MENTIONS = `query($id: ID!, $n: Int, $a: ID) { memory(id: $id) { ... on Memory { mentions(first: $n, after: $a) { id quote } } } }`;
const EVENTS = `query($id: ID!, $n: Int, $a: ID) { memory(id: $id) { ... on Memory { events(first: $n, after: $a) { id kind } } } }`;

describe("a memory's lists in pages", () => {
  it('pages its wordings and its events in order, first then after the last read', async () => {
    const s = await t.space({ name: 'lists' });
    const id = await restated(s.id, 12);
    const all = (await t.gql(s.operator, MENTIONS, { id })).data.memory.mentions as { id: string; quote: string }[];
    expect(all).toHaveLength(13);
    const paged: string[] = [];
    for (let after: string | null = null; ;) {
      const page = (await t.gql(s.operator, MENTIONS, { id, n: 5, a: after })).data.memory.mentions as { id: string }[];
      paged.push(...page.map((m) => m.id));
      if (page.length < 5) break;
      after = page[page.length - 1]!.id;
    }
    expect(paged).toEqual(all.map((m) => m.id));
    // after the last wording: an empty page, not a refusal
    const past = await t.gql(s.operator, MENTIONS, { id, n: 5, a: all[all.length - 1]!.id });
    expect(past.errors).toBeUndefined();
    expect(past.data.memory.mentions).toEqual([]);
    const events = (await t.gql(s.operator, EVENTS, { id })).data.memory.events as { id: string; kind: string }[];
    expect(events.map((e) => e.kind)).toEqual(['CREATED', ...Array(12).fill('REINFORCED')]);
    const rest = (await t.gql(s.operator, EVENTS, { id, n: 100, a: events[9]!.id })).data.memory.events as { id: string }[];
    expect(rest.map((e) => e.id)).toEqual(events.slice(10).map((e) => e.id));
  });

  it("refuses an after that is not one of the memory's own, and a first out of bounds, naming the argument", async () => {
    const s = await t.space({ name: 'bad lists' });
    const id = await restated(s.id, 2);
    const other = await restated(s.id, 2);
    const elsewhere = (await t.gql(s.operator, MENTIONS, { id: other })).data.memory.mentions[0].id;
    for (const [q, vars, field] of [[MENTIONS, { a: elsewhere }, 'after'], [MENTIONS, { n: 501 }, 'first'], [EVENTS, { a: 'not-a-number' }, 'after'], [EVENTS, { n: -1 }, 'first']] as const) {
      const r = await t.gql(s.operator, q, { id, ...vars });
      expect(r.errors?.[0]?.extensions).toMatchObject({ code: 'INVALID_INPUT', field });
    }
  });

  it("counts the wordings' quotes in the request's words read: past them, LIMIT_EXCEEDED", async () => {
    const s = await t.space({ name: 'long wordings' });
    const id = await restated(s.id, 9, 15_000);
    // 10 wordings of 15,000 characters: over 100,000
    const r = await t.gql(s.operator, `query($id: ID!) { memory(id: $id) { ... on Memory { quote mentions { quote } } } }`, { id });
    expect(r.errors?.map((e: { extensions: unknown }) => e.extensions)).toContainEqual({ code: 'LIMIT_EXCEEDED', limit: 'readChars' });
    expect(r.data.memory.quote).toMatch(/^A fact/);
    expect((await t.gql(s.operator, MENTIONS, { id, n: 5 })).data.memory.mentions).toHaveLength(5);
    // one page read once, answered by two aliases: counted twice
    const page = `mentions(first: 5) { quote }`;
    const twice = await t.gql(s.operator, `query($id: ID!) { a: memory(id: $id) { ... on Memory { ${page} } } b: memory(id: $id) { ... on Memory { ${page} } } }`, { id });
    expect(twice.errors?.map((e: { extensions: unknown }) => e.extensions)).toContainEqual({ code: 'LIMIT_EXCEEDED', limit: 'readChars' });
    expect([twice.data.a.mentions, twice.data.b.mentions].filter((m) => m === null)).toHaveLength(1);
  });
});

describe("a memory's correction chain", () => {
  /** A chain of `n` memories, each superseded by the next, quotes of `chars` characters: ids oldest first. */
  async function chain(spaceId: string, n: number, chars: number): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) ids.push(await restated(spaceId, 0, chars));
    const { store } = t.app.engram;
    await store.transaction(async (tx) => {
      for (let i = 0; i + 1 < n; i++) await store.setStatus(tx, spaceId, [ids[i]!], 'SUPERSEDED', { supersededBy: ids[i + 1]! });
    });
    return ids;
  }
  const CHAIN = `query($id: ID!) { memory(id: $id) { ... on Memory { quote correctionChain { id } supersedes { id } } } }`;

  it('counts its quotes each time a field answers them: the memories of one chain, each asking for it, stop at the budget', async () => {
    const s = await t.space({ name: 'long chain' });
    // 5 memories of 6,000 characters: 30,000, within the budget of 100,000, for one of them
    const ids = await chain(s.id, 5, 6_000);
    const one = await t.gql(s.operator, CHAIN, { id: ids[2] });
    expect(one.errors).toBeUndefined();
    expect(one.data.memory.correctionChain.map((m: { id: string }) => m.id)).toEqual(ids);
    expect(one.data.memory.supersedes.map((m: { id: string }) => m.id)).toEqual([ids[1]]);
    // every memory of the chain asking for it: five times 30,000, with the five quotes, over 100,000
    const all = await t.gql(s.operator, `query($s: ID!) { memories(spaceId: $s, first: 10, filter: { statuses: [ACTIVE, SUPERSEDED] }) { ... on MemoryConnection { nodes { quote correctionChain { quote } } } } }`, { s: s.id });
    expect(all.errors?.map((e: { extensions: unknown }) => e.extensions)).toContainEqual({ code: 'LIMIT_EXCEEDED', limit: 'readChars' });
    const nodes = all.data.memories.nodes as { quote: string; correctionChain: unknown[] | null }[];
    expect(nodes).toHaveLength(5);
    expect(nodes.every((m) => m.quote.length > 0)).toBe(true);
    const answered = nodes.filter((m) => m.correctionChain !== null).length;
    expect(answered).toBeGreaterThan(0);
    expect(answered).toBeLessThan(5);
    expect(JSON.stringify(all).length).toBeLessThan(130_000);
  });

  it("counts a chain's quotes once when its members' quotes are asked for", async () => {
    const s = await t.space({ name: 'quoted chain' });
    // 3 memories of 15,000 characters: the chain's quotes and each member's first wording (its
    // quote again), 90,000 of 100,000; counted twice, by the list and again by each member's
    // quote, the wordings after them would pass it
    const ids = await chain(s.id, 3, 15_000);
    const r = await t.gql(s.operator, `query($id: ID!) { memory(id: $id) { ... on Memory { correctionChain { id quote mentions(first: 1) { quote } } } } }`, { id: ids[1] });
    expect(r.errors).toBeUndefined();
    const members = r.data.memory.correctionChain as { id: string; quote: string; mentions: { quote: string }[] }[];
    expect(members.map((m) => m.id)).toEqual(ids);
    expect(members.every((m) => m.quote.length === 15_000 && m.mentions[0]!.quote === m.quote)).toBe(true);
    // the memory's quote and two aliases of the chain: 105,000, one of them refused
    const twice = await t.gql(s.operator, `query($id: ID!) { memory(id: $id) { ... on Memory { quote a: correctionChain { quote } b: correctionChain { quote } } } }`, { id: ids[1] });
    expect(twice.errors?.map((e: { extensions: unknown }) => e.extensions)).toContainEqual({ code: 'LIMIT_EXCEEDED', limit: 'readChars' });
    expect([twice.data.memory.a, twice.data.memory.b].filter((c) => c === null)).toHaveLength(1);
  });

  it('answers currentVersion and explanation past the longest chain read whole, without reading it', async () => {
    const s = await t.space({ name: 'very long chain' });
    const ids = await chain(s.id, CHAIN_MAX + 2, 10);
    const q = `query($id: ID!) { memory(id: $id) { ... on Memory { id currentVersion { id } explanation correctionChain { id } supersedes { id } } } }`;
    const first = await t.gql(s.operator, q, { id: ids[0] });
    // the chain itself is not read, and CHAIN_MAX + 1 steps to its end are past the walk's bound:
    // LIMIT_EXCEEDED (chain) for those two fields alone; the explanation says what it could not name
    expect(first.errors?.map((e: { extensions: unknown; path: string[] }) => [e.path.join('.'), e.extensions]).sort()).toEqual([
      ['memory.correctionChain', { code: 'LIMIT_EXCEEDED', limit: 'chain' }],
      ['memory.currentVersion', { code: 'LIMIT_EXCEEDED', limit: 'chain' }],
    ]);
    // what a memory replaced is its own (not read from its chain): none for the first
    expect(first.data.memory).toMatchObject({ id: ids[0], currentVersion: null, correctionChain: null, supersedes: [] });
    expect(first.data.memory.explanation).toMatch(/It was superseded on .*; what replaced it is past this request's limits/);
    // CHAIN_MAX steps from the second: its newest is named
    expect((await t.gql(s.operator, q, { id: ids[1] })).data.memory.currentVersion).toEqual({ id: ids[ids.length - 1] });
    const near = await t.gql(s.operator, q, { id: ids[3] });
    expect(near.data.memory.currentVersion).toEqual({ id: ids[ids.length - 1] });
    expect(near.data.memory.explanation).toMatch(/superseded .*by a correction\. On /);
    const last = await t.gql(s.operator, q, { id: ids[ids.length - 1] });
    expect(last.data.memory.currentVersion).toEqual({ id: ids[ids.length - 1] });
    expect(last.data.memory.explanation).toMatch(/Status: ACTIVE/);
    expect(last.data.memory.supersedes).toEqual([{ id: ids[ids.length - 2] }]);
  });

  it('is weighed before it is read: members and sizes, none past the longest chain read whole', async () => {
    const s = await t.space({ name: 'chain members' });
    const ids = await chain(s.id, 4, 100);
    const [whole, cut, alone] = await t.app.engram.store.chainMembers([ids[3]!, ids[0]!, 'no-such-memory'], 4);
    expect(whole!.map((m) => m.id)).toEqual(ids);
    expect(whole!.every((m) => m.chars >= 100)).toBe(true);
    expect(cut!.map((m) => m.id)).toEqual(ids);
    expect(alone).toEqual([]);
    expect(await t.app.engram.store.chainMembers([ids[1]!], 3)).toEqual([null]);
    // what each replaced, its own predecessors only (oldest first), none past the bound
    const { store } = t.app.engram;
    const [ofSecond, ofFirst, ofNone] = await store.predecessorMembers([ids[1]!, ids[0]!, 'no-such-memory'], 1);
    expect(ofSecond!.map((m) => m.id)).toEqual([ids[0]]);
    expect(ofSecond![0]!.chars).toBeGreaterThanOrEqual(100);
    expect(ofFirst).toEqual([]);
    expect(ofNone).toEqual([]);
    await store.transaction((tx) => store.setStatus(tx, s.id, [ids[0]!, ids[1]!], 'SUPERSEDED', { supersededBy: ids[3]! }));
    expect((await store.predecessorMembers([ids[3]!], 3))[0]!.map((m) => m.id)).toEqual(ids.slice(0, 3));
    expect(await store.predecessorMembers([ids[3]!], 2)).toEqual([null]);
  });
});
