/**
 * Nonsense and adversarial queries in tiny spaces (docs/recall.md, "Nothing on file"): text
 * that asks nothing comes back empty unless a memory says one of its words. The category
 * theme reads only a kind the question asks for ("What are my hobbies?"), not a plural it
 * merely says: "'; drop table memories; --" once returned "I studied mathematics at
 * university." (cosine 0.20, no shared word) because "memories", never said, was read as a
 * category whose WordNet theme (noun.cognition) "mathematics" shares.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { Wall } from '../../src/eval/wall.js';
import { keepSaid } from '../helpers/wall.js';
import { recall } from '../../src/memory/recall.js';

const NONSENSE = ["'; drop table memories; --", 'DROP TABLE users;', "' OR 1=1 --", '?!...;;', 'xqzv plorf brindle', '🙂🎉', 'the'];

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); }, 120_000);
afterAll(async () => { await t?.close(); });

/** The quotes recall returns for each query in a fresh space holding `says`. */
async function answers(says: string[], queries: string[]): Promise<Record<string, string[]>> {
  const deps = t.app.engram.deps;
  const wall = await Wall.open(deps, 'nonsense');
  try {
    await keepSaid(deps, wall, says, { entities: [], themes: [] });
    const out: Record<string, string[]> = {};
    for (const q of queries) out[q] = (await recall(deps, wall.spaceId, q, 5)).statements.map((h) => h.memory.quote);
    return out;
  } finally {
    await wall.drop();
  }
}

const empty = (qs: string[]) => Object.fromEntries(qs.map((q) => [q, []]));

describe('recall: nonsense queries in tiny spaces', () => {
  it('a plural the query only says is no category: nothing comes back by theme', async () => {
    for (const s of ['I studied mathematics at university.', 'My favourite subject was history.', 'I have an idea for a novel.', 'I work as a software developer.']) {
      expect(await answers([s], NONSENSE), s).toEqual(empty(NONSENSE));
    }
  }, 120_000);

  it('a space of several memories answers none of them either', async () => {
    const says = ['I live in Leeds.', 'My sister is called Anna.', 'I studied mathematics at university.', 'I work as a software developer.', 'I love hiking in the Lake District.'];
    expect(await answers(says, NONSENSE)).toEqual(empty(NONSENSE));
  }, 120_000);

  it('a word the memory says is a match, even in SQL', async () => {
    expect(await answers(['I keep a table of my expenses.'], ["'; drop table memories; --"])).toEqual({ "'; drop table memories; --": ['I keep a table of my expenses.'] });
  }, 120_000);

  it('a kind the question asks for still meets its members by theme', async () => {
    const r = await answers(['I love hiking in the Lake District.', 'I have a dog called Biscuit.'], ['What are my hobbies?', 'What pets do I have?', 'Do I have any pets?']);
    expect(r['What are my hobbies?']).toContain('I love hiking in the Lake District.');
    expect(r['What pets do I have?']).toContain('I have a dog called Biscuit.');
    expect(r['Do I have any pets?']).toContain('I have a dog called Biscuit.');
  }, 120_000);
});
