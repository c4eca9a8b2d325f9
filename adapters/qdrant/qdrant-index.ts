import { QdrantClient } from '@qdrant/js-client-rest';
import type {
  IndexedVector, VectorHit, VectorIndex, VectorIndexCapabilities, VectorSearch,
} from '../../src/ports/vector-index.js';
import { VectorIndexError } from '../../src/ports/vector-index.js';
import type { MemoryStatus, Metric } from '../../src/core/types.js';
import {
  clientAddress, collectionNameFor, distanceFor, isUnitLength, memoryIdOf, pointIdFor, pointsFilter, portScore,
  QDRANT_CLIENT_VERSION, searchFilter, spaceFilter, versionMismatch, type QdrantDistance,
} from './qdrant-support.js';
import { checkUpdate, isMissingCollection, wrapQdrantError } from './qdrant-errors.js';
import {
  dropCollection, ensureCollection, readEpochMarker, writeEpochMarker, type CollectionSpec,
} from './qdrant-collection.js';

/** Reads (search, count, collection info): a hung server must not hold a recall for minutes. */
export const DEFAULT_READ_TIMEOUT_MS = 30_000;
/**
 * Writes sent with `wait: true` (a batch of 256 points, a delete by filter over a big
 * space), collection and payload-index creation on existing data: the client's own
 * default (300 s). The server is asked to stop waiting 10 s earlier, so it answers
 * `wait_timeout` (retried) before the client gives up on the connection.
 */
export const DEFAULT_WRITE_TIMEOUT_MS = 300_000;

export interface QdrantOptions {
  url: string;
  apiKey?: string;
  embedderId: string;
  dimensions: number;
  /** The collection's distance: 'cosine' (default) or 'l2' (Euclid). */
  metric?: Metric;
  /** Overrides the collection name derived from the embedder (tests use a throwaway one). */
  collection?: string;
  /** Points per upsert request. */
  batch?: number;
  /** HNSW ef for approximate searches. */
  hnswEf?: number;
  /** Per-request timeout of reads, in milliseconds. */
  timeoutMs?: number;
  /** Per-request timeout of writes and of collection / index creation, in milliseconds. */
  writeTimeoutMs?: number;
  /** 'refuse' (default) fails init on a client/server version gap of more than one minor; 'warn' only reports it. */
  versionPolicy?: 'refuse' | 'warn';
  onWarning?: (message: string) => void;
}

/** Ids per status change or removal request (a `has_id` filter). */
const IDS_PER_REQUEST = 1_000;

/**
 * Qdrant over REST: one collection per embedder, dimensions and metric (Cosine, or
 * Euclid for L2), the space as a tenant (keyword payload index with `is_tenant`)
 * whose condition is in every filter, keyword indices without HNSW links on status
 * and kind. Point ids are UUIDv5 of the memory ids, which travel in the payload.
 * Every write waits for the server (`wait: true`) and is accepted only when Qdrant
 * says `completed`; timeouts, rate limits and unfinished writes are transient
 * (the outbox retries them). A collection dropped under a running process is
 * recreated on the next call (empty: the next start rebuilds it, its epoch marker gone).
 */
export class QdrantIndex implements VectorIndex {
  readonly name = 'qdrant';
  readonly capabilities: VectorIndexCapabilities;
  readonly collection: string;
  readonly distance: QdrantDistance;
  private reads: QdrantClient | null = null;
  private writes: QdrantClient | null = null;
  private recreating: Promise<void> | null = null;
  /** The server's version, read at init. */
  serverVersion: string | null = null;

  constructor(private readonly opts: QdrantOptions) {
    const metric = opts.metric ?? 'cosine';
    this.distance = distanceFor(metric);
    this.collection = opts.collection ?? collectionNameFor(opts.embedderId, opts.dimensions, metric);
    // A Euclid collection also answers cosine for unit-length vectors (1 − d²/2); a Cosine
    // collection normalises what it stores, so L2 cannot be derived from it.
    this.capabilities = { transactional: false, exactSearch: true, metrics: metric === 'l2' ? ['l2', 'cosine'] : ['cosine'] };
  }

  private get waitSeconds(): number {
    return Math.max(1, Math.floor((this.opts.writeTimeoutMs ?? DEFAULT_WRITE_TIMEOUT_MS) / 1000) - 10);
  }

  private get spec(): CollectionSpec {
    return { engine: this.name, name: this.collection, dimensions: this.opts.dimensions, distance: this.distance, waitSeconds: this.waitSeconds };
  }

  private client(kind: 'read' | 'write'): QdrantClient {
    const c = kind === 'read' ? this.reads : this.writes;
    if (!c) throw new VectorIndexError(this.name, 'not initialised (or closed)');
    return c;
  }

  private makeClient(timeout: number): QdrantClient {
    // The client's own version check only logs, asynchronously, from its constructor; ours runs in init and can refuse.
    return new QdrantClient({ ...clientAddress(this.opts.url), apiKey: this.opts.apiKey, checkCompatibility: false, timeout });
  }

  async init(): Promise<void> {
    if (this.reads) return;
    try {
      this.reads = this.makeClient(this.opts.timeoutMs ?? DEFAULT_READ_TIMEOUT_MS);
      this.writes = this.makeClient(this.opts.writeTimeoutMs ?? DEFAULT_WRITE_TIMEOUT_MS);
    } catch (e) {
      throw new VectorIndexError(this.name, e instanceof Error ? e.message : String(e), e);
    }
    try {
      let info: { version: string };
      try {
        info = await this.client('read').versionInfo();
      } catch (e) {
        throw wrapQdrantError(this.name, 'version check', e);
      }
      this.serverVersion = info.version;
      const gap = versionMismatch(QDRANT_CLIENT_VERSION, info.version);
      if (gap) {
        if ((this.opts.versionPolicy ?? 'refuse') === 'refuse') throw new VectorIndexError(this.name, `${gap}; use a matching server or client`);
        this.opts.onWarning?.(`qdrant: ${gap}`);
      }
      await ensureCollection(this.client('write'), this.spec);
    } catch (e) {
      this.reads = this.writes = null;
      throw e;
    }
  }

  /** The collection vanished (dropped by hand, storage lost): create it again, once for concurrent callers. */
  private recreate(what: string): Promise<void> {
    this.recreating ??= (async () => {
      try {
        if (await ensureCollection(this.client('write'), this.spec)) {
          this.opts.onWarning?.(`qdrant: collection ${this.collection} was missing (${what}): recreated empty; `
            + 'it is rebuilt from PostgreSQL at the next start (its epoch marker is gone) or by engram reindex --engine qdrant');
        }
      } finally {
        this.recreating = null;
      }
    })();
    return this.recreating;
  }

  /** One call; on a 404 (the collection is gone) the collection is recreated and the call made once more. */
  private async call<T>(kind: 'read' | 'write', what: string, fn: (c: QdrantClient) => Promise<T>): Promise<T> {
    try {
      return await fn(this.client(kind));
    } catch (e) {
      if (!isMissingCollection(e)) throw wrapQdrantError(this.name, what, e);
    }
    await this.recreate(what);
    try {
      return await fn(this.client(kind));
    } catch (e) {
      const err = wrapQdrantError(this.name, what, e);
      throw isMissingCollection(e) ? new VectorIndexError(this.name, err.message, e, { transient: true }) : err;
    }
  }

  /** A write with `wait: true`, accepted only when Qdrant says it is `completed`. */
  private async write(what: string, fn: (c: QdrantClient, timeout: number) => Promise<{ status?: unknown }>): Promise<void> {
    const r = await this.call('write', what, (c) => fn(c, this.waitSeconds));
    checkUpdate(this.name, what, r);
  }

  /** Drops and recreates the collection (reindex, rebuild). */
  async reset(): Promise<void> {
    await dropCollection(this.client('write'), this.spec);
    await ensureCollection(this.client('write'), this.spec);
  }

  /** Deletes the collection (test teardown; reindex uses reset). */
  async dropCollection(): Promise<void> {
    await dropCollection(this.client('write'), this.spec);
  }

  /** The epoch marker lives in the collection's metadata: dropping the collection drops it. */
  async readEpoch(): Promise<string | null> {
    return readEpochMarker(this.client('read'), this.spec);
  }

  async writeEpoch(epoch: string): Promise<void> {
    await writeEpochMarker(this.client('write'), this.spec, epoch);
  }

  async upsert(items: IndexedVector[]): Promise<void> {
    if (items.length === 0) return;
    for (const i of items) {
      if (i.vector.length !== this.opts.dimensions) {
        throw new VectorIndexError(this.name, `memory ${i.memoryId}: ${i.vector.length} dimensions, expected ${this.opts.dimensions}`);
      }
    }
    const batch = this.opts.batch ?? 256;
    for (let at = 0; at < items.length; at += batch) {
      const points = items.slice(at, at + batch).map((i) => ({
        id: pointIdFor(i.memoryId),
        vector: Array.from(i.vector),
        payload: { memory_id: i.memoryId, space_id: i.spaceId, kind: i.kind, status: i.status },
      }));
      await this.write('upsert', (c, timeout) => c.upsert(this.collection, { wait: true, timeout, points }));
    }
  }

  /**
   * A payload change by a `has_id` filter: points that exist get the status, missing
   * ones are skipped (as pgvector's UPDATE). The vector is not rewritten, but Qdrant
   * copies a point out of an immutable (optimised) segment to change its payload, so the
   * point is re-indexed there (docs/engines.md).
   */
  async setStatus(memoryIds: string[], status: MemoryStatus): Promise<void> {
    for (let at = 0; at < memoryIds.length; at += IDS_PER_REQUEST) {
      const filter = pointsFilter(memoryIds.slice(at, at + IDS_PER_REQUEST));
      await this.write('set status', (c, timeout) => c.setPayload(this.collection, { payload: { status }, filter, wait: true, timeout }));
    }
  }

  /** Deletes by a `has_id` filter: missing ids are a no-op. */
  async remove(memoryIds: string[]): Promise<void> {
    for (let at = 0; at < memoryIds.length; at += IDS_PER_REQUEST) {
      const filter = pointsFilter(memoryIds.slice(at, at + IDS_PER_REQUEST));
      await this.write('remove', (c, timeout) => c.delete(this.collection, { filter, wait: true, timeout }));
    }
  }

  async removeSpace(spaceId: string): Promise<void> {
    await this.write('remove space', (c, timeout) => c.delete(this.collection, { filter: spaceFilter(spaceId), wait: true, timeout }));
  }

  async search(s: VectorSearch): Promise<VectorHit[]> {
    const metric = s.metric ?? 'cosine';
    if (!this.capabilities.metrics.includes(metric)) {
      throw new VectorIndexError(this.name, `metric ${metric} is not offered by a ${this.distance} collection (capabilities: ${this.capabilities.metrics.join(', ')})`);
    }
    if (metric === 'cosine' && this.distance === 'Euclid' && !isUnitLength(s.vector)) {
      throw new VectorIndexError(this.name, 'a cosine search of an L2 (Euclid) collection needs a unit-length query vector');
    }
    if (s.k <= 0) return [];
    const res = await this.call('read', 'search', (c) => c.query(this.collection, {
      query: Array.from(s.vector),
      filter: searchFilter(s.spaceId, s.kind ?? 'STATEMENT', s.statuses ?? ['ACTIVE']),
      limit: s.k,
      params: { exact: s.exact === true, hnsw_ef: Math.max(this.opts.hnswEf ?? 128, s.k) },
      with_payload: ['memory_id'],
      with_vector: false,
    }));
    const hits: VectorHit[] = [];
    for (const p of res.points) {
      const memoryId = memoryIdOf(p.payload);
      if (memoryId !== null) hits.push({ memoryId, score: portScore(this.distance, metric, p.score) });
    }
    return hits.sort((a, b) => b.score - a.score);
  }

  /** Points in the collection, optionally of one space (tests, the engine check at start). */
  async count(spaceId?: string): Promise<number> {
    const r = await this.call('read', 'count', (c) => c.count(this.collection, { exact: true, ...(spaceId ? { filter: spaceFilter(spaceId) } : {}) }));
    return r.count;
  }

  async close(): Promise<void> {
    this.reads = this.writes = null;
  }
}
