/**
 * WordNet in the rules' lexicon for every test file (vitest `setupFiles`), as in the service,
 * where the container registers the loader and the first remember awaits it. Without it a rule
 * test would check the empty lexicon, a configuration the service never runs; and with
 * `isolate: false` the answer would depend on whether an earlier file had loaded it.
 */
import { beforeAll } from 'vitest';
import { useWordNet } from '../helpers/lexicon.js';

beforeAll(async () => {
  await useWordNet();
});
