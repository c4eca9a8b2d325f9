/**
 * Throughput of remember() with the default embedder under concurrent clients
 * (docs/bench.md#throughput): one client; 8 clients in 8 spaces; 8 clients in one
 * space remembering the same facts (restatements: the same words, in other case or
 * punctuation). Through the use cases, with the server's wiring (createEngram, the
 * default embedder, a pool of 10 connections on the server). Figures: remembers/s,
 * p50 / p99 of one remember, the rate against one client's; in one space, what was
 * kept is counted: every remember is a mention (nothing lost) and no fact has two
 * memories (no normalised text twice), beside the memories the same facts make one
 * at a time in a space of their own.
 */
import { performance } from 'node:perf_hooks';
import { configFromEnv } from '../src/config.js';
import { createEngram, embedderFor, type Engram } from '../src/container.js';
import { openConversation, recordMessage } from '../src/memory/conversations.js';
import { remember } from '../src/memory/remember.js';
import { createSpace } from '../src/memory/spaces.js';
import type { Actor } from '../src/memory/deps.js';
import { openBenchStore } from './engines.js';
import { summarize } from './stats.js';
import { templateSentence } from './workload.js';
import type { Figure } from './workloads.js';

export interface ThroughputOptions {
  store: 'pglite' | 'pg';
  clients: number;
  /** Remembers per client in each run. */
  perClient: number;
  log?: (m: string) => void;
}

export interface ThroughputRun { clients: number; spaces: number; remembers: number; seconds: number; perSecond: number; p50: number; p99: number }

export interface ThroughputResult {
  store: 'pglite' | 'pg';
  one: ThroughputRun;
  spaces: ThroughputRun & { vsOne: number };
  oneSpace: ThroughputRun & {
    vsOne: number;
    facts: number;
    /** Mentions in the space: one per remember when nothing is lost. */
    mentions: number;
    memories: number;
    /** Normalised texts held by more than one memory (0: no fact stored twice). */
    duplicated: number;
    /** Memories the same facts make remembered one at a time, in a space of their own. */
    sequentialMemories: number;
    failures: number;
  };
}

const admin: Actor = { role: 'admin', tokenId: null, spaceId: null };
const SAY = 20;

/** Distinct facts: no two share their first three words (a person and their name), so none corrects another. */
function facts(n: number, from: number): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (let i = from; out.length < n; i++) {
    const s = templateSentence(i);
    const who = s.split(' ').slice(0, 3).join(' ');
    if (seen.has(who)) continue;
    seen.add(who);
    out.push(s);
  }
  return out;
}

/** The same fact in another case or punctuation (the same normalised text). */
function variant(s: string, k: number): string {
  switch (k % 4) {
    case 1: return s.toLowerCase();
    case 2: return s.replace(/\.$/, '!');
    case 3: return s.replace(/\.$/, '');
    default: return s;
  }
}

interface Job { spaceId: string; conversationId: string; quote: string }

/** Records each quote as a USER message first (untimed), a new conversation every SAY quotes. */
async function prepare(engram: Engram, spaceId: string, quotes: string[]): Promise<Job[]> {
  const deps = engram.deps;
  const jobs: Job[] = [];
  let conv = '';
  for (let i = 0; i < quotes.length; i++) {
    if (i % SAY === 0) conv = (await openConversation(deps, spaceId)).id;
    await recordMessage(deps, admin, { conversationId: conv, role: 'USER', text: quotes[i] });
    jobs.push({ spaceId, conversationId: conv, quote: quotes[i] });
  }
  return jobs;
}

/** Runs each client's jobs in order, the clients concurrently. */
async function run(engram: Engram, clients: Job[][], spaces: number): Promise<ThroughputRun & { failures: number }> {
  const ms: number[] = [];
  let failures = 0;
  const t0 = performance.now();
  await Promise.all(clients.map(async (jobs) => {
    for (const j of jobs) {
      const t = performance.now();
      try {
        await remember(engram.deps, admin, { conversationId: j.conversationId, quote: j.quote, type: 'FACT' });
      } catch {
        failures++;
      }
      ms.push(performance.now() - t);
    }
  }));
  const seconds = (performance.now() - t0) / 1000;
  const s = summarize(ms);
  const round = (x: number) => Math.round(x * 10) / 10;
  return { clients: clients.length, spaces, remembers: ms.length, seconds: round(seconds), perSecond: round(ms.length / seconds), p50: round(s.p50), p99: round(s.p99), failures };
}

export async function throughput(o: ThroughputOptions): Promise<ThroughputResult> {
  const log = o.log ?? (() => {});
  const { db, overrides, cleanup } = await openBenchStore(o.store === 'pg', 'engram-throughput-', 10);
  const config = configFromEnv({}, overrides);
  const embedder = embedderFor(config);
  const engram = await createEngram(config, { db, embedder, background: false });
  const deps = engram.deps;
  const count = async (sql: string, spaceId: string) => Number((await db.query<{ n: number }>(sql, [spaceId])).rows[0].n);
  try {
    const space = async (name: string) => (await createSpace(deps, { name })).id;
    // Warm-up: the model, WordNet and the first statements' plans (not measured).
    const warm = await space('warm-up');
    await run(engram, [await prepare(engram, warm, facts(4, 9_000_000))], 1);

    let next = 0;
    const fresh = (n: number) => { const xs = facts(n, next); next += n * 3; return xs; };

    log(`one client, ${o.perClient} remembers`);
    const solo = await space('one client');
    const one = await run(engram, [await prepare(engram, solo, fresh(o.perClient))], 1);
    log(`  ${one.perSecond}/s p50 ${one.p50} ms p99 ${one.p99} ms`);

    log(`${o.clients} clients in ${o.clients} spaces`);
    const many: Job[][] = [];
    for (let c = 0; c < o.clients; c++) many.push(await prepare(engram, await space(`client ${c}`), fresh(o.perClient)));
    const spaced = await run(engram, many, o.clients);
    log(`  ${spaced.perSecond}/s p50 ${spaced.p50} ms p99 ${spaced.p99} ms`);

    log(`${o.clients} clients in one space, the same ${o.perClient} facts`);
    const shared = facts(o.perClient, 8_000_000);
    const one1 = await space('one space');
    const clients: Job[][] = [];
    for (let c = 0; c < o.clients; c++) {
      // Each client its own order and wording of the same facts.
      const order = shared.map((s, i) => ({ s: variant(s, c + i), k: (i * (2 * c + 1) + c) % shared.length })).sort((a, b) => a.k - b.k).map((x) => x.s);
      clients.push(await prepare(engram, one1, order));
    }
    const together = await run(engram, clients, 1);
    const mentions = await count(`select count(*)::int as n from mentions where space_id = $1`, one1);
    const memories = await count(`select count(*)::int as n from memories where space_id = $1 and kind = 'STATEMENT'`, one1);
    const duplicated = await count(
      `select count(*)::int as n from (select normalized from memories where space_id = $1 and kind = 'STATEMENT' group by normalized having count(*) > 1) d`, one1);
    const alone = await space('one space, one at a time');
    await run(engram, [await prepare(engram, alone, shared)], 1);
    const sequentialMemories = await count(`select count(*)::int as n from memories where space_id = $1 and kind = 'STATEMENT'`, alone);
    log(`  ${together.perSecond}/s p50 ${together.p50} ms p99 ${together.p99} ms; mentions ${mentions}/${together.remembers}, memories ${memories} (one at a time: ${sequentialMemories}), duplicated ${duplicated}, failures ${together.failures}`);

    const vs = (r: ThroughputRun) => Math.round((r.perSecond / one.perSecond) * 100) / 100;
    const { failures: _f1, ...oneRun } = one;
    const { failures: _f2, ...spacedRun } = spaced;
    const { failures, ...togetherRun } = together;
    return {
      store: o.store, one: oneRun, spaces: { ...spacedRun, vsOne: vs(spaced) },
      oneSpace: { ...togetherRun, vsOne: vs(together), facts: shared.length, mentions, memories, duplicated, sequentialMemories, failures },
    };
  } finally {
    await engram.close();
    await db.close();
    await embedder.close();
    await cleanup();
  }
}

/** The result as bench figures (the full bench's global table). */
export function throughputFigures(r: ThroughputResult): Figure[] {
  const w = `remember throughput, default embedder (${r.store === 'pg' ? 'PostgreSQL server' : 'PGlite'})`;
  const rows: Figure[] = [];
  const add = (label: string, x: ThroughputRun) => {
    rows.push({ workload: w, metric: `${label}: remembers/s`, unit: '/s', value: x.perSecond, samples: x.remembers });
    rows.push({ workload: w, metric: `${label}: p50`, unit: 'ms', value: x.p50, samples: x.remembers });
    rows.push({ workload: w, metric: `${label}: p99`, unit: 'ms', value: x.p99, samples: x.remembers });
  };
  add('1 client', r.one);
  add(`${r.spaces.clients} clients, ${r.spaces.clients} spaces`, r.spaces);
  rows.push({ workload: w, metric: `${r.spaces.clients} clients, ${r.spaces.clients} spaces: rate vs 1 client`, unit: '×', value: r.spaces.vsOne });
  add(`${r.oneSpace.clients} clients, 1 space`, r.oneSpace);
  rows.push({ workload: w, metric: `${r.oneSpace.clients} clients, 1 space: rate vs 1 client`, unit: '×', value: r.oneSpace.vsOne });
  rows.push({ workload: w, metric: `${r.oneSpace.clients} clients, 1 space: mentions lost`, unit: '', value: r.oneSpace.remembers - r.oneSpace.mentions });
  rows.push({ workload: w, metric: `${r.oneSpace.clients} clients, 1 space: facts stored twice`, unit: '', value: r.oneSpace.duplicated });
  rows.push({ workload: w, metric: `${r.oneSpace.clients} clients, 1 space: memories (one at a time)`, unit: '', value: r.oneSpace.memories, note: `${r.oneSpace.sequentialMemories} one at a time` });
  return rows;
}
