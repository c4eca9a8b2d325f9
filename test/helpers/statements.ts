import type { StatementLike } from '../../src/core/conflict-words.js';
import type { Candidate, Incoming } from '../../src/core/recognition.js';
import { normalizeText } from '../../src/core/normalize.js';
import { extractValues, relate } from '../../src/core/conflicts.js';

/** A FACT said alone (no entities, themes or sentence before it), as the conflict rules' unit tests read one. */
export const statement = (text: string): StatementLike => ({ text, type: 'FACT', entities: [], themes: [] });

/** How the conflict rules relate two FACTs said alone (about the same thing unless `topical` is false). */
export const relateAlone = (a: string, b: string, topical = true) => relate(statement(a), statement(b), topical);

/** A text's values as "kind:norm" ("number:3/week"). */
export const valueKinds = (text: string): string[] => extractValues(text).map((v) => `${v.kind}:${v.norm}`);

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
