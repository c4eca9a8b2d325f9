/**
 * Migration 18 (src/store/migrations.ts, 'lean-write-indexes'), on both databases: the lexicon
 * keeps no GIN index (no query reads it), and the three links from one memory to another are
 * indexed only where set, yet every lookup by a link still goes through its index.
 */
import { describe, expect, it } from 'vitest';
import { testAppOn } from '../helpers/app.js';
import { testDatabases } from '../helpers/db.js';
import { migrate } from '../../src/store/migrations.js';
import { PgliteClient } from '../../src/store/pglite-client.js';
import { SqlStore } from '../../src/store/sql-store.js';

for (const target of testDatabases()) {
  describe(`indexes a write maintains (${target.name})`, () => {
    const app = testAppOn(target);

    const indexes = async (table: string) => new Map(
      (await app.db.query<{ name: string; def: string }>(
        `select indexname as name, indexdef as def from pg_indexes where schemaname = current_schema() and tablename = $1`, [table],
      )).rows.map((r) => [r.name, r.def]),
    );
    /** The plan of `sql` with sequential scans priced out, as text (a small table would otherwise be scanned). */
    const plan = (sql: string) => app.db.transaction(async (tx) => {
      await tx.query('set local enable_seqscan = off');
      return (await tx.query<{ 'QUERY PLAN': string }>(`explain ${sql}`)).rows.map((r) => r['QUERY PLAN']).join('\n');
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

    it('serves every lookup by a link from its index: by value, by list, in a join, and the foreign keys\' set null', async () => {
      const ids = `array['a', 'b']::text[]`;
      expect(await plan(`select memory_id from memory_state s where s.superseded_by = any(${ids}) or s.corrected_by = any(${ids})`))
        .toMatch(/memory_state_superseded_by[\s\S]*memory_state_corrected_by|memory_state_corrected_by[\s\S]*memory_state_superseded_by/);
      expect(await plan(`select memory_id from memory_state where merged_into = any(${ids})`)).toMatch(/memory_state_merged_into/);
      expect(await plan(`select s.memory_id from memories m join memory_state s on s.merged_into = m.id where m.id = 'a'`))
        .toMatch(/memory_state_merged_into/);
      // what `on delete set null` runs when a memory another points at is forgotten
      for (const link of ['superseded_by', 'corrected_by', 'merged_into']) {
        expect(await plan(`update memory_state set ${link} = null where ${link} = 'a'`)).toMatch(new RegExp(`memory_state_${link}`));
      }
    });
  });
}

describe('migration 18 on a store written before it', () => {
  it('keeps every link it finds: a corrected memory\'s predecessor is found through the new index', async () => {
    const db = await PgliteClient.open(':memory:');
    try {
      await migrate(db, { dimensions: 512, upTo: 17 });
      await db.query(`insert into spaces (id, name) values ('s1', 'old')`);
      for (const id of ['old', 'new', 'other']) {
        await db.query(`insert into memories (id, space_id, kind, type, quote, normalized, said_at) values ($1, 's1', 'STATEMENT', 'FACT', $1, $1, now())`, [id]);
        await db.query(`insert into memory_state (memory_id, space_id, kind, type, last_mentioned_at, embedding_status) values ($1, 's1', 'STATEMENT', 'FACT', now(), 'MISSING')`, [id]);
      }
      await db.query(`update memory_state set status = 'SUPERSEDED', superseded_by = 'new' where memory_id = 'old'`);
      await db.query(`update memory_state set corrected_by = 'old' where memory_id = 'new'`);
      expect(await migrate(db, { dimensions: 512 })).toEqual([18]);
      const store = new SqlStore(db);
      const [ofNew, ofOld, ofOther] = await store.predecessors(['new', 'old', 'other']);
      expect(ofNew.map((m) => m.id)).toEqual(['old']);
      expect(ofOld.map((m) => m.id)).toEqual(['new']);
      expect(ofOther).toEqual([]);
    } finally {
      await db.close();
    }
  });
});
