/**
 * Issue 13: one process owns an embedded store. README's commands, run while `npm start`
 * serves the same data directory, either work through the server or refuse (naming it),
 * and every write a command reported done is there after a restart. Real processes.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { childEnv, cli, gqlAt, runServerToExit, startServer, type ServerProcess } from '../helpers/process.js';
import { modes } from '../helpers/files.js';

const root = mkdtempSync(join(tmpdir(), 'engram-h13-own-'));
const dataDir = join(root, 'data');
let server: ServerProcess | null = null;
afterAll(async () => {
  await server?.kill();
  rmSync(root, { recursive: true, force: true });
});

describe('one owner per embedded store', () => {
  it('README commands during `npm start` go through the server or refuse; a restart keeps every reported write', { timeout: 900_000 }, async () => {
    const env = childEnv(dataDir);
    server = await startServer(env);
    const admin = server.adminToken!;
    expect(admin).toBeTruthy();
    const pid = server.child.pid!;
    const port = new URL(server.url).port;

    // Data directory 0700, files 0600.
    const m = modes(dataDir);
    expect([...m.dirs]).toEqual(['700']);
    expect([...m.files]).toEqual(['600']);

    // A second `npm start` on the same directory refuses, naming the first.
    const second = await runServerToExit(env);
    expect(second.code).toBe(3);
    expect(second.stderr).toContain(`pid ${pid}`);

    // On another directory but the same port: refuses and exits (it used to run on, never listening),
    // and its first admin token is not spent: the next start there prints it.
    const otherDir = join(root, 'other');
    const taken = await runServerToExit(childEnv(otherDir, { PORT: port }));
    expect(taken.code).toBe(3);
    expect(taken.stderr).toContain(`:${port} is in use`);
    expect(taken.stdout).not.toContain('keep it');
    const other = await startServer(childEnv(otherDir));
    expect(other.adminToken).toBeTruthy();
    expect(await other.stop()).toBe(0);

    // Writes without an admin token: refused, naming the server (pid and port), nothing printed as done.
    const refused = await cli(['token', 'create', '--role', 'operator'], env);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain(`pid ${pid}`);
    expect(refused.stderr).toContain(`port ${port}`);
    expect(refused.stdout).not.toContain('secret');

    // Through the server with the admin token.
    const sp = await cli(['space', 'create', '--name', 'Hannah', '--time-zone', 'Europe/London', '--json'], { ...env, ENGRAM_ADMIN_TOKEN: admin });
    expect(sp.code, sp.stderr).toBe(0);
    const space = JSON.parse(sp.stdout);
    const tok = await cli(['token', 'create', '--role', 'chat', '--space', space.id, '--admin-token', admin, '--json'], env);
    expect(tok.code, tok.stderr).toBe(0);
    const chat = JSON.parse(tok.stdout).secret as string;
    // The server accepts the token at once.
    const open1 = await gqlAt(server.url, chat, `mutation { openConversation { __typename ... on Conversation { id } } }`);
    expect(open1.data.openConversation.__typename).toBe('Conversation');

    // Commands that need the store to themselves refuse, naming the server; read-only ones too.
    for (const args of [['reembed'], ['reindex', '--engine', 'pgvector'], ['outbox', 'retry'], ['outbox', 'status']]) {
      const r = await cli(args, env);
      expect(r.code, args.join(' ')).toBe(3);
      expect(r.stderr).toContain(`pid ${pid}`);
    }

    // Evaluations never touch the person's store: a temporary one.
    const pairs = join(root, 'pairs.jsonl');
    writeFileSync(pairs, JSON.stringify({ id: 'x1', old: { text: 'I am vegetarian.', type: 'FACT', entities: [], themes: ['diet'] },
      new: { text: 'I am a vegetarian.', type: 'FACT', entities: [], themes: ['diet'] }, label: 'same' }) + '\n');
    const ev = await cli(['eval', 'pairs', pairs, '--json'], env);
    expect(ev.code, ev.stderr).toBe(0);

    // Clean stop: the lock goes; a restart opens the store and every reported write is there.
    expect(await server.stop()).toBe(0);
    server = null;
    expect(readdirSync(dataDir)).not.toContain('engram.lock');
    server = await startServer(env);
    expect(server.adminToken).toBeNull();
    const open2 = await gqlAt(server.url, chat, `mutation { openConversation { __typename ... on Conversation { id } } }`);
    expect(open2.data.openConversation.__typename).toBe('Conversation');
    const spaces = await gqlAt(server.url, admin, `{ spaces { ... on SpacesSuccess { data { id name } } } }`);
    expect(JSON.stringify(spaces)).toContain(space.id);
    await server.stop();
    server = null;
  });

  it('a stale lock (its process is gone, e.g. after kill -9) is taken over', { timeout: 600_000 }, async () => {
    const dir = join(root, 'stale');
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString();
    const env = childEnv(dir);
    // First a store, then a lock left behind by a process that no longer exists.
    const made = await cli(['space', 'create', '--name', 'first'], env);
    expect(made.code, made.stderr).toBe(0);
    writeFileSync(join(dir, 'engram.lock'), JSON.stringify({ pid: Number(dead), owner: 'server', startedAt: new Date().toISOString(), port: 1 }));
    const r = await cli(['space', 'create', '--name', 'after-crash'], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('after-crash');
  });
});
