/**
 * Issue 13: kill -9 of the process during writes loses no acknowledged write (a write is
 * acknowledged once its commit returned). 20 trials on PGlite (a data directory; the lock
 * the killed process leaves is stale and taken over) and 20 on the PostgreSQL server when
 * DATABASE_URL is set. The writer is a child process (test/helpers/kill9-writer.ts).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PgliteClient } from '../../src/store/pglite-client.js';
import { PgClient } from '../../src/store/pg-client.js';
import type { SqlClient } from '../../src/store/sql-client.js';
import { ROOT, TSX_ARGS } from '../helpers/process.js';
import { assertTestDatabase } from '../helpers/db.js';

const TRIALS = 20;
const root = mkdtempSync(join(tmpdir(), 'engram-h13-kill9-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Starts the writer, lets it acknowledge `acks` writes (plus whatever is in flight), then kill -9. */
function writeThenKill(target: string, tag: string, acks: number): Promise<string[]> {
  return new Promise((res, rej) => {
    const child = spawn(process.execPath, [...TSX_ARGS, 'test/helpers/kill9-writer.ts', target, tag], {
      cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, DATABASE_URL: '' },
    });
    const acked: string[] = [];
    let buf = '';
    let err = '';
    let killed = false;
    child.stderr.on('data', (d) => (err += d));
    child.stdout.on('data', (d) => {
      buf += d;
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        if (line.startsWith('ack ')) acked.push(line.slice(4));
      }
      if (!killed && acked.length >= acks) {
        killed = true;
        child.kill('SIGKILL');
      }
    });
    child.on('exit', (code, signal) => {
      if (signal === 'SIGKILL') res(acked);
      else rej(new Error(`writer exited (${code}) before the kill: ${err}`));
    });
  });
}

async function present(db: SqlClient, ids: string[]): Promise<number> {
  const r = await db.query<{ n: number }>(`select count(*)::int as n from spaces where id = any($1::text[])`, [ids]);
  return Number(r.rows[0].n);
}

describe('kill -9 during writes', () => {
  it(`PGlite: ${TRIALS} trials, 0 acknowledged writes lost`, { timeout: 1_800_000 }, async () => {
    const dir = join(root, 'pglite');
    let acked = 0;
    let lost = 0;
    for (let trial = 0; trial < TRIALS; trial++) {
      const ids = await writeThenKill(dir, `p${trial}`, 3 + (trial % 7) * 4);
      // Reopening takes over the stale lock and recovers from the WAL.
      const db = await PgliteClient.open(dir, { owner: 'kill9-check' });
      try {
        const n = await present(db, ids);
        acked += ids.length;
        lost += ids.length - n;
      } finally {
        await db.close();
      }
    }
    expect(acked).toBeGreaterThan(TRIALS * 3);
    expect(lost).toBe(0);
  });

  const url = process.env.DATABASE_URL;
  it.skipIf(!url)(`PostgreSQL server: ${TRIALS} trials, 0 acknowledged writes lost`, { timeout: 1_800_000 }, async () => {
    assertTestDatabase(url!);
    const db = new PgClient(url!, 2);
    const tag = `k9${randomBytes(3).toString('hex')}`;
    let acked = 0;
    let lost = 0;
    try {
      for (let trial = 0; trial < TRIALS; trial++) {
        const ids = await writeThenKill(url!, `${tag}-${trial}`, 3 + (trial % 7) * 4);
        acked += ids.length;
        lost += ids.length - (await present(db, ids));
      }
      expect(acked).toBeGreaterThan(TRIALS * 3);
      expect(lost).toBe(0);
    } finally {
      await db.query(`select engram_drop_sealed_space(id) from spaces where id like $1`, [`${tag}-%`]).catch(() => {});
      await db.close();
    }
  });
});
