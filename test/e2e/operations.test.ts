/**
 * Operations end to end (docs/operations.md): /healthz, /readyz (503 while PostgreSQL is
 * unreachable, through a TCP proxy this test cuts; the shared server keeps running), /metrics
 * series that move with requests, and graceful shutdown.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testEmbedder, type TestApp } from '../helpers/app.js';
import { httpGql, listen, say, TcpProxy, until, wsClient } from '../helpers/live.js';
import { PgClient } from '../../src/store/pg-client.js';
import { assertTestDatabase } from '../helpers/db.js';
import type { Embedder } from '../../src/ports/embedder.js';

function series(text: string, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(name + ' ') && !line.startsWith(name + '{')) continue;
    if (!Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`))) continue;
    sum += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return sum;
}

describe('health, readiness and metrics', () => {
  let t: TestApp;
  let url: string;
  let base: string;
  beforeAll(async () => {
    t = await createTestApp();
    url = (await t.app.start()).url;
    base = url.replace(/\/graphql$/, '');
  });
  afterAll(async () => t?.close());

  it('/healthz answers 200 and /readyz 200 with every check ok', async () => {
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    const r = await fetch(`${base}/readyz`);
    expect(r.status).toBe(200);
    expect(await r.json()).toMatchObject({ ready: true, checks: { store: 'ok', migrations: 'ok', embedder: 'ok', engine: 'ok' } });
  });

  it('/metrics serves engram_ series that move when requests are made', async () => {
    const before = await (await fetch(`${base}/metrics`)).text();
    expect(before).toMatch(/^# HELP engram_/m);
    for (const line of before.split('\n').filter((l) => l && !l.startsWith('#'))) expect(line).toMatch(/^engram_/);
    const sp = await t.space({ name: 'metrics' });
    const first = await say(url, sp, 'My sister lives in Porto.');
    expect((await say(url, sp, 'my sister lives in Porto')).outcome).toBe('REINFORCED');
    const conv = (await httpGql(url, sp.chat, `mutation { openConversation { ... on Conversation { id } } }`)).openConversation.id;
    const hits = await httpGql(url, sp.assistant, `query Ask($c: ID!) { recall(conversationId: $c, query: "where does my sister live") {
      ... on RecallResult { statements { memory { id } } } } }`, { c: conv });
    expect(hits.recall.statements.map((h: any) => h.memory.id)).toContain(first.id);
    const after = await (await fetch(`${base}/metrics`)).text();
    const moved = (name: string, labels: Record<string, string> = {}) => series(after, name, labels) - series(before, name, labels);
    expect(moved('engram_remember_outcomes_total', { outcome: 'CREATED' })).toBe(1);
    expect(moved('engram_remember_outcomes_total', { outcome: 'REINFORCED' })).toBe(1);
    expect(moved('engram_recall_duration_seconds_count', { operation: 'recall' })).toBe(1);
    expect(moved('engram_graphql_request_duration_seconds_count', { operationName: 'Ask' })).toBe(1);
    expect(moved('engram_embedder_duration_seconds_count')).toBeGreaterThanOrEqual(3);
    expect(moved('engram_http_request_duration_seconds_count')).toBeGreaterThanOrEqual(8);
    expect(after).toMatch(/^engram_outbox_pending 0$/m);
    expect(after).toMatch(/^engram_outbox_parked 0$/m);
    // PGlite (this app's store) searched the space from its in-process copy, which the gauge reports.
    expect(series(before, 'engram_vector_mirror_bytes', {})).toBe(0);
    expect(series(after, 'engram_vector_mirror_bytes', {})).toBeGreaterThan(0);
  });
});

describe.skipIf(!process.env.DATABASE_URL)('/readyz follows PostgreSQL', () => {
  let proxy: TcpProxy;
  let t: TestApp;
  let db: PgClient;
  beforeAll(async () => {
    const target = new URL(process.env.DATABASE_URL!);
    assertTestDatabase(target.toString());
    proxy = new TcpProxy(target.hostname, Number(target.port || 5432));
    const port = await proxy.open();
    const viaProxy = new URL(target.toString());
    viaProxy.port = String(port);
    db = new PgClient(viaProxy.toString(), 4);
    t = await createTestApp({ db });
  });
  afterAll(async () => {
    await t?.close();
    await db?.close().catch(() => {});
    await proxy?.cut();
  });

  it('is 503 while the database cannot be reached and 200 after it returns', async () => {
    const ready = async () => (await t.app.yoga.fetch('http://engram.test/readyz')).status;
    const first = await t.app.yoga.fetch('http://engram.test/readyz');
    expect(first.status, await first.clone().text()).toBe(200);
    await proxy.cut();
    const down = await t.app.yoga.fetch('http://engram.test/readyz');
    expect(down.status).toBe(503);
    expect(await down.json()).toMatchObject({ ready: false, checks: { store: 'fail' } });
    expect((await t.app.yoga.fetch('http://engram.test/healthz')).status).toBe(200);
    await proxy.restore();
    await until(async () => (await ready()) === 200, 20_000, 'ready again');
  });
});

/** The real embedder, held at `embed` while `gate` is set (an in-flight request the test controls). */
class GatedEmbedder implements Embedder {
  gate: Promise<void> | null = null;
  entered = false;
  constructor(private readonly inner: Embedder) {}
  get id() { return this.inner.id; }
  get dimensions() { return this.inner.dimensions; }
  get thresholds() { return this.inner.thresholds; }
  init() { return this.inner.init(); }
  close() { return Promise.resolve(); }
  async embed(texts: string[]) {
    if (this.gate) {
      this.entered = true;
      await this.gate;
    }
    return this.inner.embed(texts);
  }
}

describe('graceful shutdown', () => {
  it('stops accepting, closes subscriptions with 1001, lets the in-flight request finish, then closes', async () => {
    const embedder = new GatedEmbedder(testEmbedder());
    const t = await createTestApp({ embedder });
    const { url } = await t.app.start();
    const sp = await t.space({ name: 'shutdown' });
    const codes: number[] = [];
    const client = wsClient(url, sp.operator, { onClose: (c) => codes.push(c) });
    const sub = listen(client, `subscription { memoryEvents { kind } }`);
    await new Promise((r) => setTimeout(r, 300));
    const text = 'I grow tomatoes on the balcony.';
    const conv = (await httpGql(url, sp.chat, `mutation { openConversation { ... on Conversation { id } } }`)).openConversation.id;
    await httpGql(url, sp.chat, `mutation($c: ID!, $x: String!) { recordMessage(conversationId: $c, role: USER, text: $x) { ... on Message { id } } }`, { c: conv, x: text });

    let release!: () => void;
    embedder.gate = new Promise<void>((r) => { release = r; });
    const inFlight = httpGql(url, sp.assistant, `mutation($i: RememberInput!) { remember(input: $i) { ... on RememberOutcome { outcome } } }`,
      { i: { conversationId: conv, quote: text, type: 'FACT' } });
    await until(() => embedder.entered, 20_000, 'the request to reach the embedder');
    const stopped = t.app.stop();
    await until(() => codes.length > 0, 20_000, 'the subscription to close');
    expect(codes).toEqual([1001]);
    await sub.done;
    await expect(fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":"{ __typename }"}' }))
      .rejects.toThrow();
    release();
    embedder.gate = null;
    expect((await inFlight).remember.outcome).toBe('CREATED');
    await stopped;
    await client.dispose();
  });
});
