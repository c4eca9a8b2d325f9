/**
 * Migration 17 on a store an older Engram wrote (migrations 1–16 and memories in them): every
 * term's df row gets a version, the lexicon's trigger moves the versions of the terms a write
 * touches (and only those), and the postings held then score as the statement does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgliteClient } from '../../src/store/pglite-client.js';
import { migrate, MIGRATIONS } from '../../src/store/migrations.js';
import { SqlStore } from '../../src/store/sql-store.js';
import type { SqlClient } from '../../src/store/sql-client.js';

describe('migration 17 on a store written before it', () => {
  let db: SqlClient;
  beforeAll(async () => {
    db = await PgliteClient.open(':memory:');
  });
  afterAll(async () => {
    await db?.close();
  });

  const docs = ['my sister ana lives in lisbon', 'i play the cello on sundays', 'my sister plays the cello too', 'the dog fears thunder'];

  it('versions every term, moves only the written terms\' versions, and the held postings score as the statement', async () => {
    expect(await migrate(db, { dimensions: 512, upTo: 16 })).toEqual(MIGRATIONS.map((m) => m.version).filter((v) => v <= 16));
    await db.query(`insert into spaces (id, name) values ('s1', 'old')`);
    for (const [i, d] of docs.entries()) {
      await db.query(`insert into memories (id, space_id, kind, type, quote, normalized, said_at) values ($1, 's1', 'STATEMENT', 'FACT', $2, $2, now())`, [`m${i}`, d]);
      await db.query(`insert into memory_state (memory_id, space_id, kind, type, last_mentioned_at, embedding_status) values ($1, 's1', 'STATEMENT', 'FACT', now(), 'MISSING')`, [`m${i}`]);
      await db.query(`insert into memory_lexicon (memory_id, space_id, doc) values ($1, 's1', to_tsvector('simple', $2))`, [`m${i}`, d]);
    }
    expect(await migrate(db, { dimensions: 512, upTo: 17 })).toEqual([17]);
    const vers = async () => new Map((await db.query<{ term: string; ver: string }>(`select term, ver::text as ver from lexicon_df where space_id = 's1'`)).rows.map((r) => [r.term, r.ver]));
    const before = await vers();
    expect(before.size).toBeGreaterThan(10);
    expect(new Set(before.values()).size).toBe(before.size);
    // a rewording of m3 touches its terms and no other
    await db.query(`update memory_lexicon set doc = to_tsvector('simple', 'the dog fears loud thunder') where memory_id = 'm3'`);
    const after = await vers();
    for (const [term, ver] of after) {
      const touched = ['the', 'dog', 'fears', 'loud', 'thunder'].includes(term);
      if (before.has(term)) expect(ver !== before.get(term), term).toBe(touched);
    }
    // the held postings (the embedded store) and the statement agree on the upgraded store
    const store = new SqlStore(db);
    const keys = ['sister', 'cello', 'the'];
    const stats = (await store.lexicalStats('s1', keys, ['STATEMENT'])).get('STATEMENT')!;
    expect(stats.ver?.size).toBe(3);
    const held = await store.lexicalSearch('s1', keys, 3, 'STATEMENT', ['ACTIVE'], stats);
    const statement = await store.lexicalSearch('s1', keys, 3, 'STATEMENT', ['ACTIVE'], { ...stats, ver: undefined });
    expect(held.length).toBe(3);
    expect(held).toEqual(statement);
  });
});
