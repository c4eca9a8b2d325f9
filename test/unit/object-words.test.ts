/**
 * Words that name one of Object's own members ("constructor", "toString", "__proto__") are words
 * like any other: the rules' word tables have no prototype (src/core/table.ts). "I prefer
 * constructor injection." made relate throw (`tok.toLowerCase is not a function`), and with it
 * every remember that met such a memory (found by the forty-second round's review).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { relate } from '../../src/core/conflicts.js';
import { extractValues } from '../../src/core/values.js';
import { findCues } from '../../src/core/correction-cues.js';
import { clauseRestates } from '../../src/core/recognition.js';
import { toks, key } from '../../src/core/conflict-words.js';
import { useWordNet } from '../helpers/lexicon.js';
import { statement as s } from '../helpers/statements.js';

const MEMBERS = Object.getOwnPropertyNames(Object.prototype);

beforeAll(async () => {
  await useWordNet();
});

describe("Object's member names as typed words", () => {
  it('are read as words by every rule, never as the members', () => {
    expect(MEMBERS).toContain('constructor');
    for (const w of MEMBERS) {
      for (const text of [`I prefer ${w} injection.`, `the ${w} of June`, `my ${w} is 5`, `at ${w} hundred`, `the end of ${w}`, `${w}-${w}`]) {
        expect(() => relate(s('I prefer field injection.'), s(text), true), text).not.toThrow();
        expect(() => relate(s(text), s('My mum is 5.'), true), text).not.toThrow();
        expect(extractValues(text).every((v) => typeof v.norm === 'string' && !v.norm.includes('function')), text).toBe(true);
        expect(() => findCues(text), text).not.toThrow();
        expect(() => clauseRestates(text, `${text}, again`), text).not.toThrow();
      }
      expect(toks(`my ${w}`).every((t) => typeof t === 'string')).toBe(true);
      expect(typeof key(w)).toBe('string');
    }
  });

  it('the constructor injection pair is decided as before the tables had a prototype', () => {
    expect(relate(s('I prefer field injection.'), s('I prefer constructor injection.'), true)).toMatchObject({ kind: 'corrects' });
  });
});
