/**
 * Who a subscription is, on the real server:
 * - connection parameters whose `authorization` (or `token`) is not text are refused in words,
 *   FORBIDDEN, as a malformed header is: the value reached the token check as it was, which threw
 *   ("Unexpected error.", a stack logged at error);
 * - a subscription over HTTP (server-sent events) ends once its token is revoked: no socket
 *   carries it for the registry to close, and it kept streaming every change of the space, quotes
 *   included, to the revoked token; and it ends when idle too, with no change to carry the news
 *   (it stayed open until the next change): at once when revoked through this server, within the
 *   token re-check when revoked elsewhere (another instance, the CLI), as a socket is closed;
 * - an invalid argument of a subscription names its field in `extensions.field`, as over HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { httpGql, listenSse, say, until } from '../helpers/live.js';

let t: TestApp;
let url: string;

beforeAll(async () => {
  t = await createTestApp();
  url = (await t.app.start()).url;
});
afterAll(async () => { await t?.close(); });

/** One subscription over a socket with these connection parameters: what it was answered. */
async function subscribeWith(connectionParams: Record<string, unknown>, query: string): Promise<any[]> {
  const client = createClient({ url: url.replace(/^http/, 'ws'), webSocketImpl: WebSocket, lazy: false, retryAttempts: 0, connectionParams, onNonLazyError: () => {} });
  const got: any[] = [];
  await new Promise<void>((resolve) => {
    client.subscribe({ query }, {
      next: (v) => got.push(...(v.errors ?? [])),
      error: (e) => { got.push(...(Array.isArray(e) ? e : [e])); resolve(); },
      complete: () => resolve(),
    });
  });
  await client.dispose();
  return got;
}

describe('subscriptions: who is asking', () => {
  it('connection parameters that are not text: FORBIDDEN in words, never "Unexpected error."', async () => {
    for (const params of [{ authorization: 123 }, { authorization: ['Bearer x'] }, { Authorization: { a: 1 } }, { token: true }]) {
      const errors = await subscribeWith(params, 'subscription { memoryEvents { kind } }');
      expect(errors, JSON.stringify(params)).toHaveLength(1);
      expect(errors[0]).toMatchObject({ extensions: { code: 'FORBIDDEN' } });
      expect(errors[0].message).toMatch(/must be text/);
    }
  });

  it('an invalid argument names its field', async () => {
    const sp = await t.space();
    const errors = await subscribeWith({ authorization: `Bearer ${sp.operator}` }, 'subscription { memoryEvents(after: "-1") { kind } }');
    expect(errors[0]).toMatchObject({ extensions: { code: 'INVALID_INPUT', field: 'after' } });
  });

  it('over server-sent events: once its token is revoked, the next change is not sent and the stream ends', async () => {
    const sp = await t.space();
    const created = (await httpGql(url, t.adminToken, `mutation($s: ID) { createToken(role: operator, spaceId: $s) { ... on CreatedToken { id secret } } }`, { s: sp.id })).createToken;
    const res = await fetch(`${url}?query=${encodeURIComponent('subscription { memoryEvents { kind memory { quote } } }')}`, {
      headers: { accept: 'text/event-stream', authorization: `Bearer ${created.secret}` },
    });
    expect(res.status).toBe(200);
    let text = '';
    const reading = (async () => {
      const decoder = new TextDecoder();
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) text += decoder.decode(chunk, { stream: true });
    })();
    await say(url, sp, 'I keep my spare key under the blue flowerpot.');
    await until(() => text.includes('flowerpot'), 30_000, 'the first change');
    await httpGql(url, t.adminToken, `mutation($i: ID!) { revokeToken(id: $i) { __typename } }`, { i: created.id });
    await say(url, sp, 'My bank card PIN hint is the year of the Quillbury flood.');
    await until(() => text.includes('Quillbury') || text.includes('event: complete'), 30_000, 'the change sent, or the stream ended');
    expect(text).not.toContain('Quillbury');
    await reading;
    expect(text).toContain('the bearer token was revoked');
    expect(text).toContain('event: complete');
  });

  /** An operator token's SSE stream, live (a first change heard), then idle: returned with its token. */
  async function idleStream() {
    const sp = await t.space();
    const created = (await httpGql(url, t.adminToken, `mutation($s: ID) { createToken(role: operator, spaceId: $s) { ... on CreatedToken { id secret } } }`, { s: sp.id })).createToken;
    const stream = await listenSse(url, created.secret, 'subscription { memoryEvents { kind memory { quote } } }');
    await say(url, sp, 'The spare fuse is in the red toolbox.');
    await until(() => stream.text.includes('toolbox'), 30_000, 'the first change');
    return { stream, tokenId: created.id as string };
  }
  const ENDED_REVOKED = (text: string) => {
    expect(text).toContain('the bearer token was revoked');
    expect(text).toContain('"FORBIDDEN"');
    expect(text).toContain('event: complete');
  };

  it('over server-sent events, idle: revoking its token through this server ends it, no change needed', async () => {
    const { stream, tokenId } = await idleStream();
    await httpGql(url, t.adminToken, `mutation($i: ID!) { revokeToken(id: $i) { __typename } }`, { i: tokenId });
    await until(() => stream.ended, 20_000, 'the stream to end');
    ENDED_REVOKED(stream.text);
  });

  it('over server-sent events, idle: a token revoked elsewhere (another instance, the CLI) ends it at the re-check', async () => {
    const { stream, tokenId } = await idleStream();
    // Only the row changes, as when another instance or the CLI revokes it: no signal in this process.
    expect(await t.app.engram.deps.store.revokeToken(tokenId)).toBe(true);
    await until(() => stream.ended, 30_000, 'the stream to end (re-check every 5 s)');
    ENDED_REVOKED(stream.text);
  });
});
