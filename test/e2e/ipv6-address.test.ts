/**
 * The address the server reports (the start's banner, the embedded store's lock file that CLI
 * commands reach the server through: docs/ownership.md) is a URL for any `ENGRAM_HOST`, an IPv6
 * address too. With `ENGRAM_HOST=::1` it read `http://::1:4000/graphql`, which is no URL: `engram
 * token create --admin-token …` beside the server failed with "Failed to parse URL".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { createSpaceThroughServer } from '../../src/cli/through-server.js';

let t: TestApp;
let started: { url: string; port: number };

beforeAll(async () => {
  t = await createTestApp({ env: { ENGRAM_HOST: '::1' } });
  started = await t.app.start();
});
afterAll(async () => { await t?.close(); });

describe('the reported address on an IPv6 host', () => {
  it('is a URL a client reaches the server at, as the CLI does', async () => {
    expect(started.url).toBe(`http://[::1]:${started.port}/graphql`);
    const space = await createSpaceThroughServer({ pid: process.pid, owner: 'server', startedAt: new Date().toISOString(), port: started.port, url: started.url } as never,
      t.adminToken, { name: 'through the server', timeZone: 'UTC' });
    expect(space).toMatchObject({ name: 'through the server', timeZone: 'UTC' });
  });
});
