/**
 * The forty-fourth round's readings by clause: a correction marker's sentence that says the old words again, of
 * something else, in a clause of its own (src/core/clause-swap.ts), and a label before a colon that says nothing
 * until what follows it is read (src/core/clause-restates.ts). Each with what it must leave alone.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { swappedInAClause } from '../../src/core/clause-swap.js';
import { clauseRestates } from '../../src/core/clause-restates.js';
import { decide } from '../../src/core/recognition.js';
import { useWordNet } from '../helpers/lexicon.js';
import { candidate, incoming, relateAlone as rel } from '../helpers/statements.js';

beforeAll(async () => {
  await useWordNet();
});

const NONE: ReadonlySet<string> = new Set();

describe('a marker sentence read by its clauses', () => {
  it('corrects when the clause that speaks to the old sentence gives another word, the old one said again of something else', () => {
    expect(rel("Leo's swim coach is Mrs. Patel.", "Correction: Leo's swim coach is Mr. Osei - Mrs. Patel coaches the older group."))
      .toMatchObject({ kind: 'corrects', rule: 'explicit-cue' });
    expect(rel("I'm allergic to almonds.", "Let me correct that: it's pistachios I'm allergic to, almonds are fine."))
      .toMatchObject({ kind: 'corrects', rule: 'explicit-cue' });
  });

  it('leaves alone a sentence that says the old one again in a clause, however much it adds', () => {
    expect(rel('I work at Google.', 'Correction: I work at Google, in the London office.').kind).not.toBe('corrects');
    expect(rel('My sister lives in York.', 'Actually, my sister lives in York, she moved there in May.').kind).not.toBe('corrects');
    expect(rel("I'm allergic to peanuts.", "Sorry, to be clear: I'm allergic to peanuts, not tree nuts.").kind).not.toBe('corrects');
  });

  it('reads the clause sharing the most of the old words: one that restates the old sentence swaps nothing', () => {
    const old = new Set(['sister', 'live', 'york']);
    expect(swappedInAClause(old, 'my sister lives in leeds, my brother lives in york', NONE)).toBe(true);
    expect(swappedInAClause(old, 'my sister lives in leeds; my sister lives in york', NONE)).toBe(false);
    expect(swappedInAClause(old, 'my sister lives in leeds', NONE)).toBe(false);
    expect(swappedInAClause(old, 'my brother lives in leeds, my sister lives in hull', NONE)).toBe(true);
    expect(swappedInAClause(new Set(), 'a, b', NONE)).toBe(false);
  });
});

describe('a label before a colon', () => {
  it('does not restate until what it labels is read', () => {
    expect(clauseRestates('My go-to takeaway is Thai green curry.', 'go-to takeaway: pad see ew')).toBe(false);
    expect(clauseRestates('My go-to takeaway is Thai green curry.', 'go-to takeaway: thai green curry')).toBe(true);
    // (a preface before a colon is no label of the old words: what follows is read alone)
    expect(clauseRestates('Arjun has a peanut allergy.', 'fyi: arjun has a peanut allergy')).toBe(true);
  });

  it('keeps another value after the label out of the memory: below the related score it is not reinforced', () => {
    const d = decide(incoming('go-to takeaway: pad see ew'), [candidate('My go-to takeaway is Thai green curry.', 0.72)],
      { close: 0.875, related: 0.75, topic: 0.65, recallFloor: 0.4 });
    expect(d.action).not.toBe('reinforce');
  });
});
