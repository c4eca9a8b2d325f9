/**
 * A CLI command names itself by its command, not by its first option: `engram reindex --engine
 * pgvector` beside the server was refused as "engram reindex --engine: refused", and the lock file
 * of a command that does own the store named it "reindex --engine" (docs/ownership.md).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { childEnv, cli } from '../helpers/process.js';
import { LOCK_FILE } from '../../src/store/data-dir-lock.js';

const root = mkdtempSync(join(tmpdir(), 'engram-cli-owner-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('a CLI command refused beside the server', () => {
  it('names its command, not its first option', { timeout: 600_000 }, async () => {
    const dataDir = join(root, 'data');
    mkdirSync(dataDir, { mode: 0o700 });
    // this (live) process holds the store as a server would
    writeFileSync(join(dataDir, LOCK_FILE), JSON.stringify({ pid: process.pid, owner: 'server', startedAt: new Date().toISOString(), port: 1, url: 'http://127.0.0.1:1/graphql' }), { mode: 0o600 });
    const cases: Array<[string[], string]> = [
      [['reindex', '--engine', 'pgvector'], 'reindex'],
      [['reembed', '--space', 'x'], 'reembed'],
      [['outbox', 'status'], 'outbox status'],
    ];
    const runs = await Promise.all(cases.map(([args]) => cli(args, childEnv(dataDir))));
    runs.forEach((r, i) => {
      const [args, name] = cases[i]!;
      expect(r.code, args.join(' ')).toBe(3);
      expect(r.stderr, args.join(' ')).toMatch(new RegExp(`^engram ${name}: refused, nothing changed`));
    });
  });
});
