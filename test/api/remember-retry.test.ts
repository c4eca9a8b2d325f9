/**
 * A retried remember (the client lost the answer: a timeout, `Unavailable`, an instance killed
 * after its commit) is not counted twice: the same sentence of the same message already kept
 * answers as the first call did, nothing written (found by a probe across two instances: the
 * same sentence of one message remembered three times, mention count 3).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { actors } from '../helpers/memory.js';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => t?.close());

const eventsOf = async (sp: ReturnType<typeof actors>, id: string) => (await sp.memory(id)).events.map((e: { kind: string }) => e.kind);

describe('a remember retried', () => {
  it('of a new fact: the same memory, CREATED again, one mention, no event', async () => {
    const sp = actors(t.gql, await t.space({ name: 'retry-created' }));
    const c = await sp.open();
    await sp.say(c, 'My sister Ana lives in Porto.');
    const first = await sp.remember({ conversationId: c, quote: 'My sister Ana lives in Porto.' });
    const again = await sp.remember({ conversationId: c, quote: 'My sister Ana lives in Porto.' });
    expect(first.outcome).toBe('CREATED');
    expect(again).toMatchObject({ outcome: 'CREATED', memory: { id: first.memory.id, mentionCount: 1 } });
    expect(await eventsOf(sp, first.memory.id)).toEqual(['CREATED']);
  });

  it('of a restatement: REINFORCED again with its tier, counted once', async () => {
    const sp = actors(t.gql, await t.space({ name: 'retry-reinforced' }));
    const first = await sp.state("I'm allergic to peanuts.");
    const c = await sp.open();
    await sp.say(c, "I'm allergic to peanuts, as you know.");
    const r1 = await sp.remember({ conversationId: c, quote: "I'm allergic to peanuts, as you know." });
    expect(r1).toMatchObject({ outcome: 'REINFORCED', memory: { id: first.memory.id, mentionCount: 2 } });
    const r2 = await sp.remember({ conversationId: c, quote: "I'm allergic to peanuts, as you know." });
    expect(r2).toMatchObject({ outcome: 'REINFORCED', tier: r1.tier, score: expect.closeTo(r1.score, 5), memory: { id: first.memory.id, mentionCount: 2 } });
    expect(await eventsOf(sp, first.memory.id)).toEqual(['CREATED', 'REINFORCED']);
  });

  it('whatever became of the memory since (corrected, muted): the same answer, nothing written, nothing undone', async () => {
    const space = await t.space({ name: 'retry-later' });
    const sp = actors(t.gql, space);
    const c = await sp.open();
    await sp.say(c, 'I work at Acme Corp.');
    const first = await sp.remember({ conversationId: c, quote: 'I work at Acme Corp.' });
    const fix = await sp.state('Actually, I work at Globex now, not Acme.');
    expect(fix).toMatchObject({ outcome: 'CORRECTED', superseded: { id: first.memory.id } });
    const again = await sp.remember({ conversationId: c, quote: 'I work at Acme Corp.' });
    expect(again).toMatchObject({ outcome: 'CREATED', memory: { id: first.memory.id, status: 'SUPERSEDED' } });
    const globex = await sp.memory(fix.memory.id);
    expect(globex.supersedes).toHaveLength(1);
    expect(globex.events.map((e: { kind: string }) => e.kind)).toEqual(['CREATED', 'CORRECTED']);

    const c2 = await sp.open();
    await sp.say(c2, 'I drink oat milk in my coffee.');
    const oat = await sp.remember({ conversationId: c2, quote: 'I drink oat milk in my coffee.' });
    const mute = await t.gql(space.operator, `mutation($ids: [ID!]!) { muteMemories(ids: $ids) { __typename } }`, { ids: [oat.memory.id] });
    expect(mute.data.muteMemories.__typename).not.toMatch(/Error|Forbidden/);
    const retried = await sp.remember({ conversationId: c2, quote: 'I drink oat milk in my coffee.' });
    expect(retried).toMatchObject({ outcome: 'CREATED', memory: { id: oat.memory.id, status: 'MUTED' } });
    expect((await sp.list({ filter: { statuses: ['ACTIVE'] } })).nodes.map((n: { quote: string }) => n.quote)).not.toContain('I drink oat milk in my coffee.');
  });

  it('the same words typed again, in another message, are counted: a restatement, not a retry', async () => {
    const sp = actors(t.gql, await t.space({ name: 'retry-not' }));
    const c = await sp.open();
    await sp.say(c, 'I take the 7:15 train to work.');
    const first = await sp.remember({ conversationId: c, quote: 'I take the 7:15 train to work.' });
    await sp.say(c, 'I take the 7:15 train to work.');
    const again = await sp.remember({ conversationId: c, quote: 'I take the 7:15 train to work.' });
    expect(again).toMatchObject({ outcome: 'REINFORCED', tier: 'EXACT', memory: { id: first.memory.id, mentionCount: 2 } });
  });
});
