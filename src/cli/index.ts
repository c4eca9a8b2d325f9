import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { configFromEnv, type AppConfig } from '../config.js';
import { createEngram, type Engram } from '../container.js';
import { createToken, ROLES } from '../memory/tokens.js';
import { reembedMissing } from '../memory/reembed.js';
import type { Role } from '../memory/deps.js';
import { DataDirLockedError } from '../store/data-dir-lock.js';
import { ownerOnlyUmask } from '../store/pglite-client.js';
import { createSpaceThroughServer, createTokenThroughServer } from './through-server.js';

const USAGE = `usage: engram <command>
  serve                                   start the GraphQL server (same as npm start; docs/operations.md)
  eval pairs <file.jsonl> [--json] [--no-hints]  duplicate recognition on labelled pairs
  eval sts|mrpc|sick <file> [--json]      embedder and recognition on public paraphrase sets
  eval scenarios <file.json> [--json] [--repeat N] [--no-hints]
                                          (--no-hints: memories sent with quote and type only)
  eval locomo <file.json> [--json] [--conversations conv-26,conv-30]
      evaluations run on a temporary store, removed afterwards; --store configured runs
      them on the configured one (DATABASE_URL / ENGRAM_DATA_DIR) in sealed spaces
  token create --role admin|operator|chat|assistant [--space ID] [--label TEXT]
  space create --name NAME [--time-zone TZ]
      while the server owns the embedded store, these two go through it with an admin
      token: --admin-token TOKEN or ENGRAM_ADMIN_TOKEN
  reembed [--space ID]                    fill in vectors stored as MISSING
  reindex --engine pgvector|lancedb|qdrant  rebuild an engine from PostgreSQL (parked outbox rows are replayed)
  outbox status [--json]                  outbox rows pending and parked (exit 2 when any is parked); only reads
  outbox retry [--json]                   put parked outbox rows back in line and drain
  (reembed, reindex and outbox need the embedded store to themselves: with the server running they refuse)
  an option or a word a command does not take is refused, naming it, before anything is opened`;

/** Exit code of a command refused because another process owns the embedded store. */
export const EXIT_STORE_IN_USE = 3;

type Spec = Record<string, { type: 'string' | 'boolean'; default?: string }>;
const text = { type: 'string' } as const;
const yes = { type: 'boolean' } as const;
/** What each command takes: its options (with their defaults), the options it cannot go without, and how many positionals (eval: its file). */
const COMMANDS: Record<string, { options: Spec; positionals: number; required?: string[] }> = {
  eval: { options: { json: yes, 'no-hints': yes, repeat: text, store: text, conversations: text, engine: text }, positionals: 1 },
  'token create': { options: { role: text, space: text, label: text, json: yes, 'admin-token': text }, positionals: 0, required: ['role'] },
  'space create': { options: { name: text, 'time-zone': { type: 'string', default: 'UTC' }, json: yes, 'admin-token': text }, positionals: 0, required: ['name'] },
  reembed: { options: { space: text, engine: text }, positionals: 0 },
  reindex: { options: { engine: text }, positionals: 0 },
  'outbox status': { options: { json: yes }, positionals: 0 },
  'outbox retry': { options: { json: yes }, positionals: 0 },
};

/**
 * The command's options, read strictly before anything is opened: an option the command does not
 * take, a value missing, a word too many (`space create Hannah` instead of `--name Hannah`), an
 * option it cannot go without, or a role that is none of the four is refused, naming it, and
 * nothing changes. Null: not a command (usage).
 */
function parseCommand(cmd: string, sub: string | undefined, rest: string[]): { name: string; values: Record<string, string | boolean | undefined>; file?: string } | null {
  // `eval <kind> <file>`, `token create`, `outbox status`: the second word is part of the command.
  const single = cmd !== 'eval' && COMMANDS[cmd] !== undefined;
  const key = single || cmd === 'eval' ? cmd : `${cmd} ${sub ?? ''}`;
  const spec = COMMANDS[key];
  if (!spec) return null;
  const args = single ? [sub, ...rest].filter((x): x is string => x !== undefined) : rest;
  const { values, positionals } = parseArgs({ args, options: spec.options, allowPositionals: true, strict: true });
  if (positionals.length > spec.positionals) {
    throw new Error(`${key}: unexpected argument "${positionals[spec.positionals]}"${spec.positionals ? '' : ' (it takes options only: engram --help)'}`);
  }
  for (const name of spec.required ?? []) if (values[name] === undefined) throw new Error(`${key} needs --${name}`);
  if (values.role !== undefined && !(ROLES as readonly unknown[]).includes(values.role)) {
    throw new Error(`${key}: --role takes ${ROLES.join(', ')}, not "${String(values.role)}"`);
  }
  // Its name, for the lock file and the refusals: `reindex`, `outbox status`, `eval pairs` (never an option, `reindex --engine`).
  return { name: cmd === 'eval' ? `eval ${sub}` : key, values, file: positionals[0] };
}

/** Evaluations never touch a person's store unless told to: a temporary PGlite (and LanceDB) directory. */
function evalConfig(config: AppConfig, store: string | undefined): { config: AppConfig; cleanup(): void } {
  if (store === 'configured') return { config, cleanup() {} };
  if (store !== undefined) throw new Error(`--store takes "configured" (default: a temporary store)`);
  const dir = mkdtempSync(join(tmpdir(), 'engram-eval-'));
  return {
    config: { ...config, databaseUrl: undefined, dataDir: join(dir, 'data'), lancedbDir: undefined },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

async function main(argv: string[]): Promise<number> {
  const [cmd, sub, ...rest] = argv;
  if (!cmd || cmd === 'help' || cmd === '--help') {
    process.stdout.write(USAGE + '\n');
    return cmd ? 0 : 1;
  }
  const parsed = parseCommand(cmd, sub, rest);
  if (!parsed) {
    process.stderr.write(USAGE + '\n');
    return 1;
  }
  const { name, values, file } = parsed;
  const flag = (name: string): string | undefined => values[name] as string | undefined;
  const json = values.json === true;
  ownerOnlyUmask();
  const engineFlag = flag('engine');
  const base = configFromEnv(process.env, { logLevel: (process.env.LOG_LEVEL as never) ?? 'warn', ...(engineFlag && cmd !== 'reindex' ? { engine: engineFlag as never } : {}) });
  const evaluation = cmd === 'eval' ? evalConfig(base, flag('store')) : null;
  const config = evaluation?.config ?? base;
  const owner = name;
  let engram: Engram;
  try {
    engram = await createEngram(config, { owner, background: false });
  } catch (e) {
    evaluation?.cleanup();
    if (e instanceof DataDirLockedError) return throughServerOrRefuse(e, name, cmd, sub, flag, json);
    throw e;
  }
  try {
    const deps = engram.deps;
    if (cmd === 'eval') {
      if (!sub || !file) throw new Error(`eval ${sub ?? '<kind>'} needs a file`);
      const mod = await import('../eval/run.js');
      return await mod.runEval(deps, sub, file, { json, repeat: Number(flag('repeat') ?? 1), noHints: values['no-hints'] === true, conversations: flag('conversations')?.split(',').map((x) => x.trim()).filter(Boolean) });
    }
    if (cmd === 'token' && sub === 'create') {
      const t = await createToken(deps, { role: flag('role') as Role, spaceId: flag('space') ?? null, label: flag('label') ?? null });
      process.stdout.write(formatToken(t, json));
      return 0;
    }
    if (cmd === 'space' && sub === 'create') {
      const { createSpace } = await import('../memory/spaces.js');
      const s = await createSpace(deps, { name: flag('name')!, timeZone: flag('time-zone')! });
      process.stdout.write(formatSpace(s, json));
      return 0;
    }
    if (cmd === 'reembed') {
      const r = await reembedMissing(deps, flag('space') ?? null);
      process.stdout.write(`reembedded: ${r.filled} filled, ${r.failed} still failing\n`);
      return r.failed ? 1 : 0;
    }
    if (cmd === 'reindex') {
      const { reindex } = await import('./reindex.js');
      const n = await reindex(config, engram, engineFlag ?? config.engine);
      process.stdout.write(`reindexed ${n} vectors into ${engineFlag ?? config.engine}\n`);
      return 0;
    }
    if (cmd === 'outbox') {
      const { outboxCommand } = await import('./outbox.js');
      const r = await outboxCommand(engram, sub, { json });
      process.stdout.write(r.output);
      return r.code;
    }
    process.stderr.write(USAGE + '\n');
    return 1;
  } finally {
    await engram.close();
    evaluation?.cleanup();
  }
}

function formatToken(t: { id: string; role: string; spaceId: string | null; secret: string }, json: boolean): string {
  return json ? JSON.stringify(t) + '\n' : `token ${t.id} (${t.role}${t.spaceId ? ', space ' + t.spaceId : ''})\nsecret (shown once): ${t.secret}\n`;
}

function formatSpace(s: { id: string; name: string; timeZone: string }, json: boolean): string {
  return json ? JSON.stringify(s) + '\n' : `space ${s.id} (${s.name}, ${s.timeZone})\n`;
}

/**
 * The embedded store is owned by another process (the server, or another command):
 * `token create` and `space create` go through the server with an admin token; every
 * other command refuses, naming the owner, and changes nothing.
 */
async function throughServerOrRefuse(
  e: DataDirLockedError, name: string, cmd: string, sub: string | undefined, flag: (name: string) => string | undefined, json: boolean,
): Promise<number> {
  const holder = e.holder;
  const adminToken = flag('admin-token') ?? process.env.ENGRAM_ADMIN_TOKEN;
  const viaServer = holder.owner === 'server' && ((cmd === 'token' && sub === 'create') || (cmd === 'space' && sub === 'create'));
  if (viaServer && adminToken) {
    if (cmd === 'token') {
      const t = await createTokenThroughServer(holder, adminToken, { role: flag('role')!, spaceId: flag('space') ?? null, label: flag('label') ?? null });
      process.stdout.write(formatToken(t, json));
    } else {
      const s = await createSpaceThroughServer(holder, adminToken, { name: flag('name')!, timeZone: flag('time-zone')! });
      process.stdout.write(formatSpace(s, json));
    }
    return 0;
  }
  const hint = viaServer
    ? 'pass an admin token (--admin-token TOKEN or ENGRAM_ADMIN_TOKEN) to do it through the server, or stop the server'
    : holder.owner === 'server' ? `stop the server (kill ${holder.pid}) first, or do it through its GraphQL API` : 'wait for it to finish';
  process.stderr.write(`engram ${name}: refused, nothing changed: ${e.message}; ${hint}\n`);
  return EXIT_STORE_IN_USE;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e) => {
    process.stderr.write(`engram: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  },
);
