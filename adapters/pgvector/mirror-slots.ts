/**
 * The vector mirror's arithmetic (vector-mirror.ts): one space and kind's rows in typed arrays,
 * the sign-bit first pass, and distances that are pgvector's to the last bit.
 */
import { NATIVE_MAX_DIM, NativeRanked, nativeExactSearch } from './native-ranked.js';
import { key, NearestRows } from './nearest-rows.js';

/** The sign bits of a vector, packed as varbit_send packs them (bit i: byte i >> 3, MSB first), in 32-bit words. */
export function pack(vector: Float32Array | number[]): Uint32Array {
  const bytes = new Uint8Array(Math.ceil(vector.length / 32) * 4);
  for (let i = 0; i < vector.length; i++) if (vector[i] > 0) bytes[i >> 3] |= 0x80 >> (i & 7);
  return new Uint32Array(bytes.buffer);
}

/**
 * pgvector's cosine distance (`<=>`, vector.c cosine_distance) as its WebAssembly build computes
 * it: three float32 sums in index order, then in double `1 - dot / sqrt(|a|² |b|²)` clamped.
 */
export function pgCosineDistance(a: Float32Array, b: Float32Array, at = 0): number {
  const f = Math.fround;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[at + i];
    dot = f(dot + f(x * y));
    na = f(na + f(x * x));
    nb = f(nb + f(y * y));
  }
  let sim = dot / Math.sqrt(na * nb);
  if (sim > 1) sim = 1;
  else if (sim < -1) sim = -1;
  return 1 - sim;
}

/**
 * A bound on |pgCosineDistance − the same distance computed in double|: float32 sums of 512
 * products drift by at most ~n·2⁻²⁴ of |a||b| each (3e-5 at 512-d); 5e-4 leaves a wide margin
 * up to 4,096 dimensions. Used only to decide which rows the exact arithmetic must see.
 */
const DOUBLE_DRIFT = 5e-4;

/**
 * Above this many rows a ranking starts with a cheaper distance: native (`NativeRanked`, a whole
 * space), else double precision (`Ranked`, ~a third of the exact one's cost a row), and computes
 * the exact one only for the rows that could be among those asked for. Recognition's window of
 * ~200 rows: 0.22 ms against 0.39 ranked exactly throughout (its first 12 rows read); whole
 * spaces of 65 to 1,000 rows too (every evaluation's), on the drift bound larger spaces rely on.
 */
const EXACT_ALL_BELOW = 64;

/** Bits set in a 32-bit word. */
function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/**
 * Bits set in four 32-bit words: `popcount`'s steps on each, the per-byte counts (at most 8 a
 * word, 32 for four: still a byte) added before the one multiply that sums the bytes. ~30 %
 * less than four `popcount`s in the first pass over a 90K space (2.35 ms against 3.25).
 */
function popcount4(a: number, b: number, c: number, e: number): number {
  a -= (a >>> 1) & 0x55555555;
  b -= (b >>> 1) & 0x55555555;
  c -= (c >>> 1) & 0x55555555;
  e -= (e >>> 1) & 0x55555555;
  a = (a & 0x33333333) + ((a >>> 2) & 0x33333333);
  b = (b & 0x33333333) + ((b >>> 2) & 0x33333333);
  c = (c & 0x33333333) + ((c >>> 2) & 0x33333333);
  e = (e & 0x33333333) + ((e >>> 2) & 0x33333333);
  const bytes = ((a + (a >>> 4)) & 0x0f0f0f0f) + ((b + (b >>> 4)) & 0x0f0f0f0f) + ((c + (c >>> 4)) & 0x0f0f0f0f) + ((e + (e >>> 4)) & 0x0f0f0f0f);
  return Math.imul(bytes, 0x01010101) >>> 24;
}

/** The m-th smallest of `xs` (1 ≤ m ≤ length; NaN as +∞): a max-heap of the m smallest seen, most values rejected by one comparison. */
export function smallest(xs: Float64Array, m: number): number {
  const heap = new Float64Array(m);
  let size = 0;
  for (let i = 0; i < xs.length; i++) {
    const x = key(xs[i]);
    if (size < m) {
      let c = size++;
      while (c > 0) {
        const p = (c - 1) >> 1;
        if (heap[p] >= x) break;
        heap[c] = heap[p];
        c = p;
      }
      heap[c] = x;
    } else if (x < heap[0]) {
      let c = 0;
      for (;;) {
        const l = 2 * c + 1;
        if (l >= m) break;
        const r = l + 1;
        const big = r < m && heap[r] > heap[l] ? r : l;
        if (heap[big] <= x) break;
        heap[c] = heap[big];
        c = big;
      }
      heap[c] = x;
    }
  }
  return heap[0];
}

/** One space and kind: row i's bits at words [i * w, (i + 1) * w), its vector at [i * dim, (i + 1) * dim), its squared norm at i. */
export class Slots {
  /** Highest `seq` read (text: a bigint). */
  seq = '0';
  /** Read to the space's end once (`VectorMirror.holdsSpace`): bringing it up to date reads only what was written since. */
  whole = false;
  private ids: string[] = [];
  private at = new Map<string, number>();
  private words = 0;
  private dim = 0;
  private bits = new Uint32Array(0);
  private vectors = new Float32Array(0);
  private norms = new Float64Array(0);
  /** Bumped when a row's slot changes content (replaced, removed, moved): rankings made before are `stale`. */
  private version = 0;

  get size(): number {
    return this.ids.length;
  }

  has(id: string): boolean {
    return this.at.has(id);
  }

  /** Bytes of the typed arrays (their capacity) and ~60 a row for the id and its map entry. */
  get bytes(): number {
    return this.bits.byteLength + this.vectors.byteLength + this.norms.byteLength + 60 * this.ids.length;
  }

  /**
   * Rows as the load reads them: `bits`, each row's varbit_send (a 4-byte bit length, then the
   * bits), back to back; `vectors`, each row's vector_send (2-byte dim, 2 unused, big-endian float4s).
   * `coming`: the rows the load puts in all from these on, when it knows (a space read whole):
   * the arrays are then sized once for them, not grown (and copied) step by step as they come.
   */
  putMany(ids: string[], bits: Uint8Array, vectors: Uint8Array, coming = ids.length): void {
    if (ids.length === 0) return;
    const bitBytes = bits.length / ids.length;
    const vecBytes = vectors.length / ids.length;
    const view = new DataView(vectors.buffer, vectors.byteOffset, vectors.byteLength);
    const dim = view.getUint16(0);
    const w = Math.ceil((bitBytes - 4) / 4);
    if (vecBytes !== 4 + 4 * dim || !Number.isInteger(bitBytes)) throw new Error('the sign bits and vectors read do not match their ids');
    if (this.words !== w || this.dim !== dim) {
      if (this.ids.length > 0) throw new Error(`a ${dim}-d vector in a space of ${this.dim}-d vectors`);
      this.words = w;
      this.dim = dim;
    }
    // Room for every row coming (a replaced one needs none: at worst a little to spare). Known
    // (a load): an eighth to spare for the writes that follow; else half again, as rows trickle in.
    const need = this.ids.length + Math.max(coming, ids.length);
    if (need > this.norms.length) this.grow(Math.max(1_024, Math.ceil(need * (coming > ids.length ? 1.125 : 1.5))));
    const row = new Uint8Array(w * 4);
    const rowWords = new Uint32Array(row.buffer);
    for (let r = 0; r < ids.length; r++) {
      const id = ids[r];
      let i = this.at.get(id);
      // A row replaced in place: a ranking made before may read it lazily (`stale`).
      if (i !== undefined) this.version++;
      if (i === undefined) {
        i = this.ids.length;
        this.ids.push(id);
        this.at.set(id, i);
      }
      row.fill(0);
      row.set(bits.subarray(r * bitBytes + 4, (r + 1) * bitBytes));
      this.bits.set(rowWords, i * w);
      let norm = 0;
      let norm32 = 0;
      for (let j = 0, o = i * dim, b = r * vecBytes + 4; j < dim; j++, b += 4) {
        const x = view.getFloat32(b);
        this.vectors[o + j] = x;
        norm += x * x;
        norm32 = Math.fround(norm32 + Math.fround(x * x));
      }
      // 0 marks a row whose float32 squared norm is 0 or overflows (pgvector: NaN or 1 whatever the
      // direction): no cheaper distance bounds its exact one (`rank`).
      this.norms[i] = norm32 > 0 && norm32 < Number.POSITIVE_INFINITY ? norm : 0;
    }
  }

  private grow(rows: number): void {
    const bits = new Uint32Array(rows * this.words);
    bits.set(this.bits);
    this.bits = bits;
    const vectors = new Float32Array(rows * this.dim);
    vectors.set(this.vectors);
    this.vectors = vectors;
    const norms = new Float64Array(rows);
    norms.set(this.norms);
    this.norms = norms;
  }

  remove(ids: readonly string[]): void {
    const w = this.words;
    const dim = this.dim;
    for (const id of ids) {
      const i = this.at.get(id);
      if (i === undefined) continue;
      // The last row moves into the freed slot: a ranking made before would read the wrong row.
      this.version++;
      const last = this.ids.length - 1;
      if (i !== last) {
        const moved = this.ids[last];
        this.ids[i] = moved;
        this.at.set(moved, i);
        this.bits.copyWithin(i * w, last * w, (last + 1) * w);
        this.vectors.copyWithin(i * dim, last * dim, (last + 1) * dim);
        this.norms[i] = this.norms[last];
      }
      // Nothing of a forgotten memory stays behind in the freed slot.
      this.bits.fill(0, last * w, (last + 1) * w);
      this.vectors.fill(0, last * dim, (last + 1) * dim);
      this.norms[last] = 0;
      this.ids.pop();
      this.at.delete(id);
    }
  }

  /** Rows (slot numbers) of the first pass: the `window` nearest in Hamming distance, ties at the cut kept (every row when no more). */
  window(query: Uint32Array, window: number): number[] {
    const n = this.ids.length;
    if (n <= window) return Array.from({ length: n }, (_, i) => i);
    const w = this.words;
    if (query.length !== w) throw new Error(`a query of ${query.length} words against rows of ${w}`);
    const bits = this.bits;
    const dist = new Uint16Array(n);
    const counts = new Uint32Array(w * 32 + 1);
    for (let i = 0, o = 0; i < n; i++, o += w) {
      let d = 0;
      let j = 0;
      for (; j + 4 <= w; j += 4) {
        d += popcount4(bits[o + j] ^ query[j], bits[o + j + 1] ^ query[j + 1], bits[o + j + 2] ^ query[j + 2], bits[o + j + 3] ^ query[j + 3]);
      }
      for (; j < w; j++) d += popcount(bits[o + j] ^ query[j]);
      dist[i] = d;
      counts[d]++;
    }
    // The smallest distance whose cumulative count reaches the window: every row at most that far.
    let cut = 0;
    for (let seen = 0; cut < counts.length; cut++) {
      seen += counts[cut];
      if (seen >= window) break;
    }
    const out: number[] = [];
    for (let i = 0; i < n; i++) if (dist[i] < cut) out.push(i);
    for (let i = 0; i < n && out.length < 2 * window; i++) if (dist[i] === cut) out.push(i);
    return out;
  }

  /**
   * The rows, to be read nearest `query` first by pgvector's exact distance. Many rows: a
   * double-precision distance (4 sums at a time, norms kept) ranks them first, and the exact
   * one is computed for the rows that could be among those asked for (`Ranked.upTo`).
   */
  rank(rows: number[], query: Float32Array, windowFull: boolean): Nearest {
    if (rows.length > 0 && query.length !== this.dim) throw new Error(`a ${query.length}-d query against ${this.dim}-d vectors`);
    const dim = this.dim;
    const exact = (j: number) => pgCosineDistance(query, this.vectors, rows[j] * dim);
    const ids = rows.map((i) => this.ids[i]);
    const version = this.version;
    const stale = () => this.version !== version;
    let qn = 0;
    let qn32 = 0;
    for (let i = 0; i < dim; i++) {
      qn += query[i] * query[i];
      qn32 = Math.fround(qn32 + Math.fround(query[i] * query[i]));
    }
    // A zero or overflowing norm (the query's or a row's, in float32) has no bounded cheaper distance: exact throughout.
    const bounded = qn32 > 0 && qn32 < Number.POSITIVE_INFINITY && !rows.some((i) => this.norms[i] === 0);
    if (rows.length <= EXACT_ALL_BELOW || !bounded) return new Ranked(ids, Float64Array.from(rows, (_, j) => exact(j)), exact, 0, windowFull, stale);
    // The whole space in slot order (an exact scan; a window's rows come nearest first, ties after).
    const search = nativeExactSearch();
    if (search && dim <= NATIVE_MAX_DIM && rows.length === this.ids.length && rows.every((r, j) => r === j)) {
      return new NativeRanked(search, ids, this.vectors.subarray(0, rows.length * dim), query, exact, DOUBLE_DRIFT, stale);
    }
    const v = this.vectors;
    const approx = new Float64Array(rows.length);
    const tail = dim - (dim % 4);
    for (let j = 0; j < rows.length; j++) {
      const o = rows[j] * dim;
      let s0 = 0, s1 = 0, s2 = 0, s3 = 0;
      let i = 0;
      for (; i < tail; i += 4) {
        s0 += query[i] * v[o + i];
        s1 += query[i + 1] * v[o + i + 1];
        s2 += query[i + 2] * v[o + i + 2];
        s3 += query[i + 3] * v[o + i + 3];
      }
      for (; i < dim; i++) s0 += query[i] * v[o + i];
      approx[j] = 1 - (s0 + s1 + s2 + s3) / Math.sqrt(qn * this.norms[rows[j]]);
    }
    return new Ranked(ids, approx, exact, DOUBLE_DRIFT, windowFull, stale);
  }
}

/** Rows read nearest first: `Ranked`, or `NativeRanked` for a whole space. */
export type Nearest = NearestRows;

/**
 * Rows and their distances, read nearest first (`upTo`). `approx` is within `drift` of the exact
 * distance of every row (0: it is the exact one). For the nearest m: T, the m-th smallest
 * approximate distance; at least m rows are then exactly within T + drift, so every row of the
 * exact first m is approximately within T + 2·drift: those are computed exactly and sorted.
 */
export class Ranked extends NearestRows {
  constructor(
    ids: string[], private readonly approx: Float64Array, exact: (j: number) => number,
    private readonly drift: number, readonly windowFull: boolean, stale: () => boolean,
  ) {
    super(ids, drift === 0 ? (j) => approx[j] : exact, stale);
  }

  /**
   * `NearestRows.reaching` by the approximate distances: the rows scoring at least `minScore` are
   * a prefix of the exact order (1 − d falls as d grows; NaN sorts last), so they are counted, not
   * ranked. A row further than `drift` (and a rounding's margin) from the boundary is on its side
   * by its approximate distance; only the rows near it are computed exactly (recognition's window
   * in a space of many near statements: ~80 rows reach 0.4, which ranked in growing prefixes
   * computed ~200 exact distances).
   */
  override reaching(minScore: number, first: number): number {
    // (`first` serves the exact ranking's prefixes only)
    if (this.drift === 0) return super.reaching(minScore, first);
    const edge = 1 - minScore;
    const margin = this.drift + 1e-9;
    let reach = 0;
    let anyBelow = false;
    for (let j = 0; j < this.ids.length; j++) {
      const a = this.approx[j];
      const x = a < edge - margin ? a : a > edge + margin ? Number.POSITIVE_INFINITY : this.d(j);
      if (1 - x < minScore) anyBelow = true;
      else if (x === x) reach++;
    }
    return anyBelow ? reach : this.ids.length;
  }

  protected candidates(want: number): number[] {
    const n = this.ids.length;
    const cut = want === n ? Number.POSITIVE_INFINITY : smallest(this.approx, want) + 2 * this.drift;
    const near: number[] = [];
    for (let j = 0; j < n; j++) if (key(this.approx[j]) <= cut) near.push(j);
    return near;
  }
}
