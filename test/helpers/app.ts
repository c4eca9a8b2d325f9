import type { MemoryDeps } from '../../src/memory/deps.js';
import { buildApp, type App } from '../../src/app.js';
import { configFromEnv } from '../../src/config.js';
import { createToken } from '../../src/memory/tokens.js';
import type { Embedder } from '../../src/ports/embedder.js';
import { UseLiteEmbedder } from '../../src/embed/use-lite-embedder.js';
import type { SqlClient } from '../../src/store/sql-client.js';
import type { Clock } from '../../src/ports/clock.js';
import { useCases } from '../../src/graphql/lazy-use-cases.js';
import { afterAll, beforeAll } from 'vitest';
import type { TestDatabase } from './db.js';

let sharedEmbedder: Embedder | null = null;

/** One real embedder per test process (loading it is the slow part). */
export function testEmbedder(): Embedder {
  sharedEmbedder ??= new UseLiteEmbedder();
  return sharedEmbedder;
}

/** POSTs GraphQL operations to `app` in-process (yoga.fetch, no port) with a bearer token. */
export function gqlOn(app: App): TestApp['gql'] {
  return async (token, query, variables = {}) => {
    const res = await app.yoga.fetch('http://engram.test/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({ query, variables }),
    });
    return (await res.json()) as { data: any; errors?: any[] };
  };
}

export interface TestApp {
  app: App;
  adminToken: string;
  /** POSTs a GraphQL operation in-process (yoga.fetch, no port) with a bearer token. */
  gql<T = any>(token: string | null, query: string, variables?: Record<string, unknown>): Promise<{ data: T; errors?: any[] }>;
  /** A space plus a token of each role in it. */
  space(opts?: { name?: string; sealed?: boolean; timeZone?: string }): Promise<{ id: string; chat: string; assistant: string; operator: string }>;
  close(): Promise<void>;
}

/** The real app on an in-memory PGlite (or a given SQL client), with the real embedder. */
export async function createTestApp(opts: {
  db?: SqlClient; clock?: Clock; engine?: 'pgvector' | 'lancedb' | 'qdrant'; env?: Record<string, string>;
  /** Another embedder (e.g. a wrapper around the real one that fails on demand). */
  embedder?: Embedder;
  /** A PGlite data directory on disk (default: in memory). */
  dataDir?: string;
} = {}): Promise<TestApp> {
  // Suites fire requests far faster than any client should: the rate limits are tested in test/reliability.
  const unlimited = { ENGRAM_RATE_BURST: '1000000', ENGRAM_RATE_PER_SECOND: '1000000', ENGRAM_ANON_RATE_BURST: '1000000', ENGRAM_ANON_RATE_PER_SECOND: '1000000' };
  const config = configFromEnv({ ...process.env, DATABASE_URL: '', ...unlimited, ...(opts.env ?? {}) }, {
    dataDir: opts.dataDir ?? ':memory:', logLevel: 'silent', bootstrapAdmin: false, port: 0, ...(opts.engine ? { engine: opts.engine } : {}),
    // Suites share the server's tables: none of them builds pgvector's HNSW index on them by
    // the way (test/store/pgvector-ann-build.test.ts tests the build in a schema of its own).
    ...(opts.env?.ENGRAM_PGVECTOR_ANN_INDEX_ABOVE ? {} : { pgvectorAnnIndexAbove: 'off' as const }),
  });
  const app = await buildApp(config, { embedder: opts.embedder ?? testEmbedder(), db: opts.db, clock: opts.clock });
  // The server imports the use cases at their first call (docs/operations.md#start); suites
  // import them with the app, where a suite sets up, not inside the first test that calls one.
  await useCases();
  const admin = await createToken(app.engram.deps, { role: 'admin' });
  const gql = gqlOn(app);
  return {
    app, adminToken: admin.secret, gql,
    async space(o = {}) {
      const r = await gql(admin.secret, `mutation($n: String!, $s: Boolean, $tz: String) { createSpace(name: $n, sealed: $s, timeZone: $tz) { ... on Space { id } ... on Error { message } } }`,
        { n: o.name ?? 'test space', s: o.sealed ?? false, tz: o.timeZone ?? 'UTC' });
      const id = r.data.createSpace.id as string;
      const tok = async (role: string) => (await createToken(app.engram.deps, { role: role as never, spaceId: id })).secret;
      return { id, chat: await tok('chat'), assistant: await tok('assistant'), operator: await tok('operator') };
    },
    close: () => app.stop(),
  };
}

/**
 * The real app on one of `testDatabases()` for the enclosing describe block: opened in
 * beforeAll (on the server, over a client of its own), closed in afterAll. Read `.t`
 * inside tests and hooks.
 */
export function testAppOn(target: TestDatabase): { readonly t: TestApp; readonly db: SqlClient; readonly deps: MemoryDeps } {
  let t: TestApp | undefined;
  let ownDb: SqlClient | undefined;
  beforeAll(async () => {
    ownDb = target.name === 'pg' ? await target.open() : undefined;
    t = await createTestApp({ db: ownDb });
  });
  afterAll(async () => {
    await t?.close();
    await ownDb?.close();
  });
  const opened = (): TestApp => {
    if (!t) throw new Error('testAppOn: the app is opened in beforeAll');
    return t;
  };
  return {
    get t() { return opened(); },
    /** The app's store client (the suite's own connection on the server). */
    get db() { return opened().app.engram.db; },
    get deps() { return opened().app.engram.deps; },
  };
}
