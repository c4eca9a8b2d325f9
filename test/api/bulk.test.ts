import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { lexicalText } from '../../src/memory/lexical.js';
import type { MemoryType } from '../../src/core/types.js';
import { toPgVectorText } from '../../src/core/vectors.js';

const N = 10_000;
const VECTORS = 200;
type Sp = Awaited<ReturnType<TestApp['space']>>;
let t: TestApp;
let sp: Sp;
let other: Sp;
let many: string[] = [];
let few: string[] = [];
let foreign: string[] = [];

/** A deterministic unit vector (client-side fingerprint). */
function vector(i: number, dim: number): Float32Array {
  const v = new Float32Array(dim);
  let x = (i + 1) * 2654435761;
  for (let k = 0; k < dim; k++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    v[k] = x / 2147483648 - 0.5;
  }
  const n = Math.hypot(...v);
  return v.map((y) => y / n);
}

/**
 * Real rows in every table insertMemory writes (memories, memory_state, mentions,
 * lexicon), set-based in one transaction: row-by-row inserts of 10,000 memories take
 * minutes on embedded PGlite. The first `VECTORS` get a client-side vector; the
 * others are stored as embedders leave them when they fail (embedding MISSING),
 * because each HNSW insert costs ~10 ms in PGlite and statuses never touch vectors.
 */
async function seed(spaceId: string, n: number, type: MemoryType, tag: string): Promise<string[]> {
  const { embedder } = t.app.engram.deps;
  const ids = Array.from({ length: n }, () => randomUUID());
  const quotes = ids.map((_, i) => `Note ${tag} number ${i} about item ${i * 7}.`);
  const at = ids.map((_, i) => new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString());
  await t.app.engram.db.transaction(async (tx) => {
    await tx.query(
      `insert into memories (id, space_id, kind, type, quote, normalized, said_at)
       select x.id, $1, 'STATEMENT', $2, x.q, lower(x.q), x.at from unnest($3::text[], $4::text[], $5::timestamptz[]) as x(id, q, at)`,
      [spaceId, type, ids, quotes, at],
    );
    await tx.query(
      `insert into memory_state (memory_id, space_id, kind, type, last_mentioned_at, embedding_status)
       select x.id, $1, 'STATEMENT', $2, x.at, case when x.n <= $5 then 'OK' else 'MISSING' end
       from unnest($3::text[], $4::timestamptz[]) with ordinality as x(id, at, n)`,
      [spaceId, type, ids, at, VECTORS],
    );
    await tx.query(
      `insert into mentions (id, memory_id, space_id, quote, said_at, tier)
       select x.id || ':0', x.id, $1, x.q, x.at, 'ORIGINAL' from unnest($2::text[], $3::text[], $4::timestamptz[]) as x(id, q, at)`,
      [spaceId, ids, quotes, at],
    );
    await tx.query(
      `insert into memory_lexicon (memory_id, space_id, doc) select x.id, $1, to_tsvector('simple', x.t) from unnest($2::text[], $3::text[]) as x(id, t)`,
      [spaceId, ids, quotes.map((q) => lexicalText([q]))],
    );
    for (let i = 0; i < Math.min(n, VECTORS); i += 1000) {
      const chunk = ids.slice(i, Math.min(i + 1000, VECTORS));
      await tx.query(
        `insert into memory_vectors (memory_id, space_id, kind, embedder, embedding)
         select x.id, $1, 'STATEMENT', $2, x.v::vector from unnest($3::text[], $4::text[]) as x(id, v)`,
        [spaceId, embedder.id, chunk, chunk.map((_, k) => toPgVectorText(vector(i + k, embedder.dimensions)))],
      );
    }
  });
  return ids;
}

/** Statements the server sent to the database while `fn` ran. */
async function counted<T>(fn: () => Promise<T>): Promise<{ result: T; statements: number; ms: number }> {
  const db = t.app.engram.db;
  const before = db.statementCount;
  const start = performance.now();
  const result = await fn();
  return { result, statements: db.statementCount - before, ms: Math.round(performance.now() - start) };
}

const BULK = (name: string) => `mutation($ids: [ID!]!) { ${name}(ids: $ids) { __typename
  ... on BulkResult { changed results { id outcome } } ... on Error { message } } }`;
const FORGET = `mutation($ids: [ID!]!, $confirm: Boolean) { forgetMemories(ids: $ids, confirm: $confirm) { __typename
  ... on BulkResult { changed results { id outcome } } ... on Error { message } } }`;
const tally = (results: { outcome: string }[]) => results.reduce<Record<string, number>>((a, r) => ({ ...a, [r.outcome]: (a[r.outcome] ?? 0) + 1 }), {});

beforeAll(async () => {
  t = await createTestApp();
  sp = await t.space({ name: 'bulk' });
  other = await t.space({ name: 'other' });
  const start = performance.now();
  many = await seed(sp.id, N, 'MEMO', 'a');
  few = await seed(sp.id, 10, 'MEMO', 'b');
  foreign = await seed(other.id, 5, 'MEMO', 'c');
  console.log(`seeded ${N + 15} memories in ${Math.round(performance.now() - start)} ms`);
}, 600_000);

afterAll(async () => {
  await t?.close();
});

describe('bulk status changes', () => {
  it('mutes 10,000 memories in one request with as many SQL statements as muting 10', async () => {
    const small = await counted(() => t.gql(sp.operator, BULK('muteMemories'), { ids: few }));
    expect(small.result.data.muteMemories.changed).toBe(10);
    const big = await counted(() => t.gql(sp.operator, BULK('muteMemories'), { ids: many }));
    const r = big.result.data.muteMemories;
    expect(r.changed).toBe(N);
    expect(tally(r.results)).toEqual({ DONE: N });
    expect(big.statements).toBe(small.statements);
    console.log(`muteMemories: ${N} ids in ${big.ms} ms, ${big.statements} SQL statements (10 ids: ${small.statements})`);
    const counts = await t.app.engram.store.countByStatus(sp.id, 'STATEMENT');
    expect(counts.MUTED).toBe(N + 10);
  });

  it('reports per id: done, already in that state, not found (an id of another space counts as not found)', async () => {
    const unmuted = await t.gql(sp.operator, BULK('unmuteMemories'), { ids: [few[0]] });
    expect(unmuted.data.unmuteMemories.changed).toBe(1);
    const ids = [few[0], few[1], foreign[0], 'no-such-id'];
    const r = (await t.gql(sp.operator, BULK('muteMemories'), { ids })).data.muteMemories;
    expect(r.results).toEqual([
      { id: few[0], outcome: 'DONE' }, { id: few[1], outcome: 'ALREADY' },
      { id: foreign[0], outcome: 'NOT_FOUND' }, { id: 'no-such-id', outcome: 'NOT_FOUND' },
    ]);
    const [f] = await t.app.engram.store.getMemories([foreign[0]]);
    expect(f!.status).toBe('ACTIVE');
  });

  it('unmutes them the same way', async () => {
    const small = await counted(() => t.gql(sp.operator, BULK('unmuteMemories'), { ids: few }));
    const big = await counted(() => t.gql(sp.operator, BULK('unmuteMemories'), { ids: many }));
    expect(big.result.data.unmuteMemories.changed).toBe(N);
    expect(big.statements).toBe(small.statements);
    console.log(`unmuteMemories: ${N} ids in ${big.ms} ms, ${big.statements} SQL statements`);
  });

  it('refuses more than 10,000 ids and an empty list', async () => {
    const r = await t.gql(sp.operator, BULK('muteMemories'), { ids: [...many, 'x'] });
    expect(r.data.muteMemories.__typename).toBe('InvalidInput');
    const e = await t.gql(sp.operator, BULK('muteMemories'), { ids: [] });
    expect(e.data.muteMemories.__typename).toBe('InvalidInput');
  });
});

describe('bulk forget and sweep', () => {
  it('forgets many only with confirm, in as many statements as forgetting a few', async () => {
    const refused = await t.gql(sp.operator, FORGET, { ids: many.slice(0, 10) });
    expect(refused.data.forgetMemories.__typename).toBe('ConfirmationRequired');
    const small = await counted(() => t.gql(sp.operator, FORGET, { ids: few.slice(0, 5), confirm: true }));
    expect(small.result.data.forgetMemories.changed).toBe(5);
    const half = many.slice(0, N / 2);
    const big = await counted(() => t.gql(sp.operator, FORGET, { ids: [...half, foreign[0]], confirm: true }));
    expect(tally(big.result.data.forgetMemories.results)).toEqual({ DONE: N / 2, NOT_FOUND: 1 });
    expect(big.statements).toBe(small.statements);
    expect(await t.app.engram.store.countMemories(sp.id)).toBe(N / 2 + 5);
    const vectors = await t.app.engram.db.query<{ n: number }>(`select count(*)::int as n from memory_vectors where space_id = $1`, [sp.id]);
    expect(Number(vectors.rows[0].n)).toBe(5); // the 5 remaining of few; every vector of half went with its memory
    console.log(`forgetMemories: ${N / 2} ids in ${big.ms} ms, ${big.statements} SQL statements`);
  });

  it('sweeps a category in as many statements whatever the count', async () => {
    const CLEAN = `mutation($c: [MemoryType!]!, $dry: Boolean) { cleanUp(categories: $c, scope: EVERYTHING, confirm: true, dryRun: $dry) {
      __typename ... on CleanUpResult { total counts { type count } } ... on Error { message } } }`;
    const smallIds = await seed(sp.id, 3, 'REMINDER', 'd');
    const small = await counted(() => t.gql(sp.operator, CLEAN, { c: ['REMINDER'] }));
    expect(small.result.data.cleanUp.total).toBe(smallIds.length);
    const dry = await t.gql(sp.operator, CLEAN, { c: ['MEMO'], dry: true });
    expect(dry.data.cleanUp.total).toBe(N / 2 + 5);
    const big = await counted(() => t.gql(sp.operator, CLEAN, { c: ['MEMO'] }));
    expect(big.result.data.cleanUp.counts).toEqual(dry.data.cleanUp.counts);
    expect(big.statements).toBe(small.statements);
    expect(await t.app.engram.store.countMemories(sp.id)).toBe(0);
    expect(await t.app.engram.store.countMemories(other.id)).toBe(5);
    console.log(`cleanUp: ${big.result.data.cleanUp.total} memories in ${big.ms} ms, ${big.statements} SQL statements`);
  });
});
