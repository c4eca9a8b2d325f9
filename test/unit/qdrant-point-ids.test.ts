/**
 * Qdrant point ids (adapters/qdrant/qdrant-support.ts): any memory id the store accepts
 * (free text) maps to one stable UUIDv5 point id, and the memory id comes back from the
 * payload, never from the point id.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { memoryIdOf, POINT_ID_NAMESPACE, pointIdFor, uuidV5 } from '../../adapters/qdrant/qdrant-support.js';

const UUID_V5 = /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Memory ids of every shape the store takes: bench ids, UUIDs in both cases, unicode, long, odd. */
function sampleIds(): string[] {
  const ids: string[] = [];
  for (let i = 0; i < 500; i++) ids.push(`bench-m${i}`);
  for (let i = 0; i < 200; i++) {
    const u = randomUUID();
    ids.push(u, u.toUpperCase());
  }
  ids.push('x', ' ', 'a b', 'ünïcödé-記憶-🧠', 'e\u0301', '\u00e9', 'm'.repeat(5_000), `${'n'.repeat(4_999)}o`, "x' or 1=1", '42', '0', '');
  return ids;
}

describe('Qdrant point ids (UUIDv5 of the memory id)', () => {
  it('is RFC 4122 version 5 (the RFC 9562 test vector)', () => {
    // RFC 9562 appendix A.4: UUIDv5 of "www.example.com" in the DNS namespace.
    expect(uuidV5('www.example.com', '6ba7b810-9dad-11d1-80b4-00c04fd430c8')).toBe('2ed6657d-e927-568b-95e1-2665a8aea6a2');
    expect(POINT_ID_NAMESPACE).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('gives every memory id one stable point id, distinct ids distinct points', () => {
    const ids = sampleIds();
    const points = ids.map(pointIdFor);
    for (const p of points) expect(p).toMatch(UUID_V5);
    expect(ids.map(pointIdFor)).toEqual(points); // stable
    expect(new Set(points).size).toBe(new Set(ids).size); // no two memory ids share a point
  });

  it('keeps case: an upper-case UUID is another memory than its lower-case twin, and neither is used as the point id', () => {
    const u = randomUUID().toUpperCase();
    expect(pointIdFor(u)).not.toBe(pointIdFor(u.toLowerCase()));
    expect(pointIdFor(u)).not.toBe(u.toLowerCase());
  });

  it('reads the memory id back from the payload, exactly as written', () => {
    for (const id of sampleIds()) {
      const payload = JSON.parse(JSON.stringify({ memory_id: id, space_id: 's', kind: 'STATEMENT', status: 'ACTIVE' }));
      expect(memoryIdOf(payload)).toBe(id);
    }
    expect(memoryIdOf({ other: 1 })).toBeNull();
    expect(memoryIdOf(null)).toBeNull();
  });
});
