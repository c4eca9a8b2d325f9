/**
 * Request limits over graphql-ws (docs/limits.md), on the real server and a real WebSocket:
 * - an operation over the depth, alias or cost limit fails alone, with an error message that
 *   names the limit (not "Syntax Error"); the socket and its valid subscription stay open (a
 *   thrown rule used to close the whole socket, 4500);
 * - a subscribe whose document does not parse fails alone too, with its syntax error (it used
 *   to close the whole socket, 4500, ending its other subscriptions);
 * - every operation a socket starts takes from its token's rate bucket, the one HTTP requests
 *   take from: over the limit, that operation gets a RATE_LIMITED error, the socket stays open.
 * The bucket refills at 0.001/s, so a slow machine cannot refill it mid-test.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Client } from 'graphql-ws';
import { WebSocket } from 'ws';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { listen, say, until, wsClient } from '../helpers/live.js';

/** Runs one operation over the socket: its results and its error (graphql-ws's error message). */
function run(client: Client, query: string, variables?: Record<string, unknown>): Promise<{ data: unknown[]; errors: any[] }> {
  const out = { data: [] as unknown[], errors: [] as any[] };
  return new Promise((resolve) => {
    client.subscribe({ query, variables }, {
      next: (v) => (v.errors ? out.errors.push(...v.errors) : out.data.push(v.data)),
      error: (e) => { out.errors.push(...(Array.isArray(e) ? e : [e])); resolve(out); },
      complete: () => resolve(out),
    });
  });
}

/**
 * The real server with `env`, started for the enclosing describe block; the socket clients a test
 * opens (`client`) are closed with it.
 */
function serve(env: Record<string, string>): { readonly t: TestApp; readonly url: string; client(token: string, onClose?: (code: number) => void): Client } {
  let app: TestApp | undefined;
  let url = '';
  const clients: Client[] = [];
  beforeAll(async () => {
    app = await createTestApp({ env });
    url = (await app.app.start()).url;
  });
  afterAll(async () => {
    for (const c of clients) await c.dispose();
    await app?.close();
  });
  return {
    get t() { return app!; },
    get url() { return url; },
    client(token, onClose) {
      const c = wsClient(url, token, { onClose });
      clients.push(c);
      return c;
    },
  };
}

function deep(levels: number): string {
  let sel = 'id';
  for (let i = 0; i < levels; i++) sel = `correctionChain { ${sel} }`;
  return `subscription { memoryEvents { memory { ${sel} } } }`;
}

describe('document limits over graphql-ws', () => {
  // A cost limit of 100: a subscription over it is short to write, and every operation of the test is under it.
  const served = serve({ ENGRAM_MAX_COST: '100' });

  it('refuses an over-depth, over-alias or over-cost subscription alone; the valid one on the same socket keeps running', async () => {
    const sp = await served.t.space({ name: 'ws-depth' });
    const closes: number[] = [];
    const client = served.client(sp.operator, (code) => closes.push(code));
    const valid = listen(client, 'subscription { memoryEvents { kind memoryId } }');
    const tooDeep = await run(client, deep(12));
    const aliases = Array.from({ length: 20 }, (_, i) => `k${i}: kind`).join(' ');
    const tooManyAliases = await run(client, `subscription { memoryEvents { ${aliases} } }`);
    // Cost 156 against a limit of 100 here (the valid subscription: 5).
    const tooCostly = await run(client, `subscription { memoryEvents { memory { id quote mentions { quote } events { kind }
      supersedes { id mentions { quote } events { kind } supersedes { id mentions { quote } events { kind } supersedes { id quote mentions { quote } } } } } } }`);
    for (const [r, limit, words] of [[tooDeep, 'depth', /depth limit of 10 exceeded/i], [tooManyAliases, 'aliases', /aliases limit/i], [tooCostly, 'cost', /cost limit/i]] as const) {
      expect(r.data).toEqual([]);
      expect(r.errors.length, JSON.stringify(r.errors)).toBeGreaterThan(0);
      expect(r.errors[0].message).toMatch(words);
      expect(r.errors[0].message).not.toMatch(/Syntax Error/);
      expect(r.errors[0].extensions).toMatchObject({ code: 'LIMIT_EXCEEDED', limit });
    }
    // The socket is still open and the valid subscription still receives events.
    const made = await say(served.url, sp, 'My sister lives in Porto.');
    await until(() => valid.events.some((e) => e.memoryId === made.id), 30_000, 'the valid subscription to see the new memory');
    expect(valid.errors).toEqual([]);
    expect(closes).toEqual([]);
    valid.stop();
  });

  it('answers a syntax error, an unknown operation name or a bad variable to that operation alone; the socket and its subscription stay open', async () => {
    const sp = await served.t.space({ name: 'ws-syntax' });
    const closes: number[] = [];
    const client = served.client(sp.operator, (code) => closes.push(code));
    const live = listen(client, 'subscription { memoryEvents { kind memoryId } }');
    const syntax = await run(client, 'subscription{');
    expect(syntax.data).toEqual([]);
    expect(syntax.errors[0]).toMatchObject({ message: 'Syntax Error: Expected Name, found <EOF>.', extensions: { code: 'GRAPHQL_PARSE_FAILED' } });
    for (const query of ['{', '', 'query { __typename } }']) expect((await run(client, query)).errors[0].message).toMatch(/^Syntax Error/);
    // past the token limit (as over HTTP), parsing stops: that operation's error alone
    const tokens = await run(client, `query { ${Array.from({ length: 3_000 }, () => '__typename').join(' ')} }`);
    expect(tokens.errors[0]).toMatchObject({ message: expect.stringMatching(/^Token limit of \d+ exceeded/), extensions: { code: 'LIMIT_EXCEEDED', limit: 'tokens' } });
    const unknownName = await new Promise<any[]>((resolve) => {
      client.subscribe({ query: 'query A { __typename }', operationName: 'B' }, { next: () => {}, error: (e) => resolve(e as any[]), complete: () => resolve([]) });
    });
    // (as over HTTP: the message and a code)
    expect(unknownName[0]).toMatchObject({ message: 'Could not determine what operation to execute.', extensions: { code: 'OPERATION_RESOLUTION_FAILURE' } });
    const invalid = await run(client, '{ memorie { __typename } }');
    expect(invalid.errors[0]).toMatchObject({ message: expect.stringMatching(/^Cannot query field "memorie"/), extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } });
    const badVariable = await new Promise<any[]>((resolve) => {
      const errors: any[] = [];
      client.subscribe({ query: 'query($n: Int!) { memories(first: $n) { __typename } }', variables: { n: 'many' } }, {
        next: (v) => errors.push(...(v.errors ?? [])), error: (e) => resolve(e as any[]), complete: () => resolve(errors),
      });
    });
    expect(badVariable[0]).toMatchObject({ message: expect.stringMatching(/\$n/), extensions: { code: 'BAD_USER_INPUT', field: 'n' } });
    // a list's first given by a variable weighs as the number it runs with (src/graphql/list-sizes.ts), as written
    const sized = 'query($n: Int) { memories(first: $n) { ... on MemoryConnection { nodes { id quote } } } }';
    const costly = await run(client, sized, { n: 400 });
    expect(costly.errors[0]).toMatchObject({ extensions: { code: 'LIMIT_EXCEEDED', limit: 'cost' } });
    expect(costly.errors[0].message).toBe((await run(client, '{ memories(first: 400) { ... on MemoryConnection { nodes { id quote } } } }')).errors[0].message);
    expect((await run(client, sized, { n: 2 })).errors).toEqual([]);
    // The socket is still open and the subscription beside them still receives events.
    const made = await say(served.url, sp, 'My brother lives in Braga.');
    await until(() => live.events.some((e) => e.memoryId === made.id), 30_000, 'the live subscription to see the new memory');
    expect(live.errors).toEqual([]);
    expect(closes).toEqual([]);
    live.stop();
  });

  it('masks a defect inside a field as HTTP does ("Unexpected error.", logged at error), for a query and a subscription alike', async () => {
    const sp = await served.t.space({ name: 'ws-defect' });
    const made = await say(served.url, sp, 'My cousin Ana lives in Porto.');
    const deps = served.t.app.engram.deps;
    const errors = vi.spyOn(deps.log, 'error');
    const original = deps.store.mentionPages;
    // a fault whose words must not reach the client
    deps.store.mentionPages = async () => { throw new Error('SECRET-INTERNAL: relation "mentions" at /srv/x.sql'); };
    try {
      const client = served.client(sp.operator);
      const query = await run(client, `{ memory(id: "${made.id}") { ... on Memory { mentions(first: 1) { quote } } } }`);
      expect(query.errors).toEqual([expect.objectContaining({ message: 'Unexpected error.', extensions: { code: 'INTERNAL_SERVER_ERROR' }, path: ['memory', 'mentions'] })]);
      const live = listen(client, 'subscription { memoryEvents { kind memory { mentions(first: 1) { quote } } } }');
      await say(served.url, sp, 'My aunt Rosa lives in Faro.');
      await until(() => live.errors.length > 0 || live.events.length > 0, 30_000, 'the subscription to receive the event');
      expect(live.errors[0]).toMatchObject({ message: 'Unexpected error.', extensions: { code: 'INTERNAL_SERVER_ERROR' } });
      expect(JSON.stringify([live.errors, live.events])).not.toContain('SECRET');
      expect(errors.mock.calls.filter((c) => /SECRET-INTERNAL/.test(String((c[0] as { err?: Error }).err)))).toHaveLength(2);
      live.stop();
    } finally {
      deps.store.mentionPages = original;
      errors.mockRestore();
    }
  });

  it('answers the same limits over HTTP without "Syntax Error"', async () => {
    const sp = await served.t.space({ name: 'http-depth' });
    let sel = 'id';
    for (let i = 0; i < 14; i++) sel = `correctionChain { ${sel} }`;
    const r = await served.t.gql(sp.operator, `{ memory(id: "x") { ... on Memory { ${sel} } } }`);
    expect(r.data ?? null).toBeNull();
    expect(r.errors?.[0]).toMatchObject({ message: expect.stringMatching(/^Query depth limit of 10 exceeded/), extensions: { code: 'LIMIT_EXCEEDED', limit: 'depth' } });
    const many = await served.t.gql(sp.operator, `{ viewer { ${'__typename '.repeat(3000)} } }`);
    expect(many.errors?.[0]).toMatchObject({ message: expect.stringMatching(/^Token limit of 2000 exceeded/), extensions: { code: 'LIMIT_EXCEEDED', limit: 'tokens' } });
  });
});

describe('production mode over graphql-ws', () => {
  const served = serve({ ENGRAM_PRODUCTION: 'true' });

  it('as over HTTP: introspection for an admin socket only, and no "Did you mean" in a validation error', async () => {
    const sp = await served.t.space({ name: 'ws-production' });
    const admin = await run(served.client(served.t.adminToken), '{ __schema { queryType { name } } }');
    expect(admin).toEqual({ data: [{ __schema: { queryType: { name: 'Query' } } }], errors: [] });
    const operator = served.client(sp.operator);
    const refused = await run(operator, '{ __schema { queryType { name } } }');
    expect(refused.data).toEqual([]);
    expect(refused.errors[0]).toMatchObject({ message: expect.stringMatching(/introspection has been disabled/), extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } });
    const typo = await run(operator, '{ memorie { __typename } }');
    expect(typo.errors[0]).toMatchObject({ message: 'Cannot query field "memorie" on type "Query". [Suggestion hidden]', extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } });
  });
});

describe('subscriptions per token', () => {
  const served = serve({ ENGRAM_MAX_SUBSCRIPTIONS: '3' });

  it('a token holds at most ENGRAM_MAX_SUBSCRIPTIONS open, over all its sockets; one ended frees its place', async () => {
    const sp = await served.t.space({ name: 'ws-streams' });
    const first = served.client(sp.operator);
    const query = 'subscription { memoryEvents { kind memoryId } }';
    const open = [listen(first, query), listen(first, query), listen(first, query)];
    const made = await say(served.url, sp, 'My niece Ida lives in Turku.');
    await until(() => open.every((l) => l.events.some((e) => e.memoryId === made.id)), 30_000, 'the three subscriptions to see the memory');
    // a fourth, on this socket or another of the same token: refused alone, the others stay open
    for (const client of [first, served.client(sp.operator)]) {
      const refused = listen(client, query);
      await until(() => refused.errors.length > 0, 30_000, 'the fourth subscription to be refused');
      expect(refused.errors[0]).toMatchObject({ extensions: { code: 'LIMIT_EXCEEDED', limit: 'subscriptions' } });
    }
    open[0]!.stop();
    await until(() => served.t.app.streams.total() === 2, 30_000, 'the ended subscription to free its place');
    // (from the space's first event: whenever they start listening, they see the next memory's)
    const resumed = 'subscription { memoryEvents(after: "0") { kind memoryId } }';
    const again = listen(served.client(sp.operator), resumed);
    // another token is not counted with this one
    const other = listen(served.client(served.t.adminToken), 'subscription($s: ID) { memoryEvents(spaceId: $s, after: "0") { kind memoryId } }', { s: sp.id });
    const next = await say(served.url, sp, 'My nephew Eero lives in Oulu.');
    await until(() => [again, other, open[1]!, open[2]!].every((l) => l.events.some((e) => e.memoryId === next.id)), 30_000, 'the freed place to be taken again');
    expect([again.errors, other.errors, open[1]!.errors]).toEqual([[], [], []]);
    for (const l of [again, other, open[1]!, open[2]!]) l.stop();
  });

  it("an event's fields are read once for all the subscriptions it is delivered to, not once each", async () => {
    const sp = await served.t.space({ name: 'ws-shared-reads' });
    const client = served.client(sp.operator);
    const query = 'subscription { memoryEvents { kind memoryId memory { quote mentions { quote } } } }';
    const subs = [listen(client, query), listen(client, query), listen(client, query)];
    await until(() => served.t.app.streams.total() === 3, 30_000, 'the three subscriptions to open');
    const mentionsOf = vi.spyOn(served.t.app.engram.deps.store, 'mentionPages');
    try {
      const made = await say(served.url, sp, 'My godson Pavel lives in Brno.');
      await until(() => subs.every((l) => l.events.some((e) => e.memoryId === made.id)), 30_000, 'the three subscriptions to see the memory');
      expect(subs.map((l) => l.events.find((e) => e.memoryId === made.id)?.memory.mentions[0].quote)).toEqual(Array(3).fill('My godson Pavel lives in Brno.'));
      expect(mentionsOf).toHaveBeenCalledTimes(1);
    } finally {
      mentionsOf.mockRestore();
      for (const l of subs) l.stop();
    }
  });
});

describe("a client's protocol mistakes over graphql-ws", () => {
  const served = serve({ ENGRAM_MAX_BODY_BYTES: '20000' });

  /** A raw socket: sends `frames` in turn (after the server's answer to the previous), then waits for the close. */
  function exchange(frames: string[]): Promise<{ code: number; reason: string; got: string[] }> {
    return new Promise((resolve) => {
      const got: string[] = [];
      const ws = new WebSocket(served.url.replace(/^http/, 'ws'), 'graphql-transport-ws');
      let i = 0;
      const sendNext = () => { if (i < frames.length) ws.send(frames[i++]!); };
      ws.on('open', sendNext);
      ws.on('message', (m) => { got.push(String(m)); sendNext(); });
      ws.on('error', () => {});
      ws.on('close', (code, reason) => resolve({ code, reason: String(reason), got }));
    });
  }

  it('are closed as the client\'s (1009, 4400), logged at info, with no stack printed', async () => {
    const consoleError = vi.spyOn(console, 'error');
    const logError = vi.spyOn(served.t.app.engram.deps.log, 'error');
    try {
      // a frame over the message bound, before any authentication
      const big = await exchange([JSON.stringify({ type: 'connection_init', payload: { authorization: 'x'.repeat(30_000) } })]);
      expect(big.code).toBe(1009);
      // a message only the server sends
      const sp = await served.t.space({ name: 'ws-protocol' });
      const next = await exchange([JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${sp.operator}` } }), JSON.stringify({ id: '1', type: 'next', payload: {} })]);
      expect(next.got).toEqual([JSON.stringify({ type: 'connection_ack' })]);
      expect([next.code, next.reason]).toEqual([4400, 'Unexpected message of type next received']);
      expect(consoleError).not.toHaveBeenCalled();
      expect(logError).not.toHaveBeenCalled();
    } finally {
      consoleError.mockRestore();
      logError.mockRestore();
    }
  });
});

describe('the rate limit over graphql-ws', () => {
  const served = serve({ ENGRAM_RATE_BURST: '5', ENGRAM_RATE_PER_SECOND: '0.001' });

  it("takes each operation from the token's bucket, refuses the rest with RATE_LIMITED, and keeps the socket open", async () => {
    const sp = await served.t.space({ name: 'ws-rate' });
    const closes: number[] = [];
    const client = served.client(sp.operator, (code) => closes.push(code));
    const results = [];
    for (let i = 0; i < 7; i++) results.push(await run(client, 'mutation { __typename }'));
    expect(results.map((r) => (r.errors.length ? r.errors[0].extensions?.code : 'ok'))).toEqual(['ok', 'ok', 'ok', 'ok', 'ok', 'RATE_LIMITED', 'RATE_LIMITED']);
    expect(results[5]!.errors[0].message).toMatch(/too many requests for this token: retry in \d+ s/);
    expect(results[5]!.errors[0].extensions.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    // The same bucket as HTTP: the token's next HTTP request is refused too.
    const http = await fetch(served.url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${sp.operator}` }, body: JSON.stringify({ query: '{ __typename }' }) });
    expect(http.status).toBe(429);
    // Another token of the space has its own bucket, over HTTP and over its own socket.
    const other = served.client(sp.assistant);
    expect((await run(other, '{ __typename }')).errors).toEqual([]);
    // The refused operations closed nothing.
    expect(closes).toEqual([]);
  });
});
