import { ensureLexicon, registerLexiconLoader } from '../../src/core/lexicon.js';
import { loadWordNet } from '../../src/lexicon/wordnet.js';

/** Loads WordNet into the rules' lexicon (src/core/lexicon.ts), as the container does: call in beforeAll. */
export async function useWordNet(): Promise<void> {
  registerLexiconLoader(() => loadWordNet());
  await ensureLexicon();
}
