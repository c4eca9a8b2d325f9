/**
 * The collection's lifecycle: create it if missing (tolerating another process that
 * created it first: 409), check its vectors, create the payload indices it lacks
 * (tolerating one created meanwhile), and the epoch marker in the collection's metadata.
 */
import type { QdrantClient } from '@qdrant/js-client-rest';
import { VectorIndexError } from '../../src/ports/vector-index.js';
import { checkUpdate, isConflict, isMissingCollection, wrapQdrantError } from './qdrant-errors.js';
import { PAYLOAD_INDICES, type QdrantDistance } from './qdrant-support.js';

export interface CollectionSpec {
  engine: string;
  name: string;
  dimensions: number;
  distance: QdrantDistance;
  /** Server-side wait for index creation, in seconds. */
  waitSeconds: number;
}

/** The key of the epoch marker in the collection's metadata (Qdrant 1.16+; src/engine-epoch.ts). */
export const EPOCH_KEY = 'engram_epoch';

type CollectionInfo = Awaited<ReturnType<QdrantClient['getCollection']>>;

/** The collection's description, or null when it does not exist. */
export async function collectionInfo(c: QdrantClient, spec: CollectionSpec): Promise<CollectionInfo | null> {
  try {
    return await c.getCollection(spec.name);
  } catch (e) {
    if (isMissingCollection(e)) return null;
    throw wrapQdrantError(spec.engine, 'collection info', e);
  }
}

/** Creates what is missing; returns whether the collection was created by this call. */
export async function ensureCollection(c: QdrantClient, spec: CollectionSpec): Promise<boolean> {
  let info = await collectionInfo(c, spec);
  let created = false;
  if (!info) {
    try {
      await c.createCollection(spec.name, {
        vectors: { size: spec.dimensions, distance: spec.distance },
        // Multitenancy: no global graph (m = 0), one HNSW graph per tenant (payload_m) instead.
        hnsw_config: { m: 0, payload_m: 16 },
        timeout: spec.waitSeconds,
      });
      created = true;
    } catch (e) {
      // 409: another process created it between our look and our create. Anything else is an error.
      if (!isConflict(e)) throw wrapQdrantError(spec.engine, 'create collection', e);
    }
    info = await collectionInfo(c, spec);
    if (!info) throw new VectorIndexError(spec.engine, `collection ${spec.name} is still missing after its creation`, undefined, { transient: true });
  }
  checkVectors(info, spec);
  for (const idx of PAYLOAD_INDICES) {
    if (info.payload_schema?.[idx.field_name]) continue;
    try {
      const r = await c.createPayloadIndex(spec.name, {
        field_name: idx.field_name, field_schema: { ...idx.field_schema }, wait: true, timeout: spec.waitSeconds,
      });
      checkUpdate(spec.engine, `${idx.field_name} index`, r);
    } catch (e) {
      // Another process may have created it meanwhile (or its creation still runs): look again.
      const now = await collectionInfo(c, spec);
      if (now?.payload_schema?.[idx.field_name]) continue;
      throw wrapQdrantError(spec.engine, `${idx.field_name} index`, e);
    }
  }
  return created;
}

function checkVectors(info: CollectionInfo, spec: CollectionSpec): void {
  const vectors = info.config.params.vectors as { size?: number; distance?: string } | undefined;
  if (vectors?.size !== spec.dimensions || vectors?.distance !== spec.distance) {
    throw new VectorIndexError(spec.engine,
      `collection ${spec.name} holds ${vectors?.size}-dimension ${vectors?.distance} vectors, expected ${spec.dimensions} ${spec.distance}: run engram reindex --engine qdrant`);
  }
}

/** The epoch marker, or null when the collection or its marker is missing. */
export async function readEpochMarker(c: QdrantClient, spec: CollectionSpec): Promise<string | null> {
  const info = await collectionInfo(c, spec);
  const epoch = (info?.config.metadata as Record<string, unknown> | null | undefined)?.[EPOCH_KEY];
  return typeof epoch === 'string' ? epoch : null;
}

/** Writes the marker into the collection's metadata (merged with what is there). */
export async function writeEpochMarker(c: QdrantClient, spec: CollectionSpec, epoch: string): Promise<void> {
  try {
    const ok = await c.updateCollection(spec.name, { metadata: { [EPOCH_KEY]: epoch }, timeout: spec.waitSeconds });
    if (ok !== true) throw new Error(`Qdrant answered ${JSON.stringify(ok)}`);
  } catch (e) {
    throw wrapQdrantError(spec.engine, 'epoch marker', e);
  }
}

/** Drops the collection; a missing one is already dropped. */
export async function dropCollection(c: QdrantClient, spec: CollectionSpec): Promise<void> {
  try {
    await c.deleteCollection(spec.name, { timeout: spec.waitSeconds });
  } catch (e) {
    if (!isMissingCollection(e)) throw wrapQdrantError(spec.engine, 'drop collection', e);
  }
}
