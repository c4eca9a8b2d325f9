/**
 * Live updates end to end: the real server on port 0, a real WebSocket
 * (graphql-ws over `ws`), every kind of change performed through HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { listen as listenTo, type Listener } from '../helpers/live.js';

type Sp = Awaited<ReturnType<TestApp['space']>>;
let t: TestApp;
let url: string;
let sp: Sp;
let other: Sp;
const clients: Client[] = [];

async function http(token: string, query: string, variables: Record<string, unknown> = {}): Promise<any> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, variables }),
  });
  expect(res.status).toBe(200);
  const body = (await res.json()) as any;
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  return body.data;
}

function ws(token: string): Client {
  const c = createClient({
    url: url.replace(/^http/, 'ws'), webSocketImpl: WebSocket, lazy: false, retryAttempts: 0,
    connectionParams: { authorization: `Bearer ${token}` },
  });
  clients.push(c);
  return c;
}

const SUB = `subscription($s: ID, $after: ID) { memoryEvents(spaceId: $s, after: $after) {
  kind memoryId relatedId spaceId gone
  memory { id status mentionCount quote }
  related { id status mentionCount }
  event { id kind actor tier score rule }
} }`;

/** The id of the space's last event ('0' when it has none): where a listener resumes. */
async function eventHead(app: TestApp, spaceId: string): Promise<string> {
  const r = await app.app.engram.db.query<{ id: string }>(
    'select coalesce(max(id), 0)::text as id from memory_events where space_id = $1', [spaceId]);
  return r.rows[0]!.id;
}

/** This suite's subscription (SUB) through the shared listener (test/helpers/live.ts). */
function listen(client: Client, variables: Record<string, unknown> = {}): Listener {
  return listenTo(client, SUB, variables);
}

async function until(cond: () => boolean, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function say(text: string, type = 'FACT', extra: Record<string, unknown> = {}): Promise<{ outcome: string; id: string }> {
  const conv = (await http(sp.chat, `mutation { openConversation { ... on Conversation { id } } }`)).openConversation.id;
  await http(sp.chat, `mutation($c: ID!, $x: String!) { recordMessage(conversationId: $c, role: USER, text: $x) { ... on Message { id } } }`, { c: conv, x: text });
  const r = await http(sp.assistant, `mutation($i: RememberInput!) { remember(input: $i) {
    ... on RememberOutcome { outcome memory { id } } ... on Error { message } } }`, { i: { conversationId: conv, quote: text, type, ...extra } });
  return { outcome: r.remember.outcome, id: r.remember.memory.id };
}
const op = (q: string, v: Record<string, unknown> = {}) => http(sp.operator, q, v);

beforeAll(async () => {
  t = await createTestApp();
  url = (await t.app.start()).url;
  sp = await t.space({ name: 'live' });
  other = await t.space({ name: 'elsewhere' });
});

afterAll(async () => {
  for (const c of clients) await c.dispose();
  await t?.close();
});

describe('memoryEvents over graphql-ws', () => {
  it('refuses another space and the chat role', async () => {
    const wrongSpace = listen(ws(other.operator), { s: sp.id });
    await wrongSpace.done;
    expect(JSON.stringify(wrongSpace.errors)).toMatch(/Space .* not found/);
    const chat = listen(ws(sp.chat));
    await chat.done;
    expect(JSON.stringify(chat.errors)).toMatch(/the chat role cannot subscribe to memory events/);
    const anonymous = listen(ws('not-a-token'));
    await anonymous.done;
    expect(JSON.stringify(anonymous.errors)).toMatch(/bearer token is malformed/);
  });

  it('delivers every kind of change, in order, and nothing to another space', async () => {
    // graphql-ws does not acknowledge a subscription, so a sleep before the first change would be a
    // race on a busy machine: each listener resumes after the space's last event instead, and
    // whatever it would have missed while being registered comes from the log.
    const after = { mine: await eventHead(t, sp.id), theirs: await eventHead(t, other.id) };
    const mine = listen(ws(sp.operator), { after: after.mine });
    const admin = listen(ws(t.adminToken), { s: sp.id, after: after.mine });
    const theirs = listen(ws(other.operator), { after: after.theirs });

    const expected: [string, string][] = [];
    const a = await say('My favorite color is blue.');
    expected.push(['CREATED', a.id]);
    expect((await say('my favorite color is blue')).outcome).toBe('REINFORCED');
    expected.push(['REINFORCED', a.id]);
    const b = await say('Actually, my favorite color is orange, not blue.');
    expect(b.outcome).toBe('CORRECTED');
    expected.push(['CREATED', b.id], ['CORRECTED', b.id], ['SUPERSEDED', a.id]);
    await op(`mutation($id: ID!) { mute(memoryId: $id) { __typename } }`, { id: b.id });
    expected.push(['MUTED', b.id]);
    await op(`mutation($id: ID!) { unmute(memoryId: $id) { __typename } }`, { id: b.id });
    expected.push(['UNMUTED', b.id]);
    const c = await say('I live in Lisbon.');
    await op(`mutation($id: ID!) { retract(memoryId: $id) { __typename } }`, { id: c.id });
    expected.push(['CREATED', c.id], ['RETRACTED', c.id]);
    const d = await say('I work at the harbour office.');
    await op(`mutation($id: ID!) { markErroneous(memoryId: $id) { __typename } }`, { id: d.id });
    expected.push(['CREATED', d.id], ['MARKED_ERRONEOUS', d.id]);
    // A duplicate stored while the first was muted; consolidation merges it.
    const e = await say('I take the 7:15 train to work.');
    await op(`mutation($ids: [ID!]!) { muteMemories(ids: $ids) { __typename } }`, { ids: [e.id] });
    const f = await say('i take the 7:15  train to work');
    expect(f.outcome).toBe('CREATED');
    await op(`mutation($ids: [ID!]!) { unmuteMemories(ids: $ids) { __typename } }`, { ids: [e.id] });
    expected.push(['CREATED', e.id], ['MUTED', e.id], ['CREATED', f.id], ['UNMUTED', e.id]);
    const merged = await op(`mutation { consolidate { ... on ConsolidationResult { merged } } }`);
    expect(merged.consolidate.merged).toBe(1);
    expected.push(['MERGED', f.id]);
    await op(`mutation($id: ID!) { unmerge(memoryId: $id) { __typename } }`, { id: f.id });
    expected.push(['UNMERGED', f.id]);
    const g = await say('I need to renew my passport.', 'TASK');
    await op(`mutation($id: ID!) { resolveMemory(memoryId: $id, resolution: DONE) { __typename } }`, { id: g.id });
    expected.push(['CREATED', g.id], ['RESOLVED', g.id]);
    await op(`mutation($id: ID!) { reopenMemory(memoryId: $id) { __typename } }`, { id: g.id });
    await op(`mutation($id: ID!) { resolveMemory(memoryId: $id, resolution: CANCELLED) { __typename } }`, { id: g.id });
    expected.push(['REOPENED', g.id], ['RESOLVED', g.id]);
    await op(`mutation($ids: [ID!]!) { forgetMemories(ids: $ids, confirm: true) { __typename } }`, { ids: [f.id] });
    expected.push(['FORGOTTEN', f.id]);
    const swept = await op(`mutation { cleanUp(categories: [TASK], scope: PAST_OR_RESOLVED, confirm: true) { ... on CleanUpResult { total } } }`);
    expect(swept.cleanUp.total).toBe(1);
    expected.push(['CLEANED', g.id]);

    await until(() => mine.events.length >= expected.length && admin.events.length >= expected.length).catch((e) => {
      console.log(JSON.stringify({ mine: mine.events.map((x) => x.kind), errors: mine.errors, adminErrors: admin.errors }));
      throw e;
    });
    await new Promise((r) => setTimeout(r, 300)); // nothing more should come
    expect(mine.errors).toEqual([]);
    expect(mine.events.map((x) => [x.kind, x.memoryId])).toEqual(expected);
    expect(admin.events.map((x) => x.event.id)).toEqual(mine.events.map((x) => x.event.id));
    // Event ids only increase: the stream is in commit order.
    const ids = mine.events.map((x) => Number(x.event.id));
    expect([...ids].sort((p, q) => p - q)).toEqual(ids);
    expect(theirs.events).toEqual([]);
    expect(theirs.errors).toEqual([]);

    // Enough to keep a list consistent: the memory as it is now, or only its id when gone.
    const byKind = (k: string) => mine.events.filter((x) => x.kind === k);
    expect(byKind('REINFORCED')[0].memory.mentionCount).toBeGreaterThanOrEqual(2);
    expect(byKind('SUPERSEDED')[0]).toMatchObject({ relatedId: b.id, related: { id: b.id } });
    expect(byKind('MERGED')[0]).toMatchObject({ memoryId: f.id, relatedId: e.id, related: { id: e.id } });
    expect(byKind('MERGED')[0].event.tier).toBe('EXACT');
    for (const k of ['FORGOTTEN', 'CLEANED']) {
      expect(byKind(k)[0]).toMatchObject({ gone: true, memory: null });
    }
    expect(JSON.stringify(byKind('CLEANED'))).not.toMatch(/passport/);
    mine.stop();
    admin.stop();
    theirs.stop();
  });
});

describe('memoryEvents over SSE (graphql-yoga)', () => {
  it('streams the same events as text/event-stream', async () => {
    const ctrl = new AbortController();
    const res = await fetch(url, {
      method: 'POST', signal: ctrl.signal,
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${sp.operator}` },
      // Resumes after the space's last event: nothing is lost while the stream is being registered.
      body: JSON.stringify({ query: `subscription($a: ID) { memoryEvents(after: $a) { kind memoryId } }`, variables: { a: await eventHead(t, sp.id) } }),
    });
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
    const reader = res.body!.getReader();
    let text = '';
    const read = (async () => {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        text += new TextDecoder().decode(value);
        if (text.includes('"MUTED"')) break;
      }
    })();
    const m = await say('I keep bees in the garden.');
    await op(`mutation($id: ID!) { mute(memoryId: $id) { __typename } }`, { id: m.id });
    await Promise.race([read, new Promise((_, rej) => setTimeout(() => rej(new Error('no SSE event within 60 s')), 60_000))]);
    ctrl.abort();
    expect(text).toContain(`"memoryId":"${m.id}"`);
    expect(text).toContain('"kind":"MUTED"');
  });
});
