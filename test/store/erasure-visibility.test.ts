/**
 * Erasure rewrites the content tables (VACUUM FULL, src/store/erasure.ts), which leaves their
 * visibility map empty: until something vacuums them again, every index-only scan — the BM25
 * postings of every recall — fetches each row from the table, and on a table without dead rows
 * neither autovacuum nor PGlite's housekeeping comes soon. The erasure sets it again itself.
 * On PGlite (one connection: no other snapshot can hold rows back) the map is read; on a server,
 * where another test's open transaction may keep the newest rows from being all-visible, the
 * step is checked to have run. And the erasure's session settings (a lock timeout, no statement
 * timeout) do not stay on the pooled connection it ran on.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { testAppOn, type TestApp } from '../helpers/app.js';
import { testDatabases } from '../helpers/db.js';
import { eraseResidue } from '../../src/store/erasure.js';
import { PgClient } from '../../src/store/pg-client.js';
import { Wall } from '../../src/eval/wall.js';
import { keepSaid } from '../helpers/wall.js';

for (const target of testDatabases()) {
  describe(`erasure and the visibility map (${target.name})`, () => {
    const app = testAppOn(target);
    let t: TestApp;
    beforeAll(() => { t = app.t; });

    it('after the rewrite, the content tables are vacuumed again: index-only scans stay index-only', async () => {
      const deps = t.app.engram.deps;
      const wall = await Wall.open(deps, 'erasure-visibility');
      await keepSaid(deps, wall, ['I keep bees in the back garden.', 'My sister lives in Lisbon.', 'I play the cello on Sundays.']);
      const report = await eraseResidue(t.app.engram.db);
      expect(report.done).toContain('vacuum full');
      expect(report.done).toContain('visibility map');
      expect(report.done.indexOf('visibility map')).toBeGreaterThan(report.done.indexOf('vacuum full'));
      if (target.name === 'pglite') {
        const r = await t.app.engram.db.query<{ relname: string; visible: number; pages: number }>(
          `select relname, relallvisible::int as visible, relpages::int as pages from pg_class
           where relname in ('memory_terms', 'memories', 'memory_state') order by relname`);
        expect(r.rows.length).toBe(3);
        for (const x of r.rows) {
          expect(x.pages, x.relname).toBeGreaterThan(0);
          expect(x.visible, x.relname).toBe(x.pages);
        }
      }
    }, 120_000);

    it.runIf(target.name === 'pg')('on a server its connection goes back to the pool with the pool\'s own timeouts', async () => {
      // one connection: the erasure's session and the statements after it run on the same one
      const one = new PgClient(process.env.DATABASE_URL!, 1, { statementTimeoutMs: 15_000 });
      try {
        const report = await eraseResidue(one);
        expect(report.done).toContain('no statement timeout');
        const r = await one.query<{ lock: string; statement: string }>(
          `select current_setting('lock_timeout') as lock, current_setting('statement_timeout') as statement`);
        expect(r.rows[0]).toEqual({ lock: '0', statement: '15s' });
      } finally {
        await one.close();
      }
    }, 120_000);
  });
}
