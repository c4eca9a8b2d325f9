import type { SqlClient } from '../../src/store/sql-client.js';
import { ANN_INDEXES, FLOAT_HNSW_INDEX, HNSW_INDEX, dropFloatIndex, indexState, vectorDimensions } from './hnsw-indexes.js';

/**
 * The lazy build of pgvector's HNSW indexes and what is known of them: whether they exist,
 * which one the approximate walk reads, and when their state was last read. `PgvectorIndex`
 * asks it; nothing here searches.
 */
export class AnnBuild {
  ready = false;
  bitsReady = false;
  /**
   * Which index the approximate walk reads: the half-precision one, or, until it exists, the float
   * one an earlier version built (a store upgraded keeps its walk; on PGlite, until `reindex`).
   */
  walk: 'half' | 'float' | null = null;
  /** When the indexes' states were last read (a large space's searches ask at most once a minute). */
  private checkedAt = Number.NEGATIVE_INFINITY;
  private upsertsSinceCheck = 0;
  private building: Promise<void> | null = null;
  /** See `PgvectorIndex.holdAnnIndex`. */
  held = false;
  private dims: number | null = null;

  /** A space (of one kind) past this many vectors gets the index. */
  readonly above: number;

  constructor(
    private readonly db: SqlClient,
    private readonly opts: { above: number; bitsIndex?: boolean; concurrentBuild?: boolean },
  ) {
    this.above = opts.above;
  }

  /** Every index wanted exists. */
  get complete(): boolean {
    return this.ready && (this.bitsReady || !this.opts.bitsIndex);
  }

  /** Vectors written: every 1,000 the build is checked (not awaited: outside the caller's transaction). */
  written(n: number): void {
    this.upsertsSinceCheck += n;
    if (!this.complete && this.upsertsSinceCheck >= 1_000) {
      this.upsertsSinceCheck = 0;
      void this.ensure().catch(() => {});
    }
  }

  /**
   * A space past the exact-scan size was searched without the index: build it in the background
   * (after the caller's transaction). Its state is read at most once a minute: on PGlite, where
   * the service builds no index, the check (a count of every space's vectors) would otherwise
   * run with each search.
   */
  searchedWithout(): void {
    if (!this.ready && Date.now() - this.checkedAt > 60_000) void this.ensure().catch(() => {});
  }

  /**
   * Creates the HNSW index when a space has outgrown exact scans (or when
   * `force`d, e.g. by `reindex`). Idempotent; concurrent calls share one build.
   */
  async ensure(force = false): Promise<boolean> {
    const wanted = this.opts.bitsIndex ? ANN_INDEXES : ANN_INDEXES.slice(0, 1);
    if (this.complete) return true;
    this.building ??= (async () => {
      this.checkedAt = Date.now();
      const states = await Promise.all(wanted.map((i) => indexState(this.db, i.name)));
      if (states.every((x) => x === 'valid')) {
        this.ready = this.bitsReady = true;
        this.walk = 'half';
        await dropFloatIndex(this.db, this.opts.concurrentBuild === true);
        return;
      }
      this.ready = states[0] === 'valid';
      this.bitsReady = states[1] === 'valid'; // undefined (not wanted): false
      this.walk = this.ready ? 'half' : (await indexState(this.db, FLOAT_HNSW_INDEX)) === 'valid' ? 'float' : null;
      // For the largest space (of one kind), not the table: only a space past exactScanBelow is searched through it.
      const largest = Number((await this.db.query<{ n: number }>(
        `select coalesce(max(n), 0)::int as n from (select count(*) as n from memory_vectors group by space_id, kind) x`)).rows[0].n);
      if (!force && (this.held || largest <= this.above)) return;
      const dim = await this.dimensions();
      for (const [at, index] of wanted.entries()) {
        if (states[at] === 'valid') continue;
        // On a server, CONCURRENTLY lets writes go on during the build (minutes at 100K).
        // Several processes may get here at once: IF NOT EXISTS makes the later ones step
        // aside, and an invalid index (an interrupted build) is dropped only when no build
        // is in progress on the table, so one process never drops what another is building.
        if (this.opts.concurrentBuild) {
          const building = await this.db.query<{ n: number }>(
            `select count(*)::int as n from pg_stat_progress_create_index where relid = $1::regclass`, [index.table]);
          if (Number(building.rows[0].n) > 0) return;
          if (states[at] === 'invalid') await this.db.query(`drop index concurrently if exists ${index.name}`);
          await this.db.query(`create index concurrently if not exists ${index.name} on ${index.table} using ${index.using(dim)}`);
          if ((await indexState(this.db, index.name)) !== 'valid') return; // another process's build, still running
        } else {
          await this.db.query(`create index if not exists ${index.name} on ${index.table} using ${index.using(dim)}`);
        }
        // Fresh statistics, or the planner may keep scanning (PGlite never autovacuums).
        await this.db.query(`analyze ${index.table}`);
        if (at === 0) this.ready = true;
        else this.bitsReady = true;
      }
      if (this.ready) {
        this.walk = 'half';
        await dropFloatIndex(this.db, this.opts.concurrentBuild === true);
      }
    })().finally(() => {
      this.building = null;
    });
    await this.building;
    return this.complete;
  }

  /** Whether the HNSW index exists in this schema, and if so whether it is usable (an interrupted concurrent build leaves it invalid). */
  state(): Promise<'valid' | 'invalid' | 'none'> {
    return indexState(this.db, HNSW_INDEX);
  }

  /** The dimensions of `memory_vectors.embedding`, read once. */
  private async dimensions(): Promise<number> {
    this.dims ??= await vectorDimensions(this.db);
    return this.dims;
  }
}
