import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PERMISSIONS } from '../../src/graphql/authz.js';

/** README's role × operation table says exactly what the server enforces. */
describe('README role table', () => {
  it('has one row per operation, with the roles PERMISSIONS allows', () => {
    const readme = readFileSync(join(import.meta.dirname, '../../README.md'), 'utf8');
    const rows = new Map<string, string[]>();
    for (const m of readme.matchAll(/^\| `(\w+)` \| [^|]* \| (.) \| (.) \| (.) \| (.) \|$/gm)) {
      rows.set(m[1], ['admin', 'operator', 'chat', 'assistant'].filter((_, i) => m[i + 2] === '✓'));
    }
    expect([...rows.keys()].sort()).toEqual(Object.keys(PERMISSIONS).sort());
    for (const [op, roles] of rows) expect(roles, op).toEqual([...PERMISSIONS[op]]);
  });
});
