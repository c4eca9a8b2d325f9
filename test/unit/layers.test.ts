import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Arrows point down only (docs/DESIGN.md): src/core imports nothing from the project
 * but itself and no driver; src/ports only core; src/memory talks to ports, never to a
 * driver, the store, GraphQL or an adapter.
 */
const ROOT = join(import.meta.dirname, '../..');
const DRIVERS = /^(pg|pgvector(\/.*)?|@electric-sql\/pglite(\/.*)?|@lancedb\/lancedb|apache-arrow|@qdrant\/js-client-rest|graphql|graphql-yoga|graphql-ws|@pothos\/.*|ws|dataloader|pino)$/;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

function imports(file: string): string[] {
  const src = readFileSync(file, 'utf8');
  return [...src.matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1] ?? m[2]);
}

function violations(layer: string, allowed: (spec: string, resolved: string) => boolean): string[] {
  const out: string[] = [];
  for (const f of files(join(ROOT, layer))) {
    for (const spec of imports(f)) {
      const resolved = spec.startsWith('.') ? relative(ROOT, join(f, '..', spec)) : spec;
      if (!allowed(spec, resolved)) out.push(`${relative(ROOT, f)} imports ${spec}`);
    }
  }
  return out;
}

describe('layers', () => {
  it('src/core imports only src/core and pure libraries', () => {
    expect(violations('src/core', (s, r) => (s.startsWith('.') ? r.startsWith('src/core/') : !DRIVERS.test(s) && !s.startsWith('node:')))).toEqual([]);
  });
  it('src/ports imports only src/core and src/ports', () => {
    expect(violations('src/ports', (s, r) => s.startsWith('.') && (r.startsWith('src/core/') || r.startsWith('src/ports/')))).toEqual([]);
  });
  it('src/memory talks to ports, never to a driver, the store, GraphQL or an adapter', () => {
    expect(violations('src/memory', (s, r) => (s.startsWith('.')
      ? !r.startsWith('src/store/') && !r.startsWith('src/graphql/') && !r.startsWith('adapters/') && !r.startsWith('src/embed/')
        || r === 'src/container.js' || r === 'src/config.js' || r === 'src/engines.js'
      : !DRIVERS.test(s)))).toEqual([]);
  });
  it('the scan sees imports (it can fail)', () => {
    expect(imports(join(ROOT, 'src/memory/remember.ts')).length).toBeGreaterThan(3);
  });
});
