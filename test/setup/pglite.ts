/** Vitest `setupFiles`: new PGlite stores of this test file (in memory or in a new directory) load the suite's template cluster (test/setup/pglite-template.ts). */
import { inject } from 'vitest';
import { PgliteClient } from '../../src/store/pglite-client.js';

PgliteClient.useTemplate(inject('pgliteTemplate') ?? null);
