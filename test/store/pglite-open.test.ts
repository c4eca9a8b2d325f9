/** The embedded default opens on a fresh machine: `.engram/data` whose parent does not exist yet. */
import { chmod, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { PgliteClient } from '../../src/store/pglite-client.js';

it('PGlite opens a data directory whose parents do not exist, and keeps its data there', async () => {
  const root = await mkdtemp(join(tmpdir(), 'engram-open-'));
  try {
    const dir = join(root, '.engram', 'data');
    const c = await PgliteClient.open(dir);
    await c.query('create table t (x int)');
    await c.query('insert into t values (7)');
    await c.close();
    expect((await stat(dir)).isDirectory()).toBe(true);
    const again = await PgliteClient.open(dir);
    expect((await again.query<{ x: number }>('select x from t')).rows).toEqual([{ x: 7 }]);
    await again.close();
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

it('makes a data directory an older version left open its owner\'s alone: at once the directory, by its close everything under it', async () => {
  const root = await mkdtemp(join(tmpdir(), 'engram-open-'));
  try {
    const dir = join(root, 'data');
    await (await PgliteClient.open(dir)).close();
    // as an older version left it: directories 0755, files 0644
    const loosen = async (d: string): Promise<void> => {
      await chmod(d, 0o755);
      for (const e of await readdir(d, { withFileTypes: true })) {
        if (e.isDirectory()) await loosen(join(d, e.name));
        else if (e.isFile()) await chmod(join(d, e.name), 0o644);
      }
    };
    await loosen(dir);
    const modes = async (d: string, into = new Set<string>()): Promise<Set<string>> => {
      into.add(`d${((await stat(d)).mode & 0o777).toString(8)}`);
      for (const e of await readdir(d, { withFileTypes: true })) {
        if (e.isDirectory()) await modes(join(d, e.name), into);
        else if (e.isFile()) into.add(`f${((await stat(join(d, e.name))).mode & 0o777).toString(8)}`);
      }
      return into;
    };
    const c = await PgliteClient.open(dir);
    expect(((await stat(dir)).mode & 0o777).toString(8)).toBe('700');
    await c.close();
    expect([...await modes(dir)].sort()).toEqual(['d700', 'f600']);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});
