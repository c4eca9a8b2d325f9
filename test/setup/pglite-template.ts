/**
 * Vitest `globalSetup`: one freshly initialised PGlite cluster, dumped to a temporary file before
 * any worker starts. Each test file's in-memory stores load it (test/setup/pglite.ts) instead of
 * running initdb, seconds of synchronous WebAssembly that blocked a worker's event loop for 30 s
 * on a loaded machine (vitest's worker RPC gives up after 60 s). Same cluster, just not rebuilt.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { PgliteClient } from '../../src/store/pglite-client.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const dir = mkdtempSync(join(tmpdir(), 'engram-pglite-template-'));
  const file = join(dir, 'cluster.tar');
  await PgliteClient.writeTemplate(file);
  project.provide('pgliteTemplate', file);
  return () => rmSync(dir, { recursive: true, force: true });
}
