import type {
  IndexedVector, TxHandle, VectorHit, VectorIndex, VectorIndexCapabilities, VectorSearch,
} from '../../src/ports/vector-index.js';
import { VectorIndexError } from '../../src/ports/vector-index.js';
import type { MemoryKind, MemoryStatus } from '../../src/core/types.js';
import { toPgVectorParam } from '../../src/core/vectors.js';
import type { Queryable, SqlClient } from '../../src/store/sql-client.js';
import { quantisedInSql, searchMirror, recognitionInMirror, windowFor, type Row } from './pgvector-quantised.js';
import { exactInSql } from './exact-scan.js';
import { VectorMirror } from './vector-mirror.js';
import { walkHnsw } from './hnsw-indexes.js';
import { AnnBuild } from './ann-build.js';

export interface PgvectorOptions {
  /** Embedder id written with every vector. */
  embedder: string;
  /** Spaces with at most this many vectors are scanned exactly (faster and exact at that size). */
  exactScanBelow?: number;
  /** hnsw.ef_search for approximate scans. */
  efSearch?: number;
  /**
   * The HNSW index is built once one space holds more vectors of one kind than this: a smaller space is
   * scanned exactly anyway, and its upkeep costs every insert (several ms on PGlite, ~3.6 ms at 90K on a server).
   */
  annIndexAbove?: number;
  /** Spaces above this many vectors get the quantised first pass (see QUANTISED_ABOVE); Infinity turns it off. */
  quantisedAbove?: number;
  /** Minimum rows of the quantised first pass reranked exactly. */
  quantisedWindow?: number;
  /** Build with CREATE INDEX CONCURRENTLY (a server: writes go on meanwhile); not on PGlite. */
  concurrentBuild?: boolean;
  /**
   * Also build an HNSW index on the sign bits and walk it for recognition in spaces past
   * `exactScanBelow` (off by default: at 100K × 512-d random vectors the walk missed 4.5 % of
   * planted restatements at a window of 200, docs/engines.md; the sequential sign-bit pass
   * missed none).
   */
  bitsIndex?: boolean;
  /**
   * Every cosine search from an in-process copy of the vectors and their sign bits (vector-mirror.ts).
   * Default: on for PGlite; on a server only when asked (the service asks: ENGRAM_VECTOR_MIRROR_MB),
   * where it serves searches outside transactions only (sound there by migration 22: a space's
   * vectors are numbered in commit order).
   */
  mirror?: boolean;
  /** Bytes of vectors the mirror keeps before letting the least recently searched spaces go (default 256 MB). */
  mirrorMaxBytes?: number;
}

/** Vectors per upsert statement (see `upsert`). */
const UPSERT_CHUNK = 100;

export { ANN_INDEXES, BITS_INDEX, FLOAT_HNSW_INDEX, HNSW_INDEX, halfOf } from './hnsw-indexes.js';

/** Spaces of at most this many vectors are scanned exactly by default. */
export const EXACT_SCAN_BELOW = 20_000;

/**
 * pgvector in the system-of-record database: vectors live in `memory_vectors`,
 * written in the caller's transaction; status lives in `memory_state`, so a
 * status change never touches the HNSW index.
 */
/** Spaces above this many vectors are searched through the quantised first pass (below, one exact scan costs less). */
export const QUANTISED_ABOVE = 1_000;

/** Rows of the quantised first pass reranked exactly (at least; 20 k for exact requests, 4 k otherwise). */
export const QUANTISED_WINDOW = 200;

const sizeKey = (spaceId: string, kind: string) => `${spaceId}\u0000${kind}`;

export class PgvectorIndex implements VectorIndex {
  readonly name = 'pgvector';
  readonly capabilities: VectorIndexCapabilities = { transactional: true, exactSearch: true, metrics: ['cosine', 'l2'], storeVectors: true };
  /** Vectors per space and kind (`${space}\u0000${kind}`), counted at most once a minute. */
  private sizes = new Map<string, { n: number; at: number }>();
  private readonly exactBelow: number;
  private readonly efSearch: number;
  private readonly quantisedAbove: number;
  private readonly window: number;
  private readonly ann: AnnBuild;
  private readonly mirror: VectorMirror | null;
  /** Whether the mirror may serve a search in a transaction (see the constructor). */
  private readonly mirrorInTx: boolean;

  constructor(private readonly db: SqlClient, private readonly opts: PgvectorOptions) {
    this.exactBelow = opts.exactScanBelow ?? EXACT_SCAN_BELOW;
    this.efSearch = opts.efSearch ?? 100;
    this.quantisedAbove = opts.quantisedAbove ?? QUANTISED_ABOVE;
    this.window = opts.quantisedWindow ?? QUANTISED_WINDOW;
    this.ann = new AnnBuild(db, { above: opts.annIndexAbove ?? this.exactBelow, bitsIndex: opts.bitsIndex, concurrentBuild: opts.concurrentBuild });
    const mirrored = opts.mirror ?? db.driver === 'pglite';
    // A client that counts rollbacks (PGlite: one connection, transactions never interleave) lets
    // the copy read inside a transaction (a rollback empties it). On a server the copy reads only
    // outside transactions, so it holds committed rows only: a search or delete in a transaction
    // goes to SQL (docs/engines.md, "The vector mirror", on a server).
    this.mirrorInTx = db.rollbacks !== undefined;
    this.mirror = mirrored ? new VectorMirror(() => db.rollbacks ?? 0, opts.mirrorMaxBytes, !this.mirrorInTx) : null;
  }

  /** Bytes of vectors held in the process for searching (null: no mirror). */
  get mirrorBytes(): number | null {
    return this.mirror?.bytes ?? null;
  }

  /** Whether the mirror holds the memory's vector (tests of erasure). */
  mirrorHolds(memoryId: string): boolean {
    return this.mirror?.holds(memoryId) ?? false;
  }

  /** A space (of one kind) past this many vectors gets the HNSW index (infinite: never, as on the embedded store). */
  get annIndexAbove(): number {
    return this.ann.above;
  }

  /** Whether the HNSW index exists (approximate scans need it). */
  get annIndexReady(): boolean {
    return this.ann.ready;
  }

  /** Which index approximate searches walk (null: none, they scan exactly). */
  get annWalk(): 'half' | 'float' | null {
    return this.ann.walk;
  }

  /**
   * Holds back the lazy HNSW build while a bulk load runs: building it part-way
   * would make every later row of the load pay for graph upkeep (on PGlite, one
   * connection, it would also block the load for the whole build). The loader
   * builds it once at the end, as after a restore, then releases the hold.
   */
  holdAnnIndex(hold: boolean): void {
    this.ann.held = hold;
  }

  /**
   * Creates the HNSW index when a space has outgrown exact scans (or when
   * `force`d, e.g. by `reindex`). Idempotent; concurrent calls share one build.
   */
  ensureAnnIndex(force = false): Promise<boolean> {
    return this.ann.ensure(force);
  }

  /** Whether the HNSW index exists in this schema, and if so whether it is usable (an interrupted concurrent build leaves it invalid). */
  annIndexState(): Promise<'valid' | 'invalid' | 'none'> {
    return this.ann.state();
  }

  async init(): Promise<void> {
    // The table is created by the store's migrations; the HNSW index once the table is large.
    try {
      await this.db.query(`select 1 from memory_vectors limit 1`);
    } catch (e) {
      throw new VectorIndexError(this.name, 'memory_vectors is missing: run the store migrations first', e);
    }
    // Finds an existing index at once; a build it starts (server, large table) runs in the
    // background: exact scans serve meanwhile, and a failed build is retried later.
    const pending = this.ensureAnnIndex();
    if (this.opts.concurrentBuild) void pending.catch(() => {});
    else await pending.catch(() => {});
  }

  private q(tx?: TxHandle): Queryable {
    return (tx as Queryable | undefined) ?? this.db;
  }

  async upsert(items: IndexedVector[], tx?: TxHandle): Promise<void> {
    if (items.length === 0) return;
    try {
      // In chunks, yielding between them: on PGlite a statement is synchronous WebAssembly on the
      // caller's event loop, and one statement of thousands of vectors held it for tens of
      // seconds on a loaded machine. Each chunk is idempotent (an upsert), so a batch cut short
      // by an error is simply applied again by the caller's retry.
      // In the spaces' order: the bits trigger takes each space's write lock (migration 22), and
      // two writers of several spaces then never wait for each other in opposite orders.
      items = [...items].sort((a, b) => (a.spaceId < b.spaceId ? -1 : a.spaceId > b.spaceId ? 1 : 0));
      for (let at = 0; at < items.length; at += UPSERT_CHUNK) {
        if (at > 0) await new Promise((r) => setTimeout(r, 0)); // a macrotask turn: timers and I/O run too
        const chunk = items.slice(at, at + UPSERT_CHUNK);
        await this.q(tx).query(
          `insert into memory_vectors (memory_id, space_id, kind, embedder, embedding)
           select id, sp, k, $4, v::vector from unnest($1::text[], $2::text[], $3::text[], $5::text[]) as x(id, sp, k, v)
           on conflict (memory_id) do update set embedding = excluded.embedding, embedder = excluded.embedder`,
          [chunk.map((i) => i.memoryId), chunk.map((i) => i.spaceId), chunk.map((i) => i.kind), this.opts.embedder,
            chunk.map((i) => toPgVectorParam(i.vector))],
        );
      }
    } catch (e) {
      throw new VectorIndexError(this.name, 'upsert failed', e);
    }
    this.stored(items);
  }

  /** Vectors written to memory_vectors (by `upsert`, or by the store with their memory): counted, and the lazy HNSW build checked. */
  stored(items: IndexedVector[]): void {
    // Counted, not forgotten: a recount of the space on every remember would cost a scan.
    for (const i of items) {
      const hit = this.sizes.get(sizeKey(i.spaceId, i.kind));
      if (hit) hit.n++;
    }
    this.ann.written(items.length);
  }

  /** Status lives in memory_state (written by the store); nothing to do here. */
  async setStatus(_ids: string[], _status: MemoryStatus, _tx?: TxHandle): Promise<void> {}

  async remove(memoryIds: string[], tx?: TxHandle): Promise<void> {
    if (memoryIds.length === 0) return;
    try {
      await this.q(tx).query(`delete from memory_vectors where memory_id = any($1::text[])`, [memoryIds]);
    } catch (e) {
      throw new VectorIndexError(this.name, 'remove failed', e);
    }
    // On a server, a delete in a transaction may yet roll back: the copy drops the rows once a
    // read outside the transaction no longer finds them (`VectorMirror.settle`, before the next search).
    if (tx === undefined || this.mirrorInTx) this.mirror?.removeIds(memoryIds);
    else this.mirror?.removeAfterCommit(memoryIds);
  }

  letGo(spaceId: string | null, ids: readonly string[] | null): void {
    if (!this.mirror) return;
    if (spaceId === null) this.mirror.removeAll();
    else if (ids === null) this.mirror.removeSpace(spaceId);
    else this.mirror.removeIds(ids);
  }

  async removeSpace(spaceId: string, tx?: TxHandle): Promise<void> {
    try {
      await this.q(tx).query(`delete from memory_vectors where space_id = $1`, [spaceId]);
    } catch (e) {
      throw new VectorIndexError(this.name, 'removeSpace failed', e);
    }
    for (const k of [...this.sizes.keys()]) if (k.startsWith(`${spaceId}\u0000`)) this.sizes.delete(k);
    // On a server a drop in a transaction may yet roll back, and a search before its commit would
    // read the space again: let go of the copy once the space holds no vector (`settle`).
    if (tx === undefined || this.mirrorInTx) this.mirror?.removeSpace(spaceId);
    else this.mirror?.removeSpaceAfterCommit(spaceId);
  }

  /**
   * Vectors of one kind in a space. Only thresholds read it (which search to run): a minute
   * stale costs nothing, a recount per remember a scan. Per kind, because a space of 100K
   * statements may hold a handful of inferences: those are scanned exactly (an HNSW walk
   * filtered to a rare kind visits thousands of rows to find none).
   */
  private async kindSize(spaceId: string, kind: string, q: Queryable): Promise<number> {
    const key = sizeKey(spaceId, kind);
    const hit = this.sizes.get(key);
    if (hit && Date.now() - hit.at < 60_000) return hit.n;
    const r = await q.query<{ n: number }>(`select count(*)::int as n from memory_vectors where space_id = $1 and kind = $2`, [spaceId, kind]);
    const n = Number(r.rows[0].n);
    this.sizes.set(key, { n, at: Date.now() });
    return n;
  }

  /**
   * Read ahead (the use cases call it while the text is embedded): the space's size for the
   * thresholds and the vector mirror brought up to date, so the search that
   * follows reads only what was written since; with `statuses`, also the rows of other statuses,
   * so that search reads no status (`VectorMirror.refresh`).
   */
  async prepare(spaceId: string, kind: MemoryKind, statuses?: readonly MemoryStatus[], exact?: boolean): Promise<void> {
    this.mirror?.dropReadAhead(spaceId, kind);
    const size = await this.kindSize(spaceId, kind, this.db);
    // A space past exactBelow, its index built: no status read ahead; and for a search that may
    // walk it (not exact: recall's), nothing read at all unless the mirror holds the space and so
    // serves that search (`search`). On a server a catch-up for a search that then walks is a
    // statement that only competes with recall's own (measured at 100K back to back: recall p50
    // 48–68 ms with it, 35–46 without, docs/bench-rounds.md, "Nineteenth round").
    const walked = this.ann.walk !== null && size > this.exactBelow;
    if (walked && exact !== true && !this.mirrorServesWalk(spaceId, kind)) return;
    await this.mirror?.refresh(this.db, spaceId, kind, walked ? undefined : statuses);
  }

  async search(s: VectorSearch, tx?: TxHandle): Promise<VectorHit[]> {
    const metric = s.metric ?? 'cosine';
    const op = metric === 'cosine' ? '<=>' : '<->';
    const statuses = s.statuses ?? ['ACTIVE'];
    const kind = s.kind ?? 'STATEMENT';
    const toHits = (rows: Row[]): VectorHit[] => rows
      .map((x) => ({ memoryId: x.memory_id, score: metric === 'cosine' ? 1 - Number(x.d) : -Number(x.d) }))
      // relaxed_order lets an iterative HNSW scan return rows slightly out of order: sort them again.
      .sort((a, b) => b.score - a.score);
    try {
      const q = this.q(tx);
      const size = await this.kindSize(s.spaceId, kind, q);
      const small = size <= this.exactBelow;
      // A large space without the HNSW index yet: built in the background (at most one check a
      // minute), scanned meanwhile (or the float index of an earlier version walked).
      if (!small) this.ann.searchedWithout();
      const exact = s.exact === true || metric !== 'cosine' || this.ann.walk === null || small;
      if (!exact) {
        // A space the mirror holds (recognition or the warm-up read it): the sign-bit window of 20 rows a
        // hit, reranked exactly in the process, is nearer the exact answer than the walk and costs less
        // (at 90K × 512-d random vectors, k 50: 45 % of the exact top 50 in 8.8 ms against 13 % in
        // 17 ms; docs/engines.md, "The vector mirror"). A space not held (or a search in a transaction
        // on a server): the walk, as before.
        if (this.mirrorServesWalk(s.spaceId, kind, tx)) {
          await this.mirror!.settle(q);
          const hits = await searchMirror(this.mirror!, q, s, kind, statuses, windowFor(s, this.window, true), undefined, tx === undefined);
          if (hits) return toHits(hits);
        }
        return toHits(await this.inTx(tx, (t) => walkHnsw(t, s, op, kind, statuses, this.ann.walk!, this.efSearch)));
      }
      // The sign-bit pass keeps near vectors but may drop far ones: only for a caller that
      // needs nothing below minScore (recognition); a plain exact request scans exactly.
      const quantised = metric === 'cosine' && size > this.quantisedAbove && s.minScore !== undefined;
      const window = windowFor(s, this.window);
      if (this.mirror && metric === 'cosine' && (tx === undefined || this.mirrorInTx)) {
        await this.mirror.settle(q);
        // Every cosine search: the sign-bit window for recognition past quantisedAbove, else an exact scan of the copy.
        const hits = quantised
          ? await recognitionInMirror(this.mirror, q, s, kind, statuses, window, tx === undefined)
          : await searchMirror(this.mirror, q, s, kind, statuses, Number.POSITIVE_INFINITY, undefined, tx === undefined);
        if (hits) return toHits(hits);
      } else if (quantised) {
        const hits = !small && this.ann.bitsReady
          ? await this.inTx(tx, (t) => quantisedInSql(t, s, kind, statuses, size, window, this.efSearch))
          : await quantisedInSql(q, s, kind, statuses, null, window, this.efSearch);
        if (hits) return toHits(hits);
      }
      return toHits(await exactInSql(q, s, op, kind, statuses));
    } catch (e) {
      throw new VectorIndexError(this.name, 'search failed', e);
    }
  }

  /** Whether the mirror serves an approximate search of a space past exactBelow instead of the HNSW walk. */
  private mirrorServesWalk(spaceId: string, kind: string, tx?: TxHandle): boolean {
    return this.mirror !== null && (tx === undefined || this.mirrorInTx) && this.mirror.holdsSpace(spaceId, kind);
  }

  /** Runs `fn` in the caller's transaction, or in one of its own (SET LOCAL needs one). */
  private inTx<T>(tx: TxHandle | undefined, fn: (q: Queryable) => Promise<T>): Promise<T> {
    return tx ? fn(this.q(tx)) : this.db.transaction((t) => fn(t));
  }

  /**
   * Reads the spaces past QUANTISED_ABOVE vectors into the vector mirror, largest first,
   * within its bound (the container runs it in the background shortly after start). Returns the
   * spaces read.
   */
  async warmMirror(signal?: AbortSignal): Promise<number> {
    if (!this.mirror) return 0;
    return this.mirror.warm(this.db, this.quantisedAbove, () => signal?.aborted === true);
  }

  async close(): Promise<void> {}
}
