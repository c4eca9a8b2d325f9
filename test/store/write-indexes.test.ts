/**
 * Migrations 18 to 20 (src/store/migration-indexes.ts), on both databases: the lexicon keeps no
 * GIN index (no query reads it), the three links from one memory to another are indexed only
 * where set, the events by memory by a hash index and by space by their key; yet every statement
 * the store runs on a link, or on events, goes through an index. On the server, an upgrade over
 * the three migrations waits in no cycle with a writer on the previous version, whichever table
 * it takes first.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { testAppOn } from '../helpers/app.js';
import { addStatements, testDatabases, withOlderStore } from '../helpers/db.js';
import { migrate } from '../../src/store/migrations.js';
import { PgClient } from '../../src/store/pg-client.js';
import { PgliteClient } from '../../src/store/pglite-client.js';
import { SqlStore } from '../../src/store/sql-store.js';
import type { Queryable, SqlClient } from '../../src/store/sql-client.js';

type Sent = Array<{ sql: string; params: unknown[] }>;

/** The statements `run` sends through a store on `db` (their text and parameters, as sent). */
async function statementsOf(db: SqlClient, run: (store: SqlStore) => Promise<unknown>): Promise<Sent> {
  const seen: Sent = [];
  const watching: SqlClient = Object.assign(Object.create(db) as SqlClient, {
    query: (sql: string, params: unknown[] = []) => { seen.push({ sql, params }); return db.query(sql, params); },
  });
  await run(new SqlStore(watching));
  return seen;
}

for (const target of testDatabases()) {
  describe(`indexes a write maintains (${target.name})`, () => {
    const app = testAppOn(target);

    const indexes = async (table: string) => new Map(
      (await app.db.query<{ name: string; def: string }>(
        `select indexname as name, indexdef as def from pg_indexes where schemaname = current_schema() and tablename = $1`, [table],
      )).rows.map((r) => [r.name, r.def]),
    );

    /**
     * The generic plan (as a prepared statement gets) of `sql` with `params`, sequential scans and
     * hash and merge joins priced out: what an index can serve shows as that index.
     */
    const plan = (sql: string, params: unknown[], off: string[] = []) => app.db.transaction(async (tx) => {
      for (const s of ['enable_seqscan', 'enable_hashjoin', 'enable_mergejoin', ...off]) await tx.query(`set local ${s} = off`);
      await tx.query('set local plan_cache_mode = force_generic_plan');
      await tx.query(`prepare engram_test_plan as ${sql}`);
      try {
        const args = params.map((p) => Array.isArray(p) ? `'{${p.join(',')}}'` : `'${String(p)}'`).join(', ');
        return (await tx.query<{ 'QUERY PLAN': string }>(`explain execute engram_test_plan(${args})`)).rows.map((r) => r['QUERY PLAN']).join('\n');
      } finally {
        await tx.query('deallocate engram_test_plan');
      }
    });

    it('keeps no GIN index on the lexicon, and indexes each link only where it is set', async () => {
      const lexicon = await indexes('memory_lexicon');
      expect([...lexicon.values()].some((d) => /using gin/i.test(d))).toBe(false);
      expect(lexicon.has('memory_lexicon_pkey')).toBe(true);
      const state = await indexes('memory_state');
      for (const link of ['superseded_by', 'corrected_by', 'merged_into']) {
        expect(state.get(`memory_state_${link}`)).toMatch(new RegExp(`\\(${link}\\) WHERE \\(${link} IS NOT NULL\\)`));
      }
    });

    it('keeps two index entries per event: a hash on memory_id, and the key (space_id, id)', async () => {
      const events = await indexes('memory_events');
      expect([...events.keys()].sort()).toEqual(['memory_events_memory', 'memory_events_pkey']);
      expect(events.get('memory_events_memory')).toMatch(/USING hash \(memory_id\)$/);
      expect(events.get('memory_events_pkey')).toMatch(/UNIQUE INDEX memory_events_pkey ON \S+ USING btree \(space_id, id\)$/);
    });

    it('reads every link, and events by memory or by space, through an index: predecessors, correction chains, merged descendants, wordings, histories, cursors', async () => {
      // A link's lookup (`superseded_by = any($1) or corrected_by = any($1)`) is served by the two
      // partial indexes (a BitmapOr); with seq scans priced out, a small shared test table could
      // also be walked whole through its key index, filtered: plain index scans are priced out too.
      const links = ['enable_indexscan'];
      const cases: Array<[string, (s: SqlStore) => Promise<unknown>, RegExp[], string, string[]?]> = [
        ['predecessorMembers', (s) => s.predecessorMembers(['a', 'b'], 1_000), [/memory_state_superseded_by/, /memory_state_corrected_by/], 'memory_state', links],
        ['chainMembers', (s) => s.chainMembers(['a'], 1_000), [/memory_state_superseded_by/, /memory_state_corrected_by/], 'memory_state', links],
        // (the rows they want are MERGED ones: the planner may take the status index, memory_state_space, instead)
        ['mergedDescendants', (s) => s.mergedDescendants(undefined, 'space', ['a']), [/memory_state_(merged_into|space)/], 'memory_state'],
        ['mentionsOf', (s) => s.mentionsOf(['a']), [/memory_state_(merged_into|space)/], 'memory_state'],
        ['eventsOf', (s) => s.eventsOf(['a', 'b']), [/Bitmap Index Scan on memory_events_memory/], 'memory_events'],
        // a space's events after a cursor (subscriptions, other instances), and its last event id
        ['spaceEvents', (s) => s.spaceEvents('space', 10, 500), [/Index Scan using memory_events_pkey/], 'memory_events'],
        ['lastEventId', (s) => s.lastEventId('space'), [/Index Only Scan( Backward)? using memory_events_pkey/], 'memory_events'],
      ];
      for (const [name, run, uses, table, off] of cases) {
        const [st] = await statementsOf(app.db, run);
        const shown = await plan(st!.sql, st!.params, off);
        for (const index of uses) expect(shown, `${name}:\n${shown}`).toMatch(index);
        expect(shown, `${name}:\n${shown}`).not.toMatch(new RegExp(`Seq Scan on ${table}`));
      }
    });

    it('serves the foreign keys\' `on delete set null` from the link\'s index', async () => {
      // the statement PostgreSQL runs for each link when the memory it points at is deleted
      for (const link of ['superseded_by', 'corrected_by', 'merged_into']) {
        const shown = await plan(`update only memory_state set ${link} = null where $1::text operator(pg_catalog.=) ${link}`, ['a']);
        expect(shown).toMatch(new RegExp(`memory_state_${link}`));
      }
    });
  });
}

describe('migration 18 on a store written before it', () => {
  it('applies over existing links: predecessors and whole correction chains are still found, both ways, over both kinds of link', async () => {
    // old -> new (superseded), wrong -> new (marked erroneous, corrected by new), other: no link
    await withOlderStore(17, ['old', 'wrong', 'new', 'other'], async (db) => {
      await db.query(`update memory_state set status = 'SUPERSEDED', superseded_by = 'new' where memory_id = 'old'`);
      await db.query(`update memory_state set status = 'ERRONEOUS', corrected_by = 'new' where memory_id = 'wrong'`);
      expect(await migrate(db, { dimensions: 512, upTo: 18 })).toEqual([18]);
      const store = new SqlStore(db);
      const [ofNew, ofOld, ofOther] = (await store.predecessorMembers(['new', 'old', 'other'], 1_000)).map((c) => c!);
      expect(ofNew.map((m) => m.id)).toEqual(['old', 'wrong']);
      expect(ofOld).toEqual([]);
      expect(ofOther).toEqual([]);
      const chains = (await store.chainMembers(['wrong', 'old', 'new', 'other'], 1_000)).map((c) => c!);
      for (const chain of chains.slice(0, 3)) expect(chain.map((m) => m.id)).toEqual(['old', 'wrong', 'new']);
      expect(chains[3]!.map((m) => m.id)).toEqual(['other']);
    });
  });
});

describe('migration 19 on a store written before it', () => {
  it('finds every event written before it, by memory, in order', async () => {
    await withOlderStore(18, ['a', 'b', 'c'], async (db) => {
      await db.query(
        `insert into memory_events (space_id, memory_id, kind, actor)
         select 's1', m, k, 'test' from unnest($1::text[], $2::text[]) as x(m, k)`,
        [['a', 'b', 'a', 'c', 'a'], ['CREATED', 'CREATED', 'REINFORCED', 'CREATED', 'MUTED']],
      );
      expect(await migrate(db, { dimensions: 512, upTo: 19 })).toEqual([19]);
      const [ofA, ofB, ofNone] = await new SqlStore(db).eventsOf(['a', 'b', 'none']);
      expect(ofA.map((e) => e.kind)).toEqual(['CREATED', 'REINFORCED', 'MUTED']);
      expect(ofB.map((e) => e.kind)).toEqual(['CREATED']);
      expect(ofNone).toEqual([]);
    });
  });

  // Writers of the previous version take memory_events and memory_state in either order (remember
  // reads the space's last event id first; a status change writes memory_state, then its event).
  // Migration 18 locks memory_state, 19 and 20 memory_events: each in its own transaction
  // (`migrate`), an upgrade over them waits in no cycle with either writer.
  const writers: Array<[string, (tx: Queryable) => Promise<void>]> = [
    ['reads memory_events first, as remember does', async (tx) => {
      await tx.query(`select max(id) from memory_events where space_id = 's1'`);
    }],
    ['writes memory_state first, as a status change does', async (tx) => {
      await tx.query(`update memory_state set importance = 0.5 where memory_id = 'a'`);
    }],
  ];
  for (const [name, first] of writers) {
    it.skipIf(!process.env.DATABASE_URL)(`upgrading over 18 to 20 beside a writer on the previous version that ${name}: both finish`, { timeout: 60_000 }, async () => {
      const admin = new PgClient(process.env.DATABASE_URL!, 1);
      const schema = `lock_order_${randomBytes(4).toString('hex')}`;
      await admin.query(`create schema ${schema}`);
      const url = new URL(process.env.DATABASE_URL!);
      url.searchParams.set('options', `-c search_path=${schema},public`);
      const writer = new PgClient(url.toString(), 1);
      const upgrader = new PgClient(url.toString(), 1);
      try {
        await migrate(writer, { dimensions: 512, upTo: 17 });
        await writer.query(`insert into spaces (id, name) values ('s1', 'old')`);
        await addStatements(writer, 's1', ['a']);
        let upgrade: Promise<number[]> | undefined;
        await writer.transaction(async (tx) => {
          await first(tx);
          upgrade = migrate(upgrader, { dimensions: 512, upTo: 20 });
          upgrade.catch(() => {});
          // until the upgrade waits for a lock on one of this schema's tables (bounded: 30 s)
          const waiting = async () => Number((await admin.query<{ n: number }>(
            `select count(*)::int as n from pg_locks l join pg_class c on c.oid = l.relation
             join pg_namespace ns on ns.oid = c.relnamespace where ns.nspname = $1 and not l.granted`, [schema])).rows[0]!.n);
          for (let i = 0; i < 300 && (await waiting()) === 0; i++) await new Promise((r) => setTimeout(r, 100));
          expect(await waiting()).toBeGreaterThan(0);
          // what the older writer does next: its status change and its event
          await tx.query(`update memory_state set status = 'MUTED' where memory_id = 'a'`);
          await tx.query(`insert into memory_events (space_id, memory_id, kind, actor) values ('s1', 'a', 'MUTED', 'old')`);
        });
        expect(await upgrade).toEqual([18, 19, 20]);
        const [events] = await new SqlStore(writer).eventsOf(['a']);
        expect(events!.map((e) => e.kind)).toEqual(['MUTED']);
      } finally {
        await writer.close();
        await upgrader.close();
        await admin.query(`drop schema ${schema} cascade`);
        await admin.close();
      }
    });
  }
});

describe('correction chains read their own links only', () => {
  it('reads as many rows of memories and memory_state for a chain whatever the number of other chains', async () => {
    const db = await PgliteClient.open(':memory:');
    try {
      await migrate(db, { dimensions: 512 });
      await db.query(`insert into spaces (id, name) values ('s1', 'one'), ('s2', 'other')`);
      await addStatements(db, 's1', ['a', 'b', 'c']);
      await db.query(`update memory_state set status = 'SUPERSEDED', superseded_by = 'b' where memory_id = 'a'`);
      await db.query(`update memory_state set status = 'SUPERSEDED', superseded_by = 'c' where memory_id = 'b'`);
      // 400 other chains of two in another space
      const olds = Array.from({ length: 400 }, (_, i) => `o${i}`);
      const news = Array.from({ length: 400 }, (_, i) => `n${i}`);
      await addStatements(db, 's2', [...olds, ...news]);
      await db.query(`update memory_state s set status = 'SUPERSEDED', superseded_by = 'n' || substr(s.memory_id, 2) where s.memory_id like 'o%'`);
      await db.query('analyze memory_state');

      let chain: { id: string }[] | null | undefined;
      const [sent] = await statementsOf(db, async (store) => { [chain] = await store.chainMembers(['b'], 1_000); });
      expect(chain!.map((m) => m.id)).toEqual(['a', 'b', 'c']);
      // the statement as sent, run again under EXPLAIN ANALYZE: the rows each scan of memory_state gave
      const plan = (await db.query<{ 'QUERY PLAN': string }>(`explain (analyze, costs off, timing off) ${sent!.sql.replace('$1::text[]', `'{b}'::text[]`)}`))
        .rows.map((r) => r['QUERY PLAN']);
      const scans = plan.filter((l) => /Scan .*on (memory_state|memories)\b/.test(l));
      expect(scans.length).toBeGreaterThan(0);
      for (const line of scans) expect(Number(/rows=(\d+)/.exec(line)![1]), line).toBeLessThanOrEqual(3);
    } finally {
      await db.close();
    }
  });
});
