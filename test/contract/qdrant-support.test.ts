/** The Qdrant adapter's pure rules (no server needed): names, the connection, the tenant filter, scores, the version rule. */
import { describe, expect, it } from 'vitest';
import { QdrantClient } from '@qdrant/js-client-rest';
import {
  clientAddress, collectionNameFor, portScore, QDRANT_CLIENT_VERSION, searchFilter, versionMismatch,
} from '../../adapters/qdrant/qdrant-support.js';
import { QdrantIndex } from '../../adapters/qdrant/qdrant-index.js';
import { readFileSync } from 'node:fs';

describe('Qdrant adapter rules', () => {
  it('names one collection per embedder, dimensions and metric, readable and sanitised', () => {
    expect(collectionNameFor('use-lite-512', 512, 'cosine')).toMatch(/^engram_use-lite-512_[0-9a-f]{12}$/);
    expect(collectionNameFor('openai/text-embedding-3-small:1536', 1536, 'cosine')).toMatch(/^engram_openai_text-embedding-3-small_1536_[0-9a-f]{12}$/);
  });

  it('never lets two embedders of one dimension share a collection, however long their ids', () => {
    const long = 'vendor/model-'.padEnd(300, 'x');
    const names = new Set([
      collectionNameFor(`${long}-a`, 512, 'cosine'), collectionNameFor(`${long}-b`, 512, 'cosine'),
      collectionNameFor('a/b', 512, 'cosine'), collectionNameFor('a_b', 512, 'cosine'),
      collectionNameFor('a/b', 384, 'cosine'), collectionNameFor('a/b', 512, 'l2'),
    ]);
    expect(names.size).toBe(6);
    for (const n of names) expect(n.length).toBeLessThanOrEqual(140);
    expect(collectionNameFor('a/b', 512, 'cosine')).toBe(collectionNameFor('a/b', 512, 'cosine'));
  });

  it('keeps the URL path as the prefix and the scheme default port (no forced 6333)', () => {
    expect(clientAddress('https://qdrant.example.com')).toEqual({ url: 'https://qdrant.example.com', port: 443 });
    expect(clientAddress('https://proxy.example.com/qdrant/')).toEqual({ url: 'https://proxy.example.com', port: 443, prefix: '/qdrant' });
    expect(clientAddress('http://127.0.0.1:6333')).toEqual({ url: 'http://127.0.0.1', port: 6333 });
    expect(clientAddress('http://qdrant.internal')).toEqual({ url: 'http://qdrant.internal', port: 80 });
    expect(clientAddress('http://[::1]:7000/a/b')).toEqual({ url: 'http://[::1]', port: 7000, prefix: '/a/b' });
    expect(() => clientAddress('qdrant:6333')).toThrow(/http/);
    // What the 1.18 client builds from it (its REST base, read for this check only).
    const rest = (a: ReturnType<typeof clientAddress>) => (new QdrantClient({ ...a, checkCompatibility: false }) as unknown as { _restUri: string })._restUri;
    expect(rest(clientAddress('https://proxy.example.com/qdrant'))).toBe('https://proxy.example.com:443/qdrant');
    expect(rest(clientAddress('http://127.0.0.1:6333'))).toBe('http://127.0.0.1:6333');
  });

  it('maps Qdrant scores to the port: cosine as is, Euclid distance negated for L2, 1 − d²/2 for cosine', () => {
    expect(portScore('Cosine', 'cosine', 0.83)).toBe(0.83);
    expect(portScore('Euclid', 'l2', 1.25)).toBe(-1.25);
    expect(portScore('Euclid', 'cosine', Math.SQRT2)).toBeCloseTo(0, 6); // orthogonal unit vectors
    expect(portScore('Euclid', 'cosine', 0)).toBe(1);
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

  it('knows the client version pinned in package.json, and docker-compose runs a server of the same minor', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    expect(pkg.dependencies['@qdrant/js-client-rest']).toBe(QDRANT_CLIENT_VERSION);
    const compose = readFileSync(new URL('../../docker-compose.yml', import.meta.url), 'utf8');
    const image = /image:\s*qdrant\/qdrant:v(\S+)/.exec(compose)?.[1];
    expect(image).toBeDefined();
    expect(versionMismatch(QDRANT_CLIENT_VERSION, image!)).toBeNull();
    expect(image!.split('.').slice(0, 2)).toEqual(QDRANT_CLIENT_VERSION.split('.').slice(0, 2));
  });

  it('declares cosine, or L2 and cosine for a Euclid collection, and does no I/O before init', async () => {
    const q = new QdrantIndex({ url: 'http://127.0.0.1:1', embedderId: 'x', dimensions: 4 });
    expect(q.capabilities.metrics).toEqual(['cosine']);
    expect(new QdrantIndex({ url: 'http://127.0.0.1:1', embedderId: 'x', dimensions: 4, metric: 'l2' }).capabilities.metrics).toEqual(['l2', 'cosine']);
    await expect(q.search({ spaceId: 's', vector: new Float32Array(4), k: 1 })).rejects.toThrow(/not initialised/);
  });
});
