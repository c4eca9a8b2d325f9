/**
 * Bad input gets a typed error naming the field and changes nothing (docs/graphql-surface.md,
 * "Input that names nothing"): a zero vector, names that are only whitespace or invisible
 * characters, a period that ends before it starts. List values that name nothing are dropped.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { actors, contentCounts, ERROR_FIELDS } from '../helpers/memory.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const CREATE_SPACE = `mutation($n: String!) { createSpace(name: $n) { __typename ... on Space { id name } ${ERROR_FIELDS} } }`;

describe('input that names nothing, or says nothing', () => {
  it('a zero vector is refused naming vector; nothing is written', async () => {
    const s = await t.space({ name: 'zero vector' });
    const a = actors(t.gql, s);
    const c = await a.open();
    await a.say(c, 'I like coffee.');
    const before = await contentCounts(t.app.engram.db, s.id);
    const dims = t.app.engram.deps.embedder.dimensions;
    for (const vector of [new Array(dims).fill(0), new Array(dims).fill(-0)]) {
      const r = await a.remember({ conversationId: c, quote: 'I like coffee.', vector });
      expect(r).toMatchObject({ __typename: 'InvalidInput', field: 'vector' });
      expect(r.message).toContain('zero vector');
    }
    expect(await contentCounts(t.app.engram.db, s.id)).toEqual(before);
    const one = new Array(dims).fill(0);
    one[0] = 1;
    expect((await a.remember({ conversationId: c, quote: 'I like coffee.', vector: one })).outcome).toBe('CREATED');
  });

  it("a vector near float32's ends is kept at unit length: recall scores it, never NaN, never 1 for anything", async () => {
    const s = await t.space({ name: 'extreme vectors' });
    const a = actors(t.gql, s);
    const c = await a.open();
    const dims = t.app.engram.deps.embedder.dimensions;
    const RECALL = `query($c: ID!, $q: String!) { recall(conversationId: $c, query: $q, first: 10) { ... on RecallResult { statements { score vectorScore memory { quote } } } } }`;
    const quotes = ['I keep bees on the roof.', 'I sail a small boat at weekends.', 'I grow tomatoes on the balcony.'];
    // three directions at right angles (all +; half + half −; alternating), each at one extreme
    const signs = [(_j: number) => 1, (j: number) => (j < dims / 2 ? 1 : -1), (j: number) => (j % 2 ? -1 : 1)];
    for (const [i, size] of [3e38, 1e-45, 1e-40].entries()) {
      await a.say(c, quotes[i]!);
      const vector = Array.from({ length: dims }, (_, j) => size * signs[i]!(j));
      expect((await a.remember({ conversationId: c, quote: quotes[i], vector })).outcome).toBe('CREATED');
    }
    await a.say(c, 'I play the cello badly.');
    expect((await a.remember({ conversationId: c, quote: 'I play the cello badly.' })).outcome).toBe('CREATED');
    for (const q of ['bees', 'Who plays the cello?', 'Where was I born?']) {
      const r = await t.gql(s.assistant, RECALL, { c, q });
      expect(r.errors, q).toBeUndefined();
      for (const h of r.data.recall.statements as { score: number; vectorScore: number | null }[]) {
        expect(Number.isFinite(h.score)).toBe(true);
        if (h.vectorScore !== null) expect(h.vectorScore).toBeLessThan(0.99);
      }
    }
    // each stored at unit length
    const stored = await t.app.engram.deps.store.getVectors((await t.gql(s.operator, `query($s: ID!) { memories(spaceId: $s, first: 10) { ... on MemoryConnection { nodes { id } } } }`, { s: s.id })).data.memories.nodes.map((m: { id: string }) => m.id));
    for (const v of stored.values()) expect(Math.abs(Math.hypot(...v) - 1)).toBeLessThan(1e-5);
  });

  it('a vector stored before it was kept at unit length is no hit, and no error', async () => {
    const s = await t.space({ name: 'stored vanishing vector' });
    const a = actors(t.gql, s);
    const c = await a.open();
    await a.say(c, 'I keep bees on the roof.');
    const kept = await a.remember({ conversationId: c, quote: 'I keep bees on the roof.' });
    // its vector replaced as an older version stored a client's: components that vanish when squared in float32
    const { index } = t.app.engram.deps;
    const tiny = new Float32Array(t.app.engram.deps.embedder.dimensions).fill(1e-45);
    await index.upsert([{ memoryId: kept.memory.id, spaceId: s.id, kind: 'STATEMENT', status: 'ACTIVE', vector: tiny }]);
    const r = await t.gql(s.assistant, `query($c: ID!) { recall(conversationId: $c, query: "Do I keep bees?") { ... on RecallResult { statements { score vectorScore memory { quote } } } } }`, { c });
    expect(r.errors).toBeUndefined();
    expect(r.data.recall.statements.map((h: { memory: { quote: string } }) => h.memory.quote)).toEqual(['I keep bees on the roof.']);
    expect(r.data.recall.statements[0].vectorScore).toBeNull();
  });

  it('a space name of whitespace or invisible characters is refused naming name', async () => {
    for (const n of ['', ' ', '\u200b', ' \u200b\ufeff\u2060 ', '\u00a0', '\u3164', '\u2800\u2800']) {
      const r = (await t.gql(t.adminToken, CREATE_SPACE, { n })).data.createSpace;
      expect(r, JSON.stringify(n)).toMatchObject({ __typename: 'InvalidInput', field: 'name' });
    }
    const ok = (await t.gql(t.adminToken, CREATE_SPACE, { n: '\u200bHome\u200b ' })).data.createSpace;
    expect(ok).toMatchObject({ __typename: 'Space', name: 'Home' });
  });

  it('a message, a quote or an inference of invisible characters alone is refused; nothing is written', async () => {
    const s = await t.space({ name: 'invisible words' });
    const a = actors(t.gql, s);
    const c = await a.open();
    await a.say(c, 'Hello there.\u200b\u200c\u200d\u2060');
    const before = await contentCounts(t.app.engram.db, s.id);
    // (and letters or marks that show nothing: Hangul fillers, the Braille blank, marks with no letter, variation selectors)
    const invisible = ['\u200b\u200c\u200d\ufeff\u2060', '\u202e\u200f\u2067', ' \u200b ', '\u3164', '\u2800', '\u0301\u0301\u0301', '\ufe0f\u115f\uffa0'];
    for (const text of invisible) {
      const m = (await t.gql(s.chat, `mutation($c: ID!, $t: String!) { recordMessage(conversationId: $c, role: USER, text: $t) { __typename ${ERROR_FIELDS} } }`, { c, t: text })).data.recordMessage;
      expect(m, JSON.stringify(text)).toMatchObject({ __typename: 'InvalidInput', field: 'text' });
      expect(await a.remember({ conversationId: c, quote: text }), JSON.stringify(text)).toMatchObject({ __typename: 'EmptyQuote' });
      const i = (await t.gql(s.assistant, `mutation($c: ID!, $t: String!) { infer(conversationId: $c, text: $t, type: FACT) { __typename ${ERROR_FIELDS} } }`, { c, t: text })).data.infer;
      expect(i, JSON.stringify(text)).toMatchObject({ __typename: 'InvalidInput', field: 'text' });
    }
    expect(await contentCounts(t.app.engram.db, s.id)).toEqual(before);
  });

  it('entities, themes and tags that name nothing are dropped; the rest kept trimmed', async () => {
    const s = await t.space({ name: 'blank entities' });
    const a = actors(t.gql, s);
    const c = await a.open();
    await a.say(c, 'My sister Ana lives in Lyon.');
    const r = await a.remember({
      conversationId: c, quote: 'My sister Ana lives in Lyon.',
      entities: ['', ' ', '\u200b', '\u200bAna\u200b', '\u3164Lyon\u2800', '\u0301'], themes: ['\u2060', 'family ', '\u3164'], tags: ['\ufeff', '\ufe0f'],
    });
    expect(r).toMatchObject({ outcome: 'CREATED', memory: { entities: ['Ana', 'Lyon'], themes: ['family'], tags: [] } });
  });

  it('a message typed in the future is refused naming at; a past one keeps its time', async () => {
    const s = await t.space({ name: 'future message' });
    const a = actors(t.gql, s);
    const c = await a.open();
    const before = await contentCounts(t.app.engram.db, s.id);
    const RECORD = `mutation($c: ID!, $at: DateTime) { recordMessage(conversationId: $c, role: USER, text: "I moved to Leeds.", at: $at) { __typename ... on Message { at } ${ERROR_FIELDS} } }`;
    const late = new Date(Date.now() + 2 * 24 * 3600 * 1000).toISOString();
    for (const at of ['9999-12-31T23:59:59Z', late]) {
      expect((await t.gql(s.chat, RECORD, { c, at })).data.recordMessage, at).toMatchObject({ __typename: 'InvalidInput', field: 'at' });
    }
    expect(await contentCounts(t.app.engram.db, s.id)).toEqual(before);
    // an import of a past conversation, and a chat side's clock an hour ahead, are kept as said
    for (const at of ['2019-05-04T10:00:00.000Z', new Date(Date.now() + 3600 * 1000).toISOString()]) {
      expect((await t.gql(s.chat, RECORD, { c, at })).data.recordMessage).toEqual({ __typename: 'Message', at });
    }
  });

  it('an appointment that ends before it starts is refused naming endsAt; equal times are a moment', async () => {
    const s = await t.space({ name: 'period' });
    const a = actors(t.gql, s);
    const c = await a.open();
    await a.say(c, 'My dentist appointment is on May 4 at 10am.');
    const before = await contentCounts(t.app.engram.db, s.id);
    const r = await a.remember({
      conversationId: c, quote: 'My dentist appointment is on May 4 at 10am.', type: 'APPOINTMENT',
      startsAt: '2026-05-04T10:00:00Z', endsAt: '2026-05-04T09:00:00Z',
    });
    expect(r).toMatchObject({ __typename: 'InvalidInput', field: 'endsAt' });
    expect(await contentCounts(t.app.engram.db, s.id)).toEqual(before);
    const ok = await a.remember({
      conversationId: c, quote: 'My dentist appointment is on May 4 at 10am.', type: 'APPOINTMENT',
      startsAt: '2026-05-04T10:00:00Z', endsAt: '2026-05-04T10:00:00Z',
    });
    expect(ok.outcome).toBe('CREATED');
  });
});
