import type { StatementLike } from '../../src/core/conflict-words.js';

/** A FACT said alone (no entities, themes or sentence before it), as the conflict rules' unit tests read one. */
export const statement = (text: string): StatementLike => ({ text, type: 'FACT', entities: [], themes: [] });
