/**
 * The embedded store never renames a WAL segment for reuse (src/store/pglite-client.ts, startParams;
 * docs/erasure.md, "The bytes"): a checkpoint that runs before any erasure set `wal_recycle = off`
 * (crash recovery's end-of-recovery one, the shutdown one) removes the segments before it. A
 * recycled segment kept its old bytes past the first page, and the owed erasure's WAL switch
 * moved into it: a kill -9 between an erasure's switch and its checkpoint left the forgotten words
 * in the current segment after the restart (a probe: 12 of 12 kills aimed there).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PgliteClient } from '../../src/store/pglite-client.js';

const root = mkdtempSync(join(tmpdir(), 'engram-wal-recycle-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('PGlite on disk: no WAL segment is recycled', () => {
  it('runs with wal_recycle off; the shutdown checkpoint removes the segment that held the words, not renames it', async () => {
    const dir = join(root, 'store');
    const word = 'Vrelkintoqpx';
    const db = await PgliteClient.open(dir, { owner: 'test' });
    try {
      expect((await db.query<{ wal_recycle: string }>('show wal_recycle')).rows[0]!.wal_recycle).toBe('off');
      await db.query('create table said (v text)');
      await db.query(`insert into said values ($1)`, [`my neighbour ${word}`]);
      // the words' segment is now older than the current one: the checkpoint at close would recycle it
      await db.query('select pg_switch_wal()');
    } finally {
      await db.close();
    }
    const wal = join(dir, 'pg_wal');
    const segments = readdirSync(wal).filter((f) => /^[0-9A-F]{24}$/.test(f));
    expect(segments.length).toBeGreaterThan(0);
    expect(segments.filter((f) => readFileSync(join(wal, f)).includes(Buffer.from(word)))).toEqual([]);
  }, 120_000);
});
