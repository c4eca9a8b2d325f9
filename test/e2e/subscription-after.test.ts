/**
 * `memoryEvents(after:)` with an id past the space's last event (a client's typo, or a cursor kept
 * across a restore of the database from a backup): the stream dropped every event up to that id,
 * so it answered nothing, ever, in silence. It is refused naming `after`; an id the space has
 * given, its last included, still resumes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from 'graphql-ws';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { listen, say, until, wsClient } from '../helpers/live.js';

let t: TestApp;
let url: string;
const clients: Client[] = [];
beforeAll(async () => {
  t = await createTestApp();
  url = (await t.app.start()).url;
});
afterAll(async () => {
  for (const c of clients) await c.dispose();
  await t?.close();
});

const SUB = 'subscription($after: ID) { memoryEvents(after: $after) { kind memoryId } }';

describe('memoryEvents(after:) past the last event', () => {
  it('is refused naming after; the last id itself resumes with the live events', async () => {
    const sp = await t.space();
    const first = await say(url, sp, 'My nephew Corwin juggles flaming torches.');
    const client = wsClient(url, sp.operator);
    clients.push(client);
    const ahead = listen(client, SUB, { after: '999999999999999' });
    await until(() => ahead.errors.length > 0, 20_000, 'an answer to the subscription');
    expect(ahead.errors).toHaveLength(1);
    expect(ahead.errors[0]).toMatchObject({ extensions: { code: 'INVALID_INPUT', field: 'after' } });
    const events = (await t.gql(sp.operator, `query { spaceEvents { ... on SpaceEventsSuccess { data { id } } } }`)).data.spaceEvents.data;
    const resumed = listen(client, SUB, { after: events[events.length - 1].id });
    const next = await say(url, sp, 'My niece Imelda collects antique compasses.');
    await until(() => resumed.events.some((e) => e.memoryId === next.id), 30_000, 'the live event after the last id');
    expect(resumed.events.map((e) => e.memoryId)).not.toContain(first.id);
    expect(resumed.errors).toEqual([]);
    resumed.stop();
  });
});
