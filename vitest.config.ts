import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

export default defineConfig({
  // One copy of graphql: the project's ESM imports and yoga / Pothos (CommonJS) must share
  // it, or schema objects "from another realm" are refused.
  resolve: { alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }] },
  test: {
    include: ['test/**/*.test.ts'],
    // One freshly initialised PGlite cluster for the whole run, loaded by every in-memory store
    // instead of a fresh initdb per store (seconds of synchronous WebAssembly each).
    globalSetup: ['test/setup/pglite-template.ts'],
    // pglite.ts installs that template in each test file; loop-watch.ts names any test whose
    // event loop stalls for more than 2 s (vitest's worker RPC gives up at 60 s, and fails the
    // run with `Timeout calling "onTaskUpdate"` though every test passed).
    // wordnet.ts loads WordNet into the rules' lexicon for every file, as the service does at its
    // first remember: the rules are tested with the data they decide with in production.
    setupFiles: ['test/setup/pglite.ts', 'test/setup/loop-watch.ts', 'test/setup/wordnet.ts'],
    // Bounds, not races: a test waits on events; these only stop a hung one. Generous because
    // CI is a shared 2-core machine where a step can take 5x its time at rest.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    expect: { poll: { timeout: 20_000 } },
    // Sized for 2 cores on purpose:
    // - forks, not threads: PGlite and LanceDB load native/WebAssembly code that is safer in a
    //   process of its own, `process.umask` (the data directory's permissions) is refused in
    //   worker threads, and a crash or a blocked loop stays in one file's process;
    // - two at a time: one per core. Much of the suite waits on I/O (the PostgreSQL server, the
    //   processes and Chromium it starts), so one fork would leave a core idle, and more than
    //   two only add to the time each synchronous step holds a loop.
    // - isolate: false: each of the two worker processes runs its files in turn, in one module
    //   graph, instead of a new process per file. A file then no longer imports the app again or
    //   loads its own USE-lite model and WordNet (seconds of CPU each, the larger part of the
    //   suite's time: docs/testing.md, "Duration at rest"). The price is shared module state, so
    //   none may leak between files: the stores, servers and apps a test makes are closed in its
    //   own hooks, and the one process-wide state the rules read, the lexicon, is the same
    //   (WordNet) in every file.
    pool: 'forks',
    maxWorkers: 2,
    isolate: false,
    reporters: ['default'],
  },
});
