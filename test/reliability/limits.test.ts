/**
 * Bounded requests (issue 12): document limits (GraphQL Armor), body size, text and list
 * bounds, rate limits and production mode, through the real app in-process (yoga.fetch).
 * A refusal must come before execution: the refused request sends no more statements to the
 * database than a bare `{ __typename }` of the same token (authentication only), whatever the
 * machine's load. It is also sent beside a small query of another space, which must still
 * answer with its own data. No wall-clock bound: on a busy machine any fixed figure is a race.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testEmbedder, type TestApp } from '../helpers/app.js';
import { createEngram } from '../../src/container.js';
import { configFromEnv } from '../../src/config.js';

let t: TestApp;
let a: { id: string; assistant: string; operator: string; chat: string };
let b: { id: string; assistant: string; operator: string; chat: string };

beforeAll(async () => {
  t = await createTestApp();
  a = await t.space({ name: 'a' });
  b = await t.space({ name: 'b' });
});
afterAll(async () => t?.close());

async function post(body: string | Uint8Array, token: string | null, app: TestApp = t, headers: Record<string, string> = {}) {
  const res = await app.app.yoga.fetch('http://engram.test/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    body,
  });
  const text = await res.text();
  return { status: res.status, text, json: safeJson(text), headers: res.headers };
}
const safeJson = (s: string) => { try { return JSON.parse(s); } catch { return null; } };
const gqlBody = (query: string, variables: Record<string, unknown> = {}) => JSON.stringify({ query, variables });

/** Statements the app sent to the database while `fn` ran (nothing else runs meanwhile). */
async function statementsOf<T>(fn: () => Promise<T>): Promise<{ result: T; statements: number }> {
  const before = t.app.engram.db.statementCount;
  const result = await fn();
  return { result, statements: t.app.engram.db.statementCount - before };
}

/**
 * Runs `refused` alone (it must cost no more statements than authentication), then again beside a
 * small query of space B, which must answer with B's own data.
 */
async function refusedBesideSmallQuery(refused: () => Promise<{ status: number; text: string; headers: Headers }>, token: string) {
  const bare = await statementsOf(() => post(gqlBody('{ __typename }'), token));
  expect(bare.result.status).toBe(200);
  const alone = await statementsOf(refused);
  expect(alone.statements, 'statements sent by the refused request (authentication at most)').toBeLessThanOrEqual(bare.statements);
  const small = post(gqlBody('{ viewer { ... on Viewer { role space { id } } } }'), b.operator);
  const [r, s] = await Promise.all([refused(), small]);
  expect(s.status).toBe(200);
  expect(s.text).toContain(b.id);
  expect(r.status).toBe(alone.result.status);
  expect(r.text).not.toContain('Unexpected error');
  expect(r.status).toBeLessThan(500);
  return r;
}

describe('document limits', () => {
  it('refuses a correctionChain nested 14 levels (depth), beside a small query of another space', async () => {
    let sel = 'id';
    for (let i = 0; i < 14; i++) sel = `correctionChain { ${sel} }`;
    const r = await refusedBesideSmallQuery(() => post(gqlBody(`{ memory(id: "x") { ... on Memory { ${sel} } } }`), a.operator), a.operator);
    expect(r.text).toMatch(/depth/i);
  });

  it('refuses 300 recall aliases (aliases)', async () => {
    const c = (await t.gql(a.chat, 'mutation { openConversation { ... on Conversation { id } } }')).data.openConversation.id;
    const aliases = Array.from({ length: 300 }, (_, i) => `r${i}: recall(conversationId: "${c}", query: "my cat") { __typename }`).join(' ');
    const r = await refusedBesideSmallQuery(() => post(gqlBody(`{ ${aliases} }`), a.assistant), a.assistant);
    // 300 aliased recalls pass the token limit (2,000) before the alias limit (15) is even counted.
    expect(r.text).toMatch(/alias|token limit/i);
    const twenty = Array.from({ length: 20 }, (_, i) => `v${i}: viewer { __typename }`).join(' ');
    expect((await post(gqlBody(`{ ${twenty} }`), a.assistant)).text).toMatch(/aliases/i);
  });

  it('weighs a list whose first is a variable, or left to its default, as the number it runs with (cost)', async () => {
    // 500 memories with their conversations' messages (100 each by default): over the cost limit however it is written
    const sel = 'nodes { id quote mentions { quote } conversation { id messages { id text } } }';
    const written = await post(gqlBody(`{ memories(first: 500) { ... on MemoryConnection { ${sel} } } }`), a.operator);
    expect(written.json.errors?.[0]?.extensions).toMatchObject({ code: 'LIMIT_EXCEEDED', limit: 'cost' });
    const variable = await refusedBesideSmallQuery(
      () => post(gqlBody(`query($n: Int) { memories(first: $n) { ... on MemoryConnection { ${sel} } } }`, { n: 500 }), a.operator), a.operator);
    expect(JSON.parse(variable.text).errors?.[0]).toEqual(written.json.errors?.[0]);
    // and the same document with a few items runs (a document is weighed with each request's variables)
    const few = await post(gqlBody(`query($n: Int) { memories(first: $n) { ... on MemoryConnection { ${sel} } } }`, { n: 3 }), a.operator);
    expect(few.json.errors).toBeUndefined();
    expect(few.json.data.memories.nodes).toBeInstanceOf(Array);
  });

  it('weighs a subscription over server-sent events the same way: a list left to its default counts as that many', async () => {
    const low = await createTestApp({ env: { ENGRAM_MAX_COST: '200' } });
    try {
      const s = await low.space({ name: 'sse cost' });
      const ctrl = new AbortController();
      const res = await low.app.yoga.fetch('http://engram.test/graphql', {
        method: 'POST', signal: ctrl.signal,
        headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${s.operator}` },
        body: gqlBody('subscription { memoryEvents { kind memory { quote mentions { quote tier } } } }'),
      });
      const reader = res.body!.getReader();
      let text = '';
      // the refusal is the stream's first event (the bound only keeps a broken server from hanging the suite)
      for (const deadline = Date.now() + 30_000; Date.now() < deadline && !/\ndata: .*\n/.test(`\n${text}`);) {
        const chunk = await Promise.race([reader.read(), new Promise<null>((r) => setTimeout(() => r(null), 1_000))]);
        if (chunk?.done) break;
        if (chunk) text += new TextDecoder().decode(chunk.value);
      }
      ctrl.abort();
      const event = /\ndata: (.*)\n/.exec(`\n${text}`);
      expect(event, 'the stream to answer the refusal as its first event').not.toBeNull();
      expect(JSON.parse(event![1]!).errors[0].extensions).toMatchObject({ code: 'LIMIT_EXCEEDED', limit: 'cost' });
    } finally {
      await low.close();
    }
  });

  it('refuses a 5 MB body with 413', async () => {
    const body = gqlBody('query($q: String!) { viewer { __typename } }', { q: 'x'.repeat(5_000_000) });
    const r = await refusedBesideSmallQuery(() => post(body, a.assistant), a.assistant);
    expect(r.status).toBe(413);
  });

  it('refuses a 1,000,000-character recall query at once, and a 3,000-character one as InvalidInput', async () => {
    const c = (await t.gql(a.chat, 'mutation { openConversation { ... on Conversation { id } } }')).data.openConversation.id;
    const q = 'query($c: ID!, $q: String!) { recall(conversationId: $c, query: $q) { __typename ... on InvalidInput { field message } } }';
    const huge = await refusedBesideSmallQuery(() => post(gqlBody(q, { c, q: 'word '.repeat(200_000) }), a.assistant), a.assistant);
    expect(huge.status).toBe(413);
    const long = await refusedBesideSmallQuery(() => post(gqlBody(q, { c, q: 'word '.repeat(600) }), a.assistant), a.assistant);
    expect(long.status).toBe(200);
    expect(JSON.parse(long.text).data.recall).toMatchObject({ __typename: 'InvalidInput', field: 'query' });
  });

  it('refuses a document of too many tokens', async () => {
    const many = await post(gqlBody(`{ viewer { ${'__typename '.repeat(3000)} } }`), a.operator);
    expect(many.text).toMatch(/token limit/i);
  });
});

describe('rate limits', () => {
  it('gives each token its own bucket and a lower one to requests without a token: 429 with Retry-After', async () => {
    const limited = await createTestApp({ env: { ENGRAM_MAX_COST: '60', ENGRAM_RATE_BURST: '5', ENGRAM_RATE_PER_SECOND: '0.001', ENGRAM_ANON_RATE_BURST: '2', ENGRAM_ANON_RATE_PER_SECOND: '0.001' } });
    try {
      const s = await limited.space({ name: 'limited' });
      const q = gqlBody('{ viewer { __typename } }');
      const own = [];
      for (let i = 0; i < 7; i++) own.push(await post(q, s.operator, limited));
      expect(own.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 429, 429]);
      expect(own[5]!.json.errors[0].extensions.code).toBe('RATE_LIMITED');
      expect(Number(own[5]!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      // Another token of the same space is not held back by the first one's bucket.
      expect((await post(q, s.assistant, limited)).status).toBe(200);
      // The cost limit (set to 60 here): a wide, nested selection is refused before execution.
      let sel = 'id quote';
      for (let i = 0; i < 4; i++) sel = `id mentions { quote } events { kind } supersedes { ${sel} }`;
      const costly = await post(gqlBody(`{ memory(id: "x") { ... on Memory { ${sel} } } }`), s.assistant, limited);
      expect(costly.text).toMatch(/cost/i);
      const anon = [];
      for (let i = 0; i < 3; i++) anon.push((await post(q, null, limited)).status);
      expect(anon).toEqual([200, 200, 429]);
      // each refusal counted for the operator's dashboards (none were, before: a probe's 24 refusals left no series)
      expect(await limited.app.metrics.text()).toMatch(/^engram_refused_total\{code="RATE_LIMITED"\} 3$/m);
    } finally {
      await limited.close();
    }
  });
});

describe('production mode', () => {
  it('introspection only for admin, no GraphiQL, no suggestions, no CORS without configured origins', async () => {
    const prod = await createTestApp({ env: { ENGRAM_PRODUCTION: 'true' } });
    try {
      const s = await prod.space({ name: 'prod' });
      const intro = gqlBody('{ __schema { queryType { name } } }');
      expect((await post(intro, null, prod)).text).not.toContain('"Query"');
      expect((await post(intro, s.assistant, prod)).text).not.toContain('"Query"');
      expect((await post(intro, prod.adminToken, prod)).json.data.__schema.queryType.name).toBe('Query');
      const typo = await post(gqlBody('{ viewr { __typename } }'), s.operator, prod);
      expect(typo.text).not.toMatch(/Did you mean/);
      const page = await prod.app.yoga.fetch('http://engram.test/graphql', { headers: { accept: 'text/html' } });
      expect(await page.text()).not.toMatch(/graphiql/i);
      const cors = await post(gqlBody('{ viewer { __typename } }'), s.operator, prod, { origin: 'https://evil.example' });
      expect(cors.headers.get('access-control-allow-origin')).toBeNull();
      expect(cors.headers.get('access-control-allow-credentials')).toBeNull();
    } finally {
      await prod.close();
    }
  });

  it('the service on the embedded store flushes its commits to the disk (fsync on; src/store/pglite-durable.ts)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'engram-limits-durable-'));
    try {
      const engram = await createEngram(configFromEnv({ ...process.env, DATABASE_URL: '', ENGRAM_PRODUCTION: 'true' }, { dataDir, logLevel: 'silent', bootstrapAdmin: false, port: 0 }), { embedder: testEmbedder(), lazyLoad: true });
      try {
        expect((await engram.db.query<{ fsync: string }>('show fsync')).rows[0]!.fsync).toBe('on');
        expect((await engram.db.query<{ wal_sync_method: string }>('show wal_sync_method')).rows[0]!.wal_sync_method).toBe('fsync');
      } finally {
        await engram.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
