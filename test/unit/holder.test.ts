import { beforeAll, describe, expect, it } from 'vitest';
import { relate } from '../../src/core/conflicts.js';
import { predicateSwap } from '../../src/core/holder.js';
import { lexicon } from '../../src/core/lexicon.js';
import { useWordNet } from '../helpers/lexicon.js';
import { statement as s } from '../helpers/statements.js';

const rel = (a: string, b: string, topical = true) => relate(s(a), s(b), topical);

beforeAll(useWordNet, 120_000);

describe('one holder, one part of what is said of it exchanged', () => {
  it('finds the one stretch exchanged after the holder and its verb', () => {
    expect(predicateSwap('I sit at the front of the class.', 'I sit at the back of the class.', new Set())).toEqual({
      old: ['front'], new: ['back'], verb: 'sit', afterObject: false, lead: ['at', 'the'], next: 'of',
    });
    expect(predicateSwap('Leave the porch light on at night.', 'Leave the porch light off at night.', new Set())).toMatchObject({ verb: 'leave' });
    expect(predicateSwap('I drink my tea with sugar.', 'I drink my tea without sugar.', new Set())).toMatchObject({ afterObject: true });
  });

  it('has no swap in the subject, a subject there are several of, two stretches or another verb', () => {
    for (const [a, b] of [
      ['My upper tooth aches.', 'My lower tooth aches.'], // the subject itself
      ['My cousin is rich.', 'My cousin is poor.'], // which cousin?
      ['A woman is going up the stairs.', 'A woman is going down the stairs.'], // nobody in particular
      ['I walk to work in the morning.', 'I cycle to work in the evening.'], // two stretches
      ['I lock the door at night.', 'I unlock the door at night.'], // the verb itself
      ["I'm arriving on Friday.", "I'm leaving on Friday."], // the verb after its auxiliary
      ['I read in bed. I sleep late.', 'I read in bed. I sleep early.'], // two clauses
      ['Two girls are sitting on the bench.', 'Two boys are sitting on the bench.'], // a count opens no order
    ] as const) {
      expect(predicateSwap(a, b, new Set()), `${a} / ${b}`).toBeNull();
    }
    // a run-on clause is not read (the word diff is quadratic in its words)
    const long = (w: string) => `I sit at the ${w} of the class ${'and then I read and write '.repeat(10)}`;
    expect(predicateSwap(long('front'), long('back'), new Set())).toBeNull();
  });
});

describe('opposite: one holder said to be the opposite of what it was corrects', () => {
  it('the person, a definite thing, a named person and an order', () => {
    for (const [was, now] of [
      ['I sit at the front of the class.', 'I sit at the back of the class.'],
      ['My office is on the upper floor.', 'My office is on the lower floor.'],
      ['Leave the porch light on at night.', 'Leave the porch light off at night.'],
      ['We always arrive early for the school run.', 'We always arrive late for the school run.'],
      ['My sister Priya is tall.', 'My sister Priya is short.'],
      ['I drink my tea with sugar.', 'I drink my tea without sugar.'],
      // the other end of a degree (English's degree modifiers, a closed class)
      ["I'm slightly short-sighted.", "I'm severely short-sighted."],
      ['My shoulder hurts a little.', 'My shoulder hurts a lot.'],
    ] as const) {
      expect(rel(was, now), `${was} / ${now}`).toMatchObject({ kind: 'corrects', rule: 'opposite' });
    }
  });

  it('stays two facts: another holder, a goal and a source, an object of a verb people have several of, or not topical', () => {
    for (const [a, b] of [
      ['My upper tooth aches.', 'My lower tooth aches.'],
      ['My cousin is rich.', 'My cousin is poor.'],
      ['A woman is going up the stairs.', 'A woman is going down the stairs.'],
      ['I drove to Bristol.', 'I drove from Bristol.'],
      ['I enjoy hot baths.', 'I enjoy cold baths.'],
      // one end of a degree said two ways
      ["I'm very short-sighted.", "I'm really short-sighted."],
    ] as const) {
      expect(rel(a, b), `${a} / ${b}`).not.toMatchObject({ kind: 'corrects' });
    }
    expect(rel('I sit at the front of the class.', 'I sit at the back of the class.', false)).not.toMatchObject({ kind: 'corrects' });
  });
});

describe('a preference is one choice (new-value)', () => {
  it('another thing preferred corrects', () => {
    for (const [was, now] of [
      ['I prefer green tea.', 'I prefer black tea.'],
      ['I prefer the bus.', 'I prefer the tram.'],
      ['We prefer the corner table.', 'We prefer the window table.'],
    ] as const) {
      expect(rel(was, now), `${was} / ${now}`).toMatchObject({ kind: 'corrects', rule: 'new-value' });
    }
  });

  it('a synonym, another wording, another occasion or another person does not', () => {
    for (const [a, b] of [
      ['I prefer the film.', 'I prefer the movie.'],
      ['I prefer to cycle to work.', 'I prefer cycling to work.'],
      ['I prefer wine with fish.', 'I prefer beer with curry.'],
      ['I prefer juice in the morning.', 'I prefer water at night.'],
      ['I prefer juice.', 'My son prefers milk.'],
    ] as const) {
      expect(rel(a, b), `${a} / ${b}`).not.toMatchObject({ kind: 'corrects' });
    }
  });
});

describe('another kind of one thing said of a holder (new-value)', () => {
  it('WordNet: two kinds right under one hypernym, neither a kind of the other nor its synonym', () => {
    expect(lexicon().kindred('green', 'purple')).toBe(true);
    expect(lexicon().kindred('taxi', 'bus')).toBe(true);
    expect(lexicon().kindred('chef', 'cook')).toBe(false); // a chef is a cook
    expect(lexicon().kindred('sofa', 'couch')).toBe(false); // one thing
    expect(lexicon().kindred('doctor', 'mother')).toBe(false);
  });

  it('corrects what the holder is', () => {
    for (const [was, now] of [
      ['My front door is green.', 'My front door is purple.'],
      ['The school run is by taxi.', 'The school run is by bus.'],
    ] as const) {
      expect(rel(was, now), `${was} / ${now}`).toMatchObject({ kind: 'corrects', rule: 'new-value' });
    }
  });

  it('not of a predicate people have several of, a word before its head, a number, or a narrower word', () => {
    for (const [a, b] of [
      ["I'm allergic to walnuts.", "I'm allergic to almonds."],
      ["I'm a member of the chess club.", "I'm a member of the rugby club."],
      ["I've been vegetarian for two years.", "I've been vegetarian for three years."],
      // "be" as another verb's auxiliary: where they play, not what they are
      ['The twins are happily playing in the garden.', 'The twins are happily playing in the yard.'],
      ['My brother Sami is a chef.', 'My brother Sami is a cook.'],
    ] as const) {
      expect(rel(a, b), `${a} / ${b}`).not.toMatchObject({ kind: 'corrects' });
    }
  });
});
