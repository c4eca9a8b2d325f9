/**
 * Themes the server reads from a sentence (docs/recall.md, "Themes"): what a statement is about,
 * in WordNet's own coarse vocabulary, the lexicographer files its senses are filed in ("food",
 * "act", "animal", "person", "location", "body", ...). No theme word is chosen here: a noun's
 * themes are the files of its attested senses in WordNet 3.1 (src/lexicon/wordnet.ts), read
 * through the installed lexicon (src/core/lexicon.ts); without one, nothing has a theme.
 */
import { deriveNouns } from './derive.js';
import { lexicon } from './lexicon.js';
import { lemma } from './words.js';

/** noun.Tops holds WordNet's unique beginners ("entity", "thing", "act" itself): no topic of its own. */
const NO_TOPIC = 'Tops';

/** The themes of one noun (as said: "hobbies", "hiking"): its attested senses' files, the most frequent first. */
export function nounThemes(noun: string): string[] {
  return lexicon().nounThemes(lemma(noun.toLowerCase())).filter((t) => t !== NO_TOPIC);
}

/** The theme a noun names when it is asked about as a category: the file of its most frequent sense. */
export function categoryTheme(noun: string): string | null {
  return nounThemes(noun)[0] ?? null;
}

/** The themes a text speaks of: those of every noun in it (part of speech read by wink-nlp, src/core/derive.ts). */
export function deriveThemes(text: string): string[] {
  return [...new Set(deriveNouns(text).flatMap(nounThemes))];
}
