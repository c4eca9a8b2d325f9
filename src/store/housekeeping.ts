import type { SqlClient } from './sql-client.js';

/**
 * PGlite's housekeeping: what a PostgreSQL server's autovacuum does, which PGlite (one
 * process, no background workers) never does by itself (docs/operations.md, "Housekeeping").
 *
 * - VACUUM: dead rows (every reinforcement, status change and recall counter leaves one)
 *   are reclaimed instead of piling up, and the visibility map is set, so an index-only
 *   scan (the BM25 postings, the heard-word probes) reads the index alone instead of
 *   fetching every row it finds from the table;
 * - ANALYZE: the planner's statistics follow the tables (without them it misjudges a
 *   common term's postings by a hundredfold and sorts where it would hash).
 *
 * The rule is autovacuum's own, with its default settings: a table is vacuumed once its
 * dead rows exceed 50 + 20 % of its rows, or its rows inserted since the last vacuum exceed
 * 1,000 + 20 %; analysed once its rows changed since the last analysis exceed 50 + 10 %.
 * One statement per table, so other statements run between them.
 */
export interface TableDue { table: string; vacuum: boolean; analyze: boolean }

export async function tablesDue(db: SqlClient): Promise<TableDue[]> {
  // A session's counts reach the statistics views at most once a second: the last writes flushed first.
  await db.query('select pg_stat_force_next_flush()');
  const r = await db.query<{ table: string; vacuum: boolean; analyze: boolean }>(
    `select relname as "table",
       (n_dead_tup > 50 + 0.2 * n_live_tup or n_ins_since_vacuum > 1000 + 0.2 * n_live_tup) as vacuum,
       n_mod_since_analyze > 50 + 0.1 * n_live_tup as analyze
     from pg_stat_user_tables
     where schemaname = current_schema()
       and (n_dead_tup > 50 + 0.2 * n_live_tup or n_ins_since_vacuum > 1000 + 0.2 * n_live_tup
            or n_mod_since_analyze > 50 + 0.1 * n_live_tup)
     order by relname`,
  );
  return r.rows.map((x) => ({ table: x.table, vacuum: !!x.vacuum, analyze: !!x.analyze }));
}

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Vacuums and analyses the tables that are due (`tablesDue`), one statement each; returns what it did. */
export async function tidyTables(db: SqlClient): Promise<TableDue[]> {
  const due = await tablesDue(db);
  for (const t of due) {
    const sql = t.vacuum ? `vacuum${t.analyze ? ' (analyze)' : ''} ${quoted(t.table)}` : `analyze ${quoted(t.table)}`;
    await db.query(sql);
  }
  return due;
}
