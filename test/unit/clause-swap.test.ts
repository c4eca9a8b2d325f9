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

  it('leaves alone a time or a number said again, however its digits are punctuated', () => {
    for (const [a, b] of [
      ['Standup is at 9:15.', 'Actually, standup is at 9:15.'],
      ['My train leaves at 7:42.', 'No wait, my train leaves at 7:42, from platform 3.'],
      ['My rent is £1,200 a month.', 'Actually, my rent is £1,200 a month, bills included.'],
      ['My ratio for pour-over is 1:16.', 'Actually my ratio for pour-over is 1:16.'],
    ]) expect(rel(a!, b!).kind, b).not.toBe('corrects');
  });

  it('leaves alone an old word said again alone, in an apposition or a trailing phrase: the same thing, not another', () => {
    for (const [a, b] of [
      ['Our cat is called Miso.', "Actually our cat, the ginger one, is called Miso and she's 3."],
      ['I live in Leeds.', 'Correction: I live in Headingley, which is in Leeds.'],
      ['My sister lives in York.', "Actually, my sister, who's a nurse, lives in York with her husband."],
      ['My husband is a nurse.', "Actually, my husband works nights, he's a nurse."],
      ['I work at Google.', 'Actually, I work as a data engineer, at Google.'],
    ]) expect(rel(a!, b!).kind, b).not.toBe('corrects');
  });

  it('reads the clause sharing the most of the old words: one that restates the old sentence swaps nothing', () => {
    const old = new Set(['sister', 'live', 'york']);
    expect(swappedInAClause(old, 'my sister lives in leeds, my brother lives in york', NONE)).toBe(true);
    // (york said alone, with no word of its own: the same place, not another's)
    expect(swappedInAClause(old, 'my sister lives with her partner, in york', NONE)).toBe(false);
    expect(swappedInAClause(old, 'my sister lives in leeds; my sister lives in york', NONE)).toBe(false);
    expect(swappedInAClause(old, 'my sister lives in leeds', NONE)).toBe(false);
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

  it('counts a run ending on a label when what it labels says the old words the run leaves unsaid', () => {
    expect(clauseRestates("I'm allergic to peanuts.", "I'm allergic to peanuts: even a trace sends me to hospital.")).toBe(true);
    expect(clauseRestates('My brother Owen lives in Bristol.', "My brother Owen lives in Bristol: he's a chemist.")).toBe(true);
    expect(clauseRestates('The wifi password is sunflower42.', 'wifi password: sunflower42 (all lowercase)')).toBe(true);
    expect(clauseRestates('My birthday is on 7 November.', 'birthday: 7 nov')).toBe(true);
    // (a time split at its colon is read whole as what the label labels)
    expect(clauseRestates('The meeting with Sam is on Thursday at 3:30pm.', 'meeting with Sam: thursday at 3:30pm')).toBe(true);
  });

  it('keeps another value after the label out of the memory: below the related score it is not reinforced', () => {
    const d = decide(incoming('go-to takeaway: pad see ew'), [candidate('My go-to takeaway is Thai green curry.', 0.72)],
      { close: 0.875, related: 0.75, topic: 0.65, recallFloor: 0.4 });
    expect(d.action).not.toBe('reinforce');
  });
});
