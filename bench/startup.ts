/**
 * Start of the server on the embedded default (PGlite, pgvector, the default embedder):
 * `serverStart` runs `npm start`'s own process (`node dist/server/main.js`, built by
 * `npm ci`) and measures what the targets name — warm start to the first answer
 * and RSS after start; `coldStart` (in process, modules already loaded) a fresh directory
 * and a restart; `embedderCost` the built-in embedders' cost per sentence.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildApp } from '../src/app.js';
import { configFromEnv } from '../src/config.js';
import { UseLiteEmbedder } from '../src/embed/use-lite-embedder.js';
import { BuiltinEmbedder } from '../src/embed/builtin-embedder.js';
import { summarize } from './stats.js';
import { templateSentence } from './workload.js';
import type { Figure } from './workloads.js';

async function startOnce(dataDir: string): Promise<number> {
  const t = performance.now();
  const app = await buildApp(configFromEnv({}, { dataDir, port: 0, logLevel: 'silent', bootstrapAdmin: false }));
  try {
    const { url } = await app.start();
    for (;;) {
      try {
        const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ __typename }' }) });
        await r.text();
        if (r.status < 500) break;
      } catch {
        // not answering yet
      }
      await new Promise((res) => setTimeout(res, 5));
    }
    return performance.now() - t;
  } finally {
    await app.stop();
  }
}

export async function coldStart(): Promise<Figure[]> {
  const dir = await mkdtemp(join(tmpdir(), 'engram-bench-cold-'));
  try {
    const first = await startOnce(join(dir, 'data'));
    const again = await startOnce(join(dir, 'data'));
    return [
      { workload: 'server start (embedded default)', metric: 'fresh data dir', unit: 'ms', value: first, samples: 1 },
      { workload: 'server start (embedded default)', metric: 'restart, same dir', unit: 'ms', value: again, samples: 1 },
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export async function embedderCost(sentences: number): Promise<Figure[]> {
  const texts = Array.from({ length: sentences }, (_, i) => templateSentence(7_000_000 + i));
  const out: Figure[] = [];
  const use = new UseLiteEmbedder({ batchSize: 32 });
  let t = performance.now();
  await use.init();
  out.push({ workload: 'embedder use-lite-512', metric: 'load', unit: 'ms', value: performance.now() - t, samples: 1 });
  await use.embed([texts[0]]); // first pass compiles kernels
  const single: number[] = [];
  for (const s of texts.slice(0, Math.min(50, texts.length))) {
    t = performance.now();
    await use.embed([s]);
    single.push(performance.now() - t);
  }
  const ss = summarize(single);
  out.push({ workload: 'embedder use-lite-512', metric: 'single p50', unit: 'ms/sentence', value: ss.p50, samples: ss.samples });
  out.push({ workload: 'embedder use-lite-512', metric: 'single p95', unit: 'ms/sentence', value: ss.p95, samples: ss.samples });
  t = performance.now();
  await use.embed(texts);
  out.push({ workload: 'embedder use-lite-512', metric: 'batched (32)', unit: 'ms/sentence', value: (performance.now() - t) / texts.length, samples: texts.length });
  await use.close();

  const sif = new BuiltinEmbedder();
  t = performance.now();
  await sif.init();
  out.push({ workload: 'embedder builtin-sif-100', metric: 'load', unit: 'ms', value: performance.now() - t, samples: 1 });
  sif.embedSync(texts.slice(0, 10));
  t = performance.now();
  for (const s of texts) sif.embedSync([s]);
  out.push({ workload: 'embedder builtin-sif-100', metric: 'single', unit: 'ms/sentence', value: (performance.now() - t) / texts.length, samples: texts.length });
  t = performance.now();
  sif.embedSync(texts);
  out.push({ workload: 'embedder builtin-sif-100', metric: 'batched', unit: 'ms/sentence', value: (performance.now() - t) / texts.length, samples: texts.length });
  await sif.close();
  return out;
}

export interface ServerStartFigures {
  /** Median of the warm starts: spawn of `node dist/server/main.js` on an existing store to its first answer that reads the store. */
  warm_start_ms: number;
  warm_starts_ms: number[];
  /** Process RSS (main and worker threads) 3 s after the first answer, nothing asked of it but that answer (median). */
  rss_after_start_mb: number;
  /** RSS at the first answer (median). */
  rss_at_first_answer_mb: number;
  /** The first remember after a warm start (it loads the model and WordNet) and the RSS after it. */
  first_remember_ms: number;
  rss_after_first_remember_mb: number;
  /** CPU time (all threads) the process spent until its first answer (median): the start's work, whatever the load. */
  warm_start_cpu_ms: number;
}

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MAIN = join(ROOT, 'dist', 'server', 'main.js');

const freePort = () => new Promise<number>((resolve, reject) => {
  const srv = createServer();
  srv.once('error', reject);
  srv.listen(0, '127.0.0.1', () => {
    const { port } = srv.address() as { port: number };
    srv.close(() => resolve(port));
  });
});

/** RSS (MB) and CPU time (ms, every thread) of a process, from /proc (Linux). */
function usage(pid: number): { rssMb: number; cpuMs: number } {
  try {
    const rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN) / 1024;
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return { rssMb: rss, cpuMs: (Number(stat[11]) + Number(stat[12])) * 10 };
  } catch {
    return { rssMb: NaN, cpuMs: NaN };
  }
}

async function gql(port: number, token: string | null, query: string, variables: Record<string, unknown> = {}): Promise<any> {
  const r = await fetch(`http://127.0.0.1:${port}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  const body = await r.json() as { data?: any; errors?: unknown };
  if (!body.data) throw new Error(`no data: ${JSON.stringify(body.errors)}`);
  return body.data;
}

interface Started { child: ChildProcess; port: number; ms: number; out: () => string }

/** Spawns the server on `dir` and polls until `probe` answers; `ms` from spawn to that answer. */
async function spawnServer(dir: string, probe: (port: number) => Promise<unknown>): Promise<Started> {
  const port = await freePort();
  const t = performance.now();
  const child = spawn(process.execPath, [MAIN], {
    cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ENGRAM_DATA_DIR: dir, PORT: String(port), ENGRAM_HOST: '127.0.0.1', LOG_LEVEL: 'warn', DATABASE_URL: '' },
  });
  let out = '';
  child.stdout!.on('data', (d) => { out += String(d); });
  child.stderr!.on('data', (d) => { out += String(d); });
  let exited = false;
  child.once('exit', () => { exited = true; });
  for (;;) {
    if (exited) throw new Error(`the server exited before answering: ${out.slice(-2000)}`);
    try {
      await probe(port);
      return { child, port, ms: performance.now() - t, out: () => out };
    } catch {
      await new Promise((r) => setTimeout(r, 10));
    }
  }
}

async function stopServer(s: Started): Promise<void> {
  if (s.child.exitCode !== null) return;
  const gone = new Promise((r) => s.child.once('exit', r));
  s.child.kill('SIGTERM');
  await gone;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

/**
 * `npm start`'s process on `dir` (an existing store, or a new one: the first start creates it
 * and is not counted): `warm` restarts, each until its first answer that reads the store
 * (`spaces` with the admin token the first start printed), RSS then and 3 s later; the last
 * restart also makes the first remember (which loads the model and WordNet) and reads RSS after it.
 */
export async function serverStart(dir: string, warm = 3): Promise<ServerStartFigures> {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: build first (npm ci runs it; or npm run build:server)`);
  const first = await spawnServer(dir, (port) => gql(port, null, '{ __typename }'));
  // The answer may come before the line with the token is read from the pipe (one write, after listening).
  for (let i = 0; i < 3_000 && !first.out().includes('Engram is running'); i++) await new Promise((r) => setTimeout(r, 10));
  const token = /admin token was created[^\n]*\n\s*(\S+)/.exec(first.out())?.[1];
  await stopServer(first);
  if (!token) throw new Error('the first start printed no admin token: measure on a store the server has not started on');
  const readsStore = async (port: number) => {
    const d = await gql(port, token, '{ spaces { __typename } }');
    if (!d.spaces) throw new Error('not answered');
  };
  const starts: number[] = [];
  const atAnswer: number[] = [];
  const settled: number[] = [];
  const cpu: number[] = [];
  let firstRemember = NaN;
  let afterRemember = NaN;
  for (let i = 0; i < warm; i++) {
    const s = await spawnServer(dir, readsStore);
    try {
      const u = usage(s.child.pid!);
      starts.push(s.ms);
      atAnswer.push(u.rssMb);
      cpu.push(u.cpuMs);
      await new Promise((r) => setTimeout(r, 3_000));
      settled.push(usage(s.child.pid!).rssMb);
      if (i === warm - 1) {
        const sp = (await gql(s.port, token, `mutation { createSpace(name: "start bench ${Date.now()}", timeZone: "UTC") { ... on Space { id } } }`)).createSpace.id;
        const tok = async (role: string) => (await gql(s.port, token, `mutation($r: Role!, $s: ID) { createToken(role: $r, spaceId: $s) { ... on CreatedToken { secret } } }`, { r: role, s: sp })).createToken.secret as string;
        const chat = await tok('chat');
        const assistant = await tok('assistant');
        const text = 'My sister Ana moved to Lisbon in 2019.';
        const conv = (await gql(s.port, chat, `mutation { openConversation { ... on Conversation { id } } }`)).openConversation.id;
        await gql(s.port, chat, `mutation($c: ID!, $x: String!) { recordMessage(conversationId: $c, role: USER, text: $x) { ... on Message { id } } }`, { c: conv, x: text });
        const t = performance.now();
        const r = await gql(s.port, assistant, `mutation($i: RememberInput!) { remember(input: $i) { ... on RememberOutcome { outcome } ... on Error { message } } }`,
          { i: { conversationId: conv, quote: text, type: 'FACT' } });
        firstRemember = performance.now() - t;
        if (!r.remember.outcome) throw new Error(`first remember failed: ${JSON.stringify(r.remember)}`);
        afterRemember = usage(s.child.pid!).rssMb;
      }
    } finally {
      await stopServer(s);
    }
  }
  const r1 = (x: number) => Math.round(x);
  return {
    warm_start_ms: r1(median(starts)), warm_starts_ms: starts.map(r1), rss_after_start_mb: r1(median(settled)),
    rss_at_first_answer_mb: r1(median(atAnswer)), first_remember_ms: r1(firstRemember), rss_after_first_remember_mb: r1(afterRemember),
    warm_start_cpu_ms: r1(median(cpu)),
  };
}
