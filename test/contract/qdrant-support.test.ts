/** The Qdrant adapter's pure rules (no server needed): names, ids, the tenant filter, the version rule. */
import { describe, expect, it } from 'vitest';
import {
  collectionNameFor, isPointId, QDRANT_CLIENT_VERSION, searchFilter, versionMismatch,
} from '../../adapters/qdrant/qdrant-support.js';
import { QdrantIndex } from '../../adapters/qdrant/qdrant-index.js';
import { readFileSync } from 'node:fs';

describe('Qdrant adapter rules', () => {
  it('names one collection per embedder, sanitised', () => {
    expect(collectionNameFor('use-lite-512')).toBe('engram_use-lite-512');
    expect(collectionNameFor('openai/text-embedding-3-small:1536')).toBe('engram_openai_text-embedding-3-small_1536');
  });

  it('accepts UUIDs as point ids and nothing else', () => {
    expect(isPointId('0b6f0c1e-8d1a-4c51-9f7e-2a7b3c4d5e6f')).toBe(true);
    expect(isPointId('42')).toBe(false);
    expect(isPointId("x' or 1=1")).toBe(false);
  });

  it('puts the tenant condition first in every search filter', () => {
    const f = searchFilter('space-1', 'STATEMENT', ['ACTIVE']);
    expect(f.must[0]).toEqual({ key: 'space_id', match: { value: 'space-1' } });
    expect(f.must).toContainEqual({ key: 'status', match: { any: ['ACTIVE'] } });
  });

  it('allows client and server within one minor version, same major', () => {
    expect(versionMismatch('1.18.0', '1.18.2')).toBeNull();
    expect(versionMismatch('1.18.0', '1.17.0')).toBeNull();
    expect(versionMismatch('1.18.0', '1.19.1')).toBeNull();
    expect(versionMismatch('1.18.0', '1.16.0')).toMatch(/more than one minor/);
    expect(versionMismatch('1.18.0', '2.18.0')).toMatch(/more than one minor/);
  });

  it('knows the client version pinned in package.json', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    expect(pkg.dependencies['@qdrant/js-client-rest']).toBe(QDRANT_CLIENT_VERSION);
  });

  it('declares cosine only and does no I/O before init', async () => {
    const q = new QdrantIndex({ url: 'http://127.0.0.1:1', embedderId: 'x', dimensions: 4 });
    expect(q.capabilities.metrics).toEqual(['cosine']);
    await expect(q.search({ spaceId: 's', vector: new Float32Array(4), k: 1 })).rejects.toThrow(/not initialised/);
  });
});
