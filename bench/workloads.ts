/**
 * The workloads, run through Engram's ports and use cases on one open engine,
 * each beside the same operation on the brute-force floor. Order matters: the
 * read workloads run on the preloaded data, then remember() adds to it, then
 * the bulk operations mute and remove part of it.
 */
import { createHash } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { createSpace } from '../src/memory/spaces.js';
import { openConversation, recordMessage } from '../src/memory/conversations.js';
import { remember } from '../src/memory/remember.js';
import { recall } from '../src/memory/recall.js';
import { changeStatus } from '../src/memory/statuses.js';
import { cleanUp } from '../src/memory/cleanup.js';
import type { Queryable } from '../src/store/sql-client.js';
import { insertBatch, type PreloadRow } from './preload.js';
import { lexicalText } from '../src/memory/lexical.js';
import { normalizeText } from '../src/core/normalize.js';
import { MEMORY_TYPES } from '../src/core/types.js';
import type { Actor, MemoryDeps } from '../src/memory/deps.js';
import type { Dataset } from './workload.js';
import { Floor } from './floor.js';
import { ANN_INDEXES, FLOAT_HNSW_INDEX, PgvectorIndex } from '../adapters/pgvector/pgvector-index.js';
import { LookupEmbedder } from './lookup-embedder.js';
import type { OpenEngine } from './engines.js';
import { sample, summarize, timed, type LatencySummary } from './stats.js';

export interface CaseSpec { dim: number; n: number; spaces: number; data: 'semantic' | 'random' }

export interface SampleSizes { remember: number; queries: number; planted: number; recall: number; bulk: number; budgetMs: number }

/** One measured figure of one engine (or the floor) in one case. */
export interface Figure { workload: string; metric: string; unit: string; value: number; samples?: number; note?: string }

const admin: Actor = { role: 'admin', tokenId: null, spaceId: null };

function spaceOf(i: number, spaces: number): number {
  return i % spaces;
}

/**
 * The preloaded memory number i's id: a version-4 UUID, as remember makes (random, 36
 * characters), derived from i so that every part of the bench can name the same memory. Ids
 * of the form "bench-m<i>" (before the seventeenth round) were short and in order, which made
 * their index entries cheaper than the service's own.
 */
export function memoryId(i: number): string {
  const h = createHash('sha256').update(`engram-bench-memory-${i}`).digest();
  h[6] = (h[6]! & 0x0f) | 0x40;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString('hex');
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20)}`;
}

/** One memory in ten is a MEMO (what the cleanup sweep deletes); the rest alternate FACT / PREFERENCE. */
const typeOf = (i: number) => (i % 10 === 0 ? 'MEMO' : MEMORY_TYPES[i % 2]);

/** Creates the spaces (createSpace) and bulk-loads N memories (see preload.ts), then rebuilds the HNSW index and lets the engine settle. */
export async function preload(e: OpenEngine, ds: Dataset, spec: CaseSpec, progress?: (msg: string) => void): Promise<{ spaceIds: string[]; ms: number; settleMs: number; maintainMs: number; hnswMs: number }> {
  const deps = e.engram.deps;
  const spaceIds: string[] = [];
  for (let s = 0; s < spec.spaces; s++) spaceIds.push((await createSpace(deps, { name: `bench:${s}`, sealed: true })).id);
  // pgvector's HNSW index is built once after the load (as after a restore), not row by row, and
  // not part-way by the adapter's lazy build: row-by-row upkeep is what the sampled remember() calls measure.
  // Only where the service would have one: a space past the adapter's threshold (a server: 20,000;
  // the embedded store never builds it). An index the service never builds would make every
  // measured write pay its upkeep (on PGlite at 10K × 512-d random vectors: ×13 a remember).
  const pg = deps.index instanceof PgvectorIndex ? deps.index : null;
  pg?.holdAnnIndex(true);
  for (const i of [...ANN_INDEXES.map((x) => x.name), FLOAT_HNSW_INDEX]) await e.engram.db.query(`drop index if exists ${i}`);
  const t = performance.now();
  const BATCH = 1000;
  const saidAt = new Date('2025-01-01T00:00:00Z');
  for (let at = 0; at < spec.n; at += BATCH) {
    const rows: PreloadRow[] = [];
    for (let i = at; i < Math.min(spec.n, at + BATCH); i++) {
      const quote = ds.quotes[i];
      rows.push({
        id: memoryId(i), spaceId: spaceIds[spaceOf(i, spec.spaces)], type: typeOf(i), quote,
        normalized: normalizeText(quote), lexical: lexicalText([quote]), vector: ds.vectors[i],
      });
    }
    await deps.store.transaction((tx) => insertBatch(deps, tx as Queryable, rows, saidAt));
    deps.outbox?.kick();
    const done = Math.min(spec.n, at + BATCH);
    if (progress && done % 10_000 === 0) progress(`${done} rows, ${((performance.now() - t) / 1000).toFixed(1)} s`);
  }
  const ms = performance.now() - t;
  const largest = Math.ceil(spec.n / spec.spaces);
  const h = pg && largest > pg.annIndexAbove ? await timed(() => e.engram.db.transaction(async (tx) => {
    await tx.query(`set local maintenance_work_mem = '${e.store === 'pglite' ? '512MB' : '1GB'}'`);
    // The vectors' index only (half precision): the sign bits' index is built by the adapter if it is configured to use it.
    await tx.query(`create index ${ANN_INDEXES[0].name} on ${ANN_INDEXES[0].table} using ${ANN_INDEXES[0].using(spec.dim)}`);
  })) : { ms: 0 };
  pg?.holdAnnIndex(false);
  await pg?.ensureAnnIndex();
  // As after a restore: statistics for the planner (PGlite has no autovacuum to gather them).
  await e.engram.db.query('analyze');
  const settleMs = await e.settle();
  const m = await timed(() => e.maintain());
  return { spaceIds, ms, settleMs, maintainMs: m.ms, hnswMs: h.ms };
}

export function floorPreload(floor: Floor, ds: Dataset, spec: CaseSpec, spaceIds: string[]): number {
  const t = performance.now();
  for (let i = 0; i < spec.n; i++) floor.add(spaceIds[spaceOf(i, spec.spaces)], memoryId(i), ds.vectors[i]);
  return performance.now() - t;
}

function lat(workload: string, s: LatencySummary, withThroughput = false): Figure[] {
  const f: Figure[] = [
    { workload, metric: 'p50', unit: 'ms', value: s.p50, samples: s.samples },
    { workload, metric: 'p95', unit: 'ms', value: s.p95, samples: s.samples },
    { workload, metric: 'p99', unit: 'ms', value: s.p99, samples: s.samples },
  ];
  if (withThroughput) f.unshift({ workload, metric: 'throughput', unit: 'ops/s', value: s.throughput, samples: s.samples });
  return f;
}

/** Engine and floor figures of the read workloads: vector search (approximate), recall@10, recognition misses, recall(). */
export async function readWorkloads(
  e: OpenEngine, floor: Floor, ds: Dataset, spec: CaseSpec, spaceIds: string[], sizes: SampleSizes,
): Promise<{ engine: Figure[]; floor: Figure[] }> {
  const deps = e.engram.deps;
  const K = deps.candidateK;
  const engine: Figure[] = [];
  const fl: Figure[] = [];
  const nq = Math.min(sizes.queries, ds.queries.length);
  const qSpace = (j: number) => spaceIds[j % spaceIds.length];

  // Vector search, approximate (what recall asks the engine for), and recall@10 against the floor's exact top 10.
  let hitsOk = 0;
  let hitsWanted = 0;
  const searchMs = await sample(nq, sizes.budgetMs, async (j) => {
    const q = ds.queries[j];
    const spaceId = qSpace(j);
    const t = performance.now();
    const hits = await deps.index.search({ spaceId, vector: q.vector, k: K, exact: false });
    const ms = performance.now() - t;
    const truth = floor.search(spaceId, q.vector, K);
    const kth = truth.length ? truth[truth.length - 1].score : -Infinity;
    // A hit tied with the 10th exact score counts (duplicate sentences give equal vectors).
    hitsOk += Math.min(truth.length, hits.filter((h) => {
      const v = floor.vectorOf(spaceId, h.memoryId);
      return v ? dot(v, q.vector) >= kth - 1e-5 : false;
    }).length);
    hitsWanted += truth.length;
    return ms;
  });
  engine.push(...lat('search k=10 (approximate)', summarize(searchMs)));
  engine.push({ workload: 'search k=10 (approximate)', metric: 'recall@10', unit: 'share', value: hitsWanted ? hitsOk / hitsWanted : NaN, samples: searchMs.length });
  const floorSearch = await sample(nq, sizes.budgetMs, async (j) => timedSyncMs(() => floor.search(qSpace(j), ds.queries[j].vector, K)));
  fl.push(...lat('search k=10 (approximate)', summarize(floorSearch)));
  fl.push({ workload: 'search k=10 (approximate)', metric: 'recall@10', unit: 'share', value: 1, samples: floorSearch.length });

  // Recognition: planted restatements, searched with the recognition path's parameters, approximate then exact.
  const np = Math.min(sizes.planted, ds.planted.length);
  const minScore = Math.min(deps.thresholds.recallFloor, deps.thresholds.topic);
  for (const exact of [false, true]) {
    let missed = 0;
    const ms = await sample(np, sizes.budgetMs, async (j) => {
      const p = ds.planted[j];
      const spaceId = spaceIds[spaceOf(p.of, spec.spaces)];
      const t = performance.now();
      // Exact: recognition's own parameters (remember.ts passes minScore, which lets pgvector take its quantised path).
      const hits = await deps.index.search({ spaceId, vector: p.vector, k: K, statuses: ['ACTIVE'], kind: 'STATEMENT', exact, ...(exact ? { minScore } : {}) });
      const took = performance.now() - t;
      if (!hits.some((h) => h.memoryId === memoryId(p.of))) missed++;
      return took;
    });
    const w = exact ? 'recognition search (exact)' : 'recognition search (approximate)';
    engine.push({ workload: w, metric: 'duplicate misses', unit: 'share', value: ms.length ? missed / ms.length : NaN, samples: ms.length });
    engine.push(...lat(w, summarize(ms)));
    const fms = await sample(np, sizes.budgetMs, async (j) => {
      const p = ds.planted[j];
      return timedSyncMs(() => floor.search(spaceIds[spaceOf(p.of, spec.spaces)], p.vector, K));
    });
    fl.push({ workload: w, metric: 'duplicate misses', unit: 'share', value: 0, samples: fms.length });
    fl.push(...lat(w, summarize(fms)));
  }

  // recall(): the whole use case (vector pool of 50 + lexical + fusion + records), query vectors via the lookup embedder.
  const emb = deps.embedder as LookupEmbedder;
  for (const q of ds.queries) emb.register?.(q.text, q.vector);
  const nr = Math.min(sizes.recall, ds.queries.length);
  // First the recalls after a bulk load, nothing of its postings held: the service's warm-up, 2 s
  // after the bench opened it, may have read a space a few seconds into the load, as it would for a
  // service started during an import, and whether it did depends on the load's speed.
  const store = deps.store as Partial<{ letGoOf(spaceId: string | null): void; warmPostings(stopped: () => boolean): Promise<number>; settled(): Promise<void> }>;
  store.letGoOf?.(null);
  const recallMs = await sample(nr, sizes.budgetMs, async (j) => (await timed(() => recall(deps, qSpace(j), ds.queries[j].text, 10))).ms);
  engine.push(...lat('recall() use case', summarize(recallMs)));
  const floorRecall = await sample(nr, sizes.budgetMs, async (j) => timedSyncMs(() => floor.search(qSpace(j), ds.queries[j].vector, 50)));
  fl.push(...lat('recall() use case', summarize(floorRecall)));
  // The same recalls as a restarted service answers them once its start-up warm-up has read the
  // spaces' postings (docs/recall.md, "Read at start"; what the recalls above read let go first):
  // the rows above are the first after a bulk load, whose searches read the postings after their
  // answers, competing with the next.
  if (store.letGoOf && store.warmPostings && store.settled) {
    await store.settled();
    store.letGoOf(null);
    await store.warmPostings(() => false);
    const heldMs = await sample(nr, sizes.budgetMs, async (j) => (await timed(() => recall(deps, qSpace(j), ds.queries[j].text, 10))).ms);
    engine.push(...lat('recall() use case, postings read at start', summarize(heldMs)));
    fl.push(...lat('recall() use case, postings read at start', summarize(floorRecall)));
  }
  return { engine, floor: fl };
}

/** Sampled remember() calls with client vectors: quote check + recognition (exact k-NN) + write, spread over the case's spaces. */
export async function rememberWorkload(
  e: OpenEngine, floor: Floor, ds: Dataset, spaceIds: string[], sizes: SampleSizes,
  /** Also remember with the engine's embedder embedding the quote (the 512-d case: the default embedder, USE-lite). */
  opts: { embedded?: boolean } = {},
): Promise<{ engine: Figure[]; floor: Figure[]; outcomes: Record<string, number> }> {
  const deps: MemoryDeps = e.engram.deps;
  // With the embedder too, the fresh statements are shared: the first half with their vectors, the rest embedded.
  const n = Math.min(sizes.remember, opts.embedded ? Math.floor(ds.fresh.length / 2) : ds.fresh.length);
  const outcomes: Record<string, number> = {};
  const convs = new Map<string, { id: string; used: number }>();
  const once = async (j: number, withVector: boolean) => {
    const f = ds.fresh[j];
    const spaceId = spaceIds[j % spaceIds.length];
    let c = convs.get(spaceId);
    // A conversation per 20 statements: the transcript the quote check reads stays conversation-sized.
    if (!c || c.used >= 20) {
      c = { id: (await openConversation(deps, spaceId)).id, used: 0 };
      convs.set(spaceId, c);
    }
    c.used++;
    await recordMessage(deps, admin, { conversationId: c.id, role: 'USER', text: f.quote });
    const t = performance.now();
    const r = await remember(deps, admin, { conversationId: c.id, quote: f.quote, type: 'FACT', vector: withVector ? f.vector : undefined });
    const took = performance.now() - t;
    outcomes[r.outcome] = (outcomes[r.outcome] ?? 0) + 1;
    return took;
  };
  const ms = await sample(n, sizes.budgetMs, (j) => once(j, true));
  // The embedder is loaded once per case and shared by its engines: its cache of recent texts would
  // answer the next engine's quotes (embedded by the one before) without embedding them.
  if (opts.embedded) deps.embedder.letGo?.();
  const embeddedMs = opts.embedded ? await sample(n, sizes.budgetMs, (j) => once(n + j, false)) : null;
  const settle = await e.settle();
  const engine = lat('remember() with recognition', summarize(ms), true);
  if (embeddedMs) engine.push(...lat('remember() with the default embedder', summarize(embeddedMs), true));
  engine.push({ workload: 'remember() with recognition', metric: 'outbox settle after', unit: 'ms', value: settle, samples: ms.length });
  const fms = await sample(n, sizes.budgetMs, async (j) => {
    const spaceId = spaceIds[j % spaceIds.length];
    return timedSyncMs(() => {
      floor.search(spaceId, ds.fresh[j].vector, 10);
      floor.add(spaceId, `fresh-${j}`, ds.fresh[j].vector);
    });
  });
  const fl = lat('remember() with recognition', summarize(fms), true);
  if (embeddedMs) fl.push(...lat('remember() with the default embedder', summarize(fms), true));
  fl.push({ workload: 'remember() with recognition', metric: 'outbox settle after', unit: 'ms', value: 0, samples: fms.length });
  return { engine, floor: fl, outcomes };
}

/** Bulk mute of up to `sizes.bulk` ids of the first space, then the cleanup sweep of one type. */
export async function bulkWorkloads(
  e: OpenEngine, floor: Floor, spec: CaseSpec, spaceIds: string[], sizes: SampleSizes,
): Promise<{ engine: Figure[]; floor: Figure[]; sweep: string }> {
  const deps = e.engram.deps;
  const spaceId = spaceIds[0];
  const ids: string[] = [];
  for (let i = 0; i < spec.n && ids.length < sizes.bulk; i += spec.spaces) ids.push(memoryId(i));
  const engine: Figure[] = [];
  const fl: Figure[] = [];
  const w = `bulk mute (${ids.length} ids)`;
  const mute = await timed(() => changeStatus(deps, admin, spaceId, 'mute', ids));
  const settle = await e.settle();
  engine.push({ workload: w, metric: 'call', unit: 'ms', value: mute.ms, samples: mute.value.changed });
  engine.push({ workload: w, metric: 'engine settled after', unit: 'ms', value: settle });
  const fm = timedSyncMsN(() => floor.setActive(spaceId, ids, false));
  fl.push({ workload: w, metric: 'call', unit: 'ms', value: fm, samples: ids.length });
  fl.push({ workload: w, metric: 'engine settled after', unit: 'ms', value: 0 });

  // The sweep: every MEMO of the space, muted or not ("everything" scope), deleted for good in one operation.
  const memos: string[] = [];
  for (let i = 0; i < spec.n; i += 10) if (spaceOf(i, spec.spaces) === 0) memos.push(memoryId(i));
  const sweep = `cleanUp (MEMO, everything: ${memos.length} memories)`;
  const cu = await timed(() => cleanUp(deps, admin, spaceId, { categories: ['MEMO'], scope: 'EVERYTHING', confirm: true, dryRun: false }));
  const settle2 = await e.settle();
  engine.push({ workload: sweep, metric: 'call', unit: 'ms', value: cu.ms, samples: cu.value.total });
  engine.push({ workload: sweep, metric: 'engine settled after', unit: 'ms', value: settle2 });
  fl.push({ workload: sweep, metric: 'call', unit: 'ms', value: timedSyncMsN(() => floor.remove(spaceId, memos)), samples: memos.length });
  fl.push({ workload: sweep, metric: 'engine settled after', unit: 'ms', value: 0 });
  return { engine, floor: fl, sweep };
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

async function timedSyncMs(fn: () => unknown): Promise<number> {
  return timedSyncMsN(fn);
}

function timedSyncMsN(fn: () => unknown): number {
  const t = performance.now();
  fn();
  return performance.now() - t;
}
