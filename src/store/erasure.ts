import type { Logger } from '../ports/logger.js';
import { unavailableIn, type Queryable, type SqlClient } from './sql-client.js';
import { classify } from './pg-errors.js';

/**
 * Erasure that erases (docs/erasure.md). A DELETE or UPDATE in PostgreSQL leaves the old
 * row version's bytes in the table and index files (until the page is reused) and in the
 * write-ahead log (until its segment is recycled, and a recycled segment keeps its old
 * bytes). After forget for good, a cleanup sweep or a space drop commits, this rewrites
 * what held the words:
 * - VACUUM FULL of every table that holds a person's words or a derived form of them
 *   (a fresh copy of each table and its indexes, the old files unlinked), then a plain
 *   VACUUM of them (the fresh copies' visibility map, which index-only scans read);
 * - a WAL switch then a CHECKPOINT with `wal_recycle = off`: the segments that held the
 *   statements are removed instead of renamed for reuse.
 * memory_vectors is vacuumed without index cleanup (not rewritten: its HNSW index would be
 * rebuilt, minutes at 100K vectors; and an HNSW index cleanup repairs the graph, minutes too);
 * a vector is not text. Measured by test/process/erasure.test.ts (grep of
 * every byte under the data directory).
 */
export const CONTENT_TABLES = ['messages', 'memories', 'mentions', 'memory_state', 'memory_lexicon', 'memory_terms', 'lexicon_df'] as const;

export interface ErasureReport {
  done: string[];
  failed: { step: string; error: string }[];
  /** The connection was lost on both tries: the words stay on disk until an erasure goes through. */
  connectionLost?: boolean;
  /**
   * The tables were held by another session past the lock timeout (a long report, `pg_dump`, a
   * migration): the words stay on disk until an erasure goes through, which the store runs again.
   */
  tablesHeld?: boolean;
}

/** 55P03 lock_not_available: `lock_timeout` passed waiting for a table another session holds. */
const LOCK_NOT_AVAILABLE = '55P03';

export async function eraseResidue(db: SqlClient, log?: Logger): Promise<ErasureReport> {
  const once = () => {
    const lost = { connection: false, held: false };
    const run = (q: Queryable) => eraseOn(q, db.driver, lost, log);
    return (db.session ? db.session(run) : run(db)).then((report) => ({ report: lost.held ? { ...report, tablesHeld: true } : report, lost: lost.connection }), (e: unknown) => {
      // No connection to erase on (the database went away after the forget committed): reported, not
      // thrown; the forget is done, and a throw here answered it "Unexpected error.".
      if (!unavailableIn(classify(e))) throw e;
      return { report: { done: [], failed: [{ step: 'connect', error: e instanceof Error ? e.message : String(e) }] }, lost: true };
    });
  };
  const first = await once();
  if (!first.lost) return first.report;
  // The session's connection was lost (a restart, pg_terminate_backend): every step after it failed
  // on the dead connection, and the words stayed on disk though forget had answered. Once more on a
  // fresh connection; a second loss is reported as such (the store runs it again later: sql-store-base.ts).
  log?.warn({ failed: first.report.failed }, 'erasure: the connection was lost; erasing again on a new one');
  const second = await once();
  if (!second.lost) return second.report;
  log?.warn({ failed: second.report.failed }, 'erasure: the connection was lost again; the forgotten words stay on disk until an erasure goes through');
  return { ...second.report, connectionLost: true };
}

async function eraseOn(db: Queryable, driver: SqlClient['driver'], lost: { connection: boolean; held: boolean }, log?: Logger): Promise<ErasureReport> {
  const report: ErasureReport = { done: [], failed: [] };
  const step = async (name: string, sql: string) => {
    try {
      await db.query(sql);
      report.done.push(name);
    } catch (e) {
      if (unavailableIn(classify(e))) lost.connection = true;
      else if ((e as { code?: unknown })?.code === LOCK_NOT_AVAILABLE) lost.held = true;
      report.failed.push({ step: name, error: e instanceof Error ? e.message : String(e) });
    }
  };
  // Superuser-only on a server (PGlite's one user is one): without it a segment may be renamed for reuse, bytes intact.
  // PGlite: this session is also the checkpointer. A server's checkpointer reads its own
  // configuration: `ALTER SYSTEM SET wal_recycle = off` (scripts/ci/engram-roles.sql).
  if (driver === 'pglite') {
    await step('wal_recycle off', `set wal_recycle = off`);
    return rewrite(db, step, report, lost, log);
  }
  // On a shared server: never queue behind (and in front of) the service's own traffic for long;
  // but once the tables are held, finish: the rewrite takes as long as they are large (3.2 s at 90K
  // memories on the bench server), and the service's statement timeout (15 s) would cancel it, every
  // time, past a few hundred thousand, the words left on disk after the service waited for nothing.
  // (every statement of every instance on these tables queues behind a VACUUM FULL waiting for its lock:
  // 1 s bounds that wait; held longer, the erasure runs again later: sql-store-base.ts)
  await step('lock timeout', `set lock_timeout = '1s'`);
  await step('no statement timeout', `set statement_timeout = 0`);
  try {
    return await rewrite(db, step, report, lost, log);
  } finally {
    // A pooled connection keeps its session's settings: back to the pool's own (a lock timeout of
    // 1 s left on it would fail a remember waiting longer for its space's lock).
    for (const name of ['lock_timeout', 'statement_timeout']) await db.query(`reset ${name}`).catch(() => {});
  }
}

async function rewrite(
  db: Queryable, step: (name: string, sql: string) => Promise<void>, report: ErasureReport, lost: { connection: boolean; held: boolean }, log?: Logger,
): Promise<ErasureReport> {
  // VACUUM skips, with a mere WARNING, a table its role may not vacuum (not the table's or the
  // database's owner, not a superuser): the rewrite would be reported done with the words still on
  // disk. Tables this role may not vacuum are named as a failed step, and nothing is rewritten.
  const refused = await db.query<{ t: string }>(
    `select c.relname as t from pg_class c
     where c.relname = any($1::text[]) and c.relkind = 'r' and c.relnamespace = current_schema()::regnamespace
       and not (pg_has_role(current_user, c.relowner, 'MEMBER')
                or pg_has_role(current_user, (select datdba from pg_database where datname = current_database()), 'MEMBER')
                or coalesce((select rolsuper from pg_roles where rolname = current_user), false))`, [[...CONTENT_TABLES]],
  ).then((r) => r.rows.map((x) => x.t), (e: unknown) => {
    // unknown: the rewrite is tried anyway (it erases wherever this role may, as before the check)
    log?.warn({ cause: String(e) }, 'erasure: could not check which tables this role may vacuum');
    return [];
  });
  if (refused.length > 0) {
    report.failed.push({ step: 'vacuum full', error: `this role may not vacuum ${refused.join(', ')} (the tables' owner may: DATABASE_OWNER_URL)` });
    log?.warn({ failed: report.failed }, 'erasure: the forgotten words stay on disk until a role that may rewrite the tables runs it (docs/erasure.md)');
    return report;
  }
  await step('vacuum full', `vacuum full ${CONTENT_TABLES.join(', ')}`);
  // A VACUUM FULL leaves the new files' visibility map empty, and autovacuum (or PGlite's
  // housekeeping, by the same rule) may not visit a table with no dead rows for a long time:
  // meanwhile every index-only scan fetches each row from the table (the BM25 postings: 15,861
  // heap fetches for one question at 90K memories, the postings read in 41 ms instead of ~18).
  // A plain VACUUM of the fresh tables sets it again; it only reads them, and blocks no one.
  await step('visibility map', `vacuum ${CONTENT_TABLES.join(', ')}`);
  // Without its index cleanup: vacuuming the HNSW index repairs the graph around every deleted
  // node (measured: 308 s for 500 deleted rows at 100K × 512-d on the server; a 10,000-memory
  // sweep took 1,581 s). A vector is not text; the server's autovacuum cleans the index later.
  await step('vacuum vectors', `vacuum (index_cleanup off) memory_vectors`);
  await step('wal switch', `select pg_switch_wal()`);
  await step('checkpoint', `checkpoint`);
  // (steps failed on a lost connection are eraseResidue's to report: it tries again)
  if (lost.held) {
    log?.warn({ failed: report.failed }, 'erasure: another session held the tables past the lock timeout (a long report, a dump); the forgotten words stay on disk until it runs again');
  } else if (report.failed.length && !lost.connection) {
    log?.warn({ failed: report.failed }, 'erasure: some steps could not run with this role (docs/erasure.md says what remains)');
  }
  return report;
}
