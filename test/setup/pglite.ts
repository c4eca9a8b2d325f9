/**
 * Vitest `setupFiles`: new PGlite stores of this test file (in memory or in a new directory) load
 * the suite's template clusters (test/setup/pglite-template.ts); so do the Engram processes a test
 * starts (servers, CLI commands, writers: test/helpers/child-templates.ts reads the variable).
 */
import { inject } from 'vitest';
import { PgliteClient } from '../../src/store/pglite-client.js';

const templates = inject('pgliteTemplates') ?? null;
PgliteClient.useTemplate(templates);
if (templates) process.env.ENGRAM_TEST_PGLITE_TEMPLATES = JSON.stringify(templates);
