import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * What `npm start` loads before its first answer (docs/operations.md#start): the static import
 * graph of src/main.ts (dynamic `import()` excluded: those load on first use). The language
 * rules' libraries (wink-nlp, its model, wink-lemmatizer: ~0.3 s and ~75 MB), the PostgreSQL
 * server's driver and the outside engines' clients are not in it.
 */
const ROOT = join(import.meta.dirname, '../..');

function staticGraph(entry: string): { files: Set<string>; packages: Map<string, string> } {
  const files = new Set<string>();
  const packages = new Map<string, string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const src = readFileSync(file, 'utf8');
    // `import ... from 'x'` and `export ... from 'x'`, not `import type` (erased) nor `import('x')` (on first use)
    for (const m of src.matchAll(/^\s*(import|export)\s+(?!type\s)[^'";]*?from\s+['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]/gm)) {
      const spec = m[2] ?? m[3]!;
      if (spec.startsWith('.')) {
        const ts = resolve(dirname(file), spec.replace(/\.js$/, '.ts'));
        if (existsSync(ts)) visit(ts);
      } else if (!spec.startsWith('node:')) {
        const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;
        if (!packages.has(name)) packages.set(name, relative(ROOT, file));
      }
    }
  };
  visit(join(ROOT, entry));
  return { files, packages };
}

describe("the server's start imports only what its first answer needs", () => {
  it('loads no language rules, no PostgreSQL driver and no outside engine before the first answer', () => {
    const { packages } = staticGraph('src/main.ts');
    const late = [...packages].filter(([p]) => /^(wink-.*|pg|@lancedb\/.*|apache-arrow|@qdrant\/.*|@energetic-ai\/.*)$/.test(p));
    expect(late.map(([p, from]) => `${p} (imported by ${from})`)).toEqual([]);
  });
  it('the scan follows imports (it can fail)', () => {
    const { files, packages } = staticGraph('src/main.ts');
    // main imports the app dynamically; the app's graph is seen through the container's own import of pglite
    expect(packages.has('@electric-sql/pglite')).toBe(true);
    const app = staticGraph('src/app.ts');
    expect(app.packages.has('graphql-yoga')).toBe(true);
    expect(files.size).toBeGreaterThan(2);
    // the use cases the resolvers load on first use do reach the language rules
    expect([...staticGraph('src/graphql/use-cases.ts').packages.keys()]).toEqual(expect.arrayContaining(['wink-nlp', 'wink-lemmatizer']));
  });
  it("the app's graph (imported by main once the store is opening) has none of them either", () => {
    const { packages } = staticGraph('src/app.ts');
    expect([...packages.keys()].filter((p) => /^(wink-.*|pg|@lancedb\/.*|apache-arrow|@qdrant\/.*|@energetic-ai\/.*)$/.test(p))).toEqual([]);
  });
});
