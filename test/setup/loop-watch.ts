/**
 * Event-loop watch for every test file (vitest `setupFiles`).
 *
 * Vitest 3's worker answered the runner over an RPC with a fixed 60 s timeout: a worker whose
 * event loop was blocked that long failed the whole run with `Timeout calling "onTaskUpdate"`
 * although every test passed (docs/testing.md). Vitest 4 waits, but a stalled loop still stalls
 * the server code under test. This watch names the culprit: a timer ticks every
 * 200 ms, and a tick that comes late by more than ENGRAM_LOOP_WARN_MS (default 2,000 ms) is
 * reported with the test that was running, on stderr and, when ENGRAM_LOOP_LOG names a file,
 * as one JSON line there (`.ci/run` prints the worst of them in its last lines).
 */
import { appendFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';

const TICK_MS = 200;
const warnMs = Number(process.env.ENGRAM_LOOP_WARN_MS ?? 2_000);
const logFile = process.env.ENGRAM_LOOP_LOG;

// The running test, tracked here rather than read from `expect.getState()`: worker processes
// run many files in turn (isolate: false), and that state can still name the previous file's test.
let file = 'unknown file';
let current: string | null = null;
beforeAll(() => {
  file = expect.getState().testPath ?? file;
});
beforeEach((ctx) => {
  file = ctx.task.file.filepath;
  current = ctx.task.fullName;
});
afterEach(() => {
  current = null;
});

let last = performance.now();
const timer = setInterval(() => {
  const now = performance.now();
  const blocked = now - last - TICK_MS;
  last = now;
  if (blocked < warnMs) return;
  const entry = {
    file,
    test: current ?? '(set-up or teardown)',
    blockedMs: Math.round(blocked),
    at: new Date().toISOString(),
  };
  process.stderr.write(`[loop-watch] event loop blocked ${entry.blockedMs} ms in ${entry.file} › ${entry.test}\n`);
  if (logFile) {
    try {
      appendFileSync(logFile, `${JSON.stringify(entry)}\n`);
    } catch {
      // the watch must never fail a test
    }
  }
}, TICK_MS);
timer.unref();

afterAll(() => clearInterval(timer));
