/**
 * A correction remembered after the statement that corrects it (out of the order the two were
 * said: another conversation, another instance) does not undo it. Found by a probe of two
 * instances: "Actually, my sister Ana lives in Porto now." remembered first, then the earlier
 * "My sister Ana lives in Lisbon.", which superseded Porto: Lisbon current, though Porto was said last.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { actors } from '../helpers/memory.js';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => t?.close());

describe('a correction said before the memory it would correct', () => {
  it('is kept as what the later one replaced: superseded by it from the start, the later one current', async () => {
    const sp = actors(t.gql, await t.space({ name: 'said-before' }));
    const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();
    const early = await sp.open();
    await sp.say(early, 'My sister Ana lives in Lisbon.', { at: minutesAgo(30) });
    const late = await sp.open();
    await sp.say(late, 'Actually, my sister Ana lives in Porto now.', { at: minutesAgo(5) });

    const porto = await sp.remember({ conversationId: late, quote: 'Actually, my sister Ana lives in Porto now.' });
    expect(porto.outcome).toBe('CREATED');
    const lisbon = await sp.remember({ conversationId: early, quote: 'My sister Ana lives in Lisbon.' });
    expect(lisbon).toMatchObject({ outcome: 'CREATED', memory: { status: 'SUPERSEDED', current: false } });

    const p = await sp.memory(porto.memory.id);
    expect(p).toMatchObject({ status: 'ACTIVE', supersedes: [{ id: lisbon.memory.id, status: 'SUPERSEDED' }] });
    expect(p.events.map((e: { kind: string }) => e.kind)).toEqual(['CREATED', 'CORRECTED']);
    const l = await sp.memory(lisbon.memory.id);
    expect(l).toMatchObject({ supersededBy: { id: porto.memory.id }, currentVersion: { id: porto.memory.id } });

    // at equal times, the order the messages were recorded in: the last one said stands
    const sp3 = actors(t.gql, await t.space({ name: 'said-at-once' }));
    const at = minutesAgo(60);
    const conv = await sp3.open();
    const said = ['My sister Ana lives in Lisbon.', 'Actually, my sister Ana lives in Porto now.', 'Actually, my sister Ana lives in Madrid now.'];
    for (const text of said) await sp3.say(conv, text, { at });
    const madrid = await sp3.remember({ conversationId: conv, quote: said[2] });
    await sp3.remember({ conversationId: conv, quote: said[0] });
    await sp3.remember({ conversationId: conv, quote: said[1] });
    expect((await sp3.memory(madrid.memory.id)).status).toBe('ACTIVE');
    const current = (await sp3.list({ filter: { statuses: ['ACTIVE'] } })).nodes.map((n: { quote: string }) => n.quote);
    expect(current).toEqual([said[2]]);

    // said in the other order, the same two are a plain correction
    const sp2 = actors(t.gql, await t.space({ name: 'said-in-order' }));
    const first = await sp2.state('My sister Ana lives in Lisbon.');
    const then = await sp2.state('Actually, my sister Ana lives in Porto now.');
    expect(then).toMatchObject({ outcome: 'CORRECTED', superseded: { id: first.memory.id, status: 'SUPERSEDED' } });
  });
});
