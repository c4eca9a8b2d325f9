/** Helpers for tests that talk to a started server over HTTP and graphql-ws. */
import { createServer, Socket, type Server } from 'node:net';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';

export async function httpGql(url: string, token: string | null, query: string, variables: Record<string, unknown> = {}): Promise<any> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${await res.text()}`);
  const body = (await res.json()) as any;
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  return body.data;
}

export function wsClient(url: string, token: string, opts: { onClose?: (code: number) => void } = {}): Client {
  return createClient({
    url: url.replace(/^http/, 'ws'), webSocketImpl: WebSocket, lazy: false, retryAttempts: 0,
    connectionParams: { authorization: `Bearer ${token}` },
    // Closing is part of these tests: the close reaches the subscriptions' sinks, not the console.
    onNonLazyError: () => {},
    on: { closed: (e) => opts.onClose?.((e as { code: number }).code) },
  });
}

export interface Listener { events: any[]; errors: unknown[]; done: Promise<void>; /** The server completed or failed it. */ ended: boolean; stop(): void }

export function listen(client: Client, query: string, variables: Record<string, unknown> = {}): Listener {
  const events: any[] = [];
  const errors: unknown[] = [];
  let stop = () => {};
  const l: Listener = { events, errors, done: Promise.resolve(), ended: false, stop: () => stop() };
  l.done = new Promise<void>((resolve) => {
    const end = () => { l.ended = true; resolve(); };
    stop = client.subscribe({ query, variables }, {
      next: (v) => {
        if (v.errors) errors.push(...v.errors);
        else events.push((v.data as any).memoryEvents);
      },
      error: (e) => { errors.push(e); end(); },
      complete: end,
    });
  });
  return l;
}

/** A subscription over server-sent events (POST, `accept: text/event-stream`): the text as it arrives. */
export interface SseListener { readonly text: string; /** The server ended the stream. */ readonly ended: boolean; done: Promise<void>; stop(): void }

export async function listenSse(url: string, token: string, query: string, variables: Record<string, unknown> = {}): Promise<SseListener> {
  const ctrl = new AbortController();
  const res = await fetch(url, {
    method: 'POST', signal: ctrl.signal,
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, variables }),
  });
  if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${await res.text()}`);
  const l = { text: '', ended: false, done: Promise.resolve(), stop: () => ctrl.abort() };
  l.done = (async () => {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) l.text += decoder.decode(chunk, { stream: true });
      l.ended = true;
    } catch {
      // Stopped here, or the connection was cut (a server closed under a failed test): not an end the server gave.
    }
  })();
  return l;
}

export async function until(cond: () => boolean | Promise<boolean>, ms = 30_000, what = 'condition'): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Opens a conversation, records `text` as the person's message and remembers it. */
export async function say(url: string, sp: { chat: string; assistant: string }, text: string, type = 'FACT'): Promise<{ outcome: string; id: string }> {
  const conv = (await httpGql(url, sp.chat, `mutation { openConversation { ... on Conversation { id } } }`)).openConversation.id;
  await httpGql(url, sp.chat, `mutation($c: ID!, $x: String!) { recordMessage(conversationId: $c, role: USER, text: $x) { ... on Message { id } } }`, { c: conv, x: text });
  const r = await httpGql(url, sp.assistant, `mutation($i: RememberInput!) { remember(input: $i) {
    ... on RememberOutcome { outcome memory { id } } ... on Error { message } } }`, { i: { conversationId: conv, quote: text, type } });
  if (!r.remember.memory) throw new Error(JSON.stringify(r.remember));
  return { outcome: r.remember.outcome, id: r.remember.memory.id };
}

/**
 * A TCP proxy in front of a server (PostgreSQL in tests): `cut()` closes the listening
 * socket and every connection, as a stopped server would; `restore()` listens again on the
 * same port. Lets a test take the database away from one instance without stopping it.
 */
export class TcpProxy {
  private server: Server | null = null;
  private sockets = new Set<Socket>();
  port = 0;
  constructor(private readonly targetHost: string, private readonly targetPort: number) {}

  async open(): Promise<number> {
    this.server = createServer((client) => {
      const upstream = new Socket();
      this.sockets.add(client).add(upstream);
      const drop = () => { client.destroy(); upstream.destroy(); this.sockets.delete(client); this.sockets.delete(upstream); };
      client.on('error', drop).on('close', drop);
      upstream.on('error', drop).on('close', drop);
      upstream.connect(this.targetPort, this.targetHost, () => { client.pipe(upstream); upstream.pipe(client); });
    });
    await new Promise<void>((resolve, reject) => this.server!.once('error', reject).listen(this.port, '127.0.0.1', () => resolve()));
    this.port = (this.server.address() as { port: number }).port;
    return this.port;
  }

  async cut(): Promise<void> {
    const s = this.server;
    this.server = null;
    for (const x of this.sockets) x.destroy();
    this.sockets.clear();
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  }

  async restore(): Promise<void> {
    await this.open();
  }
}
