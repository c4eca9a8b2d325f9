import { beforeAll, describe, expect, it } from 'vitest';
import { relate, type StatementLike } from '../../src/core/conflicts.js';
import { modeOf } from '../../src/core/modality.js';
import type { MemoryType } from '../../src/core/types.js';
import { useWordNet } from '../helpers/lexicon.js';

const s = (text: string, type: MemoryType = 'FACT'): StatementLike => ({ text, type, entities: [], themes: [] });
const rel = (a: string, b: string, type: MemoryType = 'FACT') => relate(s(a, type), s(b, type), true);

beforeAll(useWordNet, 120_000);

describe('modality: a wish and its fulfilment, a state and its end, are two facts', () => {
  it('reads how a one-sentence statement holds its predicate', () => {
    expect(modeOf('I have a cat.')).toBe('so');
    expect(modeOf('I want a cat.')).toBe('wished');
    expect(modeOf("I'd like to learn the cello.")).toBe('wished');
    expect(modeOf("We're going to repaint the kitchen.")).toBe('wished');
    expect(modeOf("I'm going to Lisbon in May.")).toBe('so');
    expect(modeOf("I'm going to work early tomorrow.")).toBe('so');
    expect(modeOf("I'm thinking about changing jobs.")).toBe('wished');
    expect(modeOf('I used to play rugby.')).toBe('over');
    expect(modeOf('My dad was a postman.')).toBe('over');
    // a past event said in the passive is no state over
    expect(modeOf('I was raised by my aunt.')).toBe('so');
    expect(modeOf('I was born in Cork.')).toBe('so');
    // a past verb held until a time is over; a present one is so
    expect(modeOf('We rented a flat in Hove until last spring.')).toBe('over');
    expect(modeOf('I coach the under-9s until 6 on Thursdays.')).toBe('so');
    expect(modeOf("I'm staying with my sister until March.")).toBe('so');
    expect(modeOf('I thought I was lactose intolerant.')).toBe('given-up');
    expect(modeOf('If it snows, I work from home.')).toBe('if');
    expect(modeOf('I want a cat. I have a dog.')).toBeNull();
  });

  it('never reads a wish, a plan, an ended state or a belief given up as the fact itself', () => {
    for (const [a, b] of [
      ['I want a cat.', 'I have a cat.'],
      ["I'd like to learn the cello.", "I'm learning the cello."],
      ["We're going to repaint the kitchen.", 'We repainted the kitchen.'],
      ["I'm thinking about changing jobs.", 'I changed jobs.'],
      ['My daughter hopes to study medicine.', 'My daughter studies medicine.'],
      ['I used to play rugby.', 'I play rugby.'],
      ['I taught at the primary school until 2021.', 'I teach at the primary school.'],
      // a past event and one now or to come, of the same verb: two events
      ['My uncle stayed with us at Easter.', 'My uncle is staying with us at Easter.'],
      ['We drove to Cornwall in August.', 'We will drive to Cornwall in August.'],
      ['I am lactose intolerant.', 'I thought I was lactose intolerant.'],
      ['If it snows, I work from home.', 'I work from home.'],
    ] as const) {
      expect(rel(a, b), `${a} / ${b}`).toMatchObject({ kind: 'distinct', rule: 'modality' });
    }
  });

  it('a state said so, then said to be over in the same words, ended: a correction (state-over); the other way round is not', () => {
    for (const [a, b] of [
      ['My dad is a postman.', 'My dad was a postman.'],
      ['I play the guitar.', 'I used to play the guitar.'],
      ['I have a dog.', 'I had a dog.'],
      ['I live in Cardiff.', 'I used to live in Cardiff, now I live in Swansea.'],
      // an adjective WordNet also knows as a verb ("to blue", "to empty") is still a state
      ['My car is blue.', 'My car was blue before I had it resprayed red.'],
      ['My hair is short.', 'My hair was short until last summer.'],
    ] as const) {
      expect(rel(a, b), `${a} / ${b}`).toMatchObject({ kind: 'corrects', rule: 'state-over' });
    }
    // a past told about something else, with the old statement not said again whole, ends nothing
    expect(rel('I love my garden, it keeps me calm.', 'It was actually kind of fun to plant the tomatoes with the kids.').kind).not.toBe('corrects');
    expect(rel('I have lunch with Tom on Fridays.', 'I had lunch with Tom yesterday.').kind).not.toBe('corrects');
  });

  it('held the same way on both sides, or a want that is the memory itself: no reading of its own', () => {
    expect(rel("I'd love to visit Japan one day.", 'I would love to visit Japan.')).toEqual({ kind: 'compatible' });
    expect(rel('I want to visit Japan.', "I'd love to visit Japan.")).not.toMatchObject({ rule: 'modality' });
    expect(rel('I used to smoke.', 'I used to be a smoker.').kind).not.toBe('distinct');
    expect(rel('I was raised by my aunt.', 'My aunt raised me.')).toEqual({ kind: 'compatible' });
    // (a participle is an event done to the subject, not a state: "was hurt", "was put on hold")
    expect(rel('I am hurt.', 'I was hurt.')).not.toMatchObject({ rule: 'state-over' });
    // a past event, then told with "was": both tell the past, neither is a state that ended
    expect(rel('We got married in June 2015.', 'Our wedding was in June 2015.')).toEqual({ kind: 'compatible' });
    expect(rel('My office is in Leeds.', 'My office was in Leeds.')).toMatchObject({ kind: 'corrects', rule: 'state-over' });
    // what held at a time told ("when", "as a child") is no state that ended: two facts
    expect(rel("I'm 42.", 'I was 42 when I moved here.')).toMatchObject({ kind: 'distinct', rule: 'modality' });
    // the same tense, or a plural that is no verb ("the dogs"): no reading of its own
    expect(rel('I commute by train.', 'I commute by train every day.')).not.toMatchObject({ rule: 'modality' });
    expect(rel('The puppies chewed my slippers.', 'The puppies chewed my new slippers.')).not.toMatchObject({ rule: 'modality' });
    // a preference, an instruction or a task says a want as its content
    expect(rel('Book me an aisle seat on flights.', 'On flights I always want an aisle seat.', 'INSTRUCTION')).toEqual({ kind: 'compatible' });
    expect(rel('I need to call the bank.', 'Call the bank.', 'TASK')).toEqual({ kind: 'compatible' });
  });
});
