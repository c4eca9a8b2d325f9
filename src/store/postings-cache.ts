/**
 * Postings held in the process, for the embedded store (docs/recall.md, "Postings held").
 *
 * BM25's postings statement read ~2,800 postings at 10K memories for a question of six terms and
 * summed them in WebAssembly: 4–6 ms of a recall's ~20 on the main thread. Here each term's
 * postings in a (space, kind) — memory ids, term frequencies, document lengths — are kept after
 * they are read once, with the term's `ver` (migration 17: it changes whenever any of those
 * postings does), and used only while the statistics statement, which reads every query term's
 * df, reads the same `ver`. The score is then summed here, with the very arithmetic of the SQL
 * statement (`bm25Window`).
 *
 * Where one process holds the store (PGlite), every forget passes through this store, which drops
 * the space's postings at once (nothing forgotten stays in the process). On a server, only once
 * another instance's erasures reach this process (src/store/pg-erasures.ts): `ver` keeps what is
 * scored current whatever another instance writes (a term changed between two statements is read
 * again or scored by the statement), and the erasure listener takes forgotten words out.
 */

/** One term's postings in a (space, kind), as of `ver`. */
export interface TermPostings {
  ver: string;
  ids: string[];
  tf: Int32Array;
  len: Int32Array;
  /** Once held: each posting's memory as its number in the space's `numbering` (`put`). */
  nums?: Int32Array;
  numbering?: Numbering;
}

/**
 * A number per memory id of a space, given as its postings are first held: BM25 sums into an array
 * indexed by them, not a map keyed by id strings (at 100K memories a question scores ~26K postings:
 * ~16 ms summed in a map, under 1 in an array). Numbers only grow; a forget lets go of the whole
 * numbering with the space's postings.
 */
export interface Numbering {
  at: Map<string, number>;
  names: string[];
}

/**
 * Bytes held at most (LRU by term past it), counted as 20 a posting (a reference to its memory's
 * id, one string per memory interned per space, its number, tf and length) and `TERM_BYTES` a term
 * (its key, version, arrays and entry: ~750 bytes measured in Node 20). A space of 10K memories
 * (~100K postings, ~25K terms) holds ~20 MB.
 */
export const MAX_HELD_BYTES = 48 * 1024 * 1024;
const POSTING_BYTES = 20;
const TERM_BYTES = 768;
const bytesOf = (p: TermPostings) => TERM_BYTES + POSTING_BYTES * p.ids.length;

const keyOf = (spaceId: string, kind: string, term: string) => `${spaceId}\u0000${kind}\u0000${term}`;

export class PostingsCache {
  private readonly terms = new Map<string, TermPostings>();
  private held = 0;
  /** The (space, kind)s whose every term was read once (`loadedAll`): a term missing since was written since. */
  private readonly whole = new Map<string, number>();
  /** Per space, how many times it was let go: postings read before a forget are not put back after it. */
  private readonly drops = new Map<string, number>();
  /** Per space, one string and number per memory id however many terms it holds (kept while a term of the space is). */
  private readonly numberings = new Map<string, Numbering>();
  /** Per space, its terms held. */
  private readonly termsIn = new Map<string, number>();

  constructor(private readonly maxBytes = MAX_HELD_BYTES) {}

  /** The term's postings if held as of `ver` (refreshed in the LRU order), else undefined. */
  get(spaceId: string, kind: string, term: string, ver: string): TermPostings | undefined {
    const key = keyOf(spaceId, kind, term);
    const p = this.terms.get(key);
    if (!p || p.ver !== ver) return undefined;
    this.terms.delete(key);
    this.terms.set(key, p);
    return p;
  }

  /** Times everything was let go (`dropAll`): counted into every space's generation. */
  private dropsAll = 0;

  /** The space's generation: `put` with an older one (read before a forget) keeps nothing. */
  generation(spaceId: string): number {
    return this.dropsAll + (this.drops.get(spaceId) ?? 0);
  }

  put(spaceId: string, kind: string, term: string, p: TermPostings, generation: number): void {
    if (generation !== this.generation(spaceId)) return;
    const key = keyOf(spaceId, kind, term);
    this.letGo(key);
    if (bytesOf(p) > this.maxBytes) return;
    let numbering = this.numberings.get(spaceId);
    if (!numbering) this.numberings.set(spaceId, (numbering = { at: new Map(), names: [] }));
    const nums = new Int32Array(p.ids.length);
    for (let j = 0; j < p.ids.length; j++) {
      const id = p.ids[j]!;
      let n = numbering.at.get(id);
      if (n === undefined) {
        n = numbering.names.length;
        numbering.at.set(id, n);
        numbering.names.push(id);
      }
      p.ids[j] = numbering.names[n]!;
      nums[j] = n;
    }
    p.nums = nums;
    p.numbering = numbering;
    this.terms.set(key, p);
    this.termsIn.set(spaceId, (this.termsIn.get(spaceId) ?? 0) + 1);
    this.held += bytesOf(p);
    for (const k of this.terms.keys()) {
      if (this.held <= this.maxBytes) break;
      this.letGo(k);
      this.whole.clear();
    }
  }

  /** One term let go (replaced or pushed out); the space's numbering goes with its last term. */
  private letGo(key: string): void {
    const q = this.terms.get(key);
    if (!q) return;
    this.terms.delete(key);
    this.held -= bytesOf(q);
    const spaceId = key.slice(0, key.indexOf('\u0000'));
    const left = (this.termsIn.get(spaceId) ?? 1) - 1;
    if (left > 0) this.termsIn.set(spaceId, left);
    else {
      this.termsIn.delete(spaceId);
      this.numberings.delete(spaceId);
    }
  }

  /** Whether the (space, kind) was read whole once, or tried and found past the bound (and no term let go since for room). */
  loadedAll(spaceId: string, kind: string): boolean {
    return this.whole.has(keyOf(spaceId, kind, ''));
  }

  /**
   * Whether the (space, kind), read whole when it held `docs` memories or fewer, now holds more than
   * twice as many (most of its terms are likely newer than those held: read whole again).
   */
  grewPast(spaceId: string, kind: string, docs: number): boolean {
    const then = this.whole.get(keyOf(spaceId, kind, ''));
    return then !== undefined && docs > 2 * Math.max(then, 1);
  }

  /** Marks the (space, kind) as read whole when it held `docs` memories, its terms `put` since `generation`. */
  markLoaded(spaceId: string, kind: string, generation: number, docs: number): void {
    if (generation === this.generation(spaceId)) this.whole.set(keyOf(spaceId, kind, ''), docs);
  }

  /** Whether `postings` more postings in `terms` more terms would fit without letting any go. */
  fits(postings: number, terms: number): boolean {
    return this.held + POSTING_BYTES * postings + TERM_BYTES * terms <= this.maxBytes;
  }

  /** Lets go of every term of the space (a forget: its words leave the process with it). */
  dropSpace(spaceId: string): void {
    this.drops.set(spaceId, (this.drops.get(spaceId) ?? 0) + 1);
    const prefix = `${spaceId}\u0000`;
    for (const k of [...this.whole.keys()]) if (k.startsWith(prefix)) this.whole.delete(k);
    for (const k of [...this.terms.keys()]) if (k.startsWith(prefix)) this.letGo(k);
    this.numberings.delete(spaceId);
    this.termsIn.delete(spaceId);
  }

  /** Lets go of every space's terms (erasures elsewhere may have been missed: src/store/pg-erasures.ts). */
  dropAll(): void {
    this.dropsAll++;
    this.terms.clear();
    this.held = 0;
    this.whole.clear();
    this.numberings.clear();
    this.termsIn.clear();
  }

  /** Postings held, in all or in one space (tests). */
  heldIn(spaceId?: string): number {
    let n = 0;
    for (const [k, q] of this.terms) if (spaceId === undefined || k.startsWith(`${spaceId}\u0000`)) n += q.ids.length;
    return n;
  }
}

/**
 * PostgreSQL's `round(float8)`: `rint`, ties to even (the default rounding mode), for the
 * non-negative shares BM25 adds (`Math.round` sends ties up).
 */
export function rint(x: number): number {
  const f = Math.floor(x);
  const d = x - f;
  if (d > 0.5) return f + 1;
  if (d < 0.5) return f;
  return f % 2 === 0 ? f : f + 1;
}

/**
 * The best `window` memories by BM25 over the terms' postings, best first, ties by memory id
 * (bytewise, as the database's C collation orders them): the SQL statement's `top`, to the last
 * bit. Each term's share is the same float8 expression in the same order, rounded to a whole
 * number of 1e-12 (so the sum, exact below 2^53, does not depend on the order it is added in),
 * and the sum divided by 1e12.
 */
export function bm25Window(
  postings: readonly TermPostings[], idf: readonly number[], avgdl: number, window: number,
): { memoryId: string; score: number }[] {
  // Each posting's memory as a number: the space's numbering when every term is held in the same
  // one (the cache's), else one made here.
  const held = postings[0]?.numbering;
  let names: readonly string[];
  let nums: Int32Array[];
  if (held && postings.every((p) => p.numbering === held && p.nums)) {
    names = held.names;
    nums = postings.map((p) => p.nums!);
  } else {
    const at = new Map<string, number>();
    const local: string[] = [];
    names = local;
    nums = postings.map((p) => Int32Array.from(p.ids, (id) => {
      let n = at.get(id);
      if (n === undefined) at.set(id, (n = local.push(id) - 1));
      return n;
    }));
  }
  const sums = new Float64Array(names.length);
  const seen = new Uint8Array(names.length);
  const scored: number[] = [];
  postings.forEach((p, t) => {
    const w = idf[t]!;
    const ns = nums[t]!;
    for (let j = 0; j < ns.length; j++) {
      const tf = p.tf[j]!;
      const n = ns[j]!;
      sums[n] += rint(1e12 * w * tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * p.len[j]! / avgdl)));
      if (seen[n] === 0) {
        seen[n] = 1;
        scored.push(n);
      }
    }
  });
  // The best `window` (score desc, then id bytewise), kept in a heap whose root is the worst of them.
  const score = (n: number) => sums[n]! / 1e12;
  const before = (a: number, b: number) => {
    const sa = score(a);
    const sb = score(b);
    return sa > sb || (sa === sb && names[a]! < names[b]!);
  };
  const heap: number[] = [];
  const down = (from: number) => {
    for (let i = from; ;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let worst = i;
      if (l < heap.length && before(heap[worst]!, heap[l]!)) worst = l;
      if (r < heap.length && before(heap[worst]!, heap[r]!)) worst = r;
      if (worst === i) return;
      [heap[i], heap[worst]] = [heap[worst]!, heap[i]!];
      i = worst;
    }
  };
  for (const n of scored) {
    if (heap.length < window) {
      heap.push(n);
      for (let i = heap.length - 1; i > 0;) {
        const parent = (i - 1) >> 1;
        if (!before(heap[parent]!, heap[i]!)) break;
        [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
        i = parent;
      }
    } else if (window > 0 && before(n, heap[0]!)) {
      heap[0] = n;
      down(0);
    }
  }
  heap.sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0));
  return heap.map((n) => ({ memoryId: names[n]!, score: score(n) }));
}
