import type { MemoryDeps } from '../memory/deps.js';
import { evalPairs, formatPairs, readPairs } from './pairs.js';

/** Dispatches `engram eval <kind> <file>`; returns the process exit code. */
export async function runEval(deps: MemoryDeps, kind: string, file: string, opts: { json: boolean; repeat: number }): Promise<number> {
  const out = (s: string) => process.stdout.write(s + '\n');
  switch (kind) {
    case 'pairs': {
      const r = await evalPairs(deps, readPairs(file));
      if (opts.json) {
        const { outcomes, ...rest } = r;
        out(JSON.stringify({ ...rest, outcomes }));
      } else out(formatPairs(r));
      return 0;
    }
    default:
      throw new Error(`unknown evaluation ${kind}`);
  }
}
