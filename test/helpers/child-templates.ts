/**
 * Preloaded (`--import`) into the Engram processes tests start (test/helpers/process.ts,
 * test/process/kill9.test.ts): their new PGlite stores load the suite's template clusters, named
 * by ENGRAM_TEST_PGLITE_TEMPLATES (test/setup/pglite.ts), instead of running initdb.
 */
import { PgliteClient } from '../../src/store/pglite-client.js';

const named = process.env.ENGRAM_TEST_PGLITE_TEMPLATES;
if (named) PgliteClient.useTemplate(JSON.parse(named));
