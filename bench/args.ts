/** Command-line options of `npm run bench`. */
import { ENGINES, type EngineName } from './engines.js';
import type { SampleSizes } from './workloads.js';

export interface BenchOptions {
  engines: EngineName[];
  ns: number[];
  dims: number[];
  spaces: number[];
  /** Explicit cases (dim x n x spaces), instead of the matrix of dims, ns and spaces. */
  cases?: { dim: number; n: number; spaces: number }[];
  sizes: SampleSizes;
  startup: boolean;
  /** The concurrent-clients case (bench/throughput.ts), on the server (when it answers) and PGlite; null: not run. */
  throughput: { clients: number; perClient: number } | null;
  /** System of record of the outbox engines (LanceDB, Qdrant). */
  recordStore: 'pg' | 'pglite';
  outDir: string;
  note: string;
}

export const USAGE = `npm run bench -- [--engines pgvector,pgvector-pglite,lancedb,qdrant] [--n 10000,100000]
  [--dim 100,384] [--spaces 1,1000] [--quick] [--remember 500] [--queries 200] [--planted 200]
  [--recall 100] [--bulk 10000] [--cases 384x10000x1,100x10000x1] [--budget 180] [--no-startup] [--throughput 8x40 | --no-throughput] [--record-store pg|pglite] [--out bench/results] [--note "..."]

--throughput CLIENTSxREMEMBERS (default 8x40; not with --cases unless given): remember() with the
default embedder by one client, CLIENTS clients in as many spaces, CLIENTS clients in one space.

dim 100 runs the semantic data (LoCoMo turns and template sentences, built-in SIF vectors);
any other dimension runs random unit vectors. Multi-space cases run at the smallest N only.
--budget caps each sampled workload loop in seconds (fewer samples are then reported).`;

const list = (s: string) => s.split(',').map((x) => x.trim()).filter(Boolean);
const nums = (s: string) => list(s).map((x) => {
  const v = Number(x.replace(/_/g, '').replace(/k$/i, '000'));
  if (!Number.isInteger(v) || v <= 0) throw new Error(`not a positive integer: ${x}`);
  return v;
});

export function parseArgs(argv: string[]): BenchOptions {
  const quick = argv.includes('--quick');
  const o: BenchOptions = {
    engines: ['pgvector', 'pgvector-pglite', 'lancedb', 'qdrant'],
    ns: quick ? [2000] : [10_000, 100_000],
    // 512: the default embedder's dimension (USE-lite), whose vectors are stored out of line; that case also embeds quotes.
    dims: quick ? [100, 384] : [100, 384, 512],
    spaces: quick ? [1, 100] : [1, 1000],
    sizes: quick
      ? { remember: 100, queries: 50, planted: 50, recall: 30, bulk: 1000, budgetMs: 30_000 }
      : { remember: 500, queries: 200, planted: 200, recall: 100, bulk: 10_000, budgetMs: 180_000 },
    startup: true,
    throughput: quick ? null : { clients: 8, perClient: 40 },
    recordStore: 'pg',
    outDir: 'bench/results',
    note: '',
  };
  let throughputSet = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const v = () => {
      const x = argv[++i];
      if (x === undefined) throw new Error(`${a} needs a value`);
      return x;
    };
    switch (a) {
      case '--quick': break;
      case '--engines': {
        const es = list(v());
        for (const e of es) if (!(ENGINES as readonly string[]).includes(e)) throw new Error(`unknown engine ${e} (one of ${ENGINES.join(', ')})`);
        o.engines = es as EngineName[];
        break;
      }
      case '--n': o.ns = nums(v()); break;
      case '--dim': o.dims = nums(v()); break;
      case '--spaces': o.spaces = nums(v()); break;
      case '--cases': o.cases = list(v()).map((c) => {
        const [dim, n, spaces] = c.split('x').map((x) => nums(x)[0]);
        if (!dim || !n || !spaces) throw new Error(`--cases wants DIMxNxSPACES, got ${c}`);
        return { dim, n, spaces };
      }); break;
      case '--remember': o.sizes.remember = nums(v())[0]; break;
      case '--queries': o.sizes.queries = nums(v())[0]; break;
      case '--planted': o.sizes.planted = nums(v())[0]; break;
      case '--recall': o.sizes.recall = nums(v())[0]; break;
      case '--bulk': o.sizes.bulk = nums(v())[0]; break;
      case '--budget': o.sizes.budgetMs = nums(v())[0] * 1000; break;
      case '--no-startup': o.startup = false; break;
      case '--no-throughput': o.throughput = null; throughputSet = true; break;
      case '--throughput': {
        throughputSet = true;
        const [clients, perClient] = v().split('x').map((x) => nums(x)[0]);
        if (!clients || !perClient) throw new Error(`--throughput wants CLIENTSxREMEMBERS, got ${clients}`);
        o.throughput = { clients, perClient };
        break;
      }
      case '--record-store': {
        const x = v();
        if (x !== 'pg' && x !== 'pglite') throw new Error('--record-store is pg or pglite');
        o.recordStore = x;
        break;
      }
      case '--out': o.outDir = v(); break;
      case '--note': o.note = v(); break;
      case '--help': case '-h': throw new Error(USAGE);
      default: throw new Error(`unknown option ${a}\n${USAGE}`);
    }
  }
  // Explicit --cases run those cases only, unless --throughput asks for it too.
  if (o.cases && !throughputSet) o.throughput = null;
  return o;
}
