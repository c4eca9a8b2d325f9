import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { consolidate } from '../../src/memory/consolidate.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { overriding } from '../helpers/override.js';

type Sp = Awaited<ReturnType<TestApp['space']>>;
let t: TestApp;
let sp: Sp;
let other: Sp;

async function say(s: Sp, text: string, extra: Record<string, unknown> = {}, app: TestApp = t): Promise<{ outcome: string; id: string }> {
  const conv = (await app.gql(s.chat, `mutation { openConversation { ... on Conversation { id } } }`)).data.openConversation.id;
  await app.gql(s.chat, `mutation($c: ID!, $x: String!) { recordMessage(conversationId: $c, role: USER, text: $x) { ... on Message { id } } }`, { c: conv, x: text });
  const r = await app.gql(s.assistant, `mutation($i: RememberInput!) { remember(input: $i) {
    ... on RememberOutcome { outcome memory { id } } ... on Error { message } } }`, { i: { conversationId: conv, quote: text, type: 'FACT', ...extra } });
  return { outcome: r.data.remember.outcome, id: r.data.remember.memory?.id };
}
const setMuted = (s: Sp, ids: string[], muted: boolean, app: TestApp = t) =>
  app.gql(s.operator, `mutation($ids: [ID!]!) { ${muted ? 'muteMemories' : 'unmuteMemories'}(ids: $ids) { ... on BulkResult { changed } } }`, { ids });

const MEMORY = `query($id: ID!) { memory(id: $id) { __typename ... on Memory { id status mentionCount mergedInto { id } mentions { quote } } } }`;
const memory = async (id: string) => (await t.gql(sp.operator, MEMORY, { id })).data.memory;
const CLUSTERS = `query($s: ID) { duplicateClusters(spaceId: $s) { __typename
  ... on DuplicateClustersSuccess { data { reference { id } members { id } links { fromId toId tier score } } } ... on Error { message } } }`;
const CONSOLIDATE = `mutation($dry: Boolean) { consolidate(dryRun: $dry) { __typename
  ... on ConsolidationResult { dryRun merged clusters { reference { id mentionCount } members { id status } } } ... on Error { message } } }`;

const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp();
  sp = await t.space({ name: 'duplicates' });
  other = await t.space({ name: 'other' });
  // Duplicates stored "before recognition improved": each earlier copy muted while the next is said, then unmuted.
  ids.a = (await say(sp, "I'm allergic to peanuts.", { entities: ['peanuts'] })).id;
  await setMuted(sp, [ids.a], true);
  const b = await say(sp, 'I have a peanut allergy.', { entities: ['peanuts'] });
  expect(b.outcome).toBe('CREATED');
  ids.b = b.id;
  expect((await say(sp, 'I have a peanut allergy!', { entities: ['peanuts'] })).outcome).toBe('REINFORCED');
  await setMuted(sp, [ids.b], true);
  const c = await say(sp, "i'm allergic to peanuts");
  expect(c.outcome).toBe('CREATED');
  ids.c = c.id;
  await setMuted(sp, [ids.a, ids.b], false);
  // A correction stored while the original was muted: never a duplicate.
  ids.d = (await say(sp, 'My favorite color is blue.')).id;
  await setMuted(sp, [ids.d], true);
  ids.e = (await say(sp, 'Actually, my favorite color is orange, not blue.')).id;
  await setMuted(sp, [ids.d], false);
  ids.f = (await say(sp, 'I live in Lisbon.')).id;
});

afterAll(async () => {
  await t?.close();
});

describe('duplicateClusters', () => {
  it('finds what recognition would now merge, with the most complete memory as the reference', async () => {
    const r = await t.gql(sp.operator, CLUSTERS);
    const clusters = r.data.duplicateClusters.data;
    expect(clusters).toHaveLength(1);
    expect(clusters[0].reference.id).toBe(ids.b); // two mentions
    expect(clusters[0].members.map((m: any) => m.id)).toEqual([ids.b, ids.a, ids.c]);
    const tiers = clusters[0].links.map((l: any) => l.tier).sort();
    expect(tiers).toContain('EXACT');
    for (const l of clusters[0].links) expect(l.score).toBeGreaterThan(0.5);
  });

  it('is walled', async () => {
    const r = await t.gql(other.operator, CLUSTERS, { s: sp.id });
    expect(r.data.duplicateClusters.__typename).toBe('NotFound');
    const chat = await t.gql(sp.chat, CLUSTERS);
    expect(chat.data.duplicateClusters.__typename).toBe('Forbidden');
  });
});

describe('consolidate and unmerge', () => {
  it('a dry run changes nothing', async () => {
    const r = await t.gql(sp.operator, CONSOLIDATE, { dry: true });
    expect(r.data.consolidate).toMatchObject({ dryRun: true, merged: 0 });
    expect(r.data.consolidate.clusters).toHaveLength(1);
    expect((await memory(ids.a)).status).toBe('ACTIVE');
    expect((await memory(ids.b)).mentionCount).toBe(2);
  });

  it('keeps the reference, marks the others MERGED into it and moves their counts and wordings onto it', async () => {
    const r = await t.gql(sp.operator, CONSOLIDATE);
    expect(r.data.consolidate.merged).toBe(2);
    expect(r.data.consolidate.clusters[0].reference).toEqual({ id: ids.b, mentionCount: 4 });
    const ref = await memory(ids.b);
    expect(ref.status).toBe('ACTIVE');
    expect(ref.mentionCount).toBe(4);
    expect(ref.mentions.map((m: any) => m.quote).sort()).toEqual(
      ["I'm allergic to peanuts.", 'I have a peanut allergy!', 'I have a peanut allergy.', "i'm allergic to peanuts"].sort(),
    );
    for (const id of [ids.a, ids.c]) {
      const m = await memory(id);
      expect(m.status).toBe('MERGED');
      expect(m.mergedInto).toEqual({ id: ids.b });
    }
    // Not deleted, and the correction pair is untouched.
    expect((await memory(ids.d)).status).toBe('ACTIVE');
    expect((await memory(ids.e)).status).toBe('ACTIVE');
    // Recall finds the reference (its lexical text holds every wording), never a merged copy.
    const rec = await t.gql(sp.operator, `query { recallSpace(query: "allergic to peanuts") { ... on RecallResult { statements { memory { id } } } } }`);
    const hits = rec.data.recallSpace.statements.map((h: any) => h.memory.id);
    expect(hits).toContain(ids.b);
    expect(hits).not.toContain(ids.a);
    expect(hits).not.toContain(ids.c);
    // Nothing left to merge.
    expect((await t.gql(sp.operator, CLUSTERS)).data.duplicateClusters.data).toEqual([]);
  });

  it('unmerge restores the memory and takes exactly its count and wordings back', async () => {
    const r = await t.gql(sp.operator, `mutation($id: ID!) { unmerge(memoryId: $id) { __typename ... on Memory { status mergedInto { id } } } }`, { id: ids.c });
    expect(r.data.unmerge).toEqual({ __typename: 'Memory', status: 'ACTIVE', mergedInto: null });
    const ref = await memory(ids.b);
    expect(ref.mentionCount).toBe(3);
    expect(ref.mentions.map((m: any) => m.quote)).not.toContain("i'm allergic to peanuts");
    const again = await t.gql(sp.operator, `mutation($id: ID!) { unmerge(memoryId: $id) { __typename } }`, { id: ids.b });
    expect(again.data.unmerge.__typename).toBe('InvalidState');
    const walled = await t.gql(other.operator, `mutation($id: ID!) { unmerge(memoryId: $id) { __typename } }`, { id: ids.a });
    expect(walled.data.unmerge.__typename).toBe('NotFound');
    const ev = await t.gql(sp.operator, `query { spaceEvents(first: 1000) { ... on SpaceEventsSuccess { data { kind memoryId relatedId tier detail } } } }`);
    const kinds = (ev.data.spaceEvents.data as any[]).filter((e) => e.kind === 'MERGED' || e.kind === 'UNMERGED');
    expect(kinds.map((e) => [e.kind, e.memoryId, e.relatedId])).toEqual([
      ['MERGED', ids.a, ids.b], ['MERGED', ids.c, ids.b], ['UNMERGED', ids.c, ids.b],
    ]);
    expect(kinds[0].detail).toEqual({ added: 1 });
  });

  it('forgetting a reference forgets what was merged into it', async () => {
    const r = await t.gql(sp.operator, `mutation($ids: [ID!]!) { forgetMemories(ids: $ids, confirm: true) { ... on BulkResult { changed } } }`, { ids: [ids.b] });
    expect(r.data.forgetMemories.changed).toBe(2);
    expect((await memory(ids.a)).__typename).toBe('NotFound');
    expect((await memory(ids.c)).status).toBe('ACTIVE');
  });
});

describe('scheduled consolidation', () => {
  it('is off by default and runs every ENGRAM_CONSOLIDATE_EVERY seconds when set', async () => {
    expect(t.app.engram.deps).toBeTruthy();
    const s = await createTestApp({ env: { ENGRAM_CONSOLIDATE_EVERY: '1' } });
    try {
      const space = await s.space({ name: 'scheduled' });
      const first = (await say(space, 'I take the 7:15 train to work.', {}, s)).id;
      await setMuted(space, [first], true, s);
      const second = (await say(space, 'i take the 7:15  train to work', {}, s)).id;
      await setMuted(space, [first], false, s);
      // A bound, not a race: the job runs every second; a loaded machine may take far longer.
      const deadline = Date.now() + 60_000;
      let statuses: string[] = [];
      while (Date.now() < deadline) {
        const [x, y] = await s.app.engram.store.getMemories([first, second]);
        statuses = [x!.status, y!.status].sort();
        if (statuses.includes('MERGED')) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(statuses).toEqual(['ACTIVE', 'MERGED']);
    } finally {
      await s.close();
    }
  });
});

describe('consolidation and the space lock', () => {
  it('merges the clusters found before the lock only if nothing was written meanwhile; a dry run takes no lock', async () => {
    const app = await createTestApp();
    try {
      const s = await app.space({ name: 'changed meanwhile' });
      const first = await say(s, 'I have a peanut allergy.', {}, app);
      await setMuted(s, [first.id], true, app);
      const second = await say(s, "I'm allergic to peanuts.", {}, app);
      expect(second.outcome).toBe('CREATED');
      await setMuted(s, [first.id], false, app);
      const deps = app.app.engram.deps;
      const actor = { role: 'operator' as const, tokenId: null, spaceId: s.id };
      const read = vi.fn(deps.store.activeStatements.bind(deps.store));
      // A dry run changes nothing, and holds no lock (an operator's look at a busy space kept every other waiting).
      const noLock = overriding(deps.store, { activeStatements: read, withSpaceLock: () => { throw new Error('a dry run took the lock'); } });
      const dry = await consolidate({ ...deps, store: noLock }, actor, s.id, true);
      expect(dry.clusters.flatMap((c) => c.members.map((m) => m.id)).sort()).toEqual([first.id, second.id].sort());
      // The second copy muted after the clusters were found, before the lock: the space's last event
      // moved, so they are found again (without it), and nothing is merged: the muted one stays muted.
      read.mockClear();
      let raced = false;
      const racing = overriding(deps.store, {
        activeStatements: read,
        withSpaceLock: async (spaceId: string, fn: (tx: unknown) => Promise<unknown>) => {
          if (!raced) {
            raced = true;
            await setMuted(s, [second.id], true, app);
          }
          return deps.store.withSpaceLock(spaceId, fn as never);
        },
      });
      const r = await consolidate({ ...deps, store: racing }, actor, s.id, false);
      expect(read).toHaveBeenCalledTimes(2);
      expect(r.merged).toBe(0);
      expect((await app.gql(s.operator, `query($id: ID!) { memory(id: $id) { ... on Memory { status } } }`, { id: second.id })).data.memory.status).toBe('MUTED');
      // Nothing written meanwhile: the clusters found before the lock are merged, read once.
      await setMuted(s, [second.id], false, app);
      read.mockClear();
      const quiet = overriding(deps.store, { activeStatements: read });
      expect((await consolidate({ ...deps, store: quiet }, actor, s.id, false)).merged).toBe(1);
      expect(read).toHaveBeenCalledTimes(1);
    } finally {
      await app.close();
    }
  });
});
