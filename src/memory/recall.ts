import { ensureLexicon } from '../core/lexicon.js';
import { whileReading } from '../core/readings.js';
import { attribution } from '../core/quote-check.js';
import type { MemoryKind, MemoryStatus } from '../core/types.js';
import type { LexicalHit, LexicalStats, MemoryHead } from '../ports/memory-store.js';
import type { VectorHit } from '../ports/vector-index.js';
import type { MemoryDeps } from './deps.js';
import { InvalidInputError } from './errors.js';
import { lexicalKeys, ownPhraseKeys, possessorKeys } from './lexical.js';
import { embedOrMissing } from './remember.js';
import { prepareSearch, searchVectors } from './indexing.js';
import { stage } from './stages.js';
import { turns } from './turns.js';
import { asksWhen, categoryThemes, isPlural, phrasePairs, phraseShare, questionNouns, saysTime, speaksOf } from '../core/question-cues.js';

export interface RecallHit {
  /** Read without its message's words (`MemoryHead`): the ranking reads none, a field asking reads them. */
  memory: MemoryHead;
  score: number;
  vectorScore: number | null;
  lexicalRank: number | null;
  attribution: string;
}

export interface RecallResult {
  statements: RecallHit[];
  /** The assistant's own conclusions: a separate, labelled list, never statements. */
  inferences: RecallHit[];
}

/** Fusion and weighting knobs (defaults measured on LoCoMo dev, see docs/recall.md). */
export interface RecallTuning {
  /** `calibrated`: scores scaled to the best of each list and added; `rrf`: reciprocal rank fusion. */
  fusion: 'calibrated' | 'rrf';
  rrfK: number;
  /** Calibrated fusion: weight of the scaled cosine and of the scaled BM25. */
  calibratedVector: number;
  calibratedLexical: number;
  pool: number;
  vectorWeight: number;
  lexicalWeight: number;
  strengthWeight: number;
  recencyWeight: number;
  /** Calibrated fusion: added for the share of the question's phrases said side by side. */
  phraseWeight: number;
  /** Calibrated fusion: added when a "when" question meets a memory saying a date or time. */
  timeWeight: number;
  /** Calibrated fusion: added when a memory speaks of the theme of a category the person never named. */
  themeWeight: number;
}

export const DEFAULT_TUNING: RecallTuning = {
  fusion: 'calibrated', rrfK: 20, calibratedVector: 0.5, calibratedLexical: 6, pool: 100, vectorWeight: 1, lexicalWeight: 3, strengthWeight: 0.1, recencyWeight: 0.05,
  phraseWeight: 1, timeWeight: 0.5, themeWeight: 0.6,
};

/**
 * Hybrid recall over current memories: vector neighbours and lexical matches on
 * word keys (grow/grew meet), fused by reciprocal rank, then weighted by strength
 * and recency. A relevance floor makes an unrelated question come back empty.
 */
export function recall(
  deps: MemoryDeps, spaceId: string, query: string, first = 5, tuning: RecallTuning = DEFAULT_TUNING,
): Promise<RecallResult> {
  return whileReading(() => answer(deps, spaceId, query, first, tuning));
}

async function answer(deps: MemoryDeps, spaceId: string, query: string, first: number, tuning: RecallTuning): Promise<RecallResult> {
  if (query.trim() === '') throw new InvalidInputError('query', 'ask something');
  if (first < 1 || first > 100) throw new InvalidInputError('first', 'must be between 1 and 100');
  // the themes of a category question are read in WordNet (docs/recall.md, "Cues"): without it, no theme
  await ensureLexicon().catch((e: unknown) => deps.log.warn({ cause: String(e) }, 'WordNet lexicon not loaded: recall without themes'));
  // The question is embedded (USE-lite: in its worker thread; else a remote service) while the
  // lexical side, which needs no vector, is read: BM25's statistics for both kinds, whether the
  // space holds each kind at all (a kind it does not hold, as most spaces hold no inferences, is
  // not searched) and which of the question's named keys each kind has heard (one statement).
  const embedding = embedOrMissing(deps, query);
  const read = stage('ranking: the question read', () => {
    const nouns = questionNouns(query);
    const possessors = possessorKeys(query);
    const own = ownPhraseKeys(query);
    const nounKeys = new Map(nouns.map((n) => [n, lexicalKeys(n)]));
    return {
      keys: [...new Set(lexicalKeys(query))], possessors, own, pairs: phrasePairs(query), when: asksWhen(query), nouns, nounKeys,
      named: [...new Set([...possessors, ...own, ...[...nounKeys.values()].flat()])],
    };
  });
  const versions = currentVersionsOnce(deps);
  const stats = await deps.store.lexicalStats(spaceId, read.keys, KINDS, { keys: read.named, statuses: STATUSES });
  const held = KINDS.flatMap((kind) => { const s = stats.get(kind); return s?.present ? [{ kind, stats: s }] : []; });
  // Per held kind, two sides that need nothing of each other run side by side (on a server, on two
  // connections): its vector neighbours, searched once the question is embedded (the engine's
  // read-ahead first: what was remembered since its last search, and which rows have a status
  // this search does not want; recall is answered as of then, after its request came), and its BM25 postings, then the
  // current versions of those hits (most kept hits are among them) and, while the embedder may still
  // work, those memories read for the ranking's cues (cached by text; a reading that fails here
  // fails again where the ranking asks for it).
  const neighbours = (kind: MemoryKind) => prepareSearch(deps, spaceId, kind, STATUSES[kind])
    .then(() => embedding)
    .then(({ vector }) => (vector ? searchVectors(deps, { spaceId, vector, k: tuning.pool, statuses: STATUSES[kind], kind }) : []));
  const postings = async (h: (typeof held)[number]) => {
    const lhits = await deps.store.lexicalSearch(spaceId, read.keys, tuning.pool, h.kind, STATUSES[h.kind], h.stats);
    const lexicalVersions = await versions(lhits.map((x) => x.memoryId));
    try {
      for (const m of lexicalVersions) if (m) stage('ranking: cues read ahead', () => readForCues(read, m.quote));
    } catch { /* read by the ranking */ }
    return lhits;
  };
  const searchKind = async (kind: MemoryKind): Promise<RecallHit[]> => {
    const h = held.find((x) => x.kind === kind);
    if (!h) return [];
    const [vhits, lhits] = await Promise.all([neighbours(kind), postings(h)]);
    return search(deps, spaceId, kind, read, vhits, first, tuning, h.stats, lhits, versions);
  };
  const [statements, inferences] = await Promise.all([searchKind('STATEMENT'), searchKind('INFERENCE')]);
  // The counters are written after the answer (the store issues the write and does not wait for it).
  await deps.store.incrementRecall([...statements, ...inferences].map((h) => h.memory.id));
  return { statements, inferences };
}

/** One candidate as fusion saw it (for `eval locomo` dumps: offline study of the ranking). */
export interface RecallTraceItem {
  memory: MemoryHead; v: number | null; l: number | null; vRank: number | null; lRank: number | null; fused: number;
}
let traceHook: ((kind: MemoryKind, items: RecallTraceItem[]) => void) | null = null;
/** Evaluation only: receives every search's candidates after the floor, before the cut. */
export function setRecallTrace(fn: ((kind: MemoryKind, items: RecallTraceItem[]) => void) | null): void {
  traceHook = fn;
}

/**
 * A replaced memory still answers the question it answered: a hit on a
 * SUPERSEDED or ERRONEOUS statement counts for the newest memory of its chain
 * ("Which city do I live in?" finds "I live in Manchester.", superseded by "I
 * moved to Leeds last month.", and returns the Leeds memory). Replaced memories
 * are never returned themselves.
 */
const REPLACED: MemoryStatus[] = ['SUPERSEDED', 'ERRONEOUS'];
/** The statuses each kind is searched with: a statement's replaced versions answer for their newest. */
const STATUSES: Record<MemoryKind, MemoryStatus[]> = { STATEMENT: ['ACTIVE', ...REPLACED], INFERENCE: ['ACTIVE'] };
const KINDS: MemoryKind[] = ['STATEMENT', 'INFERENCE'];

/** The question as the floor reads it: its word keys, its possessors', and those of what it calls "my …". */
interface Question {
  keys: string[]; possessors: string[]; own: string[];
  /** Ranking cues (src/core/question-cues.ts): its phrases, whether it asks "when", its nouns (and their word keys). */
  pairs: ReadonlySet<string>; when: boolean; nouns: string[]; nounKeys: Map<string, string[]>;
  /** The keys of its possessors, own phrases and nouns: the floor asks which of them the space has heard. */
  named: string[];
}

/** The current versions of memories (null: gone), in the order asked. */
type CurrentVersions = (ids: readonly string[]) => Promise<(MemoryHead | null)[]>;

/** Each memory's current version read once per recall: the lexical hits' early, the rest when a search asks (no statement when none is new). */
function currentVersionsOnce(deps: MemoryDeps): CurrentVersions {
  const known = new Map<string, MemoryHead | null>();
  return async (ids) => {
    const fresh = [...new Set(ids.filter((id) => !known.has(id)))];
    if (fresh.length) (await deps.store.currentVersions(fresh)).forEach((m, i) => known.set(fresh[i]!, m));
    return ids.map((id) => known.get(id) ?? null);
  };
}

/** One kind's search: its vector neighbours (`vhits`) beside its BM25 hits (`lhits`), fused, floored, ranked. */
async function search(
  deps: MemoryDeps, spaceId: string, kind: MemoryKind, asked: Question, vhits: VectorHit[], first: number, t: RecallTuning, lexStats: LexicalStats,
  lhits: LexicalHit[], versions: CurrentVersions,
): Promise<RecallHit[]> {
  const fused = new Map<string, { score: number; v: number | null; l: number | null; vi: number | null; li: number | null }>();
  const floor = deps.thresholds.recallFloor;
  vhits.forEach((h, i) => {
    fused.set(h.memoryId, { score: t.vectorWeight / (t.rrfK + i + 1), v: h.score, l: null, vi: i, li: null });
  });
  lhits.forEach((h, i) => {
    const cur = fused.get(h.memoryId) ?? { score: 0, v: null, l: null, vi: null, li: null };
    cur.score += t.lexicalWeight / (t.rrfK + i + 1);
    cur.l = h.rank;
    cur.li = i;
    fused.set(h.memoryId, cur);
  });
  if (t.fusion === 'calibrated') stage('ranking: fusion', () => calibrate(fused, floor, t, vhits.length >= t.pool));
  // Relevance floor (docs/recall.md): a lexical match on a content word or a vector score at
  // the floor, except when the question is about someone or something the space never heard of.
  // The question's keys that no memory of this kind (with the kind's statuses) holds: what the person never spoke of.
  const { nounKeys } = asked;
  const unheard = new Set(asked.named.filter((k) => !lexStats.heard.has(k)));
  // "What are my hobbies?" and no memory says "hobby": memories of its theme may answer (docs/recall.md, "Cues").
  // Only a plural asks for the members of a kind: "What is my favorite food?" asks for one thing that must be said.
  const categories = t.fusion === 'calibrated'
    ? asked.nouns.filter((n) => isPlural(n) && nounKeys.get(n)!.length > 0 && nounKeys.get(n)!.every((k) => unheard.has(k)))
    : [];
  const categoryKeys = new Set(categories.flatMap((n) => nounKeys.get(n)!));
  // "What is my sister's name?" and no memory names a sister: only a near-paraphrase may answer.
  const ownerUnheard = asked.possessors.some((k) => unheard.has(k));
  // "Where does my sister live?": a match on "live" alone is about someone else's life.
  const ownUnheard = asked.own.some((k) => unheard.has(k));
  // A theme stands in for what "my …" names only when that is the category alone ("my hobbies"), not when
  // the question asks something of it ("Where do my parents live?": someone else's home is no answer).
  const themes = !ownUnheard || asked.own.every((k) => categoryKeys.has(k)) ? categoryThemes(categories) : new Set<string>();
  const themeFloor = floor / 2;
  /** Candidates below the floor that may stand only if they speak of the category's theme. */
  const byTheme = new Set<string>();
  const kept = [...fused].filter(([id, f]) => {
    const v = f.v ?? -1;
    if (ownerUnheard) return v >= deps.thresholds.topic;
    if (v >= floor || (f.l !== null && !ownUnheard)) return true;
    if (themes.size > 0 && v >= themeFloor) byTheme.add(id);
    return byTheme.has(id);
  });
  if (kept.length === 0) return [];
  const current = await versions(kept.map(([id]) => id));
  // Several hits may lead to one current memory: keep its best evidence.
  const best = new Map<string, { m: MemoryHead; score: number; v: number | null; l: number | null; themed: boolean }>();
  const trace = traceHook ? new Map<string, RecallTraceItem>() : null;
  const tick = turns();
  for (const [i, [id, f]] of kept.entries()) {
    const m = current[i];
    if (!m || m.spaceId !== spaceId || m.kind !== kind || m.status !== 'ACTIVE') continue;
    if (m.kind === 'INFERENCE' && m.review === 'DISMISSED') continue;
    // reading a sentence's nouns and dates takes wink-nlp a millisecond (cached): yield between slices
    const y = tick();
    if (y) await y;
    const themed = themes.size > 0 && stage('ranking: cues', () => speaksOf(themes, m.quote));
    if (byTheme.has(id) && !themed) continue;
    const score = f.score + (t.fusion === 'calibrated' ? stage('ranking: cues', () => cueScore(asked, m.quote, themed, t)) : 0);
    const prev = best.get(m.id);
    if (!prev || score > prev.score) best.set(m.id, { m, score, v: f.v, l: f.l, themed });
    if (trace) {
      const x = trace.get(m.id) ?? { memory: m, v: null, l: null, vRank: null, lRank: null, fused: 0 };
      const mx = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.max(a, b));
      const mn = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.min(a, b));
      trace.set(m.id, { memory: m, v: mx(x.v, f.v), l: mx(x.l, f.l), vRank: mn(x.vRank, f.vi), lRank: mn(x.lRank, f.li), fused: Math.max(x.fused, score) });
    }
  }
  if (trace && traceHook) traceHook(kind, [...trace.values()]);
  const now = deps.clock.now().getTime();
  const hits: RecallHit[] = [...best.values()].map(({ m, score, v, l }) => {
    const strength = 1 + t.strengthWeight * Math.log2(m.mentionCount);
    const ageDays = Math.max(0, (now - m.lastMentionedAt.getTime()) / 86_400_000);
    const recency = 1 + t.recencyWeight / (1 + ageDays / 30);
    return { memory: m, score: score * strength * recency, vectorScore: v, lexicalRank: l, attribution: attribution(m.saidAt, m.quote) };
  });
  hits.sort((a, b) => b.score - a.score || b.memory.seq - a.memory.seq);
  return hits.slice(0, first);
}

/** What `cueScore` reads of a memory, read ahead (each reading is cached by the memory's text). */
function readForCues(asked: Pick<Question, 'pairs' | 'when'>, quote: string): void {
  if (asked.pairs.size > 0) phrasePairs(quote);
  if (asked.when) saysTime(quote);
}

/**
 * Ranking cues (src/core/question-cues.ts), in the calibrated scale (a word of the question
 * matched at the best BM25 adds `calibratedLexical`): the share of the question's phrases the
 * memory says side by side, a date or time said for a "when" question, the theme of a category
 * the person never named.
 */
function cueScore(asked: Question, quote: string, themed: boolean, t: RecallTuning): number {
  let s = t.phraseWeight * phraseShare(asked.pairs, quote);
  if (asked.when && saysTime(quote)) s += t.timeWeight;
  if (themed) s += t.themeWeight;
  return s;
}

/**
 * Score calibration instead of rank-only fusion: each list's score is scaled to its best hit
 * (cosine from half the floor up to the best cosine; BM25 over the best BM25) and the two are
 * added with their weights. Rank fusion gives the 1st of a flat list as much as the 1st of a
 * list with one clear winner; calibrated scores keep how far ahead a hit is.
 */
export function calibrate(fused: Map<string, { score: number; v: number | null; l: number | null }>, floor: number, t: RecallTuning, windowFull: boolean): void {
  let vmax = -1;
  let vmin = Infinity;
  let lmax = 0;
  for (const f of fused.values()) {
    if (f.v !== null) { vmax = Math.max(vmax, f.v); vmin = Math.min(vmin, f.v); }
    if (f.l !== null) lmax = Math.max(lmax, f.l);
  }
  const lo = floor / 2;
  for (const f of fused.values()) {
    // A lexical hit the vector window cut off (`pool` nearest) has a cosine at most the window's last:
    // it is credited with that bound, not with nothing (docs/recall.md, "Calibrated fusion").
    const v = f.v ?? (windowFull && f.l !== null && vmin !== Infinity ? vmin : null);
    const sv = v !== null && vmax > lo ? Math.max(0, v - lo) / (vmax - lo) : 0;
    const sl = f.l !== null && lmax > 0 ? f.l / lmax : 0;
    f.score = t.calibratedVector * sv + t.calibratedLexical * sl;
  }
}
