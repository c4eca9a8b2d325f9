/**
 * The embedded store on disk flushes what it acknowledges (src/store/pglite-durable.ts,
 * docs/limits.md, "The process's crash and the machine's"): PostgreSQL runs with fsync on, its
 * `fsync()` reaches the host's, a commit returns after its log was flushed, a checkpoint flushes
 * the data files and directories, and a store just created is flushed whole once.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PgliteClient } from '../../src/store/pglite-client.js';
import { syncTree } from '../../src/store/pglite-durable.js';

const root = mkdtempSync(join(tmpdir(), 'engram-durable-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('PGlite on disk: what it acknowledges is flushed', () => {
  it('runs with fsync on; a commit flushes its write-ahead log, a read flushes nothing, a checkpoint flushes data files', async () => {
    const dir = join(root, 'store');
    const db = await PgliteClient.open(dir, { owner: 'test' });
    try {
      expect((await db.query<{ fsync: string }>('show fsync')).rows[0]!.fsync).toBe('on');
      expect((await db.query<{ wal_sync_method: string }>('show wal_sync_method')).rows[0]!.wal_sync_method).toBe('fsync');
      await db.query('create table kept (id int primary key, v text)');
      const flushes = db.flushes!;

      let before = flushes.count;
      await db.query(`insert into kept values (1, 'one')`);
      const byCommit = flushes.recent.slice(flushes.recent.length - (flushes.count - before));
      expect(byCommit.length).toBeGreaterThan(0);
      expect(byCommit.some((p) => p.startsWith(join(dir, 'pg_wal') + '/'))).toBe(true);

      before = flushes.count;
      await db.query('select * from kept');
      expect(flushes.count).toBe(before);

      before = flushes.count;
      await db.query('checkpoint');
      const byCheckpoint = flushes.recent.slice(Math.max(0, flushes.recent.length - (flushes.count - before)));
      expect(byCheckpoint.some((p) => p.startsWith(join(dir, 'base') + '/'))).toBe(true);
    } finally {
      await db.close();
    }
    // and it reads back after a restart
    const again = await PgliteClient.open(dir, { owner: 'test' });
    try {
      expect((await again.query<{ v: string }>('select v from kept')).rows).toEqual([{ v: 'one' }]);
    } finally {
      await again.close();
    }
  }, 120_000);

  it('a store in memory has nothing to flush', async () => {
    const db = await PgliteClient.open(':memory:');
    try {
      expect(db.flushes).toBeNull();
    } finally {
      await db.close();
    }
  });

  it('syncTree flushes every file and directory of a tree, and its entry in the parent', async () => {
    const dir = join(root, 'tree');
    mkdirSync(join(dir, 'a', 'b'), { recursive: true });
    for (const f of ['x', join('a', 'y'), join('a', 'b', 'z')]) writeFileSync(join(dir, f), f);
    // 3 files, 3 directories (tree, a, b), and the parent's entry
    expect(await syncTree(dir)).toBe(7);
  });
});
