import type { App } from './app.js';
import { configFromEnv } from './config.js';
import { DataDirLockedError } from './store/data-dir-lock.js';
import { ownerOnlyUmask, PgliteClient } from './store/pglite-client.js';
import { setFlagsFromString } from 'node:v8';

// Until the server listens, a timer keeps the event loop alive. Without one, the loop has nothing
// to wait on while the start awaits WebAssembly (a promise that V8 settles, not libuv), so Node
// drains V8's platform tasks itself, and that drain waits for every background job, including the
// optimising compiles of PGlite's code that the start's statements made hot: the first request
// waited ~0.25-0.4 s after listening. One compilation thread for WebAssembly leaves the other
// core to the start (docs/operations.md#start, docs/bench-rounds.md "Seventeenth round"). The flag holds
// for the process's life (the embedder's worker compiles under it too). Since the timer also keeps
// a start that never finishes alive, it says so every half minute instead of keeping quiet.
const startedAt = Date.now();
const starting = setInterval(() => {
  process.stderr.write(`engram: still starting after ${Math.round((Date.now() - startedAt) / 1000)} s (opening the store, migrations, the schema)\n`);
}, 30_000);
setFlagsFromString('--wasm-num-compilation-tasks=1');
// Everything the service writes (PGlite, LanceDB) is its owner's alone: 0700 / 0600.
ownerOnlyUmask();
const config = configFromEnv();
// The embedded store starts opening (its WebAssembly compiles on V8's background threads, its
// files are read) while the service's modules load: the two overlap (docs/operations.md#start).
const opening = config.databaseUrl
  ? undefined
  : PgliteClient.open(config.dataDir, { owner: 'server', sharedBuffers: config.pgliteSharedBuffers });
opening?.catch(() => { /* reported below */ });
let app: App;
try {
  const { buildApp } = await import('./app.js');
  // The model and WordNet load on first use: the service answers once the store is open.
  app = await buildApp(config, { owner: 'server', lazyLoad: true, opening });
} catch (e) {
  if (e instanceof DataDirLockedError) {
    process.stderr.write(`engram: not starting: ${e.message}. Stop it first, or set ENGRAM_DATA_DIR to another directory.\n`);
    process.exit(3);
  }
  throw e;
}
let started: Awaited<ReturnType<App['start']>>;
try {
  started = await app.start();
} catch (e) {
  const inUse = (e as NodeJS.ErrnoException)?.code === 'EADDRINUSE';
  process.stderr.write(`engram: not starting: ${inUse
    ? `${config.host}:${config.port} is in use (another Engram, or another program); set PORT to another port`
    : String((e as Error)?.message ?? e)}\n`);
  await app.stop().catch(() => {});
  process.exit(3);
}
const { url, adminToken } = started;
clearInterval(starting);
// A clean stop from here on, before the line below: whoever waits for it may stop us at once.
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.once(sig, () => {
    void app.stop().finally(() => process.exit(0));
  });
}
// One write: whoever reads the first line gets the token with it.
process.stdout.write(`Engram is running: the memory page at ${url.replace(/graphql$/, '')}, GraphiQL at ${url}\n` + (adminToken
  ? `First start: an admin token was created. It is shown once, keep it:\n  ${adminToken}\n` +
    `Use it as "Authorization: Bearer <token>" (in GraphiQL: the Headers tab). The memory page takes an\n` +
    `operator token of a space (createToken(role: operator, spaceId: ...)), or this one to choose a space.\n`
  : ''));
