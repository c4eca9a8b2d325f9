/**
 * What the rules hold of a person's words between calls: their readings of sentences and tokens
 * (src/core/memo.ts) and the lexicon's recent lookups (src/core/lexicon.ts). A forget for good
 * lets go of all of it (docs/erasure.md, "Every process"); the next remember reads afresh.
 */
import { forgetAllReadings, readingsHold } from './memo.js';
import { lexicon } from './lexicon.js';

/** After a forget for good has committed: no reading or lookup keeps the forgotten words. */
export function letGoOfReadings(): void {
  forgetAllReadings();
  lexicon().letGo?.();
}

/** Whether the rules still hold a text (a sentence, or a word of one) anywhere: for the erasure tests. */
export function readingsHoldText(text: string): boolean {
  return readingsHold(text) || (lexicon().holds?.(text.toLowerCase()) ?? false);
}
