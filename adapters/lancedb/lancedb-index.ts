import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as lancedb from '@lancedb/lancedb';
import type { Connection, Table } from '@lancedb/lancedb';
import { FixedSizeList } from 'apache-arrow';
import type {
  IndexedVector, VectorHit, VectorIndex, VectorIndexCapabilities, VectorSearch,
} from '../../src/ports/vector-index.js';
import { VectorIndexError } from '../../src/ports/vector-index.js';
import type { MemoryStatus } from '../../src/core/types.js';
import { isUnitLayout, sqlIn, sqlString, tableNameFor, toRow, vectorSchema } from './lancedb-schema.js';
import { searchLance } from './lancedb-search.js';
import { CompactionSchedule, DEFAULT_COMPACTION, type CompactionPolicy } from './lancedb-compaction.js';

/** The epoch marker's file in the LanceDB directory (src/engine-epoch.ts). */
const EPOCH_FILE = 'engram-epoch.json';

export interface LanceDbOptions {
  /** Database directory; null means a temporary directory removed on close (for ':memory:' data dirs). */
  dir: string | null;
  embedderId: string;
  dimensions: number;
  compaction?: Partial<CompactionPolicy>;
  /**
   * Build an ANN index (IVF_HNSW_SQ, cosine) once the table holds this many rows.
   * Below it every search is a flat scan: exact, and fast at that size.
   */
  annIndexAbove?: number;
  /** Told about background failures (compaction). */
  onWarning?: (message: string, cause: unknown) => void;
  /**
   * Runs `fn` under a lock shared by every instance on the same directory (src/ops/jobs.ts):
   * a compaction another instance is running is skipped (`wait: false`); an erasure waits
   * for it (`wait: true`).
   */
  exclusive?: (job: string, fn: () => Promise<void>, opts: { wait: boolean }) => Promise<void>;
  /**
   * Other processes may use the same directory (instances on one PostgreSQL server): every read
   * first looks for versions they committed. Without it a handle reads the version it last saw
   * (another instance's drained rows were missing from searches) and plans compactions on it
   * (which the other's commits then preempted, every time).
   */
  shared?: boolean;
}

/** The lock compaction and erasure take in a shared directory (its name predates erasure taking it). */
const REWRITE_LOCK = 'lancedb:compact';

/** `op`, and once more on the table's latest version when it fails as `again` says another process's commit made it fail. */
async function onLatestOnce<T>(t: Table, again: (e: unknown) => boolean, op: () => Promise<T>): Promise<T> {
  try {
    return await op();
  } catch (e) {
    if (!again(e)) throw e;
    await t.checkoutLatest();
    return await op();
  }
}

/**
 * Commits the outbox gathers before applying them at once (else its background pass, every
 * second, applies them). Each write is a table version, and every search of a table that keeps
 * changing opens the new one: applied one remember at a time, a remember at 10K × 512-d cost
 * 55 ms (its LanceDB search 42 ms); gathered, 23 ms (search 14 ms). docs/engines.md.
 */
const GATHER_WRITES = 64;

/** Rows per mergeInsert call: bounds the Arrow buffer built for one write. */
const WRITE_CHUNK = 10_000;

/**
 * LanceDB embedded in a directory. Fed through the outbox in batches; every
 * write is a table version, so writes are serialised here and compacted on a
 * schedule. Searches prefilter on space, kind and status (LanceDB's default;
 * `postfilter()` is never used), and ask for a flat scan when exact distances
 * are needed (recognition compares them with a threshold): lancedb-search.ts.
 */
export class LanceDbIndex implements VectorIndex {
  readonly name = 'lancedb';
  readonly capabilities: VectorIndexCapabilities = { transactional: false, exactSearch: true, metrics: ['cosine', 'l2'], gatherWrites: GATHER_WRITES };
  readonly tableName: string;
  private db: Connection | null = null;
  private table: Table | null = null;
  private dir: string | null = null;
  private hasAnn = false;
  /** The table's layout (lancedb-schema.ts): new tables are unit; older ones stay as written until a reindex. */
  private unit = true;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly policy: CompactionPolicy;
  private schedule: CompactionSchedule | null = null;
  private readonly annAbove: number;

  constructor(private readonly opts: LanceDbOptions) {
    this.tableName = tableNameFor(opts.embedderId);
    this.policy = { ...DEFAULT_COMPACTION, ...(opts.compaction ?? {}) };
    this.annAbove = opts.annIndexAbove ?? 100_000;
  }

  /** The directory in use (after init). */
  get directory(): string | null {
    return this.dir;
  }

  /** Compactions completed since init. */
  get compactions(): number {
    return this.schedule?.runs ?? 0;
  }

  async init(): Promise<void> {
    if (this.table) return;
    try {
      this.dir = this.opts.dir ?? this.dir ?? (await mkdtemp(join(tmpdir(), 'engram-lancedb-')));
      await mkdir(this.dir, { recursive: true });
      this.db = await lancedb.connect(this.dir, this.opts.shared ? { readConsistencyInterval: 0 } : {});
      this.table = (await this.db.tableNames()).includes(this.tableName)
        ? await this.openChecked(this.db)
        : await this.create(this.db);
      this.hasAnn = (await this.table.listIndices()).some((i) => i.columns.includes('vector'));
      this.unit = isUnitLayout(await this.table.schema());
    } catch (e) {
      throw e instanceof VectorIndexError ? e : new VectorIndexError(this.name, `cannot open ${this.dir}`, e);
    }
    this.schedule = new CompactionSchedule(this.policy, () => this.compact(), (e) => this.opts.onWarning?.('lancedb compaction failed', e));
    this.schedule.sized(await this.table.countRows());
    this.schedule.start();
  }

  private async openChecked(db: Connection): Promise<Table> {
    const t = await db.openTable(this.tableName);
    const field = (await t.schema()).fields.find((f) => f.name === 'vector');
    const size = field && field.type instanceof FixedSizeList ? field.type.listSize : (field?.type as { listSize?: number } | undefined)?.listSize;
    if (size !== this.opts.dimensions) {
      t.close();
      throw new VectorIndexError(this.name,
        `table ${this.tableName} holds ${size}-dimension vectors, the embedder makes ${this.opts.dimensions}: run engram reindex --engine lancedb`);
    }
    return t;
  }

  /** A new empty table with scalar indices on the columns writes match and searches prefilter on. */
  private async create(db: Connection): Promise<Table> {
    const t = await db.createEmptyTable(this.tableName, vectorSchema(this.opts.dimensions), { mode: 'create', existOk: true });
    await t.createIndex('memory_id', { config: lancedb.Index.btree() });
    await t.createIndex('space_id', { config: lancedb.Index.btree() });
    await t.createIndex('status', { config: lancedb.Index.bitmap() });
    await t.createIndex('kind', { config: lancedb.Index.bitmap() });
    return t;
  }

  /** The epoch marker lives beside the table, in the same directory: deleting the directory deletes it. */
  async readEpoch(): Promise<string | null> {
    if (!this.dir) return null;
    try {
      return (JSON.parse(await readFile(join(this.dir, EPOCH_FILE), 'utf8')) as { epoch?: string }).epoch ?? null;
    } catch {
      return null;
    }
  }

  async writeEpoch(epoch: string): Promise<void> {
    if (!this.dir) throw new VectorIndexError(this.name, 'not initialised (or closed)');
    const path = join(this.dir, EPOCH_FILE);
    await writeFile(path + '.tmp', JSON.stringify({ epoch, at: new Date().toISOString() }) + '\n', { mode: 0o600 });
    await rename(path + '.tmp', path);
  }

  /** Drops and recreates the table (reindex). */
  async reset(): Promise<void> {
    const db = this.conn();
    await this.serial(async () => {
      this.table?.close();
      this.table = null;
      if ((await db.tableNames()).includes(this.tableName)) await db.dropTable(this.tableName);
      this.table = await this.create(db);
      this.hasAnn = false;
      this.unit = true;
    }, 'reset failed');
  }

  private conn(): Connection {
    if (!this.db) throw new VectorIndexError(this.name, 'not initialised (or closed)');
    return this.db;
  }

  private tbl(): Table {
    if (!this.table) throw new VectorIndexError(this.name, 'not initialised (or closed)');
    return this.table;
  }

  /** Writes and compactions run one at a time: each is a new table version. */
  private serial<T>(fn: () => Promise<T>, what: string): Promise<T> {
    const run = this.queue.then(fn, fn).catch((e) => {
      throw e instanceof VectorIndexError ? e : new VectorIndexError(this.name, what, e);
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  private wrote(rows: number): void {
    this.schedule?.noteWrite(rows);
  }

  async upsert(items: IndexedVector[]): Promise<void> {
    if (items.length === 0) return;
    for (const i of items) {
      if (i.vector.length !== this.opts.dimensions) {
        throw new VectorIndexError(this.name, `memory ${i.memoryId}: ${i.vector.length} dimensions, expected ${this.opts.dimensions}`);
      }
    }
    const unit = this.unit;
    const schema = vectorSchema(this.opts.dimensions, unit);
    await this.serial(async () => {
      for (let at = 0; at < items.length; at += WRITE_CHUNK) {
        const data = lancedb.makeArrowTable(items.slice(at, at + WRITE_CHUNK).map((i) => toRow(i, unit)) as never, { schema });
        await this.tbl().mergeInsert('memory_id').whenMatchedUpdateAll().whenNotMatchedInsertAll().execute(data);
      }
    }, 'upsert failed');
    this.wrote(items.length);
  }

  async setStatus(memoryIds: string[], status: MemoryStatus): Promise<void> {
    if (memoryIds.length === 0) return;
    await this.serial(async () => {
      const where = sqlIn('memory_id', memoryIds);
      await this.tbl().update({ where, values: { status } });
    }, 'status update failed');
    this.wrote(memoryIds.length);
  }

  async remove(memoryIds: string[]): Promise<void> {
    if (memoryIds.length === 0) return;
    await this.serial(() => this.tbl().delete(sqlIn('memory_id', memoryIds)), 'remove failed');
    await this.erase();
  }

  async removeSpace(spaceId: string): Promise<void> {
    await this.serial(() => this.tbl().delete(`space_id = ${sqlString(spaceId)}`), 'removeSpace failed');
    await this.erase();
  }

  /**
   * Erasure that erases (docs/erasure.md): a delete only marks rows in a deletion file;
   * the rows, their ids and vectors, stay in the data files of this and every older
   * version. Compacting rewrites the fragments without them, and pruning every version
   * but the current one, unverified files included (a compaction that failed to commit may
   * have left copies of the rows), removes the files that held them. An embedded store's
   * process owns the directory (docs/ownership.md); in a directory shared by instances of one
   * server, the erasure waits for any compaction in flight (`rewriting`).
   */
  private async erase(): Promise<void> {
    await this.rewriting(true, () => this.serial(async () => {
      await this.tbl().optimize({ cleanupOlderThan: new Date(), deleteUnverified: true });
    }, 'erasure compaction failed'));
  }

  /**
   * Compaction and erasure rewrite and delete the directory's files: one instance at a time
   * (`REWRITE_LOCK`). An erasure removes files no version names yet, which may be another
   * instance's compaction in flight (a commit naming removed files leaves the table unreadable),
   * so it waits for that compaction; a compaction finding the lock held is skipped.
   */
  private async rewriting(wait: boolean, fn: () => Promise<void>): Promise<void> {
    const ex = this.opts.exclusive;
    if (ex) await ex(REWRITE_LOCK, fn, { wait });
    else await fn();
  }

  async search(s: VectorSearch): Promise<VectorHit[]> {
    try {
      const t = this.tbl();
      // In a shared directory another instance's erasure may have pruned the version this read
      // began on: read the latest, once.
      return await onLatestOnce(t, (e) => this.opts.shared === true && /not found/i.test(String(e)),
        () => searchLance({ table: t, unit: this.unit, hasAnn: this.hasAnn }, s));
    } catch (e) {
      throw e instanceof VectorIndexError ? e : new VectorIndexError(this.name, 'search failed', e);
    }
  }

  /** Rows in the table, optionally of one space (tests, reindex reports). */
  async count(spaceId?: string): Promise<number> {
    try {
      return await this.tbl().countRows(spaceId ? `space_id = ${sqlString(spaceId)}` : undefined);
    } catch (e) {
      throw e instanceof VectorIndexError ? e : new VectorIndexError(this.name, 'count failed', e);
    }
  }

  /** Status stored for each id (tests check what the outbox delivered). */
  async statuses(memoryIds: string[]): Promise<Map<string, string>> {
    if (memoryIds.length === 0) return new Map();
    const rows = (await this.tbl().query().where(sqlIn('memory_id', memoryIds)).select(['memory_id', 'status']).toArray()) as { memory_id: string; status: string }[];
    return new Map(rows.map((r) => [r.memory_id, r.status]));
  }

  /** Compacts now (also what the schedule runs): merges fragments, updates indices, prunes old versions. */
  async optimize(): Promise<void> {
    await this.schedule?.trigger();
  }

  private async compact(): Promise<void> {
    await this.rewriting(false, () => this.compactHere());
  }

  private async compactHere(): Promise<void> {
    await this.serial(async () => {
      const t = this.tbl();
      if (!this.hasAnn && this.annAbove > 0 && (await t.countRows()) >= this.annAbove) {
        await t.createIndex('vector', { config: lancedb.Index.hnswSq({ distanceType: 'cosine' }) });
        this.hasAnn = true;
      }
      // Another process committed while this one rewrote (a shared directory): plan again on
      // its version, once; a second conflict waits for the next compaction.
      await onLatestOnce(t, (e) => /retryable commit conflict/i.test(String(e)),
        () => t.optimize({ cleanupOlderThan: new Date(Date.now() - this.policy.keepVersionsMs) }));
      this.schedule?.sized(await t.countRows());
    }, 'compaction failed');
  }

  async close(): Promise<void> {
    // Leave a compacted table behind (short CLI runs never reach the schedule); not for throwaway
    // directories, nor for one deleted under it (there is nothing left to compact).
    if (this.opts.dir !== null && this.table && this.dir && existsSync(this.dir)) await this.schedule?.flush();
    await this.schedule?.stop();
    this.schedule = null;
    await this.queue;
    this.table?.close();
    this.table = null;
    this.db?.close();
    this.db = null;
    if (this.opts.dir === null && this.dir) {
      await rm(this.dir, { recursive: true, force: true });
      this.dir = null;
    }
  }
}
