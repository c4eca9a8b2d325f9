/**
 * The generated workload: sentences (templates and LoCoMo turns) and their
 * vectors, either SIF vectors from the built-in embedder (the semantic data, 100-d)
 * or seeded random unit vectors (the scale data, any dimension). Deterministic.
 */
import { existsSync } from 'node:fs';
import { BuiltinEmbedder } from '../src/embed/builtin-embedder.js';
import { readLocomo, sessionsOf } from '../src/eval/locomo.js';
import { normalizeText } from '../src/core/normalize.js';

export const LOCOMO_PATH = new URL('../../shared/eval/external/locomo-dev.json', import.meta.url).pathname;

import { rng } from '../src/core/random.js';
export { rng };

export function gaussian(r: () => number): number {
  const u = Math.max(r(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * r());
}

export function normalizeInPlace(v: Float32Array): Float32Array {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i] * v[i];
  const n = Math.sqrt(s) || 1;
  for (let i = 0; i < v.length; i++) v[i] /= n;
  return v;
}

export function randomUnit(dim: number, r: () => number): Float32Array {
  const v = new Float32Array(dim);
  for (let i = 0; i < dim; i++) v[i] = gaussian(r);
  return normalizeInPlace(v);
}

/**
 * `v` plus isotropic noise of relative size `eps`, renormalised: the cosine to `v`
 * is about 1/sqrt(1+eps²) (eps 0.2 -> 0.98, a restatement; eps 1 -> 0.71, a query).
 */
export function perturb(v: Float32Array, eps: number, r: () => number): Float32Array {
  const g = randomUnit(v.length, r);
  const out = new Float32Array(v.length);
  for (let i = 0; i < v.length; i++) out[i] = v[i] + eps * g[i];
  return normalizeInPlace(out);
}

const SUBJECTS = ['My sister', 'My brother', 'My friend', 'My neighbour', 'My colleague', 'My cousin', 'My daughter', 'My son', 'My manager', 'My partner', 'My aunt', 'My uncle'];
const NAMES = ['Ana', 'Owen', 'Priya', 'Tomas', 'Keiko', 'Lena', 'Marco', 'Ines', 'Jonas', 'Fatima', 'Diego', 'Mira', 'Sven', 'Aisha', 'Luca', 'Nora',
  'Pavel', 'Rosa', 'Ethan', 'Yara', 'Hugo', 'Zoe', 'Idris', 'Clara', 'Bruno', 'Maya', 'Felix', 'Leila', 'Oscar', 'Hana', 'Ravi', 'Elsa', 'Tariq', 'Vera', 'Milo', 'Sara', 'Kofi', 'Lina', 'Emil', 'Nadia'];
const PREDICATES = ['moved to', 'started a job in', 'bought a flat in', 'opened a bakery in', 'studies music in', 'got married in', 'ran a marathon in',
  'learned to sail in', 'volunteers at a shelter in', 'teaches chemistry in', 'had surgery in', 'adopted a dog in', 'plays football in', 'sings in a choir in',
  'rents a bike in', 'grows tomatoes in', 'paints murals in', 'builds boats in', 'repairs clocks in', 'works nights in'];
const PLACES = ['Lisbon', 'Bristol', 'Duluth', 'Osaka', 'Leeds', 'Porto', 'Quito', 'Tallinn', 'Ghent', 'Cork', 'Bergen', 'Split', 'Malmo', 'Graz', 'Turin', 'Lyon',
  'Krakow', 'Nantes', 'Aarhus', 'Bilbao', 'Utrecht', 'Basel', 'Leipzig', 'Seville', 'Galway', 'Tampere', 'Brno', 'Riga', 'Vilnius', 'Ljubljana', 'Bologna', 'Bordeaux',
  'Dundee', 'Halifax', 'Boulder', 'Tucson', 'Hobart', 'Napier', 'Cusco', 'Mendoza'];
const WHEN = ['2005', '2006', '2007', '2008', '2009', '2010', '2011', '2012', '2013', '2014', '2015', '2016', '2017', '2018', '2019', '2020', '2021', '2022', '2023', '2024'];
const TEMPLATE_SPACE = SUBJECTS.length * NAMES.length * PREDICATES.length * PLACES.length * WHEN.length;
/** A prime that does not divide TEMPLATE_SPACE: i -> i*STRIDE mod space is a permutation. */
const STRIDE = 1_000_003;

/** The i-th template sentence, e.g. "My sister Ana moved to Lisbon in 2019." (unique for i < 7.68M). */
export function templateSentence(i: number): string {
  let x = (i * STRIDE) % TEMPLATE_SPACE;
  const pick = <T>(xs: T[]): T => { const v = xs[x % xs.length]; x = Math.floor(x / xs.length); return v; };
  const s = pick(SUBJECTS); const n = pick(NAMES); const p = pick(PREDICATES); const pl = pick(PLACES); const w = pick(WHEN);
  return `${s} ${n} ${p} ${pl} in ${w}.`;
}

export interface LocomoText { turns: string[]; questions: string[] }

/** LoCoMo turns (the person's words) and questions, deduplicated by normalised text. */
export function locomoTexts(path = LOCOMO_PATH): LocomoText {
  if (!existsSync(path)) return { turns: [], questions: [] };
  const seen = new Set<string>();
  const turns: string[] = [];
  const questions: string[] = [];
  for (const s of readLocomo(path)) {
    for (const sess of sessionsOf(s.conversation)) {
      for (const t of sess.turns) {
        const text = String(t.text ?? '').trim();
        const key = normalizeText(text);
        if (text.length < 12 || seen.has(key)) continue;
        seen.add(key);
        turns.push(text);
      }
    }
    for (const q of s.qa) if (typeof q.question === 'string') questions.push(q.question);
  }
  return { turns, questions };
}

export interface Dataset {
  kind: 'semantic' | 'random';
  dim: number;
  /** The preloaded memories: quote i has vector i. */
  quotes: string[];
  vectors: Float32Array[];
  /** New statements for the sampled remember() calls (not preloaded). */
  fresh: { quote: string; vector: Float32Array }[];
  /** Recall queries: the text asked and its vector. */
  queries: { text: string; vector: Float32Array }[];
  /** Restatements of preloaded memories: (index of the original, vector near it). */
  planted: { of: number; vector: Float32Array }[];
}

export interface DatasetSize { n: number; fresh: number; queries: number; planted: number }

function finite(v: Float32Array): boolean {
  let s = 0;
  for (const x of v) { if (!Number.isFinite(x)) return false; s += x * x; }
  return s > 0.5;
}

/**
 * dim 100: the semantic data, LoCoMo turns then template sentences, embedded with the
 * built-in SIF embedder; queries are the LoCoMo questions (then templates).
 * Any other dimension: template sentences as quotes and random unit vectors.
 */
export async function buildDataset(dim: number, size: DatasetSize, seed = 42, sif?: BuiltinEmbedder): Promise<Dataset> {
  const r = rng(seed * 7919 + dim);
  const plantedAt = (j: number) => Math.floor(((j + 0.5) * size.n) / size.planted);
  if (dim === 100) {
    const emb = sif ?? new BuiltinEmbedder();
    await emb.init();
    const lc = locomoTexts();
    const quotes: string[] = [];
    const vectors: Float32Array[] = [];
    const take = (texts: string[], into: { quote: string; vector: Float32Array }[], want: number) => {
      for (let at = 0; at < texts.length && into.length < want; at += 2000) {
        const chunk = texts.slice(at, at + 2000);
        const vs = emb.embedSync(chunk);
        chunk.forEach((q, i) => { if (into.length < want && finite(vs[i])) into.push({ quote: q, vector: vs[i] }); });
      }
    };
    const pre: { quote: string; vector: Float32Array }[] = [];
    take(lc.turns, pre, size.n);
    let t = 0;
    while (pre.length < size.n) {
      const batch = Array.from({ length: Math.min(5000, (size.n - pre.length) * 2) }, () => templateSentence(t++));
      take(batch, pre, size.n);
    }
    for (const p of pre) { quotes.push(p.quote); vectors.push(p.vector); }
    const fresh: { quote: string; vector: Float32Array }[] = [];
    take(Array.from({ length: size.fresh * 2 }, (_, i) => templateSentence(5_000_000 + i)), fresh, size.fresh);
    const qs: { quote: string; vector: Float32Array }[] = [];
    take(lc.questions, qs, size.queries);
    take(Array.from({ length: size.queries * 2 }, (_, i) => templateSentence(6_000_000 + i)), qs, size.queries);
    const planted = Array.from({ length: size.planted }, (_, j) => ({ of: plantedAt(j), vector: perturb(vectors[plantedAt(j)], 0.2, r) }));
    return {
      kind: 'semantic', dim, quotes, vectors, fresh,
      queries: qs.map((q) => ({ text: q.quote, vector: q.vector })), planted,
    };
  }
  // One buffer for all vectors: 100K x 1536 floats stay one allocation.
  const buf = new Float32Array(size.n * dim);
  const vectors: Float32Array[] = [];
  const quotes: string[] = [];
  for (let i = 0; i < size.n; i++) {
    const v = buf.subarray(i * dim, (i + 1) * dim);
    v.set(randomUnit(dim, r));
    vectors.push(v);
    quotes.push(templateSentence(i));
  }
  const fresh = Array.from({ length: size.fresh }, (_, i) => ({ quote: templateSentence(5_000_000 + i), vector: randomUnit(dim, r) }));
  const queries = Array.from({ length: size.queries }, () => {
    const of = Math.floor(r() * size.n);
    return { text: quotes[of], vector: perturb(vectors[of], 1, r) };
  });
  const planted = Array.from({ length: size.planted }, (_, j) => ({ of: plantedAt(j), vector: perturb(vectors[plantedAt(j)], 0.2, r) }));
  return { kind: 'random', dim, quotes, vectors, fresh, queries, planted };
}
