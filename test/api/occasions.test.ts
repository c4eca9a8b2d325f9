/**
 * The same words at another time (src/core/occasions.ts): an appointment said again for a later
 * date once the first has passed is another appointment; one moved while still ahead is a
 * correction. Through the API, with the space's clock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

const clock = { t: new Date('2026-11-02T09:00:00Z'), now() { return this.t; } };
let t: TestApp;
type Sp = Awaited<ReturnType<TestApp['space']>>;

const REMEMBER = `mutation($i: RememberInput!) { remember(input: $i) { __typename
  ... on RememberOutcome { outcome rule memory { id startsAt dueAt mentionCount status supersedes { id } } }
  ... on Error { message } } }`;

async function say(s: Sp, text: string, type: string, times: Record<string, unknown>) {
  const conv = (await t.gql(s.chat, `mutation { openConversation { ... on Conversation { id } } }`)).data.openConversation.id;
  await t.gql(s.chat, `mutation($c: ID!, $x: String!) { recordMessage(conversationId: $c, role: USER, text: $x) { ... on Message { id } } }`, { c: conv, x: text });
  const r = await t.gql(s.assistant, REMEMBER, { i: { conversationId: conv, quote: text, type, ...times } });
  expect(r.data.remember.__typename, JSON.stringify(r)).toBe('RememberOutcome');
  return r.data.remember;
}
async function statusOf(s: Sp, id: string) {
  return (await t.gql(s.operator, `query($id: ID!) { memory(id: $id) { ... on Memory { status startsAt supersededBy { id } } } }`, { id })).data.memory;
}

beforeAll(async () => {
  t = await createTestApp({ clock });
});
afterAll(async () => {
  await t?.close();
});

describe('the same words at another time', () => {
  it('once the first has passed: another appointment, both kept active, each with its own time', async () => {
    const s = await t.space({ name: 'occasions-another', timeZone: 'UTC' });
    clock.t = new Date('2026-11-02T09:00:00Z');
    const first = await say(s, 'I have a dentist appointment on Tuesday.', 'APPOINTMENT', { startsAt: '2026-11-03T15:00:00Z' });
    expect(first.outcome).toBe('CREATED');
    clock.t = new Date('2026-11-14T09:00:00Z');
    const second = await say(s, 'I have a dentist appointment on Tuesday.', 'APPOINTMENT', { startsAt: '2026-11-17T15:00:00Z' });
    expect(second.outcome).toBe('CREATED');
    expect(second.memory.startsAt).toBe('2026-11-17T15:00:00.000Z');
    expect(await statusOf(s, first.memory.id)).toEqual({ status: 'ACTIVE', startsAt: '2026-11-03T15:00:00.000Z', supersededBy: null });
  });

  it('while the first is still ahead: moved, a correction that supersedes it (kept, linked)', async () => {
    const s = await t.space({ name: 'occasions-moved', timeZone: 'UTC' });
    clock.t = new Date('2026-11-02T09:00:00Z');
    const first = await say(s, 'Remind me to call the plumber.', 'REMINDER', { dueAt: '2026-11-06T09:00:00Z' });
    clock.t = new Date('2026-11-03T09:00:00Z');
    const moved = await say(s, 'Remind me to call the plumber.', 'REMINDER', { dueAt: '2026-11-07T09:00:00Z' });
    expect(moved).toMatchObject({ outcome: 'CORRECTED', rule: 'new-time' });
    expect(moved.memory.dueAt).toBe('2026-11-07T09:00:00.000Z');
    expect(moved.memory.supersedes).toEqual([{ id: first.memory.id }]);
    expect(await statusOf(s, first.memory.id)).toMatchObject({ status: 'SUPERSEDED', supersededBy: { id: moved.memory.id } });
  });

  it('an all-day one told again with its time that day: the new memory holds the time and supersedes it', async () => {
    const s = await t.space({ name: 'occasions-precise', timeZone: 'UTC' });
    clock.t = new Date('2026-11-02T09:00:00Z');
    const first = await say(s, 'I have a dentist appointment on Tuesday.', 'APPOINTMENT', { startsAt: '2026-11-03T00:00:00Z', allDay: true });
    const precise = await say(s, 'I have a dentist appointment on Tuesday.', 'APPOINTMENT', { startsAt: '2026-11-03T15:00:00Z' });
    expect(precise).toMatchObject({ outcome: 'CORRECTED', rule: 'precise-time', memory: { startsAt: '2026-11-03T15:00:00.000Z', supersedes: [{ id: first.memory.id }] } });
    // said again as the whole day: the same appointment, its time of day kept
    const again = await say(s, 'I have a dentist appointment on Tuesday.', 'APPOINTMENT', { startsAt: '2026-11-03T00:00:00Z', allDay: true });
    expect(again).toMatchObject({ outcome: 'REINFORCED', memory: { id: precise.memory.id, mentionCount: 2, startsAt: '2026-11-03T15:00:00.000Z' } });
  });

  it('at the same time, or with no time given again: a restatement', async () => {
    const s = await t.space({ name: 'occasions-same', timeZone: 'UTC' });
    clock.t = new Date('2026-11-02T09:00:00Z');
    const first = await say(s, 'The team dinner is on Friday at seven.', 'EVENT', { startsAt: '2026-11-06T19:00:00Z' });
    const again = await say(s, 'The team dinner is on Friday at seven.', 'EVENT', { startsAt: '2026-11-06T19:00:00Z' });
    expect(again).toMatchObject({ outcome: 'REINFORCED', memory: { id: first.memory.id, mentionCount: 2 } });
    const bare = await say(s, 'The team dinner is on Friday at seven.', 'EVENT', {});
    expect(bare).toMatchObject({ outcome: 'REINFORCED', memory: { id: first.memory.id, mentionCount: 3, startsAt: '2026-11-06T19:00:00.000Z' } });
  });
});
