/**
 * Sentence vectors from word vectors by SIF (Arora, Liang & Ma, 2017,
 * "A simple but tough-to-beat baseline for sentence embeddings"): a
 * frequency-weighted average of word vectors, weight a / (a + p(w)), minus
 * the projection on the first principal component shared by all sentences.
 *
 * p(w) comes from the vocabulary's frequency rank through Zipf's law
 * (p(rank r) = 1 / (r * H_N)), since the package ships ranks, not counts.
 * Numbers and unknown words get a deterministic pseudo-random vector seeded
 * by a hash of the token, so "1729" and "42" (or two unknown names) pull the
 * sentence in different directions instead of vanishing: in a memory store
 * numbers and names carry the facts.
 */
import { americanize, lemma, STOP_WORDS, words } from '../core/words.js';
import type { WordVectors } from './word-vector-cache.js';

/** Tunable knobs; the defaults are the calibrated ones (docs/embedder.md). */
export interface SifOptions {
  /** SIF smoothing a: larger keeps frequent words' weight higher. */
  a: number;
  /** Remove the common (first principal) component. */
  removePc: boolean;
  /** Extra factor on stop words' SIF weight (1 = plain SIF; 0.3 measured better, docs/embedder.md). */
  stopWordFactor: number;
  /** Weight of a number token relative to a rare word (1 = as rare as the rarest word). */
  numberWeight: number;
  /** Look words up by lemma first (grew -> grow), so inflections share one vector. */
  lemmaFirst: boolean;
}

export const DEFAULT_SIF_OPTIONS: Readonly<SifOptions> = {
  a: 1e-3,
  removePc: true,
  stopWordFactor: 0.3,
  numberWeight: 1,
  lemmaFirst: true,
};

/** 32-bit FNV-1a over UTF-16 code units. */
function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32: a tiny seeded PRNG, good enough for pseudo-random directions. */
function mulberry32(seed: number): () => number {
  let t = seed >>> 0;
  return () => {
    t = (t + 0x6d2b79f5) >>> 0;
    let r = Math.imul(t ^ (t >>> 15), 1 | t);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
}

/** A deterministic Gaussian direction for `key`, scaled to `length`. */
export function hashVector(key: string, dims: number, length: number): Float32Array {
  const rand = mulberry32(fnv1a(key));
  const v = new Float32Array(dims);
  let n2 = 0;
  for (let i = 0; i < dims; i += 2) {
    // Box-Muller; 1 - u keeps log() away from 0.
    const u = 1 - rand();
    const w = rand();
    const r = Math.sqrt(-2 * Math.log(u));
    v[i] = r * Math.cos(2 * Math.PI * w);
    if (i + 1 < dims) v[i + 1] = r * Math.sin(2 * Math.PI * w);
  }
  for (let i = 0; i < dims; i++) n2 += v[i] * v[i];
  const k = n2 > 0 ? length / Math.sqrt(n2) : 0;
  for (let i = 0; i < dims; i++) v[i] *= k;
  return v;
}

const NUMBER = /^\d/;

/** Turns text into SIF sentence vectors over one set of word vectors. */
export class SifEncoder {
  readonly options: SifOptions;
  /** Unit first principal component, or null when not removed. */
  readonly pc: Float32Array | null;
  private readonly harmonic: number;
  private readonly hashCache = new Map<string, Float32Array>();

  /** Forgets the words hashed lately (out-of-vocabulary words a forget may have taken out). */
  letGo(): void {
    this.hashCache.clear();
  }

  constructor(
    private readonly wv: WordVectors,
    options: Partial<SifOptions> = {},
  ) {
    this.options = { ...DEFAULT_SIF_OPTIONS, ...options };
    // H_N ~ ln N + Euler-Mascheroni: the Zipf normaliser over the vocabulary.
    this.harmonic = Math.log(wv.rows) + 0.5772156649;
    this.pc = this.options.removePc ? this.estimatePc() : null;
  }

  /** SIF weight of vocabulary row `rank`. */
  rankWeight(rank: number): number {
    const p = 1 / ((rank + 1) * this.harmonic);
    return this.options.a / (this.options.a + p);
  }

  /** Row of a word, trying its American spelling, the token, its lemma. -1 when unknown. */
  lookup(tok: string): number {
    const idx = this.wv.index;
    const am = americanize(tok);
    if (this.options.lemmaFirst) {
      const r = idx.get(lemma(am));
      if (r !== undefined) return r;
    }
    return idx.get(am) ?? idx.get(tok) ?? idx.get(lemma(am)) ?? -1;
  }

  /** Adds w * (row or hashed vector) of one token into `acc`. */
  private addToken(acc: Float64Array, tok: string): void {
    const { dims } = this.wv;
    const stop = STOP_WORDS.has(tok);
    // Hyphenated words are split first, so "color-blind" and "colour blind"
    // (and "start-up"/"start up") land on the same words.
    if (tok.includes('-')) {
      for (const part of tok.split('-')) if (part !== '') this.addToken(acc, part);
      return;
    }
    if (!NUMBER.test(tok)) {
      const r = this.lookup(tok);
      if (r >= 0) {
        this.addRow(acc, r, stop);
        return;
      }
      // An unknown function token ("'s") says nothing; an unknown word is a name or a rare word.
      if (stop || tok.startsWith("'")) return;
    }
    const w = NUMBER.test(tok) ? this.options.numberWeight : 1;
    const h = this.hashed(tok);
    for (let d = 0; d < dims; d++) acc[d] += w * h[d];
  }

  private addRow(acc: Float64Array, r: number, stop: boolean): void {
    const { dims, q, scale } = this.wv;
    const w = this.rankWeight(r) * (stop ? this.options.stopWordFactor : 1) * scale[r];
    const base = r * dims;
    for (let d = 0; d < dims; d++) acc[d] += w * q[base + d];
  }

  private hashed(tok: string): Float32Array {
    let h = this.hashCache.get(tok);
    if (!h) {
      h = hashVector(`engram:${tok}`, this.wv.dims, this.wv.meanNorm);
      if (this.hashCache.size > 50_000) this.hashCache.clear();
      this.hashCache.set(tok, h);
    }
    return h;
  }

  /** Weighted sum of the token vectors, before common-component removal. */
  private raw(text: string): Float64Array {
    const acc = new Float64Array(this.wv.dims);
    for (const tok of words(text)) this.addToken(acc, tok);
    return acc;
  }

  /** Unit-length sentence vector. Same text, same vector, always. */
  encode(text: string): Float32Array {
    const acc = this.raw(text);
    if (this.pc) {
      let p = 0;
      for (let d = 0; d < acc.length; d++) p += acc[d] * this.pc[d];
      for (let d = 0; d < acc.length; d++) acc[d] -= p * this.pc[d];
    }
    let n2 = 0;
    for (let d = 0; d < acc.length; d++) n2 += acc[d] * acc[d];
    if (!(n2 > 1e-12)) {
      // No usable token ("", "?!"): a direction of its own for the literal text.
      return hashVector(`engram-empty:${text.trim().toLowerCase()}`, this.wv.dims, 1);
    }
    const out = new Float32Array(acc.length);
    const k = 1 / Math.sqrt(n2);
    for (let d = 0; d < acc.length; d++) out[d] = acc[d] * k;
    return out;
  }

  /**
   * First principal component (uncentred, as in the SIF paper) of SIF
   * vectors of a fixed pseudo-corpus: 4,000 "sentences" of 12 words drawn
   * from the vocabulary by Zipf's law with a fixed seed. Deterministic, and
   * no text has to ship with the package; the common component is mostly
   * carried by frequent words, which the Zipf draw reproduces.
   */
  private estimatePc(): Float32Array {
    const { dims, rows } = this.wv;
    const rand = mulberry32(0x5eed);
    const cov = new Float64Array(dims * dims);
    const logN = Math.log(rows);
    for (let s = 0; s < 4000; s++) {
      const acc = new Float64Array(dims);
      for (let k = 0; k < 12; k++) {
        // Continuous Zipf: P(rank <= r) ~ ln r / ln N, so r = N^u.
        const r = Math.min(rows - 1, Math.floor(Math.exp(rand() * logN)) - 1);
        const row = Math.max(0, r);
        const word = this.wv.words[row];
        // The drawn row is the word: add it directly (no spelling or lemma look-up to pay for).
        if (word !== '' && /^[a-z]/.test(word)) this.addRow(acc, row, STOP_WORDS.has(word));
      }
      for (let i = 0; i < dims; i++) {
        const ai = acc[i];
        if (ai === 0) continue;
        for (let j = 0; j < dims; j++) cov[i * dims + j] += ai * acc[j];
      }
    }
    // Power iteration from a fixed start vector.
    let v = new Float64Array(dims).fill(1 / Math.sqrt(dims));
    for (let it = 0; it < 200; it++) {
      const next = new Float64Array(dims);
      for (let i = 0; i < dims; i++) {
        let s = 0;
        for (let j = 0; j < dims; j++) s += cov[i * dims + j] * v[j];
        next[i] = s;
      }
      let n = 0;
      for (let i = 0; i < dims; i++) n += next[i] * next[i];
      n = Math.sqrt(n);
      for (let i = 0; i < dims; i++) next[i] /= n;
      v = next;
    }
    return Float32Array.from(v);
  }
}
