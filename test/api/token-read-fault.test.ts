/**
 * The token could not be read (the database refused the connection, or anything else failed):
 * the caller gets 503 UNAVAILABLE with Retry-After, never a 500 with the driver's error and its
 * stack (found by a probe: `ALTER DATABASE … ALLOW_CONNECTIONS false` gave every request a 500
 * with file paths). A socket is closed with 1013 "try again later".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { classify } from '../../src/store/pg-errors.js';
import { StoreUnavailableError } from '../../src/store/sql-client.js';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => t?.close());

const refused = () => Object.assign(new Error('database "engram" is not currently accepting connections'), { code: '55000' });

async function withFindToken<T>(fails: () => unknown, run: () => Promise<T>): Promise<T> {
  const store = t.app.engram.deps.store as { findToken: (...a: unknown[]) => Promise<unknown> };
  const own = store.findToken;
  store.findToken = async () => { throw fails(); };
  try {
    return await run();
  } finally {
    store.findToken = own;
  }
}

const post = async (token: string): Promise<Response> => t.app.yoga.fetch('http://engram.test/graphql', {
  method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
  body: JSON.stringify({ query: '{ viewer { ... on Viewer { role } } }' }),
});

describe('the token cannot be read', () => {
  it('reads a refused connection (55000, 3D000, 28P01) as the database not answering now', () => {
    for (const code of ['55000', '3D000', '28P01']) {
      expect(classify(Object.assign(new Error('refused'), { code }))).toBeInstanceOf(StoreUnavailableError);
    }
    // a value the database refused is still the caller's fault, not an outage
    expect(classify(Object.assign(new Error('invalid input'), { code: '22P02' }))).not.toBeInstanceOf(StoreUnavailableError);
  });

  it('answers 503 UNAVAILABLE with Retry-After over HTTP, the cause not shown, whatever the failure', async () => {
    const s = await t.space({ name: 'token-fault' });
    for (const fails of [() => classify(refused()), () => new Error('boom at file:///srv/engram/dist/secret-path.js:12:3')]) {
      const res = await withFindToken(fails, () => post(s.operator));
      const body = await res.text();
      expect(res.status, body).toBe(503);
      expect(res.headers.get('retry-after')).toBe('1');
      expect(JSON.parse(body).errors[0].extensions.code).toBe('UNAVAILABLE');
      expect(body).not.toMatch(/secret-path|\n\s+at |stack/);
    }
    // each counted for the operator's dashboards
    expect(await t.app.metrics.text()).toMatch(/^engram_refused_total\{code="UNAVAILABLE"\} 2$/m);
    // once the token can be read again, the same request answers
    expect((await (await post(s.operator)).json()).data.viewer.role).toBe('operator');
  });

  it('closes a new socket with 1013 (try again later), not 4500', async () => {
    const s = await t.space({ name: 'token-fault-ws' });
    const { port } = await t.app.start();
    const code = await withFindToken(() => classify(refused()), () => new Promise<number>((resolve) => {
      const client = createClient({
        url: `ws://127.0.0.1:${port}/graphql`, webSocketImpl: WebSocket, retryAttempts: 0, lazy: false, onNonLazyError: () => undefined,
        connectionParams: { authorization: `Bearer ${s.operator}` },
        on: { closed: (e) => resolve((e as { code: number }).code) },
      });
      client.on('error', () => undefined);
    }));
    expect(code).toBe(1013);
  });
});
