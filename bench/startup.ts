/**
 * Cold start of the server on the embedded default (PGlite in a fresh data
 * directory, pgvector, the default embedder) until it answers an HTTP request,
 * a restart on the same directory, and the built-in embedders' cost per sentence.
 */
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
