/**
 * `npm run bench -- --quick [--json]`: the fast-path figures in a few minutes, on
 * the embedded default (PGlite + pgvector + the default embedder, USE-lite 512-d):
 * N memories of the embedder's dimension in one space, then medians of the
 * per-request paths beside the in-process brute-force floor of the same space.
 * Prints one JSON object (`--json`) or one line per figure.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { configFromEnv } from '../src/config.js';
import { createEngram, embedderFor } from '../src/container.js';
import { Profiled, cpuProfiled, groupStages } from './quick-profile.js';
import { setStageHook } from '../src/memory/stages.js';
import { openConversation, recordMessage } from '../src/memory/conversations.js';
import { remember } from '../src/memory/remember.js';
import { recall } from '../src/memory/recall.js';
import { changeStatus } from '../src/memory/statuses.js';
import type { Actor } from '../src/memory/deps.js';
import { BuiltinEmbedder } from '../src/embed/builtin-embedder.js';
import { buildDataset, templateSentence } from './workload.js';
import { forgetSentenceReadings } from '../src/core/memo.js';
import { Floor } from './floor.js';
import { memoryId, preload, floorPreload, type CaseSpec } from './workloads.js';
import type { OpenEngine } from './engines.js';
import { openBenchStore } from './engines.js';
import { tidyTables } from '../src/store/housekeeping.js';
import { summarize, warmUpEmbedder } from './stats.js';
import { serverStart, type ServerStartFigures } from './startup.js';

export interface QuickOptions { n: number; samples: number; planted: number; server: boolean; profile?: boolean; startup?: boolean }

export interface QuickResult {
  store: 'pglite' | 'pg';
  n: number;
  dim: number;
  /** The floor in blocks among the use cases compared with it (as the embedder alone is); the ratios use it. */
  floor_p50_ms: number;
  /** The floor in one block before the use cases, back to back: reported, not used. */
  floor_block_p50_ms: number;
  /** The embedder alone on one sentence, in blocks among the remembers and the recalls. */
  embed_p50_ms: number;
  /** The embedder alone on questions of the form recall is asked here ("Who …?"; about other sentences: recall's own would then come from its cache), in the same blocks. */
  embed_question_p50_ms: number;
  /** Passes the embedder was warmed up on before anything was measured (until they settled: `warmUpEmbedder`). */
  embed_warmup_passes: number;
  remember_p50_ms: number;
  /**
   * From the quote's (the question's) embedding coming back to the use case's answer: what
   * remember (recall) adds after the embedder, its work in the embedding's shadow left out.
   */
  remember_after_embed_p50_ms: number;
  recall_after_embed_p50_ms: number;
  /** From remember's call to its quote's embedding coming back (the embedding as remember waits for it). */
  remember_until_embedded_p50_ms: number;
  /**
   * remember with the default embedder, every sentence's readings forgotten before each (the
   * rules read each candidate afresh, as for a space's older memories or after a restart), and
   * its part after the embedding: what `remember_p50_ms`, its candidates' readings cached, hides.
   */
  remember_readings_afresh_p50_ms: number;
  remember_readings_afresh_after_embed_p50_ms: number;
  remember_client_vector_p50_ms: number;
  recall_p50_ms: number;
  duplicates_missed: number;
  bulk_mute_10k_ms: number;
  raw_update_10k_ms: number;
  /**
   * `npm start`'s process (node dist/server/main.js) restarted on this run's store (PGlite; with
   * --server, an empty PGlite store): to its first answer that reads the store, median of three
   * (bench/startup.ts), and its RSS 3 s after that answer; the rest of the measure in `start`.
   */
  warm_start_ms: number | null;
  rss_after_start_mb: number | null;
  start: ServerStartFigures | { error: string } | null;
  samples: number;
  outcomes: Record<string, number>;
  preload_s: number;
  /**
   * The space's first search after the preload, before any timed sample: on PGlite it reads the
   * space into the process's vector mirror (docs/engines.md), once per space per process; the
   * samples then measure the steady state.
   */
  first_search_ms: number;
  /**
   * One small read (ten memories' records by id, as recognition reads its candidates) right after
   * another, and after a 10 ms pause (as a use case's first statement after its embedding): what
   * the machine's caches add to a statement that follows a wait (docs/bench-rounds.md, fourteenth round).
   */
  statement_hot_p50_ms: number;
  statement_after_pause_p50_ms: number;
  total_s: number;
  /**
   * Mean ms per call by stage: statements by purpose, BEGIN/COMMIT, the embedder, the use cases'
   * named JavaScript stages (the recognition rules, the quote check, recall's ranking) and the
   * rest of the JavaScript between statements ("other").
   */
  stages: { remember_client_vector: Record<string, number>; remember: Record<string, number>; recall: Record<string, number>; bulk_mute: Record<string, number> };
  /** The same, summed by kind of work: embed, vector search, records, lexical, rules and ranking, writes and events, lock and transaction, other. */
  stage_groups: { remember_client_vector: Record<string, number>; remember: Record<string, number>; recall: Record<string, number>; bulk_mute: Record<string, number> };
}

const admin: Actor = { role: 'admin', tokenId: null, spaceId: null };
const log = (m: string) => process.stderr.write(`[bench --quick] ${m}\n`);
const p50 = (xs: number[]) => summarize(xs).p50;
const round = (x: number) => Math.round(x * 100) / 100;

export async function runQuick(o: QuickOptions, keep: { dir: string | null } = { dir: null }): Promise<QuickResult> {
  const started = performance.now();
  const inner = embedderFor(configFromEnv({}, {}));
  await inner.init();
  let prof: Profiled | null = null;
  /** When the last embedding came back (`performance.now()`): the use cases' time after it. */
  let embedded = Number.NaN;
  const noted = (r: Promise<Float32Array[]>) => r.then((v) => { embedded = performance.now(); return v; });
  // The embedder as the use cases see it, its calls timed as a stage of their own.
  const embedder = Object.assign(Object.create(inner) as typeof inner, {
    embed: (texts: string[]) => noted(prof ? prof.time('embed', () => inner.embed(texts)) : inner.embed(texts)),
  });
  const dim = embedder.dimensions;
  const sif = new BuiltinEmbedder();
  const ds = await buildDataset(dim, { n: o.n, fresh: 3 * o.samples, queries: o.samples, planted: o.planted }, 42, sif);
  /** A question of the form recall is asked here, about one of the space's sentences. */
  const asked = (sentence: string) => `Who ${sentence.toLowerCase().replace(/\.$/, '')}?`;
  await sif.close();

  const { db, overrides, dir, cleanup } = await openBenchStore(o.server, 'engram-quick-');
  keep.dir = dir;
  prof = new Profiled(db);
  const profiler = prof;
  setStageHook((stage, ms) => { if (profiler.on) profiler.add(stage, ms); });
  const engram = await createEngram(configFromEnv({}, overrides), { embedder, db: prof });
  const deps = engram.deps;
  const open: OpenEngine = {
    name: o.server ? 'pgvector' : 'pgvector-pglite', store: o.server ? 'pg' : 'pglite', engram,
    settle: async () => 0, maintain: async () => {}, close: async () => {},
  };
  try {
    const spec: CaseSpec = { dim, n: o.n, spaces: 1, data: 'random' };
    const pre = await preload(open, ds, spec, (m) => log(`preload ${m}`));
    log(`preloaded ${o.n} x ${dim}-d in ${(pre.ms / 1000).toFixed(1)} s`);
    const spaceId = pre.spaceIds[0];
    // The store as the service keeps it: PGlite's housekeeping (src/store/housekeeping.ts), which the
    // service runs every five minutes, once after the preload (a server's autovacuum does the same by itself).
    if (!o.server) log(`housekeeping after the preload: ${(await tidyTables(db)).length} tables vacuumed or analysed`);
    const floor = new Floor(dim);
    floorPreload(floor, ds, spec, pre.spaceIds);

    // The floor: brute-force top 10 of the space, in process. Measured twice: in one block here, back
    // to back (`floor_block_p50_ms`, reported only), and in blocks among the use cases it is compared
    // with, as the embedder alone is (`floorBlock` below: the ratios use these). On a shared machine the
    // block's median moved from 6.8 to 10.3 ms between runs of the same code, minutes from the use cases.
    const floorBlockMs: number[] = [];
    for (const f of ds.fresh) {
      const t = performance.now();
      floor.search(spaceId, f.vector, deps.candidateK);
      floorBlockMs.push(performance.now() - t);
    }
    const floorMs: number[] = [];
    const floorBlock = (count: number) => {
      for (let i = 0; i < count; i++) {
        const f = ds.fresh[floorMs.length % ds.fresh.length];
        const t = performance.now();
        floor.search(spaceId, f.vector, deps.candidateK);
        floorMs.push(performance.now() - t);
      }
    };

    // The first search of the space (PGlite: its vectors read into the process), apart from the samples.
    const tFirst = performance.now();
    await deps.index.search({ spaceId, vector: ds.fresh[0].vector, k: deps.candidateK, statuses: ['ACTIVE'], kind: 'STATEMENT', exact: true });
    const firstSearchMs = performance.now() - tFirst;

    // The embedder alone, one text at a time (texts nobody embeds again here): a sentence, then a
    // question of the form recall is asked, in turns (neither measured while the other warms up).
    // In ten blocks, five among the remembers with the embedder and five among the recalls (each
    // block before a fifth of the loop's calls, which stay back to back as before): the reference
    // meets the same minutes of a shared machine as the use cases it is compared with (measured in
    // one block minutes before them, its median had moved the ratio by up to half a floor).
    // First the embedder is warmed up until its passes have settled, as the service's have after
    // its first minutes; none of them is measured (`warmUpEmbedder`).
    const warmUp = await warmUpEmbedder((j) => embedder.embed([templateSentence(6_000_000 + j)]));
    log(`embedder warmed up: ${warmUp.passes} passes, the last block's median ${warmUp.lastMs.toFixed(1)} ms a pass`);
    const embedMs: number[] = [];
    const embedQuestionMs: number[] = [];
    const blockEvery = Math.ceil(o.samples / 5);
    const perBlock = Math.ceil(o.samples / 10);
    // The floor's blocks: five among each of the three loops it is compared with (client vector, embedder, recall).
    const floorPerBlock = Math.ceil(o.samples / 15);
    let alone = 0;
    const embedAloneBlock = async () => {
      const on = prof!.on;
      prof!.on = false;
      for (let i = 0; i < perBlock && alone < o.samples; i++, alone++) {
        for (const [text, into] of [[templateSentence(7_000_000 + alone), embedMs], [asked(templateSentence(7_500_000 + alone)), embedQuestionMs]] as const) {
          const t = performance.now();
          await embedder.embed([text]);
          into.push(performance.now() - t);
        }
      }
      prof!.on = on;
    };

    // The same small read right after another, and after a pause as long as an embedding: a
    // statement after a wait finds less of PGlite's working set in the processor's caches.
    const someIds = Array.from({ length: 10 }, (_, i) => memoryId((i * 997) % o.n));
    const hotMs: number[] = [];
    const afterPauseMs: number[] = [];
    for (let j = 0; j < o.samples; j++) {
      await deps.store.getMemories(someIds, spaceId);
      let t = performance.now();
      await deps.store.getMemories(someIds, spaceId);
      hotMs.push(performance.now() - t);
      await new Promise((r) => setTimeout(r, 10));
      t = performance.now();
      await deps.store.getMemories(someIds, spaceId);
      afterPauseMs.push(performance.now() - t);
    }

    // remember(): with the client's vector, then with the default embedder (other sentences).
    const outcomes: Record<string, number> = {};
    let conv = { id: '', used: 20 };
    const rememberAfterEmbed: number[] = [];
    const rememberUntilEmbedded: number[] = [];
    const rememberOne = async (quote: string, vector: Float32Array | undefined, profiled = false) => {
      if (conv.used >= 20) conv = { id: (await openConversation(deps, spaceId)).id, used: 0 };
      conv.used++;
      await recordMessage(deps, admin, { conversationId: conv.id, role: 'USER', text: quote });
      const t = performance.now();
      embedded = Number.NaN;
      prof!.on = profiled;
      const r = await remember(deps, admin, { conversationId: conv.id, quote, type: 'FACT', vector });
      prof!.on = false;
      const end = performance.now();
      const ms = end - t;
      if (!vector && embedded >= t) {
        rememberAfterEmbed.push(end - embedded);
        rememberUntilEmbedded.push(embedded - t);
      }
      outcomes[r.outcome] = (outcomes[r.outcome] ?? 0) + 1;
      return ms;
    };
    const clientMs: number[] = [];
    await cpuProfiled('remember-client-vector', async () => {
      for (let j = 0; j < o.samples; j++) {
        if (j % blockEvery === 0) floorBlock(floorPerBlock);
        clientMs.push(await rememberOne(ds.fresh[j].quote, ds.fresh[j].vector, true));
      }
    });
    const rememberStages = prof.take(o.samples, clientMs.reduce((a, b) => a + b, 0));
    if (o.profile) for (const [k, v] of Object.entries(rememberStages)) log(`  remember ${v} ms  ${k}`);
    if (o.profile) for (const [k, v] of Object.entries(groupStages(rememberStages))) log(`  remember, by kind: ${v} ms  ${k}`);
    log(`remember (client vector) p50 ${p50(clientMs).toFixed(1)} ms`);
    const embeddedMs: number[] = [];
    await cpuProfiled('remember', async () => {
      for (let j = o.samples; j < 2 * o.samples; j++) {
        if ((j - o.samples) % blockEvery === 0) { await embedAloneBlock(); floorBlock(floorPerBlock); }
        embeddedMs.push(await rememberOne(ds.fresh[j].quote, undefined, true));
      }
    });
    const embeddedStages = prof.take(o.samples, embeddedMs.reduce((a, b) => a + b, 0));
    if (o.profile) for (const [k, v] of Object.entries(embeddedStages)) log(`  remember (embedder) ${v} ms  ${k}`);
    log(`remember (default embedder) p50 ${p50(embeddedMs).toFixed(1)} ms`);

    // recall(): the whole use case, the question embedded by the default embedder.
    const recallMs: number[] = [];
    const recallAfterEmbed: number[] = [];
    prof.on = true;
    await cpuProfiled('recall', async () => {
      for (let j = 0; j < o.samples; j++) {
        if (j % blockEvery === 0) { await embedAloneBlock(); floorBlock(floorPerBlock); }
        const t = performance.now();
        embedded = Number.NaN;
        await recall(deps, spaceId, asked(ds.queries[j].text), 10);
        const end = performance.now();
        recallMs.push(end - t);
        if (embedded >= t) recallAfterEmbed.push(end - embedded);
      }
    });
    prof.on = false;
    const recallStages = prof.take(o.samples, recallMs.reduce((a, b) => a + b, 0));
    if (o.profile) for (const [k, v] of Object.entries(recallStages)) log(`  recall ${v} ms  ${k}`);
    if (o.profile) for (const [k, v] of Object.entries(groupStages(recallStages))) log(`  recall, by kind: ${v} ms  ${k}`);
    log(`recall p50 ${p50(recallMs).toFixed(1)} ms`);

    // remember again, each memory's readings read afresh (`forgetSentenceReadings` before each): the
    // candidates' readings are then computed as they are for a space's older memories, or after a
    // restart, not taken from the rules' per-text caches as above (the token caches stay warm). Last
    // of the use cases measured: nothing measured after it reads a sentence.
    const coldMs: number[] = [];
    const coldFrom = rememberAfterEmbed.length;
    await cpuProfiled('remember-readings-afresh', async () => {
      for (let j = 2 * o.samples; j < 3 * o.samples; j++) {
        forgetSentenceReadings();
        coldMs.push(await rememberOne(ds.fresh[j].quote, undefined));
      }
    });
    const coldAfterEmbed = rememberAfterEmbed.splice(coldFrom);
    rememberUntilEmbedded.splice(coldFrom);
    log(`remember (default embedder, readings afresh) p50 ${p50(coldMs).toFixed(1)} ms`);

    // Recognition's search: planted restatements (cosine ~0.98) of known memories, searched with
    // recognition's own parameters (its minScore sends pgvector through the sign-bit first pass).
    let missed = 0;
    const minScore = Math.min(deps.thresholds.recallFloor, deps.thresholds.topic);
    for (const p of ds.planted) {
      const hits = await deps.index.search({ spaceId, vector: p.vector, k: deps.candidateK, statuses: ['ACTIVE'], kind: 'STATEMENT', exact: true, minScore });
      if (!hits.some((h) => h.memoryId === memoryId(p.of))) missed++;
    }

    // Bulk: a raw UPDATE of the same rows against changeStatus(mute), alternately three times
    // (each put back by a raw update), so neither always meets the other's dead rows.
    const ids = Array.from({ length: Math.min(10_000, o.n) }, (_, i) => memoryId(i));
    const putBack = () => db.query(`update memory_state set status = 'ACTIVE' where memory_id = any($1::text[])`, [ids]);
    const rawRuns: number[] = [];
    const muteRuns: number[] = [];
    for (let r = 0; r < 3; r++) {
      const t0 = performance.now();
      await db.query(`update memory_state set status = 'MUTED' where memory_id = any($1::text[])`, [ids]);
      rawRuns.push(performance.now() - t0);
      await putBack();
      const t1 = performance.now();
      prof.on = true;
      await changeStatus(deps, admin, spaceId, 'mute', ids);
      prof.on = false;
      muteRuns.push(performance.now() - t1);
      await putBack();
    }
    const muteStages = prof.take(muteRuns.length, muteRuns.reduce((a, b) => a + b, 0));
    if (o.profile) for (const [k, v] of Object.entries(muteStages)) log(`  bulk mute ${v} ms  ${k}`);
    const rawMs = p50(rawRuns);
    const muteMs = p50(muteRuns);

    return {
      warm_start_ms: null, rss_after_start_mb: null, start: null,
      store: o.server ? 'pg' : 'pglite', n: o.n, dim,
      floor_p50_ms: round(p50(floorMs)), floor_block_p50_ms: round(p50(floorBlockMs)), embed_p50_ms: round(p50(embedMs)), embed_question_p50_ms: round(p50(embedQuestionMs)), embed_warmup_passes: warmUp.passes,
      remember_p50_ms: round(p50(embeddedMs)),
      remember_after_embed_p50_ms: round(p50(rememberAfterEmbed)), recall_after_embed_p50_ms: round(p50(recallAfterEmbed)),
      remember_until_embedded_p50_ms: round(p50(rememberUntilEmbedded)),
      remember_readings_afresh_p50_ms: round(p50(coldMs)), remember_readings_afresh_after_embed_p50_ms: round(p50(coldAfterEmbed)),
      remember_client_vector_p50_ms: round(p50(clientMs)), recall_p50_ms: round(p50(recallMs)),
      duplicates_missed: ds.planted.length ? missed / ds.planted.length : 0,
      bulk_mute_10k_ms: round(muteMs), raw_update_10k_ms: round(rawMs),
      samples: o.samples, outcomes, preload_s: round(pre.ms / 1000), first_search_ms: round(firstSearchMs),
      statement_hot_p50_ms: round(p50(hotMs)), statement_after_pause_p50_ms: round(p50(afterPauseMs)), total_s: round((performance.now() - started) / 1000),
      stages: { remember_client_vector: rememberStages, remember: embeddedStages, recall: recallStages, bulk_mute: muteStages },
      stage_groups: {
        remember_client_vector: groupStages(rememberStages), remember: groupStages(embeddedStages), recall: groupStages(recallStages), bulk_mute: groupStages(muteStages),
      },
    };
  } finally {
    setStageHook(null);
    await engram.close();
    await db.close();
    await inner.close();
    if (o.startup === false) await cleanup();
  }
}

/** runQuick, then the server's start on the store it leaves (bench/startup.ts). */
export async function runQuickWithStart(o: QuickOptions): Promise<QuickResult> {
  const kept: { dir: string | null } = { dir: null };
  let r: QuickResult;
  try {
    r = await runQuick({ ...o, startup: true }, kept);
  } catch (e) {
    if (kept.dir) await rm(kept.dir, { recursive: true, force: true });
    throw e;
  }
  const dir = kept.dir ?? await mkdtemp(join(tmpdir(), 'engram-quick-start-'));
  try {
    log(`npm start's process on ${kept.dir ? `this run's store (${o.n} memories)` : 'an empty store'}`);
    const s = await serverStart(kept.dir ?? join(dir, 'data'));
    log(`warm start ${s.warm_start_ms} ms, RSS after start ${s.rss_after_start_mb} MB`);
    return { ...r, warm_start_ms: s.warm_start_ms, rss_after_start_mb: s.rss_after_start_mb, start: s };
  } catch (e) {
    return { ...r, start: { error: e instanceof Error ? e.message : String(e) } };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
