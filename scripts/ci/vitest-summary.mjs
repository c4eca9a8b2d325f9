#!/usr/bin/env node
// Reads vitest's JSON report (--reporter=json --outputFile.json=FILE) and prints
// one line for the shell:  "<passed> <failed> <skipped> <crashed>"
//
//   node scripts/ci/vitest-summary.mjs REPORT.json [RUNNER_EXIT_CODE]
//
// - missing / unreadable / non-JSON report  -> "0 1 0 1" (a crash counts as 1 failure)
// - test files that failed without any failed test in them (import error,
//   error in beforeAll, ...) add one failure each, since numFailedTests misses them
// - runner exited non-zero although nothing above failed (unhandled error,
//   teardown crash, killed by timeout after writing the report) -> 1 failure
// - no tests at all (and exit 0) -> "0 0 0 0"
// Only node's standard library: works before/without node_modules.
import { readFileSync } from 'node:fs';

const [file, exitArg] = process.argv.slice(2);
const exitCode = exitArg === undefined ? 0 : Number(exitArg);
const num = (v) => (Number.isFinite(v) ? v : 0);

let report;
try {
  report = JSON.parse(readFileSync(file, 'utf8'));
  if (!report || typeof report !== 'object') throw new Error('not an object');
} catch (err) {
  process.stderr.write(`vitest-summary: no usable JSON report at ${file}: ${err.message}\n`);
  console.log('0 1 0 1');
  process.exit(0);
}

const passed = num(report.numPassedTests);
let failed = num(report.numFailedTests);
const skipped = num(report.numPendingTests) + num(report.numTodoTests);

const results = Array.isArray(report.testResults) ? report.testResults : [];
const brokenFiles = results.filter(
  (r) =>
    r?.status === 'failed' &&
    !(r.assertionResults ?? []).some((a) => a?.status === 'failed'),
);
for (const r of brokenFiles) {
  const msg = String(r.message ?? '').split('\n')[0];
  process.stderr.write(`vitest-summary: test file failed outside tests: ${r.name} ${msg}\n`);
}
failed += brokenFiles.length;

let crashed = 0;
if (failed === 0 && (exitCode !== 0 || report.success === false)) {
  process.stderr.write(
    `vitest-summary: runner exit code ${exitCode}, success=${report.success}, but no failed test: counting 1 failure\n`,
  );
  failed = 1;
  crashed = 1;
}

console.log(`${passed} ${failed} ${skipped} ${crashed}`);
