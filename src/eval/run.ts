import type { MemoryDeps } from '../memory/deps.js';
import { evalPairs, formatPairs, readPairs, type Pair } from './pairs.js';
import { evalScenarios, formatScenarios, readScenarios, type ScenarioCase } from './scenarios.js';
import { evalLocomo, formatLocomo, readLocomo } from './locomo.js';
import { evalMrpc, evalSick, evalSts, formatMrpc, formatSick, formatSts, readMrpc, readSick, readSts } from './external.js';

/** Dispatches `engram eval <kind> <file>`; returns the process exit code. */
/** `--no-hints`: every memory is sent with its quote and type only, as most assistants send it. */
export function withoutHints<T extends { entities?: string[]; themes?: string[] }>(x: T): T {
  const { entities: _e, themes: _t, ...rest } = x;
  return rest as T;
}

export function pairsWithoutHints(pairs: Pair[]): Pair[] {
  return pairs.map((p) => ({ ...p, old: withoutHints(p.old), new: withoutHints(p.new) }));
}

export function scenariosWithoutHints(cases: ScenarioCase[]): ScenarioCase[] {
  return cases.map((c) => ({ ...c, steps: c.steps.map((s) => (s.keep ? { ...s, keep: s.keep.map(withoutHints) } : s)) }));
}

export async function runEval(
  deps: MemoryDeps, kind: string, file: string, opts: { json: boolean; repeat: number; noHints?: boolean; conversations?: string[] },
): Promise<number> {
  const out = (s: string) => process.stdout.write(s + '\n');
  switch (kind) {
    case 'pairs': {
      const pairs = readPairs(file);
      const r = await evalPairs(deps, opts.noHints ? pairsWithoutHints(pairs) : pairs);
      out(opts.json ? JSON.stringify(r) : formatPairs(r));
      return 0;
    }
    case 'scenarios': {
      const repeat = Number.isInteger(opts.repeat) && opts.repeat > 0 ? opts.repeat : 1;
      const cases = readScenarios(file);
      const r = await evalScenarios(deps, opts.noHints ? scenariosWithoutHints(cases) : cases, repeat);
      out(opts.json ? JSON.stringify(r) : formatScenarios(r));
      return r.failed === 0 && r.identical && r.operatorSpace.before === r.operatorSpace.after ? 0 : 1;
    }
    case 'locomo': {
      // --conversations conv-26,conv-30: a subset of the file's conversations (a full run takes an hour here)
      const all = readLocomo(file);
      const wanted = opts.conversations?.length ? new Set(opts.conversations) : null;
      const samples = wanted ? all.filter((x) => wanted.has(x.sample_id)) : all;
      if (wanted && samples.length !== wanted.size) throw new Error(`--conversations: not in ${file}: ${[...wanted].filter((w) => !all.some((x) => x.sample_id === w)).join(', ')}`);
      const r = await evalLocomo(deps, samples, (s) => process.stderr.write(s + '\n'));
      out(opts.json ? JSON.stringify(r) : formatLocomo(r));
      return 0;
    }
    case 'sts': {
      const r = await evalSts(deps, readSts(file));
      out(opts.json ? JSON.stringify(r) : formatSts(r, deps.thresholds));
      return 0;
    }
    case 'mrpc': {
      const r = await evalMrpc(deps, readMrpc(file));
      out(opts.json ? JSON.stringify(r) : formatMrpc(r, deps.thresholds));
      return 0;
    }
    case 'sick': {
      const r = await evalSick(deps, readSick(file));
      out(opts.json ? JSON.stringify(r) : formatSick(r, deps.thresholds));
      return 0;
    }
    default:
      throw new Error(`unknown evaluation ${kind} (pairs, scenarios, locomo, sts, mrpc, sick)`);
  }
}
