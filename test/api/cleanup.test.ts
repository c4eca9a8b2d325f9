import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

/** A settable clock: cleanup decides "past" against it. */
const clock = { t: new Date('2026-03-10T16:00:00Z'), now() { return this.t; } };

type Sp = Awaited<ReturnType<TestApp['space']>>;
let t: TestApp;
let sp: Sp;
let other: Sp;

/** The chat side records the person's words; the assistant keeps them (with times). */
async function say(s: Sp, text: string, type: string, extra: Record<string, unknown> = {}): Promise<string> {
  const conv = (await t.gql(s.chat, `mutation { openConversation { ... on Conversation { id } } }`)).data.openConversation.id;
  await t.gql(s.chat, `mutation($c: ID!, $x: String!) { recordMessage(conversationId: $c, role: USER, text: $x) { ... on Message { id } } }`, { c: conv, x: text });
  const r = await t.gql(s.assistant, `mutation($i: RememberInput!) { remember(input: $i) {
    ... on RememberOutcome { outcome memory { id } } ... on Error { message } } }`, { i: { conversationId: conv, quote: text, type, ...extra } });
  expect(r.data.remember.outcome, JSON.stringify(r)).toBe('CREATED');
  return r.data.remember.memory.id;
}

const CLEAN = `mutation($s: ID, $c: [MemoryType!]!, $scope: CleanupScope!, $confirm: Boolean, $dry: Boolean) {
  cleanUp(spaceId: $s, categories: $c, scope: $scope, confirm: $confirm, dryRun: $dry) {
    __typename ... on CleanUpResult { dryRun total counts { type count } } ... on Error { code message }
  }
}`;
const asMap = (counts: { type: string; count: number }[]) => Object.fromEntries(counts.map((c) => [c.type, c.count]));

async function exists(id: string): Promise<boolean> {
  const r = await t.gql(sp.operator, `query($id: ID!) { memory(id: $id) { __typename } }`, { id });
  return r.data.memory.__typename === 'Memory';
}

const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp({ clock });
  sp = await t.space({ name: 'cleanup', timeZone: 'UTC' });
  other = await t.space({ name: 'other' });
  // The space's clock is New York's (EDT since March 8: UTC-4).
  const tz = await t.gql(sp.operator, `mutation { setSpaceTimeZone(timeZone: "America/New_York") { ... on Space { timeZone } ... on Error { message } } }`);
  expect(tz.data.setSpaceTimeZone.timeZone).toBe('America/New_York');

  ids.allDayToday = await say(sp, 'The plumber comes round today.', 'APPOINTMENT', { startsAt: '2026-03-10T00:00:00Z', allDay: true });
  ids.yesterday = await say(sp, 'I saw the physiotherapist on Monday morning.', 'APPOINTMENT', { startsAt: '2026-03-09T13:00:00Z', endsAt: '2026-03-09T14:00:00Z' });
  ids.upcoming = await say(sp, 'My sister visits on Thursday at noon.', 'APPOINTMENT', { startsAt: '2026-03-12T16:00:00Z' });
  ids.mutedUpcoming = await say(sp, 'The piano tuner is booked for next week.', 'APPOINTMENT', { startsAt: '2026-03-17T15:00:00Z' });
  ids.taskDone = await say(sp, 'I need to renew my passport.', 'TASK', { dueAt: '2026-03-20T00:00:00Z' });
  ids.taskOpen = await say(sp, 'I have to file the tax return.', 'TASK', { dueAt: '2026-04-15T00:00:00Z' });
  ids.reminderCancelled = await say(sp, 'Remind me to call the bank about the mortgage.', 'REMINDER', { dueAt: '2026-03-25T14:00:00Z' });
  ids.memo = await say(sp, 'Shopping list: eggs, flour and lemons.', 'MEMO');
  ids.fact = await say(sp, 'I grew up in Duluth.', 'FACT');
  ids.otherSpace = await say(other, 'My dentist appointment was last week.', 'APPOINTMENT', { startsAt: '2026-03-02T15:00:00Z' });

  const mute = await t.gql(sp.operator, `mutation($ids: [ID!]!) { muteMemories(ids: $ids) { ... on BulkResult { changed } } }`, { ids: [ids.mutedUpcoming] });
  expect(mute.data.muteMemories.changed).toBe(1);
  // Done this morning (08:00 in New York).
  const done = await t.gql(sp.operator, `mutation($id: ID!) { resolveMemory(memoryId: $id, resolution: DONE, at: "2026-03-10T12:00:00Z") {
    ... on Memory { resolution resolvedAt } ... on Error { message } } }`, { id: ids.taskDone });
  expect(done.data.resolveMemory).toEqual({ resolution: 'DONE', resolvedAt: '2026-03-10T12:00:00.000Z' });
  const cancelled = await t.gql(sp.operator, `mutation($id: ID!) { resolveMemory(memoryId: $id, resolution: CANCELLED) { ... on Memory { resolution } } }`, { id: ids.reminderCancelled });
  expect(cancelled.data.resolveMemory.resolution).toBe('CANCELLED');
});

afterAll(async () => {
  await t?.close();
});

describe('resolution and time zone', () => {
  it('refuses a resolution on a memory without a time, and an unknown time zone', async () => {
    const r = await t.gql(sp.operator, `mutation($id: ID!) { resolveMemory(memoryId: $id, resolution: DONE) { __typename } }`, { id: ids.fact });
    expect(r.data.resolveMemory.__typename).toBe('InvalidState');
    const z = await t.gql(sp.operator, `mutation { setSpaceTimeZone(timeZone: "Mars/Olympus") { __typename } }`);
    expect(z.data.setSpaceTimeZone.__typename).toBe('InvalidInput');
  });
  it('keeps a time zone by its canonical name, however it was typed', async () => {
    const set = async (tz: string) => (await t.gql(sp.operator, `mutation($tz: String!) { setSpaceTimeZone(timeZone: $tz) { ... on Space { timeZone } } }`, { tz })).data.setSpaceTimeZone.timeZone;
    expect(await set('EUROPE/paris')).toBe('Europe/Paris');
    expect(await set('utc')).toBe('UTC');
    const made = (await t.gql(t.adminToken, `mutation { createSpace(name: "zoned", timeZone: "america/new_york") { ... on Space { timeZone } } }`)).data.createSpace;
    expect(made.timeZone).toBe('America/New_York');
    expect(await set('America/New_York')).toBe('America/New_York');
  });
  it('reopens a resolved item', async () => {
    const id = await say(sp, 'I must water the orchids.', 'TASK');
    await t.gql(sp.operator, `mutation($id: ID!) { resolveMemory(memoryId: $id, resolution: DONE) { __typename } }`, { id });
    const r = await t.gql(sp.operator, `mutation($id: ID!) { reopenMemory(memoryId: $id) { ... on Memory { resolution resolvedAt } } }`, { id });
    expect(r.data.reopenMemory).toEqual({ resolution: null, resolvedAt: null });
  });
  it('walls: another space cannot resolve or sweep this one', async () => {
    const r = await t.gql(other.operator, `mutation($id: ID!) { resolveMemory(memoryId: $id, resolution: DONE) { __typename } }`, { id: ids.taskOpen });
    expect(r.data.resolveMemory.__typename).toBe('NotFound');
    const c = await t.gql(other.operator, CLEAN, { s: sp.id, c: ['APPOINTMENT'], scope: 'EVERYTHING', confirm: true });
    expect(c.data.cleanUp.__typename).toBe('NotFound');
    const chat = await t.gql(sp.chat, CLEAN, { c: ['APPOINTMENT'], scope: 'EVERYTHING', dry: true });
    expect(chat.data.cleanUp.__typename).toBe('Forbidden');
  });
});

describe('cleanUp PAST_OR_RESOLVED', () => {
  it('at 21:00 in New York, an all-day appointment of today is not past; the rest is swept as the dry run said', async () => {
    clock.t = new Date('2026-03-11T01:00:00Z'); // 21:00 on the 10th in New York; past midnight UTC
    const cats = ['APPOINTMENT', 'TASK', 'REMINDER'];
    const dry = await t.gql(sp.operator, CLEAN, { c: cats, scope: 'PAST_OR_RESOLVED', dry: true });
    expect(dry.data.cleanUp.dryRun).toBe(true);
    expect(asMap(dry.data.cleanUp.counts)).toEqual({ APPOINTMENT: 2, TASK: 1, REMINDER: 1 });
    expect(await exists(ids.yesterday)).toBe(true);

    const refused = await t.gql(sp.operator, CLEAN, { c: cats, scope: 'PAST_OR_RESOLVED' });
    expect(refused.data.cleanUp.__typename).toBe('ConfirmationRequired');
    expect(await exists(ids.yesterday)).toBe(true);

    const real = await t.gql(sp.operator, CLEAN, { c: cats, scope: 'PAST_OR_RESOLVED', confirm: true });
    expect(real.data.cleanUp).toMatchObject({ dryRun: false, total: dry.data.cleanUp.total, counts: dry.data.cleanUp.counts });
    // Past, muted (upcoming) and already resolved (done this morning, cancelled) are gone.
    for (const k of ['yesterday', 'mutedUpcoming', 'taskDone', 'reminderCancelled']) expect(await exists(ids[k]), k).toBe(false);
    // Today's all-day appointment, the upcoming one, the open task and other categories stay.
    for (const k of ['allDayToday', 'upcoming', 'taskOpen', 'memo', 'fact']) expect(await exists(ids[k]), k).toBe(true);
    // Another space is untouched.
    const o = await t.gql(other.operator, `query($id: ID!) { memory(id: $id) { __typename } }`, { id: ids.otherSpace });
    expect(o.data.memory.__typename).toBe('Memory');

    const ev = await t.gql(sp.operator, `query { spaceEvents(first: 1000) { ... on SpaceEventsSuccess { data { kind memoryId detail } } } }`);
    const cleaned = (ev.data.spaceEvents.data as any[]).filter((e) => e.kind === 'CLEANED');
    expect(cleaned.map((e) => e.memoryId).sort()).toEqual([ids.yesterday, ids.mutedUpcoming, ids.taskDone, ids.reminderCancelled].sort());
    expect(JSON.stringify(cleaned)).not.toMatch(/physiotherapist|passport/);
  });

  it('at midnight in New York the all-day appointment is past', async () => {
    clock.t = new Date('2026-03-11T03:59:00Z');
    let dry = await t.gql(sp.operator, CLEAN, { c: ['APPOINTMENT'], scope: 'PAST_OR_RESOLVED', dry: true });
    expect(dry.data.cleanUp.total).toBe(0);
    clock.t = new Date('2026-03-11T04:00:00Z');
    dry = await t.gql(sp.operator, CLEAN, { c: ['APPOINTMENT'], scope: 'PAST_OR_RESOLVED', dry: true });
    expect(asMap(dry.data.cleanUp.counts)).toEqual({ APPOINTMENT: 1 });
  });
});

describe('cleanUp EVERYTHING', () => {
  it('includes upcoming appointments and undated memos; dry-run counts equal real counts', async () => {
    const dry = await t.gql(sp.operator, CLEAN, { c: ['APPOINTMENT', 'MEMO'], scope: 'EVERYTHING', dry: true });
    expect(asMap(dry.data.cleanUp.counts)).toEqual({ APPOINTMENT: 2, MEMO: 1 });
    const real = await t.gql(sp.operator, CLEAN, { c: ['APPOINTMENT', 'MEMO'], scope: 'EVERYTHING', confirm: true });
    expect(real.data.cleanUp.counts).toEqual(dry.data.cleanUp.counts);
    for (const k of ['allDayToday', 'upcoming', 'memo']) expect(await exists(ids[k]), k).toBe(false);
    expect(await exists(ids.fact)).toBe(true);
    expect(await exists(ids.taskOpen)).toBe(true);
    const again = await t.gql(sp.operator, CLEAN, { c: ['APPOINTMENT', 'MEMO'], scope: 'EVERYTHING', dry: true });
    expect(again.data.cleanUp.total).toBe(0);
  });

  it('sweeps every terminal state: retracted, superseded, erroneous', async () => {
    const a = await say(sp, 'Remind me to buy stamps.', 'REMINDER');
    const b = await say(sp, 'Remind me to book the car service.', 'REMINDER');
    const c = await say(sp, 'Remind me to send the birthday card to Aunt May.', 'REMINDER');
    await t.gql(sp.operator, `mutation($id: ID!) { retract(memoryId: $id) { __typename } }`, { id: a });
    await t.gql(sp.operator, `mutation($id: ID!) { markErroneous(memoryId: $id) { __typename } }`, { id: b });
    const dry = await t.gql(sp.operator, CLEAN, { c: ['REMINDER'], scope: 'PAST_OR_RESOLVED', dry: true });
    expect(dry.data.cleanUp.total).toBe(2);
    const real = await t.gql(sp.operator, CLEAN, { c: ['REMINDER'], scope: 'PAST_OR_RESOLVED', confirm: true });
    expect(real.data.cleanUp.total).toBe(2);
    expect(await exists(c)).toBe(true);
  });
});
