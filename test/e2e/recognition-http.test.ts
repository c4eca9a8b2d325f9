/**
 * Issue 2, "Done when", through GraphQL over HTTP: a real port (0), real fetch,
 * PGlite and the real USE-lite embedder.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testEmbedder, type TestApp } from '../helpers/app.js';
import { actors, contentCounts, FailSwitchEmbedder, MEMORY, type Gql, type SpaceTokens } from '../helpers/memory.js';

let t: TestApp;
let url: string;
let switchable: FailSwitchEmbedder;

/** GraphQL over the network, like any client. */
const http: Gql = async (token, query, variables = {}) => {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as any;
};

beforeAll(async () => {
  switchable = new FailSwitchEmbedder(testEmbedder());
  t = await createTestApp({ embedder: switchable });
  url = (await t.app.start()).url;
});
afterAll(async () => {
  await t?.close();
});

async function newSpace(name: string): Promise<{ s: SpaceTokens; a: ReturnType<typeof actors> }> {
  const s = await t.space({ name });
  return { s, a: actors(http, s) };
}

describe('issue 2 done-when over HTTP: Owen', () => {
  it('three sayings leave two active memories; the fact has mention count 2 and both wordings', async () => {
    const { s, a } = await newSpace('owen');
    const c = await a.open();
    const say = async (text: string, input: Record<string, unknown>) => {
      await a.say(c, text);
      return a.remember({ conversationId: c, quote: text, ...input });
    };
    const r1 = await say('My brother Owen lives in Bristol.', { type: 'FACT', entities: ['Owen', 'Bristol'], themes: ['family'] });
    expect(r1.outcome).toBe('CREATED');
    const r2 = await say("I'm going to my brother's in Bristol on Saturday.", { type: 'EVENT', entities: ['Owen', 'Bristol'], themes: ['family', 'travel'] });
    expect(r2.outcome).toBe('CREATED');
    const r3 = await say("Owen, that's my brother, he works in a lab.", { type: 'FACT', entities: ['Owen'], themes: ['family', 'work'] });
    expect(r3.outcome).toBe('REINFORCED');
    expect(r3.memory.id).toBe(r1.memory.id);
    expect(['CLOSE', 'RELATED']).toContain(r3.tier);

    const list = await a.list({ first: 10 });
    expect(list.nodes).toHaveLength(2);
    expect(list.nodes.every((m: any) => m.status === 'ACTIVE')).toBe(true);

    const fact = await a.memory(r1.memory.id);
    expect(fact.mentionCount).toBe(2);
    expect(fact.mentions.map((m: any) => m.quote)).toEqual(['My brother Owen lives in Bristol.', "Owen, that's my brother, he works in a lab."]);
    expect(fact.mentions.map((m: any) => m.tier)).toEqual(['ORIGINAL', r3.tier]);
    expect(fact.themes).toEqual(expect.arrayContaining(['family', 'work']));
    // events record the tier and score of the reinforcement
    const reinforced = fact.events.find((e: any) => e.kind === 'REINFORCED');
    expect(reinforced).toMatchObject({ tier: r3.tier });
    expect(reinforced.score).toBeCloseTo(r3.score, 4);
    expect(fact.events.map((e: any) => e.kind)).toEqual(['CREATED', 'REINFORCED']);

    const event = await a.memory(r2.memory.id);
    expect(event).toMatchObject({ type: 'EVENT', mentionCount: 1, status: 'ACTIVE' });
    expect((await contentCounts(t.app.engram.db, s.id)).memories).toBe(2);
  });
});

describe('exact duplicates', () => {
  it('the same sentence again, in other casing and spacing, is reinforced with tier EXACT', async () => {
    const { a } = await newSpace('exact');
    const r1 = await a.state('I take the 7:15 train to work.');
    const r2 = await a.state('i take the 7:15   train to work');
    expect(r2).toMatchObject({ outcome: 'REINFORCED', tier: 'EXACT', score: 1 });
    expect(r2.memory.id).toBe(r1.memory.id);
    const r3 = await a.state('I take the 7:15 train to work.');
    expect(r3).toMatchObject({ outcome: 'REINFORCED', tier: 'EXACT' });
    const m = await a.memory(r1.memory.id);
    expect(m.mentionCount).toBe(3);
    expect(m.mentions.map((x: any) => x.tier)).toEqual(['ORIGINAL', 'EXACT', 'EXACT']);
    expect(m.events.filter((e: any) => e.kind === 'REINFORCED').map((e: any) => e.tier)).toEqual(['EXACT', 'EXACT']);
  });
});

describe('client-supplied vectors', () => {
  it('accepts a number array and the "[...]" text form, and uses them for recognition', async () => {
    const { s, a } = await newSpace('vectors');
    const [v] = await testEmbedder().embed(['My cat is called Miso.']);
    const arr = Array.from(v);
    const r1 = await a.state('My cat is called Miso.', { vector: arr });
    expect(r1).toMatchObject({ outcome: 'CREATED', memory: { embeddingStatus: 'OK' } });
    // the same fingerprint as text, on a different wording: the client's vector is what is compared
    const r2 = await a.state('Miso is the name of my cat.', { vector: `[${arr.join(',')}]` });
    expect(r2.outcome).toBe('REINFORCED');
    expect(r2.memory.id).toBe(r1.memory.id);
    expect(r2.score).toBeGreaterThan(0.999);
    const stored = await t.app.engram.store.getVectors([r1.memory.id]);
    const back = stored.get(r1.memory.id)!;
    expect(back).toHaveLength(512);
    expect(Math.abs(back[7] - v[7])).toBeLessThan(1e-6);
    expect((await contentCounts(t.app.engram.db, s.id)).vectors).toBe(1);
  });

  it.each([
    ['a text of another form', '{0.1,0.2}'],
    ['a wrong dimension', Array.from({ length: 100 }, () => 0.1)],
    ['a wrong dimension as text', '[0.1,0.2,0.3]'],
    ['a non-number component', ['a', ...Array.from({ length: 511 }, () => 0.1)]],
    ['an empty text', '[]'],
    ['a component that is not a number in text', `[${Array.from({ length: 511 }, () => '0.1').join(',')},x]`],
    ['an object', { x: 1 }],
  ])('refuses %s with InvalidInput and writes nothing', async (_label, vector) => {
    const { s, a } = await newSpace('bad vector');
    const before = await contentCounts(t.app.engram.db, s.id);
    const r = await a.state('My cat is called Miso.', { vector });
    expect(r).toMatchObject({ __typename: 'InvalidInput', code: 'INVALID_INPUT' });
    expect(r.message).toMatch(/^vector:/);
    expect(await contentCounts(t.app.engram.db, s.id)).toEqual(before);
  });
});

describe('embedding failure', () => {
  it('stores the memory with embeddingStatus MISSING and an event; reembed fills it in', async () => {
    const { s, a } = await newSpace('embedder down');
    switchable.failing = true;
    let r: any;
    try {
      r = await a.state('My sister Ines is a pilot.');
    } finally {
      switchable.failing = false;
    }
    expect(r).toMatchObject({ outcome: 'CREATED', memory: { embeddingStatus: 'MISSING' } });
    const m = await a.memory(r.memory.id);
    expect(m.events.map((e: any) => e.kind)).toEqual(['CREATED', 'EMBEDDING_MISSING']);
    expect(JSON.stringify(m.events[1].detail)).toMatch(/switched off/);
    expect((await contentCounts(t.app.engram.db, s.id)).vectors).toBe(0);

    // while still failing, reembed reports the failure and changes nothing
    switchable.failing = true;
    const still = await http(s.operator, `mutation { reembed { __typename ... on ReembedResult { filled failed } } }`);
    switchable.failing = false;
    expect(still.data.reembed).toMatchObject({ filled: 0, failed: 1 });

    const done = await http(s.operator, `mutation { reembed { __typename ... on ReembedResult { filled failed } } }`);
    expect(done.data.reembed).toEqual({ __typename: 'ReembedResult', filled: 1, failed: 0 });
    const after = await a.memory(r.memory.id);
    expect(after.embeddingStatus).toBe('OK');
    expect(after.events.map((e: any) => e.kind)).toContain('REEMBEDDED');
    expect((await contentCounts(t.app.engram.db, s.id)).vectors).toBe(1);
    // and the vector now serves recognition
    const again = await a.state('My sister Ines works as a pilot.', { entities: ['Ines'] });
    expect(again.outcome).toBe('REINFORCED');
    expect(again.memory.id).toBe(r.memory.id);
  });
});

describe('lists', () => {
  it('orderBy STRENGTH puts the most often said first, then the most recent; Relay pagination walks them all', async () => {
    const { a } = await newSpace('lists');
    const day = (d: number) => `2026-03-${String(d).padStart(2, '0')}T10:00:00Z`;
    const ids: Record<string, string> = {};
    const texts = ['I play the cello.', 'My dentist is Dr. Moreau.', 'I am allergic to peanuts.', 'My flat is on the fourth floor.', 'I drink my coffee black.'];
    for (let i = 0; i < texts.length; i++) ids[texts[i]] = (await a.state(texts[i], {}, day(i + 1))).memory.id;
    // peanuts said 3 times, cello twice
    await a.state('I am allergic to peanuts.', {}, day(10));
    await a.state('I am allergic to peanuts.', {}, day(11));
    await a.state('I play the cello.', {}, day(12));

    const strength = await a.list({ orderBy: 'STRENGTH', first: 10 });
    expect(strength.nodes.map((m: any) => m.quote)).toEqual([
      'I am allergic to peanuts.', 'I play the cello.', 'I drink my coffee black.', 'My flat is on the fourth floor.', 'My dentist is Dr. Moreau.',
    ]);
    expect(strength.nodes.map((m: any) => m.mentionCount)).toEqual([3, 2, 1, 1, 1]);
    const recent = await a.list({ orderBy: 'RECENT', first: 10 });
    expect(recent.nodes[0].quote).toBe('I play the cello.');

    const seen: string[] = [];
    let after: string | null = null;
    let pages = 0;
    for (;;) {
      const page: any = await a.list({ orderBy: 'STRENGTH', first: 2, after });
      pages++;
      expect(page.nodes.length).toBeLessThanOrEqual(2);
      expect(page.edges.map((e: any) => e.node.id)).toEqual(page.nodes.map((n: any) => n.id));
      seen.push(...page.nodes.map((n: any) => n.quote));
      if (!page.pageInfo.hasNextPage) break;
      expect(page.pageInfo.endCursor).toBe(page.edges.at(-1).cursor);
      after = page.pageInfo.endCursor;
    }
    expect(pages).toBe(3);
    expect(seen).toEqual(strength.nodes.map((m: any) => m.quote));
    const bad = await a.list({ after: 'not-a-cursor' });
    expect(bad.__typename).toBe('InvalidInput');
  });

  it('memory(id) over HTTP answers NotFound for an unknown id', async () => {
    const { s } = await newSpace('nf');
    const r = await http(s.operator, MEMORY, { id: 'no-such-id' });
    expect(r.data.memory).toMatchObject({ __typename: 'NotFound', what: 'Memory' });
  });
});
