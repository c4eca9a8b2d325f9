import { configFromEnv } from '../config.js';
import { createEngram } from '../container.js';
import { createToken } from '../memory/tokens.js';
import { reembedMissing } from '../memory/reembed.js';
import type { Role } from '../memory/deps.js';

const USAGE = `usage: engram <command>
  eval pairs <file.jsonl> [--json] [--no-hints]  duplicate recognition on labelled pairs
  eval sts|mrpc|sick <file> [--json]      embedder and recognition on public paraphrase sets
  eval scenarios <file.json> [--json] [--repeat N] [--no-hints]
                                          (--no-hints: memories sent with quote and type only)
  eval locomo <file.json> [--json]
  token create --role admin|operator|chat|assistant [--space ID] [--label TEXT]
  space create --name NAME [--time-zone TZ]
  reembed [--space ID]                    fill in vectors stored as MISSING
  reindex --engine pgvector|lancedb|qdrant  rebuild an engine from PostgreSQL (parked outbox rows are replayed)
  outbox status [--json]                  outbox rows pending and parked (exit 2 when any is parked)
  outbox retry [--json]                   put parked outbox rows back in line and drain`;

function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
}

async function main(argv: string[]): Promise<number> {
  const [cmd, sub, ...rest] = argv;
  const args = [sub, ...rest].filter((x): x is string => x !== undefined);
  const json = args.includes('--json');
  if (!cmd || cmd === 'help' || cmd === '--help') {
    process.stdout.write(USAGE + '\n');
    return cmd ? 0 : 1;
  }
  const engineFlag = flag(args, 'engine');
  const config = configFromEnv(process.env, { logLevel: (process.env.LOG_LEVEL as never) ?? 'warn', ...(engineFlag && cmd !== 'reindex' ? { engine: engineFlag as never } : {}) });
  const engram = await createEngram(config);
  try {
    const deps = engram.deps;
    if (cmd === 'eval') {
      const file = rest.find((x) => !x.startsWith('--') && x !== flag(args, 'repeat') && x !== engineFlag);
      if (!file) throw new Error(`eval ${sub} needs a file`);
      const mod = await import('../eval/run.js');
      return await mod.runEval(deps, sub, file, { json, repeat: Number(flag(args, 'repeat') ?? 1), noHints: args.includes('--no-hints') });
    }
    if (cmd === 'token' && sub === 'create') {
      const role = flag(args, 'role') as Role | undefined;
      if (!role) throw new Error('token create needs --role');
      const t = await createToken(deps, { role, spaceId: flag(args, 'space') ?? null, label: flag(args, 'label') ?? null });
      process.stdout.write(json ? JSON.stringify(t) + '\n' : `token ${t.id} (${t.role}${t.spaceId ? ', space ' + t.spaceId : ''})\nsecret (shown once): ${t.secret}\n`);
      return 0;
    }
    if (cmd === 'space' && sub === 'create') {
      const { createSpace } = await import('../memory/spaces.js');
      const s = await createSpace(deps, { name: flag(args, 'name') ?? 'me', timeZone: flag(args, 'time-zone') ?? 'UTC' });
      process.stdout.write(json ? JSON.stringify(s) + '\n' : `space ${s.id} (${s.name}, ${s.timeZone})\n`);
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
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e) => {
    process.stderr.write(`engram: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  },
);
