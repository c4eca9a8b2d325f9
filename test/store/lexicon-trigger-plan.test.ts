/**
 * The lexicon's trigger counts a written document's length once (migration 25). Inlined, the
 * planner counted it again for every term of the document: a subplan run once per term, quadratic
 * in the terms, which held the embedded store's one connection for seconds on a long quote (every
 * other space waiting). Read from the statement's plan, not from a clock.
 */
import { describe, expect, it } from 'vitest';
import { PgliteClient } from '../../src/store/pglite-client.js';
import { migrate } from '../../src/store/migrations.js';
import { addedPostingsSql } from '../../src/store/migration-lexicon-df.js';

type PlanNode = { 'Node Type': string; 'Actual Loops'?: number; Plans?: PlanNode[] };
const nodes = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodes)];
/** 400 distinct words. */
const words = Array.from({ length: 400 }, (_, i) => `w${i.toString(36)}x`).join(' ');

describe("the lexicon trigger's plan", () => {
  it('runs no part of the statement once per term: every node runs once for one document', async () => {
    const db = await PgliteClient.open(':memory:');
    try {
      await migrate(db, { dimensions: 512 });
      await db.query(`insert into spaces (id, name) values ('s1', 'plan')`);
      await db.query(`insert into memories (id, space_id, kind, type, quote, normalized, said_at) values ('m1', 's1', 'STATEMENT', 'FACT', 'x', 'x', now())`);
      // the trigger's transition table, as a table of its own
      await db.query(`create temp table added as select 'm1'::text as memory_id, 's1'::text as space_id, to_tsvector('simple', $1) as doc`, [words]);
      const r = await db.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(`explain (analyze, format json) ${addedPostingsSql(false)}`);
      const all = nodes(r.rows[0]!['QUERY PLAN'][0].Plan);
      const loops = Math.max(...all.map((n) => n['Actual Loops'] ?? 0));
      expect(loops, JSON.stringify(all.map((n) => [n['Node Type'], n['Actual Loops']]))).toBe(1);
      const terms = await db.query<{ n: number; len: number }>(`select count(*)::int as n, max(len) as len from memory_terms where memory_id = 'm1'`);
      expect(terms.rows[0]).toEqual({ n: 400, len: 400 });
    } finally {
      await db.close();
    }
  });

  it('the trigger itself keeps the postings and totals of a long document', async () => {
    const db = await PgliteClient.open(':memory:');
    try {
      await migrate(db, { dimensions: 512 });
      await db.query(`insert into spaces (id, name) values ('s1', 'plan')`);
      await db.query(`insert into memories (id, space_id, kind, type, quote, normalized, said_at) values ('m1', 's1', 'STATEMENT', 'FACT', 'x', 'x', now())`);
      await db.query(`insert into memory_lexicon (memory_id, space_id, doc) values ('m1', 's1', to_tsvector('simple', $1))`, [words]);
      const t = await db.query<{ n: number; len: number }>(`select count(*)::int as n, max(len) as len from memory_terms where memory_id = 'm1'`);
      expect(t.rows[0]).toEqual({ n: 400, len: 400 });
      const s = await db.query<{ docs: number; total_len: number }>(`select docs::int, total_len::int from lexicon_stats where space_id = 's1'`);
      expect(s.rows[0]).toEqual({ docs: 1, total_len: 400 });
      const df = await db.query<{ n: number }>(`select count(*)::int as n from lexicon_df where space_id = 's1' and df = 1`);
      expect(df.rows[0]!.n).toBe(400);
    } finally {
      await db.close();
    }
  });
});
