import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configFromEnv, type AppConfig } from '../config.js';
import { createEngram, type Engram } from '../container.js';
import { createToken } from '../memory/tokens.js';
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
  (reembed, reindex and outbox need the embedded store to themselves: with the server running they refuse)`;

/** Exit code of a command refused because another process owns the embedded store. */
export const EXIT_STORE_IN_USE = 3;

function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
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
  const args = [sub, ...rest].filter((x): x is string => x !== undefined);
  const json = args.includes('--json');
  if (!cmd || cmd === 'help' || cmd === '--help') {
    process.stdout.write(USAGE + '\n');
    return cmd ? 0 : 1;
  }
  ownerOnlyUmask();
  const engineFlag = flag(args, 'engine');
  const base = configFromEnv(process.env, { logLevel: (process.env.LOG_LEVEL as never) ?? 'warn', ...(engineFlag && cmd !== 'reindex' ? { engine: engineFlag as never } : {}) });
  const evaluation = cmd === 'eval' ? evalConfig(base, flag(args, 'store')) : null;
  const config = evaluation?.config ?? base;
  const owner = [cmd, sub].filter(Boolean).join(' ');
  let engram: Engram;
  try {
    engram = await createEngram(config, { owner, background: false });
  } catch (e) {
    evaluation?.cleanup();
    if (e instanceof DataDirLockedError) return throughServerOrRefuse(e, cmd, sub, args, json);
    throw e;
  }
  try {
    const deps = engram.deps;
    if (cmd === 'eval') {
      const skip = new Set([flag(args, 'repeat'), engineFlag, flag(args, 'store'), flag(args, 'conversations')].filter(Boolean));
      const file = rest.find((x) => !x.startsWith('--') && !skip.has(x));
      if (!file) throw new Error(`eval ${sub} needs a file`);
      const mod = await import('../eval/run.js');
      return await mod.runEval(deps, sub, file, { json, repeat: Number(flag(args, 'repeat') ?? 1), noHints: args.includes('--no-hints'), conversations: flag(args, 'conversations')?.split(',').map((x) => x.trim()).filter(Boolean) });
    }
    if (cmd === 'token' && sub === 'create') {
      const role = flag(args, 'role') as Role | undefined;
      if (!role) throw new Error('token create needs --role');
      const t = await createToken(deps, { role, spaceId: flag(args, 'space') ?? null, label: flag(args, 'label') ?? null });
      process.stdout.write(formatToken(t, json));
      return 0;
    }
    if (cmd === 'space' && sub === 'create') {
      const { createSpace } = await import('../memory/spaces.js');
      const s = await createSpace(deps, { name: flag(args, 'name') ?? 'me', timeZone: flag(args, 'time-zone') ?? 'UTC' });
      process.stdout.write(formatSpace(s, json));
      return 0;
    }
    if (cmd === 'reembed') {
      const r = await reembedMissing(deps, flag(args, 'space') ?? null);
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
async function throughServerOrRefuse(e: DataDirLockedError, cmd: string, sub: string | undefined, args: string[], json: boolean): Promise<number> {
  const holder = e.holder;
  const adminToken = flag(args, 'admin-token') ?? process.env.ENGRAM_ADMIN_TOKEN;
  const viaServer = holder.owner === 'server' && ((cmd === 'token' && sub === 'create') || (cmd === 'space' && sub === 'create'));
  if (viaServer && adminToken) {
    if (cmd === 'token') {
      const role = flag(args, 'role');
      if (!role) throw new Error('token create needs --role');
      const t = await createTokenThroughServer(holder, adminToken, { role, spaceId: flag(args, 'space') ?? null, label: flag(args, 'label') ?? null });
      process.stdout.write(formatToken(t, json));
    } else {
      const s = await createSpaceThroughServer(holder, adminToken, { name: flag(args, 'name') ?? 'me', timeZone: flag(args, 'time-zone') ?? 'UTC' });
      process.stdout.write(formatSpace(s, json));
    }
    return 0;
  }
  const hint = viaServer
    ? 'pass an admin token (--admin-token TOKEN or ENGRAM_ADMIN_TOKEN) to do it through the server, or stop the server'
    : holder.owner === 'server' ? `stop the server (kill ${holder.pid}) first, or do it through its GraphQL API` : 'wait for it to finish';
  process.stderr.write(`engram ${[cmd, sub].filter(Boolean).join(' ')}: refused, nothing changed: ${e.message}; ${hint}\n`);
  return EXIT_STORE_IN_USE;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e) => {
    process.stderr.write(`engram: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  },
);
