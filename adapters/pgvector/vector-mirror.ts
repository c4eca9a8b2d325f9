import { GENERIC_PLAN, type Queryable } from '../../src/store/sql-client.js';
import { MEMORY_STATUSES } from '../../src/core/types.js';
import { pack, Slots, type Nearest } from './mirror-slots.js';

/**
 * An in-process copy of a space's vectors and their sign bits (`memory_vector_bits`), per space
 * and kind, for every cosine search on the embedded store (docs/engines.md, "The vector mirror").
 *
 * On PGlite the quantised first pass and the exact rerank ran in WebAssembly, reading rows
 * through PostgreSQL's buffer pool: more than an in-process float scan of the whole space. Here
 * the first pass is a popcount over a typed array (16 words a row at 512-d) and the rerank of
 * its window is computed in float32 exactly as pgvector computes `<=>` (same order of float
 * operations: the same distance to the last bit, checked by test/store/pgvector-mirror.test.ts);
 * only the statuses of the nearest rows are read from SQL, or, for a search read ahead with its
 * statuses (recall, and remember's recognition before its lock), the rows of the space with other
 * statuses while its vector is embedded. A search in a transaction takes nothing read ahead.
 *
 * Kept current without trusting any write path to report itself:
 * - every insert or update of a vector bumps its row's `seq` (migration 12, a sequence written
 *   by the bits trigger); a search first reads the rows of its space and kind past the highest
 *   `seq` seen (an index range scan on (space_id, kind, seq), empty when nothing changed), or,
 *   just after a read-ahead (`refresh`), ranks the copy as held and asks in its first statement
 *   for the space's highest `seq` (`nearestHeld`; catching up and ranking again if it moved);
 *   a search read ahead with its statuses runs no statement: it is answered as of the read-ahead
 *   (the rows of other statuses and the table's highest `seq` read in one statement, used only
 *   while the copy holds exactly that `seq`);
 * - deletes leave a stale slot, harmless but for the window place it may take: the status read
 *   reports which ids no longer exist (`drop`), and the search runs again without them (a search
 *   read ahead with its statuses reads none: recall and remember, its users, read each hit's
 *   current version or record and skip one that no longer exists);
 *   deletes through the adapter (`remove`, `removeSpace`) drop their slots at once (on a
 *   server, in a transaction: once the delete has committed, `settle`);
 * - PGlite: a rolled-back transaction may have been read half-way (an insert seen, a delete
 *   applied): the client counts rollbacks, and a different count empties the mirror (reloaded on
 *   use). A server's copy reads no transaction's rows but committed ones.
 *
 * The catch-up is sound where a space's rows commit in `seq` order: PGlite (one connection), and
 * a server since migration 22 (the bits trigger numbers a row under the space's write lock,
 * src/store/migration-vectors.ts). On a server the copy reads outside transactions only
 * (committed rows; pgvector-index.ts sends a search in a transaction to SQL), and rows deleted in
 * a transaction leave it once the delete has committed (`settle`).
 */
export class VectorMirror {
  private spaces = new Map<string, Slots>();
  /** Spaces (and kinds) read ahead for the search that comes next (`refresh`, then `nearestHeld`). */
  private readAhead = new Set<string>();
  /**
   * Per space and kind read ahead with the statuses its search wants (`refresh`): the rows of the
   * other statuses then (at most OTHERS_MAX), handed to the next search with the copy
   * (`nearestHeld`).
   */
  private othersAhead = new Map<string, OthersAhead>();
  /** Rows deleted in a transaction on a server, and when (`settle`). */
  private removing = new Map<string, number>();
  /** Spaces dropped in a transaction on a server, and when (`settle`). */
  private removingSpaces = new Map<string, number>();
  /** Ids deleted lately (at most GONE_KEPT): a catch-up that read them before the delete leaves them out. */
  private gone = new Set<string>();
  /** Per space and kind, the catch-up running: the next waits for it, so catch-ups apply in the order they read. */
  private loading = new Map<string, Promise<Slots>>();
  private epoch: number;

  /**
   * `epochOf`: the client's rollback count (see above). `maxBytes`: past it, the least recently
   * searched spaces are let go (read again when next searched); the one being searched stays,
   * however large.
   */
  constructor(
    private readonly epochOf: () => number, private readonly maxBytes = 256 * 1024 * 1024,
    /**
     * A server's pool: catch-ups of one space and kind run one at a time, and ids deleted lately are
     * kept out of them (`load`). Not on PGlite, whose one connection answers in the order asked
     * (and where a search in a transaction must not wait for a catch-up queued behind it).
     */
    private readonly pooled = false,
  ) {
    this.epoch = epochOf();
  }

  /** Bytes held by every space's copy. */
  get bytes(): number {
    let n = 0;
    for (const slots of this.spaces.values()) n += slots.bytes;
    return n;
  }

  /**
   * Rows ranked by exact cosine distance to `vector`, nearest first: of the (at least) `window`
   * rows nearest in Hamming distance of their sign bits, or of every row when the space holds
   * no more than `window` (Infinity: an exact scan of the space). Rows tied at the window's cut
   * are all kept (up to twice the window), so the order rows were written in never decides what
   * is reranked. `ranked.upTo(m)` gives the first m (sorted as asked: a space of 10K rows is
   * not sorted whole for the nearest 100).
   */
  async nearest(q: Queryable, spaceId: string, kind: string, vector: Float32Array | number[], window: number): Promise<Nearest> {
    return rankIn(await this.current(q, spaceId, kind), vector, window);
  }

  /**
   * As `nearest`, from the copy as held, reading nothing (null: the space was not read ahead
   * since its last search, is not held, or a rollback emptied the copy). `seq` is the highest the
   * copy holds: the caller asks, in a statement it runs anyway, for the space's highest (`topSeq`
   * in pgvector-quantised.ts) and catches up if it is past this one.
   */
  nearestHeld(spaceId: string, kind: string, vector: Float32Array | number[], window: number): HeldNearest | null {
    const k = key(spaceId, kind);
    const others = this.takeOthers(k);
    // Only just after a read-ahead (`refresh`): a copy not read ahead is likely behind (another
    // search's writes), and ranking it first would rank twice.
    if (!this.readAhead.delete(k) || this.epochOf() !== this.epoch) return null;
    const slots = this.spaces.get(k);
    if (!slots) return null;
    this.use(k, slots);
    // The rows of other statuses describe the copy only if the table's highest seq when they were
    // read is the copy's: no vector written between the catch-up and that read, none caught up since.
    return { ranked: rankIn(slots, vector, window), seq: slots.seq, others: others?.seq === slots.seq ? others : null };
  }

  /**
   * The space and kind's rows of other statuses read ahead, taken: a read-ahead serves the one
   * search that follows it, and only within OTHERS_TTL_MS (one whose search never came, its
   * embedding failed, is not a later search's).
   */
  private takeOthers(k: string): OthersAhead | undefined {
    const others = this.othersAhead.get(k);
    this.othersAhead.delete(k);
    return others && performance.now() - others.at <= OTHERS_TTL_MS ? others : undefined;
  }

  /**
   * Forgets what was read ahead for the space and kind (a new read-ahead begins): the flag and the
   * rows of other statuses. Called before the read-ahead's first statement, so a read-ahead that
   * fails leaves none behind for its search (an older one would answer it from a copy older than
   * what its caller read before: remember's last event id).
   */
  dropReadAhead(spaceId: string, kind: string): void {
    const k = key(spaceId, kind);
    this.readAhead.delete(k);
    this.othersAhead.delete(k);
  }

  /**
   * Brings the space's copy up to date now (read ahead: the next search then reads only what is
   * written meanwhile). With `statuses`, the ones that search will want: also the rows of the
   * space and kind with any other status, by the index on (space, kind, status), when there are at
   * most OTHERS_MAX of them (most rows of a space are ACTIVE; a space with more is searched as
   * before). The next search then reads no status (`nearestHeld`, then `searchMirror`).
   */
  async refresh(q: Queryable, spaceId: string, kind: string, statuses?: readonly string[]): Promise<void> {
    const k = key(spaceId, kind);
    this.othersAhead.delete(k);
    await this.current(q, spaceId, kind);
    // Caught up: the next search ranks the copy as held, whether or not the statuses below are read.
    this.readAhead.add(k);
    if (statuses) {
      const wanted = new Set(statuses);
      // The other statuses written out (the domain's own names, never a caller's text): a plan made
      // once for `status = any($n)` of unknown length scanned the space's rows (2.5 ms at 10K, against 0.15).
      const others = MEMORY_STATUSES.filter((st) => !wanted.has(st)).map((st) => `'${st}'`).join(', ') || 'null';
      // With the table's highest seq at this read (`nearestHeld` compares it with the copy's).
      const r = await q.query<{ ids: string[] | null; n: number; top: string }>(
        `${GENERIC_PLAN}select array_agg(memory_id) as ids, count(*)::int as n, ${topSeq(1)} as top
         from (select memory_id from memory_state where space_id = $1 and kind = $2 and status in (${others}) limit ${OTHERS_MAX + 1}) x`,
        [spaceId, kind],
      );
      const row = r.rows[0];
      if (row && row.n <= OTHERS_MAX) this.othersAhead.set(k, { at: performance.now(), seq: row.top, wanted: statusesKey(statuses), ids: new Set(row.ids ?? []) });
    }
  }

  /**
   * Reads the largest spaces (past `above` vectors of a kind) into the copy, largest first, while
   * they fit the bound: at start, in the background, so a restart's first search of a large
   * space finds it held. Stops when `stopped()` says so (the service is closing).
   */
  async warm(q: Queryable, above: number, stopped: () => boolean): Promise<number> {
    const r = await q.query<{ space_id: string; kind: string; n: number }>(
      `select space_id, kind, count(*)::int as n from memory_vector_bits group by 1, 2 having count(*) > $1 order by 3 desc`, [above]);
    let read = 0;
    for (const x of r.rows) {
      if (stopped() || this.bytes + x.n * BYTES_PER_ROW_GUESS > this.maxBytes) break;
      await this.current(q, x.space_id, x.kind, stopped, x.n);
      read++;
    }
    return read;
  }

  /** Rows a status read found gone (deleted without the adapter knowing): no longer candidates. */
  drop(spaceId: string, kind: string, ids: string[]): void {
    this.spaces.get(key(spaceId, kind))?.remove(ids);
    this.noteGone(ids);
  }

  /**
   * Deleted through the adapter (or found gone): out of every kind of their space(s), and
   * remembered a while, so a catch-up whose statement was read before the delete committed does
   * not put them back when its rows arrive after it (a pool: results need not come in order).
   */
  removeIds(ids: readonly string[]): void {
    for (const slots of this.spaces.values()) slots.remove(ids);
    this.noteGone(ids);
  }

  /** Ids deleted: kept, the latest GONE_KEPT, for the catch-ups still reading (`load`). */
  private noteGone(ids: readonly string[]): void {
    if (!this.pooled) return;
    for (const id of ids) this.gone.add(id);
    for (const id of this.gone) {
      if (this.gone.size <= GONE_KEPT) break;
      this.gone.delete(id);
    }
  }

  /**
   * Deleted in a transaction on a server (the copy holds committed rows only, and that one may yet
   * roll back): dropped by `settle` once a read outside it no longer finds them, so a forgotten
   * vector does not wait for a search to meet it.
   */
  removeAfterCommit(ids: string[]): void {
    const now = performance.now();
    for (const id of ids) this.removing.set(id, now);
  }

  /** A space dropped in a transaction on a server: let go by `settle` once it holds no vector. */
  removeSpaceAfterCommit(spaceId: string): void {
    this.removingSpaces.set(spaceId, performance.now());
  }

  /**
   * Drops the rows (and spaces) deleted in a transaction whose deletes have committed: one
   * statement, only while some wait. One still found is asked for again at the next search for
   * SETTLE_FOR_MS (its delete rolled back, or its transaction is still running: past that, the
   * status read drops it when a search meets it, as any row deleted behind the copy's back).
   */
  async settle(q: Queryable): Promise<void> {
    if (this.removing.size === 0 && this.removingSpaces.size === 0) return;
    const ids = [...this.removing.keys()];
    const spaces = [...this.removingSpaces.keys()];
    const r = await q.query<{ ids: string[] | null; spaces: string[] | null }>(
      `select (select array_agg(memory_id) from memory_vectors where memory_id = any($1::text[])) as ids,
              (select array_agg(s) from unnest($2::text[]) s where exists (select 1 from memory_vectors v where v.space_id = s)) as spaces`,
      [ids, spaces]);
    const still = new Set(r.rows[0]?.ids ?? []);
    const held = new Set(r.rows[0]?.spaces ?? []);
    const gone = ids.filter((id) => !still.has(id));
    if (gone.length > 0) this.removeIds(gone);
    for (const sp of spaces) if (!held.has(sp)) this.removeSpace(sp);
    const now = performance.now();
    for (const id of ids) if (!still.has(id) || now - this.removing.get(id)! > SETTLE_FOR_MS) this.removing.delete(id);
    for (const sp of spaces) if (!held.has(sp) || now - this.removingSpaces.get(sp)! > SETTLE_FOR_MS) this.removingSpaces.delete(sp);
  }

  /**
   * Whether the copy holds the space and kind whole: read to its end once (by a search or the
   * warm-up) and not let go since, so that bringing it up to date reads only what was written
   * since. A space being read for the first time, or a warm-up stopped half-way, is not.
   */
  holdsSpace(spaceId: string, kind: string): boolean {
    return this.spaces.get(key(spaceId, kind))?.whole === true && this.epochOf() === this.epoch;
  }

  /** Whether some space's copy holds the row. */
  holds(id: string): boolean {
    for (const slots of this.spaces.values()) if (slots.has(id)) return true;
    return false;
  }

  /** Everything held goes (erasures elsewhere may have been missed: src/store/pg-erasures.ts). */
  removeAll(): void {
    this.spaces.clear();
    this.readAhead.clear();
    this.othersAhead.clear();
  }

  removeSpace(spaceId: string): void {
    for (const k of [...this.spaces.keys()]) if (k.startsWith(`${spaceId}\u0000`)) this.spaces.delete(k);
    for (const k of [...this.readAhead]) if (k.startsWith(`${spaceId}\u0000`)) this.readAhead.delete(k);
    for (const k of [...this.othersAhead.keys()]) if (k.startsWith(`${spaceId}\u0000`)) this.othersAhead.delete(k);
  }

  /** The map's order is the order of last use: this space moves to the end. */
  private use(k: string, slots: Slots): Slots {
    this.spaces.delete(k);
    this.spaces.set(k, slots);
    return slots;
  }

  /**
   * The space's copy, brought up to date (`stopped`: a warm-up may stop between chunks; what was
   * read stays, in seq order). `rows`: how many the space and kind hold, when the caller knows
   * (the warm-up counted them): the copy is then sized once for them.
   */
  private async current(q: Queryable, spaceId: string, kind: string, stopped = () => false, rows?: number): Promise<Slots> {
    // One at a time per space and kind: on a server two catch-ups may read on two connections and
    // their rows arrive in either order; the second reads past what the first applied.
    if (!this.pooled) return this.load(q, spaceId, kind, stopped, rows);
    const k = key(spaceId, kind);
    const before = this.loading.get(k);
    const run = (before ? before.catch(() => null) : Promise.resolve(null)).then(() => this.load(q, spaceId, kind, stopped, rows));
    this.loading.set(k, run);
    try {
      return await run;
    } finally {
      if (this.loading.get(k) === run) this.loading.delete(k);
    }
  }

  private async load(q: Queryable, spaceId: string, kind: string, stopped: () => boolean, rows?: number): Promise<Slots> {
    const epoch = this.epochOf();
    if (epoch !== this.epoch) {
      this.spaces.clear();
      this.readAhead.clear();
      this.othersAhead.clear();
      this.epoch = epoch;
    }
    const k = key(spaceId, kind);
    const slots = this.use(k, this.spaces.get(k) ?? new Slots());
    // In chunks, in seq order, each one row of aggregates (PGlite turns a bytea column into a
    // hex string row by row: 1.6 s for 10K rows at 512-d; one base64 text per chunk, 0.35 s),
    // yielding between chunks so the event loop is never held for the whole space. Every chunk's
    // vectors are decoded into one buffer, and a warm-up's copy sized once: a load of 10K rows had
    // left ~65 MB of dropped arrays for the collector (the copy grown six times, a buffer per
    // chunk), in RSS until it ran.
    let coming = rows === undefined ? 0 : Math.max(rows - slots.size, 0);
    let decoded: Buffer | null = null;
    for (;;) {
      const r = await q.query<{ ids: string | null; bits: string; vectors: string; seq: string; n: number }>(
        `${GENERIC_PLAN}select string_agg(memory_id, E'\\n' order by seq) as ids, max(seq)::text as seq, count(*)::int as n,
                encode(string_agg(varbit_send(bq), ''::bytea order by seq), 'base64') as bits,
                encode(string_agg(vector_send(embedding), ''::bytea order by seq), 'base64') as vectors
         from (select b.memory_id, b.seq, b.bq, v.embedding from memory_vector_bits b join memory_vectors v on v.memory_id = b.memory_id
               where b.space_id = $1 and b.kind = $2 and b.seq > $3 order by b.seq limit ${LOAD_CHUNK}) x`,
        [spaceId, kind, slots.seq],
      );
      const row = r.rows[0];
      if (!row || row.n === 0 || row.ids === null) {
        slots.whole = true;
        break;
      }
      const bytes = Buffer.byteLength(row.vectors, 'base64');
      if (!decoded || decoded.length < bytes) decoded = Buffer.allocUnsafeSlow(bytes);
      const vectors = decoded.subarray(0, decoded.write(row.vectors, 'base64'));
      const ids = row.ids.split('\n');
      slots.putMany(ids, Buffer.from(row.bits, 'base64'), vectors, Math.max(coming, row.n));
      if (this.gone.size > 0) slots.remove(ids.filter((id) => this.gone.has(id)));
      coming = Math.max(coming - row.n, 0);
      if (BigInt(row.seq) > BigInt(slots.seq)) slots.seq = row.seq;
      if (row.n < LOAD_CHUNK) slots.whole = true;
      if (row.n < LOAD_CHUNK || stopped()) break;
      await new Promise((done) => setTimeout(done, 0));
    }
    for (const [other, held] of this.spaces) {
      if (this.bytes <= this.maxBytes || held === slots) break;
      this.spaces.delete(other);
      this.readAhead.delete(other);
      this.othersAhead.delete(other);
    }
    return slots;
  }
}

/** The rows of the first pass (`window` nearest by sign bits; Infinity: all), ranked by exact distance. */
function rankIn(slots: Slots, vector: Float32Array | number[], window: number): Nearest {
  const query = Float32Array.from(vector);
  const rows = slots.window(pack(query), window);
  return slots.rank(rows, query, rows.length >= window);
}

/** How long `settle` asks after a row (or space) deleted in a transaction that is still found. */
const SETTLE_FOR_MS = 60_000;

/** Ids of rows deleted lately kept by the mirror (`removeIds`), ~60 bytes each. */
const GONE_KEPT = 10_000;

/** A 512-d row's bytes in the copy (vector, bits, norm, id), to guess whether a space fits before reading it. */
const BYTES_PER_ROW_GUESS = 2_200;

/**
 * Rows read per statement while a space is loaded. Each statement's aggregates (the sorted rows,
 * the bytea, its base64 text, the message sent) take room in PGlite's WebAssembly heap, which
 * stays resident once touched: 1,000 rows left it ~14 MB larger after a 10K load; 500 rows, ~7 MB,
 * but the quick bench's first search (the load) took 2.6 times as long (270 ms against 100).
 */
const LOAD_CHUNK = 1_000;

/**
 * The rows of a space and kind whose status is not one a coming search wants, read ahead with
 * its copy: `at`, when (`performance.now()`); `seq`, the table's highest when they were read;
 * `wanted`, those statuses (`statusesKey`); `ids`, those rows.
 */
export interface OthersAhead { at: number; seq: string; wanted: string; ids: Set<string> }

/** A copy ranked as held just after a read-ahead, with the rows of other statuses read then (null: not read). */
export interface HeldNearest { ranked: Nearest; seq: string; others: OthersAhead | null }

/**
 * At most this many rows of unwanted statuses are read ahead (one statement, 0.15 ms for a
 * handful on PGlite at 10K; 1,000 ids are ~40 KB of text). Past it the search reads statuses as before.
 */
const OTHERS_MAX = 1_000;

/** A read-ahead of other statuses older than this is not used (its search is seconds late: not the one it was read for). */
const OTHERS_TTL_MS = 5_000;

/**
 * The highest `seq` of the space and kind (parameters $a, $a+1), as text ('0' for none, as an
 * empty copy's): written past the copy's when greater. A max, not `exists (… seq > $since)`:
 * PGlite's prepared statements run a generic plan, which for `seq > $n` guessed a third of the
 * rows and scanned them all to find none.
 */
export const topSeq = (a: number) => `coalesce((select max(seq) from memory_vector_bits where space_id = $${a} and kind = $${a + 1}), 0)::text`;

/** A set of statuses as one string, whatever their order or repeats (what a read-ahead was made for). */
export const statusesKey = (statuses: readonly string[]) => [...new Set(statuses)].sort().join();

const key = (spaceId: string, kind: string) => `${spaceId}\u0000${kind}`;

