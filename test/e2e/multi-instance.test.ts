/**
 * Two servers on one PostgreSQL database (docs/live-updates.md): a graphql-ws subscriber on
 * B hears, in order, what is written through A; a subscriber that disconnects and resumes
 * with `after` (on the other instance) misses nothing and gets nothing twice; a statement
 * writing thousands of events loses none; a space dropped through either instance ends the
 * subscriptions to it on both (graphql-ws and server-sent events), with an error naming the drop
 * (they stayed open, silent, for ever). Also `after` and a drop on the embedded default.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from 'graphql-ws';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { httpGql, listen, listenSse, say, until, wsClient } from '../helpers/live.js';
import { PgClient } from '../../src/store/pg-client.js';
import { assertTestDatabase } from '../helpers/db.js';

const SUB = `subscription($after: ID) { memoryEvents(after: $after) { kind memoryId event { id } memory { id status } } }`;
const clients: Client[] = [];
/** An admin's subscription to a named space (an admin's token outlives the space; a space's own tokens go with it). */
const SUB_IN = `subscription($s: ID) { memoryEvents(spaceId: $s) { kind memoryId event { id } } }`;
const DROP = `mutation($i: ID!) { dropSpace(id: $i, confirm: true) { __typename ... on Error { message } } }`;

/**
 * Subscribes to a sealed space over graphql-ws and over server-sent events on `subUrl`, hears a
 * first change on both (they are live), drops the space through `dropUrl`, and waits for both
 * subscriptions to end (a bound, not a race: they used to stay open for ever).
 */
async function subscribeThenDrop(t: TestApp, subUrl: string, dropUrl: string) {
  const sp = await t.space({ name: 'to drop', sealed: true });
  const ws = listen(client(subUrl, t.adminToken), SUB_IN, { s: sp.id });
  const sse = await listenSse(subUrl, t.adminToken, SUB_IN, { s: sp.id });
  const m = await say(subUrl, sp, 'My locker code is 4471.');
  await until(() => ws.events.length >= 1 && sse.text.includes(m.id), 30_000, 'the first change on both');
  expect((await httpGql(dropUrl, t.adminToken, DROP, { i: sp.id })).dropSpace).toEqual({ __typename: 'DropSpaceSuccess' });
  await until(() => ws.ended && sse.ended, 20_000, 'both subscriptions to end');
  expect(ws.events.map((e) => e.kind)).toEqual(['CREATED']);
  expect(ws.errors).toMatchObject([{ message: `Space ${sp.id} was dropped`, extensions: { code: 'NOT_FOUND' } }]);
  const afterFirst = sse.text.slice(sse.text.indexOf(m.id));
  expect(afterFirst).toContain(`Space ${sp.id} was dropped`);
  expect(afterFirst.match(/event: next/g)).toHaveLength(1); // the error, nothing else
  expect(afterFirst).toContain('event: complete');
}
async function spaceEvents(url: string, token: string): Promise<{ id: string; kind: string }[]> {
  const r = await httpGql(url, token, `{ spaceEvents(first: 1000) { ... on SpaceEventsSuccess { data { id kind } } ... on Error { message } } }`);
  return r.spaceEvents.data;
}
const client = (url: string, token: string) => {
  const c = wsClient(url, token);
  clients.push(c);
  return c;
};

describe.skipIf(!process.env.DATABASE_URL)('two instances on one PostgreSQL', () => {
  let a: TestApp;
  let b: TestApp;
  let urlA: string;
  let urlB: string;
  const dbs: PgClient[] = [];
  beforeAll(async () => {
    assertTestDatabase(process.env.DATABASE_URL!);
    for (let i = 0; i < 2; i++) dbs.push(new PgClient(process.env.DATABASE_URL!, 4));
    a = await createTestApp({ db: dbs[0] });
    b = await createTestApp({ db: dbs[1] });
    urlA = (await a.app.start()).url;
    urlB = (await b.app.start()).url;
  });
  afterAll(async () => {
    for (const c of clients) await c.dispose();
    await a?.close();
    await b?.close();
    for (const d of dbs) await d.close();
  });

  it('a subscriber on B receives, in order, what is remembered, reinforced, corrected and muted through A', async () => {
    const sp = await a.space({ name: 'multi' });
    const other = await a.space({ name: 'multi-other' });
    // Fresh spaces, so `after: "0"` is every event: nothing is lost while the subscriptions are
    // being registered (graphql-ws does not acknowledge them; a sleep would be a race).
    const onB = listen(client(urlB, sp.operator), SUB, { after: '0' });
    const theirs = listen(client(urlB, other.operator), SUB, { after: '0' });

    const first = await say(urlA, sp, 'My brother plays the cello.');
    expect((await say(urlA, sp, 'my brother plays the cello')).outcome).toBe('REINFORCED');
    const fix = await say(urlA, sp, 'Actually, my brother plays the viola, not the cello.');
    expect(fix.outcome).toBe('CORRECTED');
    await httpGql(urlA, sp.operator, `mutation($ids: [ID!]!) { muteMemories(ids: $ids) { __typename } }`, { ids: [fix.id] });
    const expected = [
      ['CREATED', first.id], ['REINFORCED', first.id], ['CREATED', fix.id], ['CORRECTED', fix.id], ['SUPERSEDED', first.id], ['MUTED', fix.id],
    ];
    await until(() => onB.events.length >= expected.length, 30_000, 'the events on B');
    await new Promise((r) => setTimeout(r, 300));
    expect(onB.errors).toEqual([]);
    expect(onB.events.map((e) => [e.kind, e.memoryId])).toEqual(expected);
    const ids = onB.events.map((e) => Number(e.event.id));
    expect([...ids].sort((x, y) => x - y)).toEqual(ids);
    expect(onB.events.at(-1).memory).toMatchObject({ id: fix.id, status: 'MUTED' });
    expect(theirs.events).toEqual([]);
    onB.stop();
    theirs.stop();
  });

  it('a subscriber that disconnects and resumes with `after`, on the other instance, misses none and repeats none', async () => {
    const sp = await a.space({ name: 'resume' });
    const c1 = client(urlB, sp.operator);
    const first = listen(c1, SUB, { after: '0' }); // a fresh space: every event, none lost to registration
    await say(urlA, sp, 'I was born in Gdansk.');
    await say(urlA, sp, 'My cat is called Miso.');
    await until(() => first.events.length >= 2, 30_000, 'the first two events');
    const lastSeen = first.events.at(-1).event.id;
    await c1.dispose();

    // While nobody listens: more changes, through both instances.
    const g = await say(urlA, sp, 'I drink my coffee black.');
    await say(urlB, sp, 'I drink my coffee black');
    await httpGql(urlB, sp.operator, `mutation($ids: [ID!]!) { muteMemories(ids: $ids) { __typename } }`, { ids: [g.id] });

    const resumed = listen(client(urlA, sp.operator), SUB, { after: lastSeen });
    await say(urlB, sp, 'My train leaves at eight.');
    const allIds = (await spaceEvents(urlA, sp.operator)).map((e) => e.id);
    const want = allIds.slice(allIds.indexOf(lastSeen) + 1);
    expect(want).toHaveLength(4); // coffee CREATED, REINFORCED, MUTED; train CREATED
    await until(() => resumed.events.length >= want.length, 30_000, 'the resumed stream');
    await new Promise((r) => setTimeout(r, 300));
    const got = resumed.events.map((e) => e.event.id);
    expect(got).toEqual(want);
    expect(resumed.events.at(-1).kind).toBe('CREATED');
    // Together, the two streams are the space's whole log, in order.
    expect([...first.events.map((e) => e.event.id), ...got]).toEqual((await spaceEvents(urlA, sp.operator)).map((e) => e.id));
    resumed.stop();
  });

  it('thousands of events in one statement reach the other instance, none lost', async () => {
    const sp = await a.space({ name: 'bulk-events' });
    const onB = listen(client(urlB, sp.operator), `subscription($after: ID) { memoryEvents(after: $after) { kind event { id } } }`, { after: '0' });
    const n = 3000;
    await a.app.engram.store.transaction((tx) => a.app.engram.store.addEvents(tx, Array.from({ length: n }, (_, i) => ({
      spaceId: sp.id, memoryId: null, kind: 'BULK_TEST', actor: 'test', tier: null, score: null, rule: null, relatedId: null, detail: { i },
    }))));
    await until(() => onB.events.length >= n, 60_000, `${n} events on B`);
    expect(onB.events.length).toBe(n);
    const ids = onB.events.map((e) => Number(e.event.id));
    expect(new Set(ids).size).toBe(n);
    expect([...ids].sort((x, y) => x - y)).toEqual(ids);
    onB.stop();
  });

  it('a space dropped through B ends its subscriptions on A: an error naming the drop, then nothing', async () => {
    await subscribeThenDrop(a, urlA, urlB);
  });

  it('a space dropped through A ends its subscriptions on A the same way', async () => {
    await subscribeThenDrop(a, urlA, urlA);
  });
});

describe('`after` on the embedded default (in process)', () => {
  let t: TestApp;
  let url: string;
  beforeAll(async () => {
    t = await createTestApp();
    url = (await t.app.start()).url;
  });
  afterAll(async () => t?.close());

  it('replays the events after the given id, then the live ones; refuses an id that is not one', async () => {
    const sp = await t.space({ name: 'embedded-resume' });
    await say(url, sp, 'I speak Portuguese.');
    const m = await say(url, sp, 'I own a blue bicycle.');
    const events = await spaceEvents(url, sp.operator);
    const resumed = listen(client(url, sp.operator), SUB, { after: events[0].id });
    await until(() => resumed.events.length >= events.length - 1, 20_000, 'the backlog');
    await httpGql(url, sp.operator, `mutation($ids: [ID!]!) { muteMemories(ids: $ids) { __typename } }`, { ids: [m.id] });
    await until(() => resumed.events.length >= events.length, 20_000, 'the live event');
    expect(resumed.events.map((e) => e.event.id)).toEqual([...events.slice(1).map((e: any) => e.id), resumed.events.at(-1).event.id]);
    expect(resumed.events.at(-1).kind).toBe('MUTED');
    resumed.stop();

    const bad = listen(client(url, sp.operator), SUB, { after: 'yesterday' });
    await bad.done;
    expect(JSON.stringify(bad.errors)).toMatch(/after/);
  });

  it('a dropped space ends its subscriptions, as on a server', async () => {
    await subscribeThenDrop(t, url, url);
  });
});
