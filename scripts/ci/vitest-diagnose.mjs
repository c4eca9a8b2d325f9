#!/usr/bin/env node
// Names what failed a test run besides failed tests, for the last lines of `.ci/run`:
//
//   node scripts/ci/vitest-diagnose.mjs VITEST_OUTPUT.log [LOOP_STALLS.jsonl]
//
// - vitest's "Unhandled Errors" section: each error's first line (e.g. `Error: [vitest-worker]:
//   Timeout calling "onTaskUpdate"`, which fails a run whose tests all passed) and where it
//   was thrown from, when vitest says so;
// - the five longest event-loop stalls that test/setup/loop-watch.ts recorded, with their test
//   (vitest 3's worker RPC gave up after 60 s of it; vitest 4 waits, but the test's server code
//   stalls with it).
// Only node's standard library; never fails (a diagnosis is not a verdict).
import { existsSync, readFileSync } from 'node:fs';

const [logFile, stallsFile] = process.argv.slice(2);
const strip = (s) => s.replace(/\x1b\[[0-9;]*m/g, '');

if (logFile && existsSync(logFile)) {
  const lines = strip(readFileSync(logFile, 'utf8')).split('\n');
  const errors = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/Unhandled (Error|Rejection)/.test(lines[i])) continue;
    // The error's headline follows the section header; the origin line ("This error originated
    // in ...") comes a few lines later when vitest knows it.
    const next = lines.slice(i + 1, i + 40);
    const headline = next.find((l) => /^\s*\S*(Error|Exception)\b.*:/.test(l) || /^\s*Error\b/.test(l));
    const origin = next.find((l) => /originated in|The latest test that might've caused/.test(l));
    errors.push([headline?.trim() ?? lines[i].trim(), origin?.trim()].filter(Boolean).join(' | '));
  }
  const summary = lines.find((l) => /^\s*Errors\s+\d+ errors?/.test(l));
  if (errors.length > 0 || summary) {
    console.log(`vitest reported ${errors.length || 'some'} unhandled error(s) (they fail the run even when every test passed):`);
    for (const e of [...new Set(errors)]) console.log(`  - ${e}`);
  }
}

if (stallsFile && existsSync(stallsFile)) {
  const stalls = readFileSync(stallsFile, 'utf8').split('\n').filter(Boolean).flatMap((l) => {
    try { return [JSON.parse(l)]; } catch { return []; }
  });
  stalls.sort((a, b) => b.blockedMs - a.blockedMs);
  if (stalls.length > 0) {
    console.log(`event-loop stalls over 2 s: ${stalls.length}; the longest:`);
    for (const s of stalls.slice(0, 5)) {
      console.log(`  - ${(s.blockedMs / 1000).toFixed(1)} s  ${String(s.file).replace(/^.*?\/test\//, 'test/')} › ${s.test}`);
    }
  }
}
