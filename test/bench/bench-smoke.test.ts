import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseArgs } from '../../bench/args.js';
import { runBench, writeResults } from '../../bench/run.js';

/**
 * The bench at a smoke size, so it never rots: it must complete and report every
 * workload for every engine with finite numbers. Speed is not asserted.
 * pgvector-pglite and lancedb always; the PostgreSQL-server pgvector is not
 * needed here (its path is the same SQL, exercised by the store suites).
 */
describe('bench smoke', () => {
  it('runs every workload on pgvector-pglite, lancedb and the floor at N=200 (dim 16 one space, dim 100 ten spaces)', async () => {
    const o = parseArgs([
      '--engines', 'pgvector-pglite,lancedb', '--record-store', 'pglite', '--cases', '16x200x1,100x200x10',
      '--remember', '10', '--queries', '10', '--planted', '10', '--recall', '5', '--bulk', '100', '--budget', '5', '--no-startup',
    ]);
    const r = await runBench(o);
    expect(r.notices.filter((n) => n.includes('failed'))).toEqual([]);
    expect(r.cases).toHaveLength(2);
    const workloads = ['search k=10 (approximate)', 'recognition search (approximate)', 'recognition search (exact)', 'recall() use case', 'remember() with recognition'];
    for (const c of r.cases) {
      expect(c.errors).toEqual({});
      expect(c.engines).toEqual(['pgvector-pglite', 'lancedb', 'floor']);
      const expected = c.spec.spaces === 1 ? [...workloads, 'bulk mute'] : workloads;
      for (const engine of c.engines) {
        for (const w of expected) {
          const rows = c.rows.filter((x) => x.engine === engine && x.workload.startsWith(w));
          expect(rows.length, `${engine} ${w} dim=${c.spec.dim} spaces=${c.spec.spaces}`).toBeGreaterThan(0);
          for (const x of rows) expect(Number.isFinite(x.value), `${engine} ${x.workload} ${x.metric}`).toBe(true);
        }
        if (c.spec.spaces === 1) expect(c.rows.some((x) => x.engine === engine && x.workload.startsWith('cleanUp'))).toBe(true);
      }
      // Exact recognition never misses a planted duplicate.
      for (const x of c.rows.filter((y) => y.workload === 'recognition search (exact)' && y.metric === 'duplicate misses')) expect(x.value).toBe(0);
    }
    const dir = await mkdtemp(join(tmpdir(), 'engram-bench-smoke-'));
    try {
      const files = await writeResults(r, dir);
      const md = await readFile(files[1], 'utf8');
      expect(md).toContain('| workload | metric | unit | pgvector-pglite | lancedb | floor |');
      expect(md).toMatch(/cores/);
      expect(await readFile(files[2], 'utf8')).toMatch(/^<svg[\s\S]*<\/svg>\n$/);
      expect(JSON.parse(await readFile(files[0], 'utf8')).machine.cpu).toBeTruthy();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 240_000);
});
