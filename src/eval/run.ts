import type { MemoryDeps } from '../memory/deps.js';
import { evalPairs, formatPairs, readPairs } from './pairs.js';
import { evalScenarios, formatScenarios, readScenarios } from './scenarios.js';
import { evalLocomo, formatLocomo, readLocomo } from './locomo.js';
import { evalMrpc, evalSick, evalSts, formatMrpc, formatSick, formatSts, readMrpc, readSick, readSts } from './external.js';

/** Dispatches `engram eval <kind> <file>`; returns the process exit code. */
export async function runEval(deps: MemoryDeps, kind: string, file: string, opts: { json: boolean; repeat: number }): Promise<number> {
  const out = (s: string) => process.stdout.write(s + '\n');
  switch (kind) {
    case 'pairs': {
      const r = await evalPairs(deps, readPairs(file));
      out(opts.json ? JSON.stringify(r) : formatPairs(r));
      return 0;
    }
    case 'scenarios': {
      const repeat = Number.isInteger(opts.repeat) && opts.repeat > 0 ? opts.repeat : 1;
      const r = await evalScenarios(deps, readScenarios(file), repeat);
      out(opts.json ? JSON.stringify(r) : formatScenarios(r));
      return r.failed === 0 && r.identical && r.operatorSpace.before === r.operatorSpace.after ? 0 : 1;
    }
    case 'locomo': {
      const r = await evalLocomo(deps, readLocomo(file), (s) => process.stderr.write(s + '\n'));
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
