/** The embedded default opens on a fresh machine: `.engram/data` whose parent does not exist yet. */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { PgliteClient } from '../../src/store/pglite-client.js';
import { modes, setModes } from '../helpers/files.js';

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
    setModes(dir, 0o755, 0o644);
    const c = await PgliteClient.open(dir);
    expect(((await stat(dir)).mode & 0o777).toString(8)).toBe('700');
    await c.close();
    expect(modes(dir)).toEqual({ dirs: new Set(['700']), files: new Set(['600']) });
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});
