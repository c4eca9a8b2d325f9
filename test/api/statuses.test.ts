/**
 * Issue 4, statuses everywhere: for every status (ACTIVE, MUTED, RETRACTED,
 * SUPERSEDED, ERRONEOUS, forgotten) every read path — recall, the default list,
 * the list filtered by status, profile, recognition, memory(id). Plus unmute,
 * and issue 3's retraction (restating makes a new current memory; a second
 * retraction is recorded like the first).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { actors, ERROR_FIELDS, type SpaceTokens } from '../helpers/memory.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

type Status = 'ACTIVE' | 'MUTED' | 'RETRACTED' | 'SUPERSEDED' | 'ERRONEOUS' | 'FORGOTTEN';

interface Setup {
  s: SpaceTokens;
  a: ReturnType<typeof actors>;
  id: string;
  text: string;
  query: string;
}

/** A space holding one target memory put into `status`, next to an unrelated active one. */
async function setUp(status: Status): Promise<Setup> {
  const s = await t.space({ name: `status ${status}` });
  const a = actors(t.gql, s);
  await a.state('I keep bees on the roof.', { type: 'FACT' });
  if (status === 'SUPERSEDED') {
    const text = 'My favorite drink is tea.';
    const old = await a.state(text, { type: 'PREFERENCE', themes: ['drink'] });
    const r = await a.state('Actually, my favorite drink is coffee, not tea.', { type: 'PREFERENCE', themes: ['drink'] });
    expect(r.outcome).toBe('CORRECTED');
    return { s, a, id: old.memory.id, text, query: 'What is my favorite drink?' };
  }
  const text = 'My gym locker code is 4417.';
  const m = await a.state(text, { type: 'FACT', entities: ['gym'] });
  const id = m.memory.id as string;
  if (status === 'MUTED') expect((await a.status('mute', id)).status).toBe('MUTED');
  if (status === 'RETRACTED') expect((await a.status('retract', id)).status).toBe('RETRACTED');
  if (status === 'ERRONEOUS') {
    const other = await a.state('I lost the paper with my locker code.');
    const r = await t.gql(s.operator, `mutation($m: ID!, $b: ID) { markErroneous(memoryId: $m, correctedBy: $b) { __typename ... on Memory { status } } }`, { m: id, b: other.memory.id });
    expect(r.data.markErroneous.status).toBe('ERRONEOUS');
  }
  if (status === 'FORGOTTEN') {
    const r = await t.gql(s.operator, `mutation($m: ID!) { forget(ids: [$m], confirm: true) { __typename ... on BulkResult { changed } } }`, { m: id });
    expect(r.data.forget.changed).toBe(1);
  }
  return { s, a, id, text, query: 'What is my gym locker code?' };
}

const STATUSES: Status[] = ['ACTIVE', 'MUTED', 'RETRACTED', 'SUPERSEDED', 'ERRONEOUS', 'FORGOTTEN'];

describe.each(STATUSES)('a %s memory', (status) => {
  let x: Setup;
  const current = status === 'ACTIVE';
  beforeAll(async () => {
    x = await setUp(status);
  });

  it(`recall ${current ? 'returns' : 'never returns'} it among statements`, async () => {
    const c = await x.a.open();
    const r = await x.a.recall(c, x.query, 10);
    const ids = r.statements.map((h: any) => h.memory.id);
    if (current) expect(ids[0]).toBe(x.id);
    else expect(ids).not.toContain(x.id);
    expect(r.statements.every((h: any) => h.memory.status === 'ACTIVE')).toBe(true);
  });

  it(`the default list ${current ? 'shows' : 'hides'} it; a list filtered by status finds it unless forgotten`, async () => {
    const ids = (await x.a.list({ first: 100 })).nodes.map((m: any) => m.id);
    expect(ids.includes(x.id)).toBe(current);
    if (status !== 'FORGOTTEN') {
      const filtered = await x.a.list({ first: 100, filter: { statuses: [status] } });
      expect(filtered.nodes.map((m: any) => m.id)).toContain(x.id);
      expect(filtered.nodes.every((m: any) => m.status === status)).toBe(true);
    } else {
      const all = await x.a.list({ first: 100, filter: { statuses: ['ACTIVE', 'MUTED', 'RETRACTED', 'SUPERSEDED', 'ERRONEOUS', 'MERGED'] } });
      expect(all.nodes.map((m: any) => m.id)).not.toContain(x.id);
    }
  });

  it(`profile ${current ? 'shows' : 'hides'} it`, async () => {
    const ids = (await x.a.profile()).data.map((m: any) => m.id);
    expect(ids.includes(x.id)).toBe(current);
  });

  it(`memory(id) ${status === 'FORGOTTEN' ? 'is NotFound' : `reads it as ${status} for the operator`}`, async () => {
    const m = await x.a.memory(x.id);
    if (status === 'FORGOTTEN') expect(m).toMatchObject({ __typename: 'NotFound', what: 'Memory' });
    else expect(m).toMatchObject({ id: x.id, status, quote: x.text, current });
  });

  it(`restating the sentence ${current ? 'reinforces it (EXACT)' : 'never reinforces it'}`, async () => {
    const r = await x.a.state(x.text, { type: status === 'SUPERSEDED' ? 'PREFERENCE' : 'FACT', entities: status === 'SUPERSEDED' ? [] : ['gym'] });
    if (current) {
      expect(r).toMatchObject({ outcome: 'REINFORCED', tier: 'EXACT', memory: { id: x.id, mentionCount: 2 } });
      return;
    }
    expect(r.memory.id).not.toBe(x.id);
    expect(r.memory.status).toBe('ACTIVE');
    if (status !== 'FORGOTTEN') {
      const old = await x.a.memory(x.id);
      expect(old).toMatchObject({ status, mentionCount: 1 });
      expect(old.mentions).toHaveLength(1);
      expect(old.events.some((e: any) => e.kind === 'REINFORCED')).toBe(false);
    }
  });
});

describe('unmute', () => {
  it('restores a muted memory to every read path', async () => {
    const x = await setUp('MUTED');
    const again = await x.a.status('mute', x.id);
    expect(again.__typename).toBe('InvalidState');
    expect((await x.a.status('unmute', x.id)).status).toBe('ACTIVE');
    expect((await x.a.list()).nodes.map((m: any) => m.id)).toContain(x.id);
    expect((await x.a.profile()).data.map((m: any) => m.id)).toContain(x.id);
    const c = await x.a.open();
    expect((await x.a.recall(c, x.query)).statements[0].memory.id).toBe(x.id);
    const r = await x.a.state(x.text, { entities: ['gym'] });
    expect(r).toMatchObject({ outcome: 'REINFORCED', memory: { id: x.id } });
    const m = await x.a.memory(x.id);
    expect(m.events.map((e: any) => e.kind)).toEqual(['CREATED', 'MUTED', 'UNMUTED', 'REINFORCED']);
    expect((await x.a.status('unmute', x.id)).__typename).toBe('InvalidState');
  });

  it('bulk mute and unmute act on many ids in one request, reporting each', async () => {
    const s = await t.space({ name: 'bulk' });
    const a = actors(t.gql, s);
    const ids: string[] = [];
    for (const text of ['I own a kayak.', 'I was born in Cork.', 'My car is green.']) ids.push((await a.state(text)).memory.id);
    const q = `mutation($ids: [ID!]!) { muteMemories(ids: $ids) { __typename ... on BulkResult { changed results { id outcome } } } }`;
    const r = (await t.gql(s.operator, q, { ids: [...ids, 'unknown'] })).data.muteMemories;
    expect(r.changed).toBe(3);
    expect(r.results.map((x: any) => x.outcome)).toEqual(['DONE', 'DONE', 'DONE', 'NOT_FOUND']);
    expect((await a.list()).nodes).toHaveLength(0);
    const r2 = (await t.gql(s.operator, q, { ids })).data.muteMemories;
    expect(r2.results.map((x: any) => x.outcome)).toEqual(['ALREADY', 'ALREADY', 'ALREADY']);
    const un = (await t.gql(s.operator, q.replace('muteMemories', 'unmuteMemories'), { ids })).data.unmuteMemories;
    expect(un.changed).toBe(3);
    expect((await a.list()).nodes).toHaveLength(3);
  });
});

describe('retraction', () => {
  it('the operator retracts; restating creates a new current memory; a second retraction is recorded like the first', async () => {
    const s = await t.space({ name: 'retract' });
    const a = actors(t.gql, s);
    const text = 'I am training for a marathon.';
    const first = await a.state(text, {}, '2026-06-01T09:00:00Z');
    const r1 = await a.status('retract', first.memory.id);
    expect(r1).toMatchObject({ __typename: 'Memory', status: 'RETRACTED' });
    const m1 = await a.memory(first.memory.id);
    const ev1 = m1.events.find((e: any) => e.kind === 'RETRACTED');
    expect(ev1.actor).toMatch(/^operator:/);
    expect(new Date(ev1.at).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(m1.quote).toBe(text);

    // said again later: a new current memory, not absorbed into the retracted one
    const second = await a.state(text, {}, '2026-07-01T09:00:00Z');
    expect(second.outcome).toBe('CREATED');
    expect(second.memory.id).not.toBe(first.memory.id);
    expect(second.memory.status).toBe('ACTIVE');
    expect((await a.memory(first.memory.id))).toMatchObject({ status: 'RETRACTED', mentionCount: 1 });

    const r2 = await a.status('retract', second.memory.id);
    expect(r2.status).toBe('RETRACTED');
    const ev = await t.gql(s.operator, `query { spaceEvents(first: 1000) { ... on SpaceEventsSuccess { data { id kind memoryId actor at } } } }`);
    const retractions = ev.data.spaceEvents.data.filter((e: any) => e.kind === 'RETRACTED');
    expect(retractions.map((e: any) => e.memoryId)).toEqual([first.memory.id, second.memory.id]);
    expect(new Set(retractions.map((e: any) => e.id)).size).toBe(2);
    expect(retractions.every((e: any) => /^operator:/.test(e.actor))).toBe(true);
    // each memory keeps its own
    expect((await a.memory(second.memory.id)).events.map((e: any) => e.kind)).toEqual(['CREATED', 'RETRACTED']);
    expect((await a.memory(first.memory.id)).events.map((e: any) => e.kind)).toEqual(['CREATED', 'RETRACTED']);
    // retracting twice is refused, not silently recorded
    expect((await a.status('retract', second.memory.id)).__typename).toBe('InvalidState');
    // the chat and assistant roles cannot retract
    const byAssistant = await t.gql(s.assistant, `mutation($m: ID!) { retract(memoryId: $m) { __typename ${ERROR_FIELDS} } }`, { m: second.memory.id });
    expect(byAssistant.data.retract.__typename).toBe('Forbidden');
  });
});
