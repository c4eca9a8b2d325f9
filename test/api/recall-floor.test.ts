/**
 * Recall's relevance floor (docs/recall.md): a question about something the person never
 * said comes back empty (`nothingOnFile`), even when it shares a word, or a middling
 * cosine, with a memory; a question about something they did say still finds it.
 * Real app, real embedder, in-memory PGlite, through GraphQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { actors } from '../helpers/memory.js';
import { lexicalKeys, ownPhraseKeys, possessorKeys } from '../../src/memory/lexical.js';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); }, 120_000);
afterAll(async () => { await t?.close(); });

/** A fresh space holding `says` (one conversation each), and a conversation to ask in. */
async function spaceWith(says: string[]) {
  const s = await t.space({ name: 'recall floor', sealed: true });
  const a = actors(t.gql, s);
  for (const text of says) {
    const r = await a.state(text);
    expect(r.__typename).toBe('RememberOutcome');
  }
  const c = await a.open();
  const ask = async (q: string) => {
    const r = await a.recall(c, q, 5);
    expect(r.__typename).toBe('RecallResult');
    return { nothing: r.nothingOnFile as boolean, quotes: (r.statements as { memory: { quote: string } }[]).map((x) => x.memory.quote) };
  };
  return { ask };
}

describe('recall floor: nothing rather than something unrelated', () => {
  it("a question about the sister does not get the dog's name; the dog's name is still found", async () => {
    const { ask } = await spaceWith(["My dog's name is Biscuit."]);
    expect(await ask("What is my sister's name?")).toEqual({ nothing: true, quotes: [] });
    expect(await ask("What is my cat's name?")).toEqual({ nothing: true, quotes: [] });
    expect((await ask('What is my dog called?')).quotes).toEqual(["My dog's name is Biscuit."]);
    expect((await ask("What's my dog's name?")).quotes).toEqual(["My dog's name is Biscuit."]);
  }, 60_000);

  it('one shared common word is not enough; the matching question still answers', async () => {
    const { ask } = await spaceWith(['My brother Owen lives in Bristol.', 'My favorite color is orange.']);
    expect(await ask('Where does my sister live?')).toEqual({ nothing: true, quotes: [] });
    expect(await ask('What is my favorite food?')).toEqual({ nothing: true, quotes: [] });
    expect(await ask("What is my son's favorite color?")).toEqual({ nothing: true, quotes: [] });
    expect((await ask('Where does my brother live?')).quotes[0]).toBe('My brother Owen lives in Bristol.');
    expect((await ask('What is my favorite color?')).quotes[0]).toBe('My favorite color is orange.');
  }, 60_000);

  it("the possessor the memory names is found by name: my sister's name when the sister was mentioned", async () => {
    const { ask } = await spaceWith(['My sister Ana is a teacher in Porto.']);
    expect((await ask("What is my sister's name?")).quotes).toEqual(['My sister Ana is a teacher in Porto.']);
    expect(await ask("What is my brother's name?")).toEqual({ nothing: true, quotes: [] });
  }, 60_000);
});

describe('possessorKeys', () => {
  it('reads "X\'s" and "Xs\'" as possessors and never a stop word ("what\'s", "it\'s")', () => {
    expect(possessorKeys("What is my sister's name?")).toEqual(lexicalKeys('sister'));
    expect(possessorKeys("What's my dog’s name?")).toEqual(lexicalKeys('dog'));
    expect(possessorKeys("Where do my parents' friends live?")).toEqual(lexicalKeys('parents'));
    expect(possessorKeys("It's late, that's all")).toEqual([]);
  });

  it('ownPhraseKeys: the content words after my / our / your, up to a stop word', () => {
    // No part-of-speech reading: a verb right after the noun is read with it.
    expect(ownPhraseKeys('Where does my sister live?')).toEqual(lexicalKeys('sister live'));
    expect(ownPhraseKeys('What is the name of my sister?')).toEqual(lexicalKeys('sister'));
    expect(ownPhraseKeys('What is my favorite food?')).toEqual(lexicalKeys('favorite food'));
    expect(ownPhraseKeys('Where did I grow up?')).toEqual([]);
  });
});
