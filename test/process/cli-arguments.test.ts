/**
 * The operator CLI reads each command's arguments strictly, before it opens anything: a word the
 * command does not take (`space create Hannah` for `--name Hannah`), an unknown option or a
 * missing value, an option the command cannot go without or a role that is none of the four is
 * refused with its name, exit 1, and the store is not even created. Before, `space create Hannah`
 * and `space create` created a space named "me", and `token create` without `--role` opened (and
 * created, or migrated) the store before it was refused.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { childEnv, cli, gqlAt, ROOT, startServer, TSX_ARGS } from '../helpers/process.js';

const root = mkdtempSync(join(tmpdir(), 'engram-cli-args-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('CLI arguments', () => {
  it('refuses what a command does not take, naming it, and changes nothing', { timeout: 600_000 }, async () => {
    const cases: Array<[string[], RegExp]> = [
      [['space', 'create', 'Hannah'], /unexpected argument "Hannah"/],
      [['space', 'create', '--nme', 'Hannah'], /Unknown option '--nme'/],
      [['token', 'create', '--role'], /'--role <value>' argument missing/],
      [['token', 'create', '--space', 'x'], /token create needs --role/],
      [['token', 'create', '--role', 'king'], /--role takes admin, operator, chat, assistant, not "king"/],
      [['space', 'create'], /space create needs --name/],
      [['space', 'create', '--time-zone', 'Europe/Lisbon'], /space create needs --name/],
      [['outbox', 'status', 'now'], /unexpected argument "now"/],
      [['eval', 'pairs', 'a.jsonl', 'b.jsonl'], /unexpected argument "b\.jsonl"/],
    ];
    const dataDir = join(root, 'data');
    const runs = await Promise.all(cases.map(([args]) => cli(args, childEnv(dataDir))));
    runs.forEach((r, i) => {
      const [args, message] = cases[i]!;
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stderr, args.join(' ')).toMatch(message);
      expect(r.stdout, args.join(' ')).toBe('');
    });
    // nothing was opened: the store was never created
    expect(existsSync(dataDir)).toBe(false);
  });

  it("serve starts the server: `npm run engram -- serve` runs the engram command, which its usage lists", { timeout: 600_000 }, async () => {
    // (the script ran the operator CLI alone, which printed its usage and exited 1 for serve: found by a probe)
    expect(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts.engram).toBe('node bin/engram.js');
    const server = await startServer(childEnv(join(root, 'serve')), undefined, [...TSX_ARGS, 'bin/engram.js', 'serve']);
    try {
      expect(server.adminToken).toBeTruthy();
      const r = await gqlAt(server.url, server.adminToken, '{ viewer { ... on Viewer { role } } }');
      expect(r).toEqual({ data: { viewer: { role: 'admin' } } });
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});
