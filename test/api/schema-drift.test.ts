/**
 * schema.graphql is printed from the Pothos builder; a committed file that differs
 * fails the build. The SDL is printed in a child process, exactly as
 * `npm run schema:print` does: inside vitest, `graphql` loads twice (ESM for the
 * project, CommonJS for @pothos/core) and `lexicographicSortSchema` refuses to mix them.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

function builtSDL(): string {
  return execFileSync(
    process.execPath,
    ['--import', 'tsx', '-e', `import('./src/graphql/schema/index.ts').then((m) => process.stdout.write(m.printSDL()))`],
    { cwd: root, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 },
  );
}

describe('schema.graphql', () => {
  it('matches the schema built from src/graphql (run `npm run schema:print` after changing it)', () => {
    const committed = readFileSync(`${root}/schema.graphql`, 'utf8');
    const printed = builtSDL();
    expect(printed.length).toBeGreaterThan(1000);
    if (committed !== printed) {
      const a = committed.split('\n');
      const b = printed.split('\n');
      const i = a.findIndex((line, k) => line !== b[k]);
      throw new Error(
        `schema.graphql is out of date: first difference at line ${i + 1}\n` +
          `  committed: ${JSON.stringify(a[i])}\n  built:     ${JSON.stringify(b[i])}\n` +
          'run `npm run schema:print` and commit the result',
      );
    }
  });
});
