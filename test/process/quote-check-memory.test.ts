/**
 * The quote check keeps one message's reading at a time (src/core/quote-check.ts): a message's
 * sentences, offsets and hashes take several times its text, and a check that held every
 * message's reading to its end could not run in a 200 MB heap on 150 messages of 100,000
 * characters (a server process reached 945 MB). Here a child process whose heap is bounded (64 MB)
 * checks the worst case on 120 such messages, a quote whose every word is in every message: with
 * every reading held it runs out of memory; read in turn, it answers.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ROOT, TSX_ARGS } from '../helpers/process.js';

/** The child's heap, in MB: the transcript's text (12 MB) and one message's reading fit many times over. */
const HEAP_MB = 64;

function run(messages: number, chars: number): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [`--max-old-space-size=${HEAP_MB}`, ...TSX_ARGS, 'test/helpers/quote-check-long.ts', String(messages), String(chars)], {
      cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

describe('the quote check on a long conversation', () => {
  it(`reads each message in turn and lets it go: 120 messages of 100,000 characters in a ${HEAP_MB} MB heap`, async () => {
    const r = await run(120, 100_000);
    expect(r.err).not.toMatch(/heap out of memory/);
    expect(r.code).toBe(0);
    expect(r.out.trim()).toBe('NOT_FOUND');
  }, 180_000);
});
