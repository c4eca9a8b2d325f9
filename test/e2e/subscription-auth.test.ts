/**
 * Who a subscription is, on the real server:
 * - connection parameters whose `authorization` (or `token`) is not text are refused in words,
 *   FORBIDDEN, as a malformed header is: the value reached the token check as it was, which threw
 *   ("Unexpected error.", a stack logged at error);
 * - an invalid argument of a subscription names its field in `extensions.field`, as over HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { createTestApp, type TestApp } from '../helpers/app.js';

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
});
