/**
 * The server's start (docs/operations.md#start): with `lazyLoad` the embedder's model loads on
 * its first use. Queries that need no embedding answer while it is not loaded, /readyz is ready
 * and says so, and the first remember waits for the load, then keeps the memory with its vector.
 * Ordering is asserted through a gate the test holds, never through time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/app.js';
import { configFromEnv } from '../../src/config.js';
import { createToken } from '../../src/memory/tokens.js';
import type { Embedder } from '../../src/ports/embedder.js';
import { gqlOn, testEmbedder, type TestApp } from '../helpers/app.js';

/** The real embedder, whose load waits until the test opens the gate. */
class GatedEmbedder implements Embedder {
  inits = 0;
  embeds = 0;
  private open!: () => void;
  private readonly gate = new Promise<void>((r) => { this.open = r; });
  private started!: () => void;
  /** Resolves when the model was first asked to load. */
  readonly loadAsked = new Promise<void>((r) => { this.started = r; });
  constructor(private readonly inner: Embedder) {}
  get id() { return this.inner.id; }
  get dimensions() { return this.inner.dimensions; }
  get thresholds() { return this.inner.thresholds; }
  async init(): Promise<void> {
    this.inits++;
    this.started();
    await this.gate;
    await this.inner.init();
  }
  async embed(texts: string[]): Promise<Float32Array[]> {
    this.embeds++;
    return this.inner.embed(texts);
  }
  release(): void { this.open(); }
  async close(): Promise<void> {}
}

describe('lazy start: the model loads on first use', () => {
  let app: App;
  let gated: GatedEmbedder;
  const gql: TestApp['gql'] = (...args) => gqlOn(app)(...args);

  beforeAll(async () => {
    gated = new GatedEmbedder(testEmbedder());
    const config = configFromEnv({ ...process.env, DATABASE_URL: '' }, { dataDir: ':memory:', logLevel: 'silent', bootstrapAdmin: false, port: 0 });
    app = await buildApp(config, { embedder: gated, lazyLoad: true });
  });
  afterAll(async () => { gated?.release(); await app?.stop(); });

  it('answers, is ready, and remembers once the model is in', async () => {
    // Started without asking for the model.
    expect(gated.inits).toBe(0);
    const admin = (await createToken(app.engram.deps, { role: 'admin' })).secret;
    const sp = await gql(admin, `mutation { createSpace(name: "lazy", timeZone: "UTC") { ... on Space { id } } }`);
    const spaceId = sp.data.createSpace.id as string;
    const chat = (await createToken(app.engram.deps, { role: 'chat', spaceId })).secret;
    const assistant = (await createToken(app.engram.deps, { role: 'assistant', spaceId })).secret;
    const listed = await gql(admin, `query($s: ID!) { memories(spaceId: $s) { __typename ... on MemoryConnection { nodes { id } } } }`, { s: spaceId });
    expect(listed.data.memories.__typename).toBe('MemoryConnection');
    expect(gated.inits).toBe(0);

    const ready = await app.yoga.fetch('http://engram.test/readyz');
    expect(ready.status).toBe(200);
    expect((await ready.json()).detail.embedder).toMatch(/loads on first use/);

    const conv = (await gql(chat, `mutation { openConversation { ... on Conversation { id } } }`)).data.openConversation.id;
    const text = 'My sister Ana moved to Lisbon in 2019.';
    await gql(chat, `mutation($c: ID!, $x: String!) { recordMessage(conversationId: $c, role: USER, text: $x) { ... on Message { id } } }`, { c: conv, x: text });
    let settled = false;
    const remembering = gql(assistant, `mutation($i: RememberInput!) { remember(input: $i) {
      ... on RememberOutcome { outcome memory { id embeddingStatus } } ... on Error { message } } }`,
    { i: { conversationId: conv, quote: text, type: 'FACT' } }).finally(() => { settled = true; });
    await gated.loadAsked;
    // The remember asked for the model and waits for it: nothing embedded, nothing answered yet.
    expect(gated.embeds).toBe(0);
    expect(settled).toBe(false);
    // Meanwhile other requests are served.
    expect((await gql(admin, `query($s: ID!) { memories(spaceId: $s) { __typename ... on MemoryConnection { nodes { id } } } }`, { s: spaceId })).data.memories.__typename).toBe('MemoryConnection');
    expect(settled).toBe(false);
    gated.release();
    const r = await remembering;
    expect(r.data.remember).toMatchObject({ outcome: 'CREATED', memory: { embeddingStatus: 'OK' } });
    expect(gated.inits).toBe(1);
    expect(gated.embeds).toBe(1);
    const after = await (await app.yoga.fetch('http://engram.test/readyz')).json();
    expect(after.detail.embedder).toBeUndefined();
  });
});
