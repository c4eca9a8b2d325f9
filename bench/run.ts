/**
 * `npm run bench`: the same generated workload through Engram's own paths
 * (createEngram, the store, indexNew / the outbox, remember, recall,
 * changeStatus, forget, VectorIndex.search) for every engine, beside an
 * in-process brute-force floor. Writes results.md, results.json and results.svg.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { BuiltinEmbedder } from '../src/embed/builtin-embedder.js';
import { parseArgs, type BenchOptions } from './args.js';
import { benchDatabaseUrl, openEngine, serverReachable, type EngineName } from './engines.js';
import { Floor } from './floor.js';
import { forgetSentenceReadings } from '../src/core/memo.js';
import { ensureLexicon } from '../src/core/lexicon.js';
import { questionNouns } from '../src/core/question-cues.js';
import { LookupEmbedder } from './lookup-embedder.js';
import { machineInfo, type MachineInfo } from './machine.js';
import { renderMarkdown } from './report.js';
import { renderSvg } from './svg.js';
import { runQuickWithStart } from './quick.js';
import { runRules } from './rules.js';
import { coldStart, embedderCost, serverStart } from './startup.js';
import { throughput, throughputFigures } from './throughput.js';
import { UseLiteEmbedder } from '../src/embed/use-lite-embedder.js';
import { buildDataset } from './workload.js';
import {
  bulkWorkloads, floorPreload, preload, readWorkloads, rememberWorkload, type CaseSpec, type Figure,
} from './workloads.js';

export interface Row extends Figure { engine: string; floor: number | null; ratio: number | null }

export interface CaseResult {
  spec: CaseSpec;
  engines: string[];
  rows: Row[];
  preload: Record<string, { ms: number; perSecond: number; settleMs: number; maintainMs: number; hnswMs: number }>;
  outcomes: Record<string, Record<string, number>>;
  sweep: string | null;
  errors: Record<string, string>;
}

export interface BenchResults {
  machine: MachineInfo;
  startedAt: string;
  finishedAt: string;
  options: Omit<BenchOptions, 'outDir'>;
  notices: string[];
  cases: CaseResult[];
  global: Figure[];
}

const log = (m: string) => process.stderr.write(`[bench] ${m}\n`);

function casesOf(o: BenchOptions): CaseSpec[] {
  if (o.cases) return o.cases.map((c) => ({ ...c, data: c.dim === 100 ? 'semantic' : 'random' }));
  const out: CaseSpec[] = [];
  const minN = Math.min(...o.ns);
  for (const dim of o.dims) for (const n of o.ns) for (const spaces of o.spaces) {
    // Many spaces show the per-space filter cost; one size is enough to see it.
    if ((spaces > 1 && n !== minN) || spaces > n) continue;
    out.push({ dim, n, spaces, data: dim === 100 ? 'semantic' : 'random' });
  }
  return out;
}

const ratio = (v: number, f: number | null) => (f !== null && Number.isFinite(v) && Number.isFinite(f) && f !== 0 ? v / f : null);

/** `progress` gets the results so far after every engine of every case (a long run leaves usable files if stopped). */
export async function runBench(o: BenchOptions, progress?: (partial: BenchResults) => Promise<void>): Promise<BenchResults> {
  const startedAt = new Date().toISOString();
  const notices: string[] = [];
  let engines = [...o.engines];
  const needsServer = engines.some((e) => e === 'pgvector' || (e !== 'pgvector-pglite' && o.recordStore === 'pg'));
  if (needsServer && !(await serverReachable(benchDatabaseUrl()))) {
    const off = engines.filter((e) => e === 'pgvector' || (e !== 'pgvector-pglite' && o.recordStore === 'pg'));
    notices.push(`PostgreSQL server at ${benchDatabaseUrl().replace(/\/\/[^@]*@/, '//')} not reachable: skipped ${off.join(', ')}`);
    engines = engines.filter((e) => !off.includes(e));
  }
  if (engines.includes('qdrant') && !process.env.QDRANT_URL) {
    notices.push('qdrant skipped: QDRANT_URL is not set');
    engines = engines.filter((e) => e !== 'qdrant');
  }
  for (const n of notices) log(`notice: ${n}`);

  const sif = new BuiltinEmbedder();
  // The default embedder's dimension: that case embeds quotes with it too (USE-lite, loaded once).
  const useLite = new UseLiteEmbedder();
  const cases: CaseResult[] = [];
  const { outDir: _out, ...options } = o;
  const snapshot = (global: Figure[]): BenchResults => ({
    machine: machineInfo(o.note), startedAt, finishedAt: new Date().toISOString(), options, notices, cases, global,
  });
  for (const spec of casesOf(o)) {
    log(`case dim=${spec.dim} n=${spec.n} spaces=${spec.spaces} (${spec.data})`);
    const embedded = spec.dim === useLite.dimensions;
    const ds = await buildDataset(spec.dim, {
      n: spec.n, fresh: o.sizes.remember * (embedded ? 2 : 1), queries: Math.max(o.sizes.queries, o.sizes.recall), planted: o.sizes.planted,
    }, 42, sif);
    const res: CaseResult = { spec, engines: [], rows: [], preload: {}, outcomes: {}, sweep: null, errors: {} };
    cases.push(res);
    let floorFigures: Figure[] | null = null;
    for (const name of engines) {
      const embedder = new LookupEmbedder(spec.dim, spec.dim === 100 ? sif : embedded ? useLite : null);
      let opened: Awaited<ReturnType<typeof openEngine>> | null = null;
      try {
        log(`  ${name}: opening`);
        opened = await openEngine(name as EngineName, embedder, o.recordStore);
        const pre = await preload(opened, ds, spec, (msg) => log(`  ${name}: preload ${msg}`));
        res.preload[name] = { ms: pre.ms, perSecond: (spec.n * 1000) / pre.ms, settleMs: pre.settleMs, maintainMs: pre.maintainMs, hnswMs: pre.hnswMs };
        log(`  ${name}: preloaded ${spec.n} in ${(pre.ms / 1000).toFixed(1)} s (+${(pre.hnswMs / 1000).toFixed(1)} s HNSW build, +${(pre.settleMs / 1000).toFixed(1)} s outbox, +${(pre.maintainMs / 1000).toFixed(1)} s maintenance)`);
        const floor = new Floor(spec.dim);
        const floorLoadMs = floorPreload(floor, ds, spec, pre.spaceIds);
        if (!res.preload.floor) res.preload.floor = { ms: floorLoadMs, perSecond: (spec.n * 1000) / Math.max(floorLoadMs, 1e-3), settleMs: 0, maintainMs: 0, hnswMs: 0 };
        // Every engine starts with no sentence read (the rules' and the ranking's readings are cached by
        // text in the process, which a case's engines share: the first would pay for the others).
        forgetSentenceReadings();
        // Loaded once per process, whatever the engine: WordNet and the sentence tagger, before anything
        // is timed (else the first engine's first recall pays them: ~100-300 ms in its p99 alone).
        await ensureLexicon();
        questionNouns('Where did my sister move to?');
        const read = await readWorkloads(opened, floor, ds, spec, pre.spaceIds, o.sizes);
        log(`  ${name}: read workloads done`);
        const rem = await rememberWorkload(opened, floor, ds, pre.spaceIds, o.sizes, { embedded });
        res.outcomes[name] = rem.outcomes;
        log(`  ${name}: remember done ${JSON.stringify(rem.outcomes)}`);
        const engineFigs = [...read.engine, ...rem.engine];
        const floorFigs = [...read.floor, ...rem.floor];
        if (spec.spaces === 1) {
          const bulk = await bulkWorkloads(opened, floor, spec, pre.spaceIds, o.sizes);
          engineFigs.push(...bulk.engine);
          floorFigs.push(...bulk.floor);
          res.sweep = bulk.sweep;
          log(`  ${name}: bulk done`);
        }
        floorFigures ??= floorFigs;
        for (const f of engineFigs) {
          const ff = floorFigures.find((x) => x.workload === f.workload && x.metric === f.metric);
          res.rows.push({ ...f, engine: name, floor: ff ? ff.value : null, ratio: ratio(f.value, ff ? ff.value : null) });
        }
        res.engines.push(name);
      } catch (e) {
        const msg = e instanceof Error ? `${e.message}${e.cause ? ` (cause: ${String(e.cause)})` : ''}` : String(e);
        res.errors[name] = msg;
        notices.push(`dim=${spec.dim} n=${spec.n} spaces=${spec.spaces}: ${name} failed: ${msg}`);
        log(`  ${name}: FAILED ${msg}`);
      } finally {
        await opened?.close().catch((e) => log(`  ${name}: close failed ${String(e)}`));
      }
      if (progress && floorFigures) {
        const partial = snapshot([]);
        partial.cases = cases.map((c) => c === res ? withFloor(c, floorFigures!) : c);
        await progress(partial);
      }
    }
    if (floorFigures) Object.assign(res, withFloor(res, floorFigures));
  }

  await useLite.close();
  const global: Figure[] = [];
  if (o.throughput) {
    for (const store of ['pg', 'pglite'] as const) {
      if (store === 'pg' && !(await serverReachable(benchDatabaseUrl()))) continue;
      log(`throughput (${store}): ${o.throughput.clients} clients, ${o.throughput.perClient} remembers each`);
      try {
        global.push(...throughputFigures(await throughput({ store, ...o.throughput, log: (m) => log(`  ${m}`) })));
      } catch (e) {
        notices.push(`throughput (${store}) failed: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
  }
  if (o.startup) {
    log('cold start, warm start of npm start\'s process, embedder cost');
    global.push(...(await coldStart()));
    const dir = await mkdtemp(join(tmpdir(), 'engram-bench-start-'));
    try {
      const s = await serverStart(join(dir, 'data'));
      const w = 'npm start (node dist/server/main.js), empty store';
      global.push(
        { workload: w, metric: 'warm start to first answer (median)', unit: 'ms', value: s.warm_start_ms, samples: s.warm_starts_ms.length },
        { workload: w, metric: 'CPU time to first answer (median)', unit: 'ms', value: s.warm_start_cpu_ms, samples: s.warm_starts_ms.length },
        { workload: w, metric: 'RSS after start', unit: 'MB', value: s.rss_after_start_mb },
        { workload: w, metric: 'first remember (loads the model)', unit: 'ms', value: s.first_remember_ms, samples: 1 },
        { workload: w, metric: 'RSS after the first remember', unit: 'MB', value: s.rss_after_first_remember_mb },
      );
    } catch (e) {
      notices.push(`npm start measure failed: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    global.push(...(await embedderCost(o.sizes.recall >= 100 ? 320 : 64)));
  }
  await sif.close();
  return snapshot(global);
}

function withFloor(c: CaseResult, floorFigures: Figure[]): CaseResult {
  return {
    ...c, engines: [...c.engines, 'floor'],
    rows: [...c.rows, ...floorFigures.map((f) => ({ ...f, engine: 'floor', floor: f.value, ratio: ratio(f.value, f.value) }))],
  };
}

export async function writeResults(r: BenchResults, outDir: string): Promise<string[]> {
  await mkdir(outDir, { recursive: true });
  const files = [join(outDir, 'results.json'), join(outDir, 'results.md'), join(outDir, 'results.svg')];
  await writeFile(files[0], `${JSON.stringify(r, null, 2)}\n`);
  await writeFile(files[1], renderMarkdown(r));
  await writeFile(files[2], renderSvg(r));
  return files;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv.includes('--rules')) {
    const r = await runRules();
    if (argv.includes('--json')) process.stdout.write(`${JSON.stringify(r)}\n`);
    else for (const [k, v] of Object.entries(r)) process.stdout.write(`${k}: ${v}\n`);
    process.exit(0);
  }
  if (argv.includes('--quick')) {
    const num = (flag: string, d: number) => {
      const i = argv.indexOf(flag);
      return i >= 0 ? Number(argv[i + 1]) : d;
    };
    const r = await runQuickWithStart({ n: num('--n', 10_000), samples: num('--samples', 50), planted: num('--planted', 200), server: argv.includes('--server'), profile: argv.includes('--profile') });
    if (argv.includes('--json')) process.stdout.write(`${JSON.stringify(r)}\n`);
    else for (const [k, v] of Object.entries(r)) process.stdout.write(`${k}: ${typeof v === 'object' ? JSON.stringify(v) : v}\n`);
    process.exit(0);
  }
  let o: BenchOptions;
  try {
    o = parseArgs(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n`);
    process.exit(2);
  }
  const r = await runBench(o, async (partial) => { await writeResults(partial, o.outDir); });
  const files = await writeResults(r, o.outDir);
  process.stdout.write(renderMarkdown(r));
  log(`wrote ${files.join(', ')}`);
  process.exit(0);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((e) => {
    process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
    process.exit(1);
  });
}
