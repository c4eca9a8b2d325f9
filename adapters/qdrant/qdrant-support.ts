/**
 * Pure helpers of the Qdrant adapter: names, ids, filters and the version
 * rule. No I/O, so they are unit-testable without a server.
 */

/** The client this adapter is written and tested against (pinned in package.json). */
export const QDRANT_CLIENT_VERSION = '1.18.0';

/** Collection name for an embedder id: Qdrant allows long names, keep them portable anyway. */
export function collectionNameFor(embedderId: string): string {
  const clean = embedderId.replace(/[^A-Za-z0-9_-]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 180);
  return `engram_${clean || 'default'}`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Qdrant point ids are unsigned integers or UUIDs; memory ids are UUIDs and used as they are. */
export function isPointId(id: string): boolean {
  return UUID.test(id);
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

export interface QdrantFilter {
  must: Array<{ key: string; match: { value: string } | { any: string[] } }>;
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
