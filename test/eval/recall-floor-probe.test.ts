/**
 * The recall-floor probe (docs/recall.md, "Nothing on file"): small spaces, questions
 * about what was said (+) and about what never was (−), through the real recall use
 * case (in-memory PGlite, real USE-lite embedder). Before the possessor / "my …" rules
 * 18 of the 27 negative questions were answered; now 5, every positive unchanged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { Wall } from '../../src/eval/wall.js';
import { remember } from '../../src/memory/remember.js';
import { recall } from '../../src/memory/recall.js';

export const PROBE: { says: string[]; pos: string[]; neg: string[] }[] = [
  { says: ["My dog's name is Biscuit."], pos: ['What is my dog called?', "What's my dog's name?"], neg: ["What is my sister's name?", "What is my cat's name?"] },
  { says: ['I work as a nurse at the county hospital.'], pos: ['Where do I work?', 'What is my job?'], neg: ["What is my sister's name?", 'Where does my husband work?'] },
  { says: ['My favorite color is orange.'], pos: ['What is my favorite color?'], neg: ['What is my favorite food?', "What is my son's favorite color?"] },
  { says: ['My brother Owen lives in Bristol.'], pos: ['Where does my brother live?', 'Where does Owen live?'], neg: ['Where does my sister live?', 'Where do my parents live?'] },
  { says: ['My anniversary is June 13.'], pos: ['When is my anniversary?'], neg: ["When is my mother's birthday?", 'When is my dentist appointment?'] },
  { says: ['I have a dentist appointment on May 4 at 10am.'], pos: ['When is my dentist appointment?', 'When do I see the dentist?'], neg: ["When is my car's service appointment?", 'Who is my doctor?'] },
  { says: ['I take the 7:15 train to work.'], pos: ['How do I get to work?', 'What train do I take?'], neg: ['What car do I drive?', "What is my boss's name?"] },
  { says: ["My wife's name is Priya."], pos: ['What is my wife called?', "What's my wife's name?"], neg: ["What is my son's name?", "What is my wife's job?"] },
  { says: ['My sister Ana is a teacher in Porto.'], pos: ["What is my sister's name?", 'What does my sister do?'], neg: ['What does my brother do?', "What is my brother's name?"] },
  { says: ['I play the guitar in a band.'], pos: ['What instrument do I play?', 'Am I in a band?'], neg: ['What sport do I play?', 'What team do I support?'] },
  { says: ["My dog's name is Biscuit.", 'I grew up in Duluth.', 'I work as a nurse at the county hospital.', 'My favorite number is 1729.'],
    pos: ['Where did I grow up?', "What's my dog's name?", 'What is my favorite number?', 'What do I do for a living?'],
    neg: ["What is my cat's name?", 'Where did my wife grow up?', 'What is my favorite movie?', "What is my daughter's name?", 'Where did I go to university?'] },
  { says: ["I'm allergic to peanuts.", 'I drink my coffee black.', 'I love hiking in the Lake District.'],
    pos: ['Do I have any food allergies?', 'How do I take my coffee?'],
    neg: ['How does my wife take her coffee?', 'Is my son allergic to anything?', 'What is my blood type?'] },
];

/** Negatives still answered, by a vector score at the floor and no rule that reads them: the known limit. */
const STILL_ANSWERED = ['Where does my husband work?', "What is my wife's job?", 'What sport do I play?', 'How does my wife take her coffee?', 'Is my son allergic to anything?'];

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); }, 120_000);
afterAll(async () => { await t?.close(); });

describe('recall floor probe', () => {
  it('answers every question about what was said and few about what never was', async () => {
    const deps = t.app.engram.deps;
    const answeredNeg: string[] = [];
    for (const [i, c] of PROBE.entries()) {
      const wall = await Wall.open(deps, `probe-${i}`);
      try {
        for (const s of c.says) {
          const conv = await wall.say('told', 'USER', s);
          await remember(deps, wall.assistant, { conversationId: conv.id, quote: s, type: 'FACT', entities: [], themes: [] });
        }
        for (const q of c.pos) {
          const r = await recall(deps, wall.spaceId, q, 5);
          expect(r.statements.length, q).toBeGreaterThan(0);
        }
        for (const q of c.neg) {
          const r = await recall(deps, wall.spaceId, q, 5);
          if (r.statements.length) answeredNeg.push(q);
        }
      } finally {
        await wall.drop();
      }
    }
    expect(answeredNeg.filter((q) => !STILL_ANSWERED.includes(q))).toEqual([]);
    expect(answeredNeg.length).toBeLessThanOrEqual(STILL_ANSWERED.length);
  }, 180_000);
});
