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
}

/**
 * Bytes held at most (LRU by term past it), counted as 16 a posting (a reference to its memory's
 * id, one string per memory interned per space, and its tf and length) and `TERM_BYTES` a term
 * (its key, version, arrays and entry: ~750 bytes measured in Node 20). A space of 10K memories
 * (~100K postings, ~25K terms) holds ~20 MB.
 */
export const MAX_HELD_BYTES = 48 * 1024 * 1024;
const POSTING_BYTES = 16;
const TERM_BYTES = 768;
const bytesOf = (p: TermPostings) => TERM_BYTES + POSTING_BYTES * p.ids.length;

const keyOf = (spaceId: string, kind: string, term: string) => `${spaceId}\u0000${kind}\u0000${term}`;

export class PostingsCache {
  private readonly terms = new Map<string, TermPostings>();
  private held = 0;
  /** The (space, kind)s whose every term was read once (`loadedAll`): a term missing since was written since. */
  private readonly whole = new Set<string>();
  /** Per space, how many times it was let go: postings read before a forget are not put back after it. */
  private readonly drops = new Map<string, number>();
  /** Per space, one string per memory id however many terms it holds. */
  private readonly idStrings = new Map<string, Map<string, string>>();

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
    const old = this.terms.get(key);
    if (old) {
      this.held -= bytesOf(old);
      this.terms.delete(key);
    }
    if (bytesOf(p) > this.maxBytes) return;
    let ids = this.idStrings.get(spaceId);
    if (!ids) this.idStrings.set(spaceId, (ids = new Map()));
    for (let j = 0; j < p.ids.length; j++) {
      const id = p.ids[j]!;
      const held = ids.get(id);
      if (held === undefined) ids.set(id, id);
      else p.ids[j] = held;
    }
    this.terms.set(key, p);
    this.held += bytesOf(p);
    for (const [k, q] of this.terms) {
      if (this.held <= this.maxBytes) break;
      this.terms.delete(k);
      this.held -= bytesOf(q);
      this.whole.clear();
      this.idStrings.clear();
    }
  }

  /** Whether every term of the (space, kind) was read once (and none let go since for room). */
  loadedAll(spaceId: string, kind: string): boolean {
    return this.whole.has(keyOf(spaceId, kind, ''));
  }

  /** Marks the (space, kind) as read whole, its terms `put` since `generation`. */
  markLoaded(spaceId: string, kind: string, generation: number): void {
    if (generation === this.generation(spaceId)) this.whole.add(keyOf(spaceId, kind, ''));
  }

  /** Whether `postings` more postings in `terms` more terms would fit without letting any go. */
  fits(postings: number, terms: number): boolean {
    return this.held + POSTING_BYTES * postings + TERM_BYTES * terms <= this.maxBytes;
  }

  /** Lets go of every term of the space (a forget: its words leave the process with it). */
  dropSpace(spaceId: string): void {
    this.drops.set(spaceId, this.generation(spaceId) + 1);
    this.idStrings.delete(spaceId);
    const prefix = `${spaceId}\u0000`;
    for (const k of this.whole) if (k.startsWith(prefix)) this.whole.delete(k);
    for (const [k, q] of this.terms) {
      if (!k.startsWith(prefix)) continue;
      this.terms.delete(k);
      this.held -= bytesOf(q);
    }
  }

  /** Lets go of every space's terms (erasures elsewhere may have been missed: src/store/pg-erasures.ts). */
  dropAll(): void {
    this.dropsAll++;
    this.terms.clear();
    this.held = 0;
    this.whole.clear();
    this.idStrings.clear();
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
  const sums = new Map<string, number>();
  postings.forEach((p, t) => {
    const w = idf[t]!;
    for (let j = 0; j < p.ids.length; j++) {
      const tf = p.tf[j]!;
      const share = rint(1e12 * w * tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * p.len[j]! / avgdl)));
      const id = p.ids[j]!;
      sums.set(id, (sums.get(id) ?? 0) + share);
    }
  });
  const scored = [...sums].map(([memoryId, s]) => ({ memoryId, score: s / 1e12 }));
  scored.sort((a, b) => b.score - a.score || (a.memoryId < b.memoryId ? -1 : a.memoryId > b.memoryId ? 1 : 0));
  return scored.slice(0, window);
}
