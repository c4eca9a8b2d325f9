/**
 * Pure helpers of the Qdrant adapter: names, point ids, the connection, filters,
 * distances and scores, the version rule. No I/O, so they are unit-testable without a server.
 */
import { createHash } from 'node:crypto';
import type { Metric } from '../../src/core/types.js';

/** The client this adapter is written and tested against (pinned in package.json). */
export const QDRANT_CLIENT_VERSION = '1.18.0';

/**
 * Collection name for an embedder, its dimensions and the metric: a readable part
 * (sanitised, cut to 120 characters) and a hash of all three, so two embedders whose
 * ids agree on their first 120 characters, or one embedder at two metrics, never share a collection.
 */
export function collectionNameFor(embedderId: string, dimensions: number, metric: Metric): string {
  const clean = embedderId.replace(/[^A-Za-z0-9_-]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 120);
  const hash = createHash('sha256').update(`${embedderId}\n${dimensions}\n${metric}`).digest('hex').slice(0, 12);
  return `engram_${clean || 'default'}_${hash}`;
}

/**
 * The fixed namespace of Engram's point ids (a random UUID chosen once; changing it
 * would orphan every stored point).
 */
export const POINT_ID_NAMESPACE = '4a91e720-ded1-4e71-b644-e37101a80b6c';

/** RFC 4122 (§4.3) name-based UUID, version 5 (SHA-1): the same name in the same namespace gives the same UUID. */
export function uuidV5(name: string, namespace: string): string {
  const ns = Buffer.from(namespace.replace(/-/g, ''), 'hex');
  if (ns.length !== 16) throw new Error(`namespace ${namespace} is not a UUID`);
  const b = createHash('sha1').update(ns).update(Buffer.from(name, 'utf8')).digest().subarray(0, 16);
  b[6] = (b[6] & 0x0f) | 0x50; // version 5
  b[8] = (b[8] & 0x3f) | 0x80; // RFC 4122 variant
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/**
 * Qdrant point ids are unsigned integers or UUIDs (which it prints lower-case); memory ids
 * are free text. A point's id is the UUIDv5 of the memory id, exactly as stored (case and
 * all), and the memory id itself travels in the payload (`memory_id`) and is read back from it.
 */
export function pointIdFor(memoryId: string): string {
  return uuidV5(memoryId, POINT_ID_NAMESPACE);
}

/** The memory id a point carries in its payload, or null for a point Engram did not write. */
export function memoryIdOf(payload: Record<string, unknown> | null | undefined): string | null {
  const id = payload?.memory_id;
  return typeof id === 'string' ? id : null;
}

/**
 * How QDRANT_URL is handed to the client. The client, given a `url`, keeps only its
 * host and scheme: the path is dropped and a missing port becomes 6333. So the port is
 * the URL's own, else the scheme's default (443 for https, 80 for http), and the path
 * goes in `prefix` (a proxy serving Qdrant under `/qdrant`).
 */
export function clientAddress(raw: string): { url: string; port: number; prefix?: string } {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new Error(`QDRANT_URL ${JSON.stringify(raw)} is not a URL (for example http://127.0.0.1:6333)`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error(`QDRANT_URL must be http:// or https://, not ${u.protocol}`);
  const port = u.port ? Number(u.port) : u.protocol === 'https:' ? 443 : 80;
  const prefix = u.pathname.replace(/\/+$/, '');
  return { url: `${u.protocol}//${u.hostname}`, port, ...(prefix ? { prefix } : {}) };
}

export type QdrantDistance = 'Cosine' | 'Euclid';

export function distanceFor(metric: Metric): QdrantDistance {
  return metric === 'l2' ? 'Euclid' : 'Cosine';
}

/**
 * The port's score from Qdrant's: a Cosine collection scores the cosine similarity; a
 * Euclid collection scores the distance itself (lower is closer), which the port wants
 * negated for L2 (as pgvector's −distance and LanceDB's −√d), and which is
 * 1 − d²/2 as a cosine for unit-length vectors (every embedder's, see the Embedder port).
 */
export function portScore(distance: QdrantDistance, asked: Metric, score: number): number {
  if (distance === 'Cosine') return score;
  return asked === 'l2' ? -score : 1 - (score * score) / 2;
}

/** Whether a vector is unit-length within float tolerance (a cosine asked of a Euclid collection needs it). */
export function isUnitLength(v: Float32Array): boolean {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i] * v[i];
  return Math.abs(s - 1) < 1e-3;
}

export function parseVersion(v: string): { major: number; minor: number; patch: number } | null {
  const m = /^v?(\d+)\.(\d+)(?:\.(\d+))?/.exec(v.trim());
  return m ? { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3] ?? 0) } : null;
}

/**
 * Qdrant's own rule for its clients: same major, minor versions at most one apart.
 * Returns why the pair is refused, or null when it is fine.
 */
export function versionMismatch(client: string, server: string): string | null {
  const c = parseVersion(client);
  const s = parseVersion(server);
  if (!c || !s) return `cannot compare versions (client ${client}, server ${server})`;
  if (c.major !== s.major || Math.abs(c.minor - s.minor) > 1) {
    return `server ${server} and client ${client} are more than one minor version apart`;
  }
  return null;
}

export type QdrantCondition =
  | { key: string; match: { value: string } | { any: string[] } }
  | { has_id: string[] };

export interface QdrantFilter {
  must: QdrantCondition[];
}

/** The tenant condition comes first and is in every filter: a search never crosses a space. */
export function searchFilter(spaceId: string, kind: string, statuses: readonly string[]): QdrantFilter {
  return {
    must: [
      { key: 'space_id', match: { value: spaceId } },
      { key: 'kind', match: { value: kind } },
      { key: 'status', match: { any: [...statuses] } },
    ],
  };
}

export function spaceFilter(spaceId: string): QdrantFilter {
  return { must: [{ key: 'space_id', match: { value: spaceId } }] };
}

/**
 * The points of these memories, as a filter: a status change or removal by filter
 * touches the points that exist and ignores the others (by an id list, `set_payload`
 * answers 404 for a missing one), the way pgvector's UPDATE ... WHERE does.
 */
export function pointsFilter(memoryIds: readonly string[]): QdrantFilter {
  return { must: [{ has_id: memoryIds.map(pointIdFor) }] };
}

/**
 * Payload indices. The space is the tenant (`is_tenant`: its points are stored together,
 * and with `payload_m` each space gets its own HNSW graph). Status and kind are filters
 * only: `enable_hnsw: false`, or Qdrant (with `m: 0`, `payload_m > 0`) would build one
 * more graph per value of each, every one covering nearly the whole collection.
 */
export const PAYLOAD_INDICES = [
  { field_name: 'space_id', field_schema: { type: 'keyword', is_tenant: true } },
  { field_name: 'status', field_schema: { type: 'keyword', enable_hnsw: false } },
  { field_name: 'kind', field_schema: { type: 'keyword', enable_hnsw: false } },
] as const;
