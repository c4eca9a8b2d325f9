/**
 * schema.graphql is printed from the Pothos builder; a committed file that differs
 * fails the build (regenerate with `npm run schema:print`).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { printSDL } from '../../src/graphql/schema/index.js';


describe('schema.graphql', () => {
  it('matches the schema built from src/graphql (run `npm run schema:print` after changing it)', () => {
    const committed = readFileSync(fileURLToPath(new URL('../../schema.graphql', import.meta.url)), 'utf8');
    const printed = printSDL();
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
