/**
 * The Qdrant adapter's REST exchanges, replayed against documented answers
 * (test/protocol/qdrant-replay.ts): PROTOCOL tests, not engine tests. They show
 * what the adapter sends and how it reads what Qdrant documents; what Qdrant does
 * with it is judged by the contract suite against a live server (docs/engines.md).
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { QdrantIndex, type QdrantOptions } from '../../adapters/qdrant/qdrant-index.js';
import { pointIdFor } from '../../adapters/qdrant/qdrant-support.js';
import { ENGRAM_INDICES, fail, noCollection, ok, QdrantReplay, update } from './qdrant-replay.js';

const NAME = 'engram_protocol';
const P = `/collections/${NAME}`;
const open: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (open.length) await open.pop()!();
});

async function replay(opts: Parameters<typeof QdrantReplay.start>[1] = {}): Promise<QdrantReplay> {
  const r = await QdrantReplay.start(NAME, opts);
  open.push(() => r.close());
  return r;
}

async function index(r: QdrantReplay, opts: Partial<QdrantOptions> = {}): Promise<QdrantIndex> {
  const q = new QdrantIndex({ url: r.url, embedderId: 'protocol', dimensions: 4, collection: NAME, ...opts });
  await q.init();
  open.push(() => q.close());
  return q;
}

const existing = { exists: true, payloadSchema: ENGRAM_INDICES };
const v = (...x: number[]) => new Float32Array(x);

describe('Qdrant protocol (replayed exchanges), not the engine', () => {
  it('1. writes any memory id as its UUIDv5 point, the memory id in the payload, and reads it back from the payload', async () => {
    const r = await replay({ state: existing });
    const q = await index(r);
    const ids = ['bench-m17', 'F0E1D2C3-B4A5-4697-8899-AABBCCDDEEFF', 'mémoire-記憶'];
    r.script({ route: `PUT ${P}/points`, answer: update('completed') });
    await q.upsert(ids.map((memoryId, i) => ({ memoryId, spaceId: 's1', kind: 'STATEMENT', status: 'ACTIVE', vector: v(1, 0, 0, i) })));
    const [put] = r.sent(`PUT ${P}/points`);
    expect(put.query.wait).toBe('true');
    expect(put.body.points.map((p: { id: string }) => p.id)).toEqual(ids.map(pointIdFor));
    expect(put.body.points.map((p: { payload: { memory_id: string } }) => p.payload.memory_id)).toEqual(ids);

    // Qdrant prints UUIDs lower-case: the hit's memory id must come from the payload.
    r.script({
      route: `POST ${P}/points/query`,
      answer: ok({ points: ids.map((id, i) => ({ id: pointIdFor(id), version: 3, score: 0.9 - i / 10, payload: { memory_id: id } })) }),
    });
    const hits = await q.search({ spaceId: 's1', vector: v(1, 0, 0, 0), k: 3, exact: true });
    expect(hits.map((h) => h.memoryId)).toEqual(ids);
    const [query] = r.sent(`POST ${P}/points/query`);
    expect(query.body.with_payload).toEqual(['memory_id']);
    expect(query.body.filter.must[0]).toEqual({ key: 'space_id', match: { value: 's1' } });
    expect(r.unexpected).toEqual([]);
  });

  it('4. changes a status by a has_id filter: a missing id is no error (by an id list Qdrant answers 404)', async () => {
    const r = await replay({ state: existing });
    const q = await index(r);
    // Documented: set_payload with a list of point ids answers 404 when one is missing; by filter it sets what matches.
    r.script({
      route: `POST ${P}/points/payload`,
      answer: (req) => (req.body.points ? fail(404, `Not found: No point with id ${req.body.points[0]} found`) : update('completed')),
    });
    const [present, neverUpserted] = [randomUUID(), randomUUID()];
    await q.setStatus([present, neverUpserted], 'MUTED');
    const [req] = r.sent(`POST ${P}/points/payload`);
    expect(req.body.points).toBeUndefined();
    expect(req.body.filter).toEqual({ must: [{ has_id: [pointIdFor(present), pointIdFor(neverUpserted)] }] });
    expect(req.body.payload).toEqual({ status: 'MUTED' });
    expect(req.query.wait).toBe('true');

    r.script({ route: `POST ${P}/points/delete`, answer: (d) => (d.body.points ? fail(404, 'Not found') : update('completed')) });
    const gone = randomUUID();
    await q.remove([gone]);
    expect(r.sent(`POST ${P}/points/delete`)[0].body).toEqual({ filter: { must: [{ has_id: [pointIdFor(gone)] }] } });
    expect(r.unexpected).toEqual([]);
  });

  it('5. creates the space index as the tenant and the status and kind indices without HNSW links', async () => {
    const r = await replay();
    await index(r);
    const create = r.sent(`PUT ${P}`)[0].body;
    expect(create.vectors).toEqual({ size: 4, distance: 'Cosine' });
    expect(create.hnsw_config).toEqual({ m: 0, payload_m: 16 });
    const indices = Object.fromEntries(r.sent(`PUT ${P}/index`).map((x) => [x.body.field_name, x.body.field_schema]));
    expect(indices).toEqual({
      space_id: { type: 'keyword', is_tenant: true },
      status: { type: 'keyword', enable_hnsw: false },
      kind: { type: 'keyword', enable_hnsw: false },
    });
    for (const x of r.sent(`PUT ${P}/index`)) expect(x.query.wait).toBe('true');
  });

  it('5. leaves the indices of an existing collection as they are (a second start sends no index request)', async () => {
    const r = await replay({ state: existing });
    await index(r);
    expect(r.sent(`PUT ${P}/index`)).toEqual([]);
    expect(r.sent(`PUT ${P}`)).toEqual([]);
  });

  it('6. a status change sends the payload only, and docs/engines.md says it still copies the point out of an optimised segment', async () => {
    const r = await replay({ state: existing });
    const q = await index(r);
    r.script({ route: `POST ${P}/points/payload`, answer: update('completed') });
    await q.setStatus([randomUUID()], 'SUPERSEDED');
    expect(r.sent(`POST ${P}/points/payload`)[0].body).not.toHaveProperty('vector');
    expect(r.sent(`PUT ${P}/points`)).toEqual([]);
    const doc = readFileSync(new URL('../../docs/engines.md', import.meta.url), 'utf8');
    const qdrant = doc.slice(doc.indexOf('## Qdrant'), doc.indexOf('## Outbox'));
    expect(qdrant).not.toMatch(/vector and its graph links stay/);
    expect(qdrant).toMatch(/immutable/);
  });

  it('7. keeps the URL path prefix (a reverse proxy under /qdrant)', async () => {
    const r = await replay({ prefix: '/qdrant', state: existing });
    const q = await index(r);
    r.script({ route: `POST ${P}/points/count`, answer: ok({ count: 12 }) });
    expect(await q.count()).toBe(12);
    expect(r.requests.every((x) => x.rawPath.startsWith('/qdrant/'))).toBe(true);
    expect(r.unexpected).toEqual([]);
  });

  it('7. two processes starting at once: the one whose create answers 409 goes on', async () => {
    const r = await replay();
    // Both look before either creates; the second create is the documented 409.
    r.script({ route: `GET ${P}`, answer: noCollection(NAME) }, { route: `GET ${P}`, answer: noCollection(NAME) });
    r.script({ route: `GET ${P}/exists`, answer: ok({ exists: false }) }, { route: `GET ${P}/exists`, answer: ok({ exists: false }) });
    const a = new QdrantIndex({ url: r.url, embedderId: 'p', dimensions: 4, collection: NAME });
    const b = new QdrantIndex({ url: r.url, embedderId: 'p', dimensions: 4, collection: NAME });
    open.push(() => a.close(), () => b.close());
    await Promise.all([a.init(), b.init()]);
    expect(r.sent(`PUT ${P}`)).toHaveLength(2);
    expect(r.state.exists).toBe(true);
  });

  it('7. a collection dropped under a running process is recreated and the write sent again', async () => {
    const r = await replay({ state: existing });
    const warnings: string[] = [];
    const q = await index(r, { onWarning: (m) => warnings.push(m) });
    r.script({
      route: `PUT ${P}/points`,
      answer: () => {
        Object.assign(r.state, { exists: false, payloadSchema: {}, metadata: {} });
        return noCollection(NAME);
      },
    }, { route: `PUT ${P}/points`, answer: update('completed') });
    await q.upsert([{ memoryId: randomUUID(), spaceId: 's', kind: 'STATEMENT', status: 'ACTIVE', vector: v(0, 1, 0, 0) }]);
    expect(r.sent(`PUT ${P}/points`)).toHaveLength(2);
    expect(r.sent(`PUT ${P}`)).toHaveLength(1);
    expect(r.sent(`PUT ${P}/index`)).toHaveLength(3);
    expect(warnings.join('\n')).toMatch(/recreated empty/);
  });

  it('8. L2: a Euclid collection, scores the negative distance (higher is closer), cosine as 1 − d²/2', async () => {
    const r = await replay();
    const q = await index(r, { metric: 'l2' });
    expect(r.sent(`PUT ${P}`)[0].body.vectors).toEqual({ size: 4, distance: 'Euclid' });
    const points = ok({ points: [
      { id: pointIdFor('near'), version: 1, score: 0.5, payload: { memory_id: 'near' } },
      { id: pointIdFor('far'), version: 1, score: 1.2, payload: { memory_id: 'far' } },
    ] });
    r.script({ route: `POST ${P}/points/query`, answer: points }, { route: `POST ${P}/points/query`, answer: points });
    const l2 = await q.search({ spaceId: 's', vector: v(0, 2, 0, 0), k: 2, metric: 'l2', exact: true });
    expect(l2).toEqual([{ memoryId: 'near', score: -0.5 }, { memoryId: 'far', score: -1.2 }]);
    const cos = await q.search({ spaceId: 's', vector: v(0, 1, 0, 0), k: 2, exact: true });
    expect(cos.map((h) => h.memoryId)).toEqual(['near', 'far']);
    expect(cos[0].score).toBeCloseTo(1 - 0.25 / 2, 6);
    expect(r.sent(`POST ${P}/points/query`)[0].body.params.exact).toBe(true);
    await expect(q.search({ spaceId: 's', vector: v(0, 2, 0, 0), k: 2 })).rejects.toThrow(/unit-length/);
  });

  it('8. a Cosine collection refuses L2 (it normalises what it stores) and an existing collection of another distance is refused', async () => {
    const r = await replay({ state: { ...existing, distance: 'Cosine' } });
    const q = await index(r);
    await expect(q.search({ spaceId: 's', vector: v(1, 0, 0, 0), k: 1, metric: 'l2' })).rejects.toThrow(/not offered/);
    const wrong = new QdrantIndex({ url: r.url, embedderId: 'p', dimensions: 4, collection: NAME, metric: 'l2' });
    await expect(wrong.init()).rejects.toThrow(/4-dimension Cosine vectors, expected 4 Euclid/);
  });

  it('epoch: the marker is written into and read from the collection metadata; a recreated collection has none', async () => {
    const r = await replay({ state: existing });
    const q = await index(r);
    expect(await q.readEpoch()).toBeNull();
    await q.writeEpoch('epoch-1');
    expect(r.sent(`PATCH ${P}`)[0].body).toEqual({ metadata: { engram_epoch: 'epoch-1' } });
    expect(await q.readEpoch()).toBe('epoch-1');
    await q.reset();
    expect(r.sent(`DELETE ${P}`)).toHaveLength(1);
    expect(await q.readEpoch()).toBeNull();
  });
});
