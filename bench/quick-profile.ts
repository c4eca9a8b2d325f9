/**
 * Where the quick bench's time goes: a `SqlClient` wrapper that times every statement
 * (named by what it does, see `stageOf`), the transaction's BEGIN and COMMIT, and
 * leaves the rest of an operation to "other" (JavaScript between statements: the
 * rules, parsing, awaiting). Cheap enough to stay on: two clock reads and a map lookup per
 * statement (each statement text is classified once); nothing at all while off.
 */
import { performance } from 'node:perf_hooks';
import { GENERIC_PLAN, type Queryable, type SqlClient } from '../src/store/sql-client.js';

/** A statement's stage: what it is for, from its text (the first words as a fallback). */
export function stageOf(sql: string): string {
  const s = (sql.startsWith(GENERIC_PLAN) ? sql.slice(GENERIC_PLAN.length) : sql).replace(/\s+/g, ' ').trim();
  const rules: [RegExp, string][] = [
    [/pg_advisory_xact_lock/, 'space lock'],
    [/order by b\.bq <~>/, 'vector search (sign bits + rerank)'],
    [/string_agg\(varbit_send\(bq\)/, 'vector search (mirror catch-up)'],
    [/^select array_agg\(memory_id\) as ids, array_agg\(status\)/, 'vector search (mirror: statuses of the nearest)'],
    [/^select array_agg\(memory_id\) as ids, count\(\*\)::int as n,/, 'vector search (mirror: other statuses read ahead)'],
    [/^select \(select max\(seq\) from memory_vector_bits/, 'vector search (mirror: anything newer)'],
    [/^set local hnsw\./, 'vector search (HNSW settings)'],
    [/from memory_vectors v join memory_state st/, 'vector search (exact scan, statuses joined)'],
    [/from memory_vectors v where v\.space_id = \$2 and v\.kind = \$3 offset 0/, 'vector search (exact scan)'],
    [/^select count\(\*\)::int as n from memory_vectors/, 'space size'],
    [/^insert into memory_vectors/, 'vector insert'],
    [/^with m as \( insert into memories/, 'memory insert (memory, state, mention, lexicon, vector, events)'],
    [/^with s as \( update memory_state set mention_count/, 'reinforce'],
    [/^insert into memory_events/, 'event insert'],
    [/^with changed as \( update memory_state/, 'status update + events'],
    [/^select \(select max\(id\) from memory_events .*md5\(m\.normalized\)/, 'last event id + exact-text lookup'],
    [/md5\(m\.normalized\)/, 'exact-text lookup'],
    [/m\.message_id = \$2 and m\.kind = 'STATEMENT'/, 'same-message lookup'],
    [/where m\.id = any\(\$1::text\[\]\)/, 'records by id'],
    [/from conversations c left join messages|as c_created_at, \(select json_agg/, 'conversation + transcript'],
    [/from conversations/, 'conversation lookup'],
    [/^select \* from messages where conversation_id/, 'transcript read'],
    [/max\(id\) as id from memory_events/, 'space\'s last event id'],
    [/^insert into messages/, 'message insert'],
    [/exists \(select 1 from memories m where m\.space_id = \$1 and m\.kind = /, 'lexical: BM25 statistics + kinds held + heard terms'],
    [/from lexicon_stats/, 'lexical: BM25 statistics'],
    [/^with top as/, 'lexical: BM25 postings'],
    [/^select d\.term, d\.ver::text as ver, array_agg/, 'lexical: postings read into the process'],
    [/^select array_agg\(status\) as statuses, array_agg\(memory_id\) as ids from memory_state/, 'lexical: statuses of the best'],
    [/with recursive|current/, 'current versions'],
    [/recall_count/, 'recall counters'],
    [/memory_state set status/, 'status update'],
  ];
  for (const [re, name] of rules) if (re.test(s)) return name;
  return s.slice(0, 60);
}

export interface StageTimes { calls: number; ms: Record<string, number> }

/** Times statements while `on`; `take()` returns the per-call means by stage and resets. */
export class Profiled implements SqlClient {
  on = false;
  private ms = new Map<string, number>();
  private n = new Map<string, number>();
  /** PGlite runs one statement at a time: the wrapper queues them too, so a statement's time is its own, not its wait. */
  private queue: Promise<unknown> = Promise.resolve();
  constructor(private readonly inner: SqlClient) {}
  get driver() { return this.inner.driver; }
  get statementCount() { return this.inner.statementCount; }
  get rollbacks() { return this.inner.rollbacks; }

  /** Adds a stage's time (statements, or a use case's named JavaScript stage: src/memory/stages.ts). */
  add(stage: string, ms: number): void {
    this.ms.set(stage, (this.ms.get(stage) ?? 0) + ms);
    this.n.set(stage, (this.n.get(stage) ?? 0) + 1);
  }

  /** Times `run` as `stage` while on (the embedder, or anything else that is not a statement). */
  time<T>(stage: string, run: () => Promise<T>): Promise<T> {
    return this.timed(stage, run);
  }

  private timed<T>(stage: string, run: () => Promise<T>): Promise<T> {
    if (!this.on) return run();
    if (this.inner.driver !== 'pglite' || stage === 'embed') return this.measure(stage, run);
    const next = this.queue.then(() => this.measure(stage, run));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async measure<T>(stage: string, run: () => Promise<T>): Promise<T> {
    const t = performance.now();
    try {
      return await run();
    } finally {
      this.add(stage, performance.now() - t);
    }
  }

  query<T>(sql: string, params?: unknown[]) {
    if (!this.on) return this.inner.query<T>(sql, params);
    return this.timed(this.stageOfCached(sql), () => this.inner.query<T>(sql, params));
  }

  /** A statement's stage, read once per statement text (the regular expressions are not run per call). */
  private readonly stages = new Map<string, string>();
  private stageOfCached(sql: string): string {
    let s = this.stages.get(sql);
    if (s === undefined) {
      if (this.stages.size >= 2_000) this.stages.clear();
      this.stages.set(sql, s = stageOf(sql));
    }
    return s;
  }
  exec(sql: string) { return this.inner.exec(sql); }
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    if (!this.on) return this.inner.transaction(fn);
    const t0 = performance.now();
    let t1 = t0;
    let t2 = t0;
    return this.inner.transaction(async (tx) => {
      t1 = performance.now();
      try {
        // Inside the transaction PGlite runs nothing else: timed directly, never queued behind a statement waiting for it.
        return await fn({ query: (sql, params) => (this.on ? this.measure(this.stageOfCached(sql), () => tx.query(sql, params)) : tx.query(sql, params)) });
      } finally {
        t2 = performance.now();
      }
    }).finally(() => {
      this.add('BEGIN', t1 - t0);
      this.add('COMMIT', performance.now() - t2);
    });
  }
  close() { return this.inner.close(); }

  reset(): void {
    this.ms.clear();
    this.n.clear();
  }

  /**
   * Mean ms per operation by stage over `calls` operations whose summed wall time was
   * `totalMs`; what no statement accounts for is "other (JS between statements)".
   */
  take(calls: number, totalMs: number): Record<string, number> {
    const out: Record<string, number> = {};
    let sum = 0;
    for (const [k, v] of [...this.ms].sort((a, b) => b[1] - a[1])) {
      const per = v / calls;
      sum += per;
      const times = (this.n.get(k) ?? 0) / calls;
      out[times === 1 ? k : `${k} (x${Math.round(times * 10) / 10})`] = Math.round(per * 10) / 10;
    }
    out['other (JS between statements)'] = Math.round((totalMs / calls - sum) * 10) / 10;
    this.reset();
    return out;
  }
}

/** The stages summed by kind of work: where a request's time goes at a glance (docs/bench.md). */
export function groupOf(stage: string): string {
  const s = stage.replace(/ \(x[\d.]+\)$/, '');
  if (s === 'embed') return 'embed';
  if (s.startsWith('vector search') || s === 'space size') return 'vector search';
  if (s.startsWith('lexical:')) return 'lexical (BM25)';
  if (s === 'rules' || s.startsWith('rules:') || s === 'quote check' || s.startsWith('ranking')) return 'rules and ranking (JS)';
  if (/^(records by id|exact-text lookup|same-message lookup|current versions|conversation lookup|transcript read|conversation \+ transcript)$/.test(s)) return 'records';
  if (s === 'last event id + exact-text lookup') return 'records';
  if (/insert|^reinforce$|^status update|^recall counters$/.test(s)) return 'writes and events';
  if (/^(BEGIN|COMMIT|space lock|space's last event id)$/.test(s)) return 'lock and transaction';
  if (s.startsWith('other')) return 'other (JS between statements)';
  return 'other statements';
}

export function groupStages(stages: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(stages)) {
    const g = groupOf(k);
    out[g] = Math.round(((out[g] ?? 0) + v) * 10) / 10;
  }
  return out;
}

/**
 * `ENGRAM_QUICK_CPUPROF=dir`: a V8 CPU profile of one timed phase (`remember-client-vector`, `remember`, `recall`),
 * written as `dir/quick-<phase>.cpuprofile` (open it in Chrome's DevTools); without the
 * variable, `run` alone.
 */
export async function cpuProfiled<T>(phase: string, run: () => Promise<T>): Promise<T> {
  const dir = process.env.ENGRAM_QUICK_CPUPROF;
  if (!dir) return run();
  const { Session } = await import('node:inspector/promises');
  const { mkdir, writeFile } = await import('node:fs/promises');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  try {
    return await run();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    session.disconnect();
    await mkdir(dir, { recursive: true });
    await writeFile(`${dir}/quick-${phase}.cpuprofile`, JSON.stringify(profile));
  }
}
