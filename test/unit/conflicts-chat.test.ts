/**
 * Corrections as chat says them (forty-second round): its shorthands written out, a choice
 * switched for what it is for, a request to stop doing something, and what "now" cannot change.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { relate } from '../../src/core/conflicts.js';
import { findCues } from '../../src/core/correction-cues.js';
import { toks } from '../../src/core/conflict-words.js';
import { useWordNet } from '../helpers/lexicon.js';
import { statement as s } from '../helpers/statements.js';

const rel = (a: string, b: string, hints: { old?: string[]; neu?: string[] } = {}) =>
  relate({ ...s(a), entities: hints.old ?? [] }, { ...s(b), entities: hints.neu ?? [] }, true);

beforeAll(async () => {
  await useWordNet();
});

describe("chat's shorthands", () => {
  it('are read written out, one word each', () => {
    expect(toks('my wfh days')).toEqual(['my', 'work', 'from', 'home', 'days']);
    expect(toks('dentist appt tmrw')).toEqual(['dentist', 'appointment', 'tomorrow']);
    // read two ways, left as typed
    expect(toks('my bf')).toEqual(['my', 'bf']);
    expect(toks('ur cuz at uni bc')).toEqual(['ur', 'cuz', 'at', 'uni', 'bc']);
  });

  it('so that new days for working from home correct the old ones', () => {
    expect(rel('I work from home on Mondays and Fridays.', 'my wfh days are tuesday and thursday now')).toMatchObject({ kind: 'corrects' });
    expect(rel('I work from home on Mondays and Fridays.', 'my wfh days are mondays and fridays').kind).not.toBe('corrects');
  });
});

describe('a choice switched for what it is for', () => {
  it('corrects the old choice said for the same thing', () => {
    expect(rel('Use Fahrenheit for temperatures.', 'switch to celsius for temperatures pls')).toMatchObject({ kind: 'corrects', rule: 'explicit-cue' });
    expect(rel('I use whole milk for my coffee.', 'I switched to oat milk for my coffee.')).toMatchObject({ kind: 'corrects' });
  });

  it('not a sentence that says the thing but no choice for it, nor a choice told rather than asked', () => {
    expect(rel('I drink coffee in the morning.', 'I switched to oat milk for my coffee.').kind).not.toBe('corrects');
    expect(rel('I use my Kindle for reading.', 'I switched to glasses for reading.').kind).not.toBe('corrects');
  });
});

describe('asked to stop doing something', () => {
  it('is a cue that ends what was asked', () => {
    expect(findCues('Please stop using bullet points and write in full paragraphs instead.').map((c) => c.family)).toContain('state-change');
    expect(findCues('could you stop calling me Liz').map((c) => c.family)).toContain('state-change');
    const asked = (text: string) => ({ ...s(text), type: 'INSTRUCTION' as const });
    expect(relate(asked('i want your answers in bullet points'), asked('Please stop using bullet points and write in full paragraphs instead.'), true))
      .toMatchObject({ kind: 'corrects' });
    // the doing the old sentence tells, whatever its type
    expect(rel('Remind me to stretch every hour.', 'Stop reminding me to stretch every hour.')).toMatchObject({ kind: 'corrects' });
  });

  it('not a fact or a liking told by the way, of another doing', () => {
    const liked = { ...s('I like going to the gym on Mondays.'), type: 'PREFERENCE' as const };
    expect(relate(liked, { ...s('Can you stop suggesting the gym?'), type: 'INSTRUCTION' }, true).kind).not.toBe('corrects');
    expect(rel("I'm on a keto diet.", 'Please stop worrying about my diet.').kind).not.toBe('corrects');
  });

  it('not a stop that is a noun, nor one the person cannot help', () => {
    expect(findCues('the bus stop waiting room')).toEqual([]);
    expect(findCues("I can't stop humming that song.")).toEqual([]);
  });
});

describe('what holds "now" does not change where someone was born', () => {
  it('a place lived in now is another fact, with the places as hints or without', () => {
    const [old, neu] = ['my grandma was born in kraków', 'My grandmother lives in Gdańsk these days.'];
    expect(rel(old, neu, { old: ['Kraków'], neu: ['Gdańsk'] }).kind).not.toBe('corrects');
    expect(rel(old, neu).kind).not.toBe('corrects');
  });

  it('a birth said by the way is no birth told: the home still changes', () => {
    expect(rel('My grandma, born in 1930, lives in Kraków.', 'My grandma lives in Gdańsk now.', { old: ['Kraków'], neu: ['Gdańsk'] })).toMatchObject({ kind: 'corrects' });
  });

  it('a marker still corrects the birthplace', () => {
    expect(rel('My grandma was born in Kraków.', 'Actually, my grandma was born in Warsaw.', { old: ['Kraków'], neu: ['Warsaw'] })).toMatchObject({ kind: 'corrects' });
  });
});

describe('a verb that takes another after "to"', () => {
  it('is not the action: the verb after it is', () => {
    const task = (text: string) => ({ ...s(text), type: 'TASK' as const });
    expect(relate(task('I need to submit my tax return by 31 January.'), task('The deadline for filing my tax return is Jan 31.'), true).kind).toBe('compatible');
    expect(rel('call me liz, not elizabeth', "I'd prefer to be addressed as Liz rather than Elizabeth.").kind).toBe('compatible');
    // another action is still another action
    expect(rel('I walk the dog every morning.', 'I feed the dog every morning.')).toMatchObject({ kind: 'distinct', rule: 'other-action' });
  });
});
