/**
 * The erasure after a forget (docs/erasure.md, "The bytes") on a connection that is lost half-way
 * (a restart, pg_terminate_backend): every later step failed on the dead session ("Client has
 * encountered a connection error and is not queryable"), and the forgotten words stayed on disk
 * though forget had answered. Seen on the server: terminating the backends during a forget left
 * `vacuum full`, `visibility map`, `vacuum vectors`, `wal switch` and `checkpoint` all failed. It
 * now runs once more on a fresh connection. A client of fakes: which statements ran, on which session.
 */
import { describe, expect, it } from 'vitest';
import { eraseResidue } from '../../src/store/erasure.js';
import type { Queryable, SqlClient } from '../../src/store/sql-client.js';

/** A server client whose first session loses its connection at `vacuum full`; `ran` lists each session's statements. */
function losingOnce(): { db: SqlClient; ran: string[][] } {
  const ran: string[][] = [];
  const db = {
    driver: 'pg', statementCount: 0,
    async query() { return { rows: [], rowCount: 0 }; },
    async exec() {},
    async transaction() { throw new Error('not used'); },
    async close() {},
    async session<T>(fn: (q: Queryable) => Promise<T>): Promise<T> {
      const statements: string[] = [];
      ran.push(statements);
      const first = ran.length === 1;
      let dead = false;
      return fn({
        async query<R>(sql: string) {
          statements.push(sql);
          if (dead) throw new Error('Client has encountered a connection error and is not queryable');
          if (first && sql.startsWith('vacuum full')) {
            dead = true;
            throw Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
          }
          return { rows: [] as R[], rowCount: 0 };
        },
      });
    },
  } as unknown as SqlClient;
  return { db, ran };
}

describe('erasure on a connection lost half-way', () => {
  it('runs again on a fresh connection: every step done', async () => {
    const { db, ran } = losingOnce();
    const report = await eraseResidue(db);
    expect(ran).toHaveLength(2);
    expect(report.failed).toEqual([]);
    expect(report.done).toEqual(expect.arrayContaining(['vacuum full', 'visibility map', 'vacuum vectors', 'wal switch', 'checkpoint']));
  });

  it('a step refused for another reason is reported, not retried', async () => {
    const ran: string[][] = [];
    const db = {
      driver: 'pg', statementCount: 0,
      async session<T>(fn: (q: Queryable) => Promise<T>): Promise<T> {
        const statements: string[] = [];
        ran.push(statements);
        return fn({
          async query<R>(sql: string) {
            statements.push(sql);
            if (sql === 'checkpoint') throw Object.assign(new Error('permission denied to execute CHECKPOINT'), { code: '42501' });
            return { rows: [] as R[], rowCount: 0 };
          },
        });
      },
    } as unknown as SqlClient;
    const report = await eraseResidue(db);
    expect(ran).toHaveLength(1);
    expect(report.failed).toEqual([{ step: 'checkpoint', error: 'permission denied to execute CHECKPOINT' }]);
  });
});

describe('erasure with no connection to be had', () => {
  it('reports the failed connect, after one more try, and does not throw: the forget before it is done', async () => {
    let tries = 0;
    const db = {
      driver: 'pg', statementCount: 0,
      async session() {
        tries++;
        throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
      },
    } as unknown as SqlClient;
    const report = await eraseResidue(db);
    expect(tries).toBe(2);
    expect(report.done).toEqual([]);
    expect(report.failed).toEqual([{ step: 'connect', error: 'connect ECONNREFUSED 127.0.0.1:5432' }]);
  });

  it('any other failure to open the session is still thrown (a defect, not the database away)', async () => {
    const db = { driver: 'pg', statementCount: 0, async session() { throw new TypeError('boom'); } } as unknown as SqlClient;
    await expect(eraseResidue(db)).rejects.toThrow('boom');
  });
});
