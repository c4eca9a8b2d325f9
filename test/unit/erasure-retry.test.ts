/**
 * The erasure after a forget (docs/erasure.md, "The bytes") on a connection that is lost half-way
 * (a restart, pg_terminate_backend): every later step failed on the dead session ("Client has
 * encountered a connection error and is not queryable"), and the forgotten words stayed on disk
 * though forget had answered. Seen on the server: terminating the backends during a forget left
 * `vacuum full`, `visibility map`, `vacuum vectors`, `wal switch` and `checkpoint` all failed. It
 * now runs once more on a fresh connection. A client of fakes: which statements ran, on which session.
 */
import { describe, expect, it, vi } from 'vitest';
import { eraseResidue } from '../../src/store/erasure.js';
import type { Queryable, SqlClient } from '../../src/store/sql-client.js';
import { SqlStore } from '../../src/store/sql-store.js';
import { ERASURE_RETRY_MS } from '../../src/store/sql-store-base.js';
import type { Logger } from '../../src/ports/logger.js';

/**
 * A server client of fakes: `ran` lists each session's statements; `fails(session, sql)` gives the
 * error a statement meets (session counted from 1), or null. A connection lost (57P01) stays lost
 * for the rest of its session.
 */
function fakeServer(fails: (session: number, sql: string) => Error | null): { db: SqlClient; ran: string[][] } {
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
      const session = ran.length;
      let dead = false;
      return fn({
        async query<R>(sql: string) {
          statements.push(sql);
          if (dead) throw new Error('Client has encountered a connection error and is not queryable');
          const e = fails(session, sql);
          if (e) {
            dead = (e as { code?: string }).code === '57P01';
            throw e;
          }
          return { rows: [] as R[], rowCount: 0 };
        },
      });
    },
  } as unknown as SqlClient;
  return { db, ran };
}

/** Its first `losingSessions` sessions each lose their connection at `vacuum full`. */
const losing = (losingSessions: number) => fakeServer((session, sql) => (session <= losingSessions && sql.startsWith('vacuum full')
  ? Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }) : null));

/** Its first `heldSessions` sessions wait for `vacuum full` past the lock timeout (55P03): another session holds the tables. */
const held = (heldSessions: number) => fakeServer((session, sql) => (session <= heldSessions && sql.startsWith('vacuum full')
  ? Object.assign(new Error('canceling statement due to lock timeout'), { code: '55P03' }) : null));

describe('erasure on a connection lost half-way', () => {
  it('runs again on a fresh connection: every step done', async () => {
    const { db, ran } = losing(1);
    const report = await eraseResidue(db);
    expect(ran).toHaveLength(2);
    expect(report.failed).toEqual([]);
    expect(report.done).toEqual(expect.arrayContaining(['vacuum full', 'visibility map', 'vacuum vectors', 'wal switch', 'checkpoint']));
  });

  it('a step refused for another reason is reported, not retried', async () => {
    const { db, ran } = fakeServer((_, sql) => (sql === 'checkpoint'
      ? Object.assign(new Error('permission denied to execute CHECKPOINT'), { code: '42501' }) : null));
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

describe('an erasure lost on both tries', () => {
  /** A session that ran every step to the checkpoint, its vacuum full included. */
  const completed = (statements: string[] | undefined) => !!statements?.some((s) => s.startsWith('vacuum full')) && statements.includes('checkpoint');

  it('says the connection was lost (not that the role may not), and the store runs it again later until it goes through', async () => {
    vi.useFakeTimers();
    try {
      const { db, ran } = losing(3);
      const warn = vi.fn();
      const log = { warn, info: vi.fn(), error: vi.fn(), debug: vi.fn(), child: () => log } as unknown as Logger;
      const report = await eraseResidue(db, log);
      expect(report.connectionLost).toBe(true);
      expect(warn.mock.calls.map((c) => c[1])).not.toContain('erasure: some steps could not run with this role (docs/erasure.md says what remains)');
      expect(warn.mock.calls.map((c) => String(c[1])).at(-1)).toMatch(/connection was lost again/);

      const store = new SqlStore(db, db, log);
      await store.eraseResidue();
      expect(ran).toHaveLength(4); // two above, two here: the third session lost too, the fourth went through
      expect(completed(ran[3])).toBe(true);
      // a store whose erasure is lost twice runs it again after ERASURE_RETRY_MS[0]
      const again = losing(2);
      const later = new SqlStore(again.db, again.db, log);
      await later.eraseResidue();
      expect(again.ran).toHaveLength(2);
      await vi.advanceTimersByTimeAsync(ERASURE_RETRY_MS[0] - 1);
      expect(again.ran).toHaveLength(2);
      await vi.advanceTimersByTimeAsync(1);
      await later.stopErasures();
      expect(again.ran).toHaveLength(3);
      expect(completed(again.ran[2])).toBe(true);
      // and once stopped, nothing more is scheduled
      const stopped = losing(10);
      const closing = new SqlStore(stopped.db, stopped.db, log);
      await closing.eraseResidue();
      await closing.stopErasures();
      await vi.advanceTimersByTimeAsync(ERASURE_RETRY_MS[0] * 100);
      expect(stopped.ran).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('an erasure whose tables another session holds', () => {
  it('says so (not that the role may not), and is run again, past the schedule every last interval, until it goes through', async () => {
    vi.useFakeTimers();
    try {
      const { db, ran } = held(5);
      const warn = vi.fn();
      const log = { warn, info: vi.fn(), error: vi.fn(), debug: vi.fn(), child: () => log } as unknown as Logger;
      const store = new SqlStore(db, db, log);
      await store.eraseResidue();
      expect(ran).toHaveLength(1);
      const said = warn.mock.calls.map((c) => String(c[1]));
      expect(said.some((m) => /held the tables past the lock timeout/.test(m))).toBe(true);
      expect(said.some((m) => /could not run with this role/.test(m))).toBe(false);
      // 30 s, 2 min, 10 min, 10 min: the fifth session still held, the sixth goes through
      for (const ms of [...ERASURE_RETRY_MS, ERASURE_RETRY_MS.at(-1)!, ERASURE_RETRY_MS.at(-1)!]) await vi.advanceTimersByTimeAsync(ms);
      expect(ran).toHaveLength(6);
      // gone through: nothing more is owed
      await vi.advanceTimersByTimeAsync(ERASURE_RETRY_MS.at(-1)! * 3);
      await store.stopErasures();
      expect(ran).toHaveLength(6);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('erasures asked for in a burst', () => {
  it('share the one that has not begun: each forget waits for an erasure begun after it, and a burst costs two', async () => {
    const { db, ran } = losing(0);
    const store = new SqlStore(db, db);
    // five forgets committed before any erasure began: one erasure for them all
    await Promise.all(Array.from({ length: 5 }, () => store.eraseResidue()));
    expect(ran).toHaveLength(1);
    // one under way, then four more: they wait for one more erasure, begun after the first ended
    const first = store.eraseResidue();
    await new Promise((r) => setImmediate(r));
    expect(ran).toHaveLength(2);
    const later = Array.from({ length: 4 }, () => store.eraseResidue());
    expect(later.every((p) => p === later[0])).toBe(true);
    await Promise.all([first, ...later]);
    expect(ran).toHaveLength(3);
    expect(ran.every((statements) => statements.includes('checkpoint'))).toBe(true);
  });
});
