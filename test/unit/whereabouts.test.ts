import { beforeAll, describe, expect, it } from 'vitest';
import { relate } from '../../src/core/conflicts.js';
import { placesOf } from '../../src/core/whereabouts.js';
import { useWordNet } from '../helpers/lexicon.js';
import { statement as s } from '../helpers/statements.js';

const rel = (a: string, b: string, topical = true) => relate(s(a), s(b), topical);

beforeAll(useWordNet, 120_000);

describe("a thing's place (new-value)", () => {
  it('a definite thing said to be somewhere else corrects where it was', () => {
    for (const [was, now] of [
      ['The car is parked in the garage.', 'The car is parked on the street.'],
      ['Our spare bike is in the shed.', "Our spare bike is at my sister's house."],
      ['My laptop is at the office.', 'My laptop is in the boot of my car.'],
      ['The umbrella is behind the front door.', 'The umbrella is in the hall cupboard.'],
    ] as const) {
      expect(rel(was, now), `${was} / ${now}`).toMatchObject({ kind: 'corrects', rule: 'new-value' });
    }
    expect(rel('The car is parked in the garage.', 'The car is parked on the street.')).toEqual({
      kind: 'corrects', rule: 'new-value', detail: 'place of car: in garage -> on street',
    });
  });

  it('one place said two ways, a place made more precise, or no place at all: never a correction', () => {
    for (const [a, b] of [
      // WordNet synonyms
      ['The remote is under the sofa.', 'The remote is under the couch.'],
      // the same head, more said of it
      ['My car is in the garage.', 'My car is in the garage for its service.'],
      ['The spare key is under the flowerpot.', 'The spare key is under the flowerpot by the back door.'],
      // a person is no thing with a place: "in a choir" is no move from Paris
      ['My sister Nadia is in Paris.', 'My sister Nadia is in a choir.'],
      // how a thing is, not where: an act or a possession after the preposition
      ['My laptop is on sale.', 'My laptop is on the desk.'],
      ['The drill is on loan.', 'The drill is in the shed.'],
      // an indefinite thing: one of several
      ['A key is under the mat.', 'A key is in the drawer.'],
    ] as const) {
      expect(rel(a, b).kind, `${a} / ${b}`).not.toBe('corrects');
    }
  });

  it('reads the subject, the preposition and the place head; a value in the place is left to the value rules', () => {
    expect([...placesOf('The car is parked in the garage.', new Set())]).toEqual([['np:car', { prep: 'in', words: ['garage'], head: 'garage' }]]);
    expect([...placesOf('The umbrella is next to the front door.', new Set())]).toEqual([['np:umbrella', { prep: 'next', words: ['front', 'door'], head: 'door' }]]);
    expect(placesOf('My laptop is in room 4.', new Set()).size).toBe(0);
    expect(placesOf('The car needs a new tyre.', new Set()).size).toBe(0);
    expect(placesOf('My sister is in Paris.', new Set()).size).toBe(0);
  });
});
