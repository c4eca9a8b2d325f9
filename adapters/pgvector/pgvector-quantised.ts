import type { VectorSearch } from '../../src/ports/vector-index.js';
import { toPgVectorParam } from '../../src/core/vectors.js';
import { GENERIC_PLAN, type Queryable } from '../../src/store/sql-client.js';
import { statusesKey, topSeq, type VectorMirror } from './vector-mirror.js';
import type { Nearest } from './mirror-slots.js';

/** The sign bits of a vector as bit-string text (pgvector's binary_quantize: 1 where the component is > 0). */
export function signBits(v: Float32Array | number[]): string {
  let out = '';
  for (let i = 0; i < v.length; i++) out += v[i] > 0 ? '1' : '0';
  return out;
}

export type Row = { memory_id: string; d: number };

/**
 * The nearest rows whose statuses the exact SQL scan reads first: when k of them have a wanted
 * status, those are the exact top k of the wanted rows. (The mirror ranks this many first when it
 * looks for rows above a score, and reads statuses in smaller batches: `searchMirror`.)
 */
export function statusWindow(k: number): number {
  return Math.max(2 * k, k + 50);
}

/**
 * Rows of the first pass reranked exactly: at least `min`, 20 per hit asked for exact requests and
 * for any search the vector mirror reranks in the process (`inProcess`), 4 for an approximate one in SQL.
 */
export function windowFor(s: VectorSearch, min: number, inProcess = false): number {
  return Math.max(min, (s.exact || inProcess ? 20 : 4) * s.k);
}

/**
 * Quantised first pass, exact rerank, in SQL: the space's sign bits (`memory_vector_bits.bq`,
 * migration 11: 64 bytes at 512-d, in a narrow table of their own kept by triggers)
 * ranked by Hamming distance, then the exact cosine of the best `window` of them,
 * the status checked on those rows only. Returns null (the caller scans exactly)
 * when the window holds fewer than k rows of the wanted statuses, e.g. a space
 * mostly muted.
 *
 * `size` given (a large space, the bits' HNSW index built): the window comes from the
 * HNSW index on the bits instead of a scan of every row's bits, walked with an
 * iterative scan (the space and kind filtered during the walk) and `ef_search` at least
 * the window; if the walk returns fewer rows than the window while the space holds more
 * (it gave up: `max_scan_tuples`), the caller scans exactly. Without `size`, the bits are
 * read in a sequential scan (`OFFSET 0` keeps the planner off the HNSW index, which
 * would cut the window short).
 */
export async function quantisedInSql(
  q: Queryable, s: VectorSearch, kind: string, statuses: string[], size: number | null, window: number, efSearch: number,
): Promise<Row[] | null> {
  if (size !== null) {
    await q.query(`set local hnsw.iterative_scan = relaxed_order`);
    await q.query(`set local hnsw.ef_search = ${Math.min(1_000, Math.max(window, efSearch))}`);
  }
  const from = size !== null
    ? `select b.memory_id from memory_vector_bits b
       where b.space_id = $2 and b.kind = $3 order by b.bq <~> $4::bit(${s.vector.length}) limit $5`
    : `select memory_id from (
         select b.memory_id, b.bq from memory_vector_bits b where b.space_id = $2 and b.kind = $3 offset 0
       ) b order by b.bq <~> $4::bit(${s.vector.length}) limit $5`;
  const r = await q.query<{ memory_id: string; d: number; n: number }>(
    `select c.memory_id, c.d, c.n from (
       select c.memory_id, v.embedding <=> $1::vector as d, count(*) over () as n
       from (${from}) c join memory_vectors v on v.memory_id = c.memory_id
     ) c
     where (select st.status from memory_state st where st.memory_id = c.memory_id) = any($6::text[])
     order by c.d limit $7`,
    [toPgVectorParam(s.vector), s.spaceId, kind, signBits(s.vector), window, statuses, s.k],
  );
  const seen = r.rows.length > 0 ? Number(r.rows[0].n) : 0;
  if (size !== null && seen < Math.min(window, size)) return null;
  const windowFull = seen >= window;
  if (r.rows.length < s.k && (windowFull || r.rows.length === 0)) return null;
  return r.rows;
}

const newer = (top: string | null | undefined, since: string) => top != null && BigInt(top) > BigInt(since);

/** Searches of the mirror before giving up on a space whose deletes keep turning up (then: exact scan). */
const MIRROR_PASSES = 3;
/** A preliminary search hands back at most this many times k rows; past it, statuses are read as usual. */
const PRELIMINARY_MAX = 4;

/**
 * The search from the in-process copy of the vectors (vector-mirror.ts): the first pass (the
 * `window` nearest by sign bits; Infinity: every row) and the exact rerank there, in float32
 * exactly as pgvector computes `<=>`; then the statuses of the nearest rows read in SQL, nearest
 * first (k and an eighth more, then 4 times as many each time, until k have a wanted status).
 *
 * With `minScore` (recognition in a space past QUANTISED_ABOVE: nothing below it is weighed,
 * the port's contract) only rows scoring at least that much are candidates, so a new fact,
 * near nothing, costs no statement at all; if every row of a full window scores that much,
 * rows past it may too: null, the caller scans exactly. Without it: the exact top k of the
 * window, null when a full window holds fewer than k rows of the wanted statuses (as
 * `quantisedInSql`). Ids the status read no longer finds (deleted without the adapter knowing)
 * leave the copy and the search runs again. Just after a read-ahead with the statuses it asks for
 * (`VectorMirror.refresh`): the same rows, the rows of other statuses known, and no statement.
 *
 * `ahead`: whether a read-ahead may serve this search. A search in a transaction (recognition
 * again under the space's lock, consolidation) takes none: a read-ahead is not its own (another
 * remember's, or one whose search never came), and nothing compares the space's last event id
 * after it. It reads its space caught up and the statuses it wants, as every search once did.
 */
export async function searchMirror(
  mirror: VectorMirror, q: Queryable, s: VectorSearch, kind: string, statuses: string[], window: number, minScore: number | undefined,
  ahead: boolean,
): Promise<Row[] | null> {
  const wanted = new Set(statuses);
  const first = statusWindow(s.k);
  for (let pass = 0; pass < MIRROR_PASSES; pass++) {
    // First from the copy as held (read ahead by `prepare`, or by the last search): the first
    // statement the search runs anyway says whether a row was written since (then: caught up,
    // and again); a space not held is read first.
    const held = pass === 0 && ahead ? mirror.nearestHeld(s.spaceId, kind, s.vector, window) : null;
    let since = held?.seq ?? null;
    const ranked = held?.ranked ?? await mirror.nearest(q, s.spaceId, kind, s.vector, window);
    let behind = false;
    let n = ranked.size;
    if (minScore !== undefined) {
      // Rows scoring at least minScore, nearest first (`reaching`).
      n = ranked.reaching(minScore, first);
      if (ranked.windowFull && n === ranked.size) return null;
    }
    // Read ahead with the statuses this search wants (`prepare` in the quote's or question's
    // shadow): the rows of other statuses are known, every other row of the copy is wanted. No statement.
    if (held?.others && held.others.wanted === statusesKey(statuses)) {
      return keptOf(ranked, n, s.k, (id) => !held.others!.ids.has(id), minScore === undefined);
    }
    // A preliminary search (the port's `preliminary`): the caller reads each hit's record and its
    // status there, and checks under its lock that the space did not change: no statement.
    if (minScore !== undefined && s.preliminary && n <= PRELIMINARY_MAX * s.k) {
      const { ids, d } = ranked.upTo(n);
      return ids.map((id, j) => ({ memory_id: id, d: d[j]! }));
    }
    const kept: Row[] = [];
    let gone: string[] = [];
    // Batches of growing size (k and an eighth more, then 4 times as many rows each): a space where
    // the wanted statuses are rare is read further only as far as it has to be; where most rows have
    // them (recall's statuses), one batch barely larger than k.
    for (let from = 0, upto = firstBatch(s.k); from < n && kept.length < s.k; from = upto, upto *= 4) {
      const { ids: all, d } = ranked.upTo(Math.min(n, upto));
      const ids = all.slice(from);
      // A memory's state row goes with it (forget for good, a space dropped): a row missing here
      // is a memory deleted without the adapter knowing.
      // One row of two arrays (0.6 ms for 200 ids against 0.9 as rows, measured apart), with the space's top seq after a read-ahead.
      const r = await q.query<{ ids: string[] | null; statuses: string[] | null; top?: string | null }>(
        `${GENERIC_PLAN}select array_agg(memory_id) as ids, array_agg(status) as statuses${since === null ? '' : `, ${topSeq(2)} as top`}
         from memory_state where memory_id = any($1::text[])`, since === null ? [ids] : [ids, s.spaceId, kind]);
      if (since !== null) {
        behind = newer(r.rows[0]?.top, since);
        since = null;
        if (behind) break;
      }
      // Another search changed a slot while this one waited (a catch-up replaced a row, a drop moved one): rank again.
      if (ranked.stale()) {
        behind = true;
        break;
      }
      const found = r.rows[0]?.ids ?? [];
      const status = new Map(found.map((id, j) => [id, r.rows[0]!.statuses![j]!]));
      gone = ids.filter((id) => !status.has(id));
      if (gone.length > 0) break;
      for (let j = 0; j < ids.length && kept.length < s.k; j++) {
        const st = status.get(ids[j]);
        if (st && wanted.has(st)) kept.push({ memory_id: ids[j], d: d[from + j] });
      }
    }
    // Nothing to read (no row near enough): the check alone.
    if (since !== null) {
      const r = await q.query<{ top: string | null }>(`${GENERIC_PLAN}select ${topSeq(1)} as top`, [s.spaceId, kind]);
      behind = newer(r.rows[0]?.top, since);
    }
    // The next pass reads the copy up to date first (`nearest`).
    if (behind) continue;
    if (gone.length > 0) {
      mirror.drop(s.spaceId, kind, gone);
      continue;
    }
    if (minScore === undefined && shortOfK(kept, s.k, ranked)) return null;
    return kept;
  }
  return null;
}

/**
 * Recognition's search of the copy (`minScore` given, a space past QUANTISED_ABOVE): the sign-bit
 * window first. Where every row of a full window reaches minScore (rows past it may be nearer:
 * sentences of one template under the built-in embedder, whose vectors all lie close), the copy
 * ranked exactly, still in the process, not by SQL's scan (the bench's 10K × 100-d SIF sentences:
 * recognition's search 14.2 → 3.3 ms at the median on PGlite, 3.5 → 2.3 on a server; the floor
 * 1.4–1.7). Null: the caller scans in SQL.
 */
export async function recognitionInMirror(
  mirror: VectorMirror, q: Queryable, s: VectorSearch, kind: string, statuses: string[], window: number, ahead: boolean,
): Promise<Row[] | null> {
  return (await searchMirror(mirror, q, s, kind, statuses, window, s.minScore, ahead))
    ?? searchMirror(mirror, q, s, kind, statuses, Number.POSITIVE_INFINITY, undefined, false);
}

/**
 * The first k wanted rows of `ranked`'s first n, nearest first, read in the batches `searchMirror`
 * reads statuses in; null where that search gives null (without minScore, `orNull`: a full window
 * short of k, or none).
 */
function keptOf(ranked: Nearest, n: number, k: number, isWanted: (id: string) => boolean, orNull: boolean): Row[] | null {
  const kept: Row[] = [];
  for (let from = 0, upto = firstBatch(k); from < n && kept.length < k; from = upto, upto *= 4) {
    const { ids, d } = ranked.upTo(Math.min(n, upto));
    for (let j = from; j < ids.length && kept.length < k; j++) if (isWanted(ids[j]!)) kept.push({ memory_id: ids[j]!, d: d[j]! });
  }
  return orNull && shortOfK(kept, k, ranked) ? null : kept;
}

/** The rows `searchMirror` reads statuses of first: k and an eighth more (then 4 times as many each time). */
const firstBatch = (k: number) => k + Math.ceil(k / 8) + 2;

/** Fewer than k kept where a full window (rows past it may be nearer) or nothing was read: the caller scans exactly. */
const shortOfK = (kept: Row[], k: number, ranked: Nearest) => kept.length < k && (ranked.windowFull || kept.length === 0);
