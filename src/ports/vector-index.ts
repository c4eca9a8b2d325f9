import type { MemoryKind, MemoryStatus, Metric } from '../core/types.js';

/** One indexed vector: a memory's fingerprint plus the fields searches filter on. */
export interface IndexedVector {
  memoryId: string;
  spaceId: string;
  kind: MemoryKind;
  status: MemoryStatus;
  vector: Float32Array;
}

export interface VectorSearch {
  spaceId: string;
  vector: Float32Array;
  k: number;
  /** Defaults to ['ACTIVE']. */
  statuses?: MemoryStatus[];
  /** Defaults to 'STATEMENT'. */
  kind?: MemoryKind;
  metric?: Metric;
  /** Ask for exact distances (the recognition check compares them with a threshold). */
  exact?: boolean;
  /**
   * With `exact`: only hits scoring at least this much are needed (recognition's lowest
   * threshold). An engine may then use a pre-filter that can only lose far vectors, such as
   * pgvector's quantised first pass; without it, `exact` means the exact top k.
   */
  minScore?: number;
  /**
   * With `minScore`, from a caller that reads every hit's record and drops those without a wanted
   * status itself, and checks under its write lock that nothing was written in the space since it
   * began (recognition before its lock, src/memory/remember.ts): the engine may return every row
   * scoring at least `minScore` whatever its status (nearest first, possibly more than k), ranked
   * from a copy read ahead without asking whether it is current. An engine may ignore it.
   */
  preliminary?: boolean;
}

export interface VectorHit {
  memoryId: string;
  /** Cosine similarity in [-1, 1] for 'cosine'; negative L2 distance for 'l2' (higher is closer). */
  score: number;
}

export interface VectorIndexCapabilities {
  /** Lives in the system-of-record database: writes join its transaction, no outbox needed. */
  transactional: boolean;
  /** Can return exact distances when asked. */
  exactSearch: boolean;
  metrics: Metric[];
  /**
   * Searches the system of record's own copy (`memory_vectors`, pgvector): the store's write of
   * a new memory's vector indexes it, and `stored` is told of it instead of an `upsert`.
   */
  storeVectors?: boolean;
  /**
   * Each write costs the engine's readers something (LanceDB: a table version every search
   * then opens): the outbox applies rows right after commit only once this many commits are
   * waiting, else at its next background pass (`ENGRAM_OUTBOX_INTERVAL_MS`). Unset: at once.
   */
  gatherWrites?: number;
}

/** Transaction handle passed through from the store; adapters that are not transactional ignore it. */
export type TxHandle = unknown;

/**
 * A vector engine behind Engram: an index over PostgreSQL, never the system of record.
 * Constructors do no I/O; `init()` connects and creates what is missing.
 */
export interface VectorIndex {
  readonly name: string;
  readonly capabilities: VectorIndexCapabilities;
  init(): Promise<void>;
  upsert(items: IndexedVector[], tx?: TxHandle): Promise<void>;
  /** With `capabilities.storeVectors`: these vectors were written to the system of record's table by the store. */
  stored?(items: IndexedVector[]): void;
  /** Status changes are frequent; they must not rewrite a vector index. */
  setStatus(memoryIds: string[], status: MemoryStatus, tx?: TxHandle): Promise<void>;
  remove(memoryIds: string[], tx?: TxHandle): Promise<void>;
  /** Drops every vector of a space (sealed spaces are dropped as a whole). */
  removeSpace(spaceId: string, tx?: TxHandle): Promise<void>;
  search(q: VectorSearch, tx?: TxHandle): Promise<VectorHit[]>;
  /**
   * Memories deleted by another instance (committed; src/store/pg-erasures.ts): what this process
   * holds of them goes. `ids` null: the space's whole copy; `spaceId` null: everything held.
   */
  letGo?(spaceId: string | null, ids: readonly string[] | null): void;
  /**
   * A search of this space and kind is coming (its vector is being embedded): an engine may read
   * ahead what that search needs. A hint only: the search is as correct without it, and a
   * failure here is the search's to report. `statuses`: those that search will ask for, when the
   * caller may be answered as of this call (recall: it comes after the request; recognition before
   * its lock: the space's last event id, read before this call, is checked before its write). An
   * engine may then read ahead which rows have other statuses and not read statuses again after
   * the embedding. A search in a transaction is never answered from a read-ahead. `exact`: the
   * search that follows will ask for exact distances (recognition); without it an engine may
   * answer from an approximate index and read nothing ahead.
   */
  prepare?(spaceId: string, kind: MemoryKind, statuses?: readonly MemoryStatus[], exact?: boolean): Promise<void>;
  close(): Promise<void>;
  /**
   * Engines outside PostgreSQL: the epoch marker written with the store when the engine
   * was (re)built from it; a missing or other one means the engine is not the store's
   * (lost, restored from elsewhere) and is rebuilt (src/engine-epoch.ts).
   */
  readEpoch?(): Promise<string | null>;
  writeEpoch?(epoch: string): Promise<void>;
  /** Rows held, optionally of one space (an engine holding fewer or more than the store is older). */
  count?(spaceId?: string): Promise<number>;
  /** Drops and recreates the engine's table or collection (rebuilds). */
  reset?(): Promise<void>;
}

export class VectorIndexError extends Error {
  /**
   * The engine said "not now" rather than "never" (a timeout, a rate limit, a write not
   * applied yet): the outbox keeps the row and retries it without counting the attempt.
   */
  readonly transient: boolean;
  constructor(readonly engine: string, message: string, override readonly cause?: unknown, opts: { transient?: boolean } = {}) {
    super(`${engine}: ${message}`);
    this.name = 'VectorIndexError';
    this.transient = opts.transient ?? false;
  }
}
