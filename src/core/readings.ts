/**
 * What the rules hold of a person's words between calls: their readings of sentences and tokens
 * (src/core/memo.ts) and the lexicon's recent lookups (src/core/lexicon.ts). A forget for good
 * lets go of all of it (docs/erasure.md, "Every process"); the next remember reads afresh.
 */
import { forgetAllReadings, readingsHold } from './memo.js';
import { lexicon } from './lexicon.js';

/** Bumped by every let-go: the use cases begun before it may still read what it let go of. */
let generation = 0;
/** The use cases reading sentences now (`whileReading`), counted by the generation they began in. */
const running = new Map<number, number>();

function letGo(): void {
  forgetAllReadings();
  lexicon().letGo?.();
}

/** After a forget for good has committed: no reading or lookup keeps the forgotten words. */
export function letGoOfReadings(): void {
  generation++;
  letGo();
}

/**
 * Runs a use case that reads sentences through the rules (remember, recall). A forget may commit
 * while it runs, after it read the forgotten memory's record as a candidate and before its rules
 * read that text, which they would then cache again. So when the last use case begun before a
 * let-go ends, everything is let go once more: no reading outlives the use cases that may have
 * made it (docs/erasure.md, "Every process").
 */
export async function whileReading<T>(run: () => Promise<T>): Promise<T> {
  const began = generation;
  running.set(began, (running.get(began) ?? 0) + 1);
  try {
    return await run();
  } finally {
    const left = running.get(began)! - 1;
    if (left > 0) running.set(began, left);
    else running.delete(began);
    if (began < generation && ![...running.keys()].some((g) => g < generation)) letGo();
  }
}

/** Whether the rules still hold a text (a sentence, or a word of one) anywhere: for the erasure tests. */
export function readingsHoldText(text: string): boolean {
  return readingsHold(text) || (lexicon().holds?.(text.toLowerCase()) ?? false);
}
