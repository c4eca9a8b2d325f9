import type { StatementLike } from '../../src/core/conflict-words.js';
import type { Candidate, Incoming } from '../../src/core/recognition.js';
import { normalizeText } from '../../src/core/normalize.js';

/** A FACT said alone (no entities, themes or sentence before it), as the conflict rules' unit tests read one. */
export const statement = (text: string): StatementLike => ({ text, type: 'FACT', entities: [], themes: [] });

/** A new FACT as `decide` reads it, said alone (no hints, no sentence before it); `o` sets the rest. */
export function incoming(text: string, o: Partial<Incoming> = {}): Incoming {
  return { text, normalized: normalizeText(text), type: 'FACT', entities: [], themes: [], previousSentence: null, messageId: 'm-new', ...o };
}

let n = 0;
/** A stored FACT met as a candidate at `score`, with an id and a message of its own; `o` sets the rest. */
export function candidate(text: string, score: number | null, o: Partial<Candidate> = {}): Candidate {
  n++;
  return { id: `c${n}`, text, normalized: normalizeText(text), type: 'FACT', entities: [], themes: [], messageId: `m${n}`, score, ...o };
}
