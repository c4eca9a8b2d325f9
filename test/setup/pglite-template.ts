/**
 * Vitest `globalSetup`: one freshly initialised PGlite cluster, and one already migrated for the
 * test embedder's dimension (USE-lite, 512), dumped to temporary files before any worker starts.
 * Each test file's new stores load them (test/setup/pglite.ts) instead of running initdb (seconds
 * of synchronous WebAssembly: 30 s of blocked event loop on a loaded machine, and vitest's
 * worker RPC gives up after 60 s) and, for an app on 512-d vectors, the migrations (as long again
 * as the load itself). Same clusters, just not rebuilt; a test that opens a store directly still
 * runs the migrations itself.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { PgliteClient, type PgliteTemplates } from '../../src/store/pglite-client.js';
import { migrate } from '../../src/store/migrations.js';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplates: PgliteTemplates;
  }
}

/** The dimension of the embedder most test apps use (test/helpers/app.ts: USE-lite). */
const APP_DIMENSIONS = 512;

export default async function setup(project: TestProject): Promise<() => void> {
  const dir = mkdtempSync(join(tmpdir(), 'engram-pglite-template-'));
  const base = join(dir, 'cluster.tar');
  await PgliteClient.writeTemplate(base);
  PgliteClient.useTemplate({ base });
  const migrated = join(dir, `cluster-${APP_DIMENSIONS}.tar`);
  await PgliteClient.writeTemplate(migrated, (db) => migrate(db, { dimensions: APP_DIMENSIONS }));
  project.provide('pgliteTemplates', { base, migrated: { [APP_DIMENSIONS]: migrated } });
  return () => rmSync(dir, { recursive: true, force: true });
}
