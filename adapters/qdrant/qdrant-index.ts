import { QdrantClient } from '@qdrant/js-client-rest';
import type {
  IndexedVector, VectorHit, VectorIndex, VectorIndexCapabilities, VectorSearch,
} from '../../src/ports/vector-index.js';
import { VectorIndexError } from '../../src/ports/vector-index.js';
import type { MemoryStatus } from '../../src/core/types.js';
import {
  collectionNameFor, isPointId, QDRANT_CLIENT_VERSION, searchFilter, spaceFilter, versionMismatch,
} from './qdrant-support.js';

export interface QdrantOptions {
  url: string;
  apiKey?: string;
  embedderId: string;
  dimensions: number;
  /** Overrides the collection name derived from the embedder id (tests use a throwaway one). */
  collection?: string;
  /** Points per upsert request. */
  batch?: number;
  /** HNSW ef for approximate searches. */
  hnswEf?: number;
  /** Per-request timeout in milliseconds. */
  timeoutMs?: number;
  /** 'refuse' (default) fails init on a client/server version gap of more than one minor; 'warn' only reports it. */
  versionPolicy?: 'refuse' | 'warn';
  onWarning?: (message: string) => void;
}

/**
 * Qdrant over REST: one collection per embedder, cosine distance, the space as
 * a tenant (keyword payload index with `is_tenant`) whose condition is in every
 * filter, keyword indices on status and kind. Every write waits for the server
 * to apply it (`wait: true`): an asynchronous write would drop its error.
 * L2 is not offered: a second Euclid vector per point would double the storage
 * for a metric no use case asks for, so the capability says cosine only.
 */
export class QdrantIndex implements VectorIndex {
  readonly name = 'qdrant';
  readonly capabilities: VectorIndexCapabilities = { transactional: false, exactSearch: true, metrics: ['cosine'] };
  readonly collection: string;
  private client: QdrantClient | null = null;
  /** The server's version, read at init. */
  serverVersion: string | null = null;

  constructor(private readonly opts: QdrantOptions) {
    this.collection = opts.collection ?? collectionNameFor(opts.embedderId);
  }

  private api(): QdrantClient {
    if (!this.client) throw new VectorIndexError(this.name, 'not initialised (or closed)');
    return this.client;
  }

  private async call<T>(what: string, fn: (c: QdrantClient) => Promise<T>): Promise<T> {
    const c = this.api();
    try {
      return await fn(c);
    } catch (e) {
      throw new VectorIndexError(this.name, `${what} failed: ${describe(e)}`, e);
    }
  }

  async init(): Promise<void> {
    if (this.client) return;
    // The client's own check only logs, asynchronously, from its constructor; ours runs here and can refuse.
    this.client = new QdrantClient({
      url: this.opts.url, apiKey: this.opts.apiKey, checkCompatibility: false, timeout: this.opts.timeoutMs ?? 30_000,
    });
    try {
      const info = await this.call('version check', (c) => c.versionInfo());
      this.serverVersion = info.version;
      const gap = versionMismatch(QDRANT_CLIENT_VERSION, info.version);
      if (gap) {
        if ((this.opts.versionPolicy ?? 'refuse') === 'refuse') throw new VectorIndexError(this.name, `${gap}; use a matching server or client`);
        this.opts.onWarning?.(`qdrant: ${gap}`);
      }
      await this.ensureCollection();
    } catch (e) {
      this.client = null;
      throw e;
    }
  }

  private async ensureCollection(): Promise<void> {
    const { exists } = await this.call('collection lookup', (c) => c.collectionExists(this.collection));
    if (exists) {
      const info = await this.call('collection info', (c) => c.getCollection(this.collection));
      const vectors = info.config.params.vectors as { size?: number; distance?: string } | undefined;
      if (vectors?.size !== this.opts.dimensions || vectors?.distance !== 'Cosine') {
        throw new VectorIndexError(this.name,
          `collection ${this.collection} holds ${vectors?.size}-dimension ${vectors?.distance} vectors, expected ${this.opts.dimensions} Cosine: run engram reindex --engine qdrant`);
      }
    } else {
      await this.call('create collection', (c) => c.createCollection(this.collection, {
        vectors: { size: this.opts.dimensions, distance: 'Cosine' },
        // Multitenancy: no global graph (m = 0), one HNSW graph per tenant (payload_m) instead.
        hnsw_config: { m: 0, payload_m: 16 },
      }));
    }
    // Creating an existing payload index is a no-op: run them on every start so old collections get them too.
    await this.call('space index', (c) => c.createPayloadIndex(this.collection, {
      field_name: 'space_id', field_schema: { type: 'keyword', is_tenant: true }, wait: true,
    }));
    await this.call('status index', (c) => c.createPayloadIndex(this.collection, { field_name: 'status', field_schema: 'keyword', wait: true }));
    await this.call('kind index', (c) => c.createPayloadIndex(this.collection, { field_name: 'kind', field_schema: 'keyword', wait: true }));
  }

  /** Drops and recreates the collection (reindex). */
  async reset(): Promise<void> {
    await this.call('drop collection', (c) => c.deleteCollection(this.collection));
    await this.ensureCollection();
  }

  /** Deletes the collection (test teardown; reindex uses reset). */
  async dropCollection(): Promise<void> {
    await this.call('drop collection', (c) => c.deleteCollection(this.collection));
  }

  private checkIds(ids: readonly string[]): void {
    const bad = ids.find((id) => !isPointId(id));
    if (bad !== undefined) throw new VectorIndexError(this.name, `memory id ${JSON.stringify(bad.slice(0, 60))} is not a UUID`);
  }

  async upsert(items: IndexedVector[]): Promise<void> {
    if (items.length === 0) return;
    this.checkIds(items.map((i) => i.memoryId));
    for (const i of items) {
      if (i.vector.length !== this.opts.dimensions) {
        throw new VectorIndexError(this.name, `memory ${i.memoryId}: ${i.vector.length} dimensions, expected ${this.opts.dimensions}`);
      }
    }
    const batch = this.opts.batch ?? 256;
    for (let at = 0; at < items.length; at += batch) {
      const points = items.slice(at, at + batch).map((i) => ({
        id: i.memoryId,
        vector: Array.from(i.vector),
        payload: { memory_id: i.memoryId, space_id: i.spaceId, kind: i.kind, status: i.status },
      }));
      await this.call('upsert', (c) => c.upsert(this.collection, { wait: true, points }));
    }
  }

  /** A payload change only: the vector and its HNSW links stay as they are. */
  async setStatus(memoryIds: string[], status: MemoryStatus): Promise<void> {
    if (memoryIds.length === 0) return;
    this.checkIds(memoryIds);
    await this.call('set status', (c) => c.setPayload(this.collection, { payload: { status }, points: memoryIds, wait: true }));
  }

  async remove(memoryIds: string[]): Promise<void> {
    if (memoryIds.length === 0) return;
    this.checkIds(memoryIds);
    await this.call('remove', (c) => c.delete(this.collection, { points: memoryIds, wait: true }));
  }

  async removeSpace(spaceId: string): Promise<void> {
    await this.call('remove space', (c) => c.delete(this.collection, { filter: spaceFilter(spaceId), wait: true }));
  }

  async search(s: VectorSearch): Promise<VectorHit[]> {
    const metric = s.metric ?? 'cosine';
    if (metric !== 'cosine') throw new VectorIndexError(this.name, `metric ${metric} is not offered (capabilities: cosine)`);
    if (s.k <= 0) return [];
    const res = await this.call('search', (c) => c.query(this.collection, {
      query: Array.from(s.vector),
      filter: searchFilter(s.spaceId, s.kind ?? 'STATEMENT', s.statuses ?? ['ACTIVE']),
      limit: s.k,
      params: { exact: s.exact === true, hnsw_ef: Math.max(this.opts.hnswEf ?? 128, s.k) },
      with_payload: false,
      with_vector: false,
    }));
    // Qdrant's Cosine score is the cosine similarity itself.
    return res.points.map((p) => ({ memoryId: String(p.id), score: p.score })).sort((a, b) => b.score - a.score);
  }

  /** Points in the collection, optionally of one space (tests, reindex reports). */
  async count(spaceId?: string): Promise<number> {
    const r = await this.call('count', (c) => c.count(this.collection, { exact: true, ...(spaceId ? { filter: spaceFilter(spaceId) } : {}) }));
    return r.count;
  }

  async close(): Promise<void> {
    this.client = null;
  }
}

function describe(e: unknown): string {
  if (e && typeof e === 'object') {
    const x = e as { message?: string; status?: number; data?: { status?: { error?: string } } };
    const detail = x.data?.status?.error;
    return [x.status, x.message, detail].filter(Boolean).join(' ').slice(0, 300);
  }
  return String(e).slice(0, 300);
}
