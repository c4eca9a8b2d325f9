import { PgClient } from '../../src/store/pg-client.js';
import { PgliteClient } from '../../src/store/pglite-client.js';
import { migrate } from '../../src/store/migrations.js';
import type { SqlClient } from '../../src/store/sql-client.js';

export interface TestDatabase {
  /** 'pglite' (embedded, in memory) or 'pg' (the PostgreSQL server at DATABASE_URL). */
  name: 'pglite' | 'pg';
  open(): Promise<SqlClient>;
}

/**
 * Refuses to touch a database whose name does not contain "test": a test run
 * must never write into a real person's memory.
 */
export function assertTestDatabase(url: string): void {
  const name = new URL(url).pathname.replace(/^\//, '');
  if (!name.includes('test')) throw new Error(`refusing to run tests against database "${name}": its name must contain "test"`);
}

/** The databases every store-level suite runs against: PGlite always, the PostgreSQL server when DATABASE_URL is set. */
export function testDatabases(): TestDatabase[] {
  const out: TestDatabase[] = [{ name: 'pglite', open: () => PgliteClient.open(':memory:') }];
  const url = process.env.DATABASE_URL;
  if (url) {
    assertTestDatabase(url);
    out.push({ name: 'pg', open: async () => new PgClient(url, 4) });
  } else if (!process.env.ENGRAM_QUIET_SKIPS) {
    process.stderr.write('notice: DATABASE_URL is not set: the PostgreSQL-server runs are skipped (CI sets it)\n');
  }
  return out;
}

/**
 * Statements of `space` written in SQL, as an older Engram (or an import) left them: no vector, no
 * lexicon, no event; said a second apart in `ids`' order, each quoting its id.
 */
export async function addStatements(db: SqlClient, space: string, ids: string[]): Promise<void> {
  await db.query(
    `insert into memories (id, space_id, kind, type, quote, normalized, said_at)
     select x, $2, 'STATEMENT', 'FACT', x, x, now() + i * interval '1 second' from unnest($1::text[]) with ordinality as u(x, i)`,
    [ids, space],
  );
  await db.query(
    `insert into memory_state (memory_id, space_id, kind, type, last_mentioned_at, embedding_status)
     select x, $2, 'STATEMENT', 'FACT', now(), 'MISSING' from unnest($1::text[]) x`,
    [ids, space],
  );
}

/** A store as an Engram at migration `upTo` left it (PGlite), space s1 holding the statements `ids`; closed after `run`. */
export async function withOlderStore(upTo: number, ids: string[], run: (db: SqlClient) => Promise<void>): Promise<void> {
  const db = await PgliteClient.open(':memory:');
  try {
    await migrate(db, { dimensions: 512, upTo });
    await db.query(`insert into spaces (id, name) values ('s1', 'old')`);
    await addStatements(db, 's1', ids);
    await run(db);
  } finally {
    await db.close();
  }
}
