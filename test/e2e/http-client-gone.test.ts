/**
 * A client that closes its connection before its request's body is read is the client's doing:
 * logged at info, one line, no stack (docs/limits.md, "Errors and logging"). Node's "aborted"
 * (ECONNRESET) reached the error masking as a defect: an adversarial probe wrote 286 error lines
 * with stacks, without a token, by opening POSTs with a Content-Length and closing them early.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { httpGql, until } from '../helpers/live.js';

let t: TestApp;
let url = '';
beforeAll(async () => {
  t = await createTestApp();
  url = (await t.app.start()).url;
});
afterAll(async () => t?.close());

describe('a request whose body never arrives whole', () => {
  it('is logged at info as the client gone, never as an unexpected error', async () => {
    const log = t.app.engram.deps.log;
    const info = vi.spyOn(log, 'info');
    const error = vi.spyOn(log, 'error');
    try {
      const { hostname, port } = new URL(url);
      for (let i = 0; i < 3; i++) {
        await new Promise<void>((resolve, reject) => {
          const socket = connect(Number(port), hostname, () => {
            socket.write(`POST /graphql HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"query":"`);
            setTimeout(() => { socket.destroy(); resolve(); }, 50);
          });
          socket.on('error', reject);
        });
      }
      const gone = () => info.mock.calls.filter((c) => c[1] === 'client went away').length;
      await until(() => gone() === 3, 10_000, 'three requests logged as the client gone');
      expect(error).not.toHaveBeenCalled();
      // and the server answers the next client as before
      expect(await httpGql(url, null, '{ __typename }')).toEqual({ __typename: 'Query' });
    } finally {
      info.mockRestore();
      error.mockRestore();
    }
  });
});
