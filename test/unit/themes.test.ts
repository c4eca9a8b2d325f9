import { beforeAll, describe, expect, it } from 'vitest';
import { categoryTheme, deriveThemes, nounThemes } from '../../src/core/themes.js';
import { asksWhen, categoryThemes, isPlural, phrasePairs, phraseShare, questionNouns, saysTime, speaksOf } from '../../src/core/question-cues.js';
import { deriveNouns, deriveTimes } from '../../src/core/derive.js';
import { useWordNet } from '../helpers/lexicon.js';

describe('themes from WordNet lexicographer files', () => {
  beforeAll(useWordNet, 240_000);

  it('a noun takes the files of its attested senses, the most frequent first', () => {
    expect(categoryTheme('hobbies')).toBe('act');
    expect(nounThemes('hiking')).toContain('act');
    expect(categoryTheme('dog')).toBe('animal');
    expect(categoryTheme('pets')).toBe('animal');
    // a lemma's own entry first: "brethren" lemmatises to "brother" but is filed under noun.group
    expect(categoryTheme('brother')).toBe('person');
    expect(nounThemes('qwxzv')).toEqual([]);
  });

  it("a unique beginner (noun.Tops) takes the file its kinds are in; the topmost ones have no theme", () => {
    expect(categoryTheme('food')).toBe('food');
    expect(categoryTheme('entity')).toBeNull();
  });

  it('a sentence speaks of the themes of its nouns (part of speech from wink-nlp)', () => {
    expect(deriveNouns('I love hiking in the Lake District.')).toEqual(['hiking']);
    expect(deriveThemes('I love hiking in the Lake District.')).toContain('act');
    expect(deriveThemes('My dog is called Biscuit.')).toContain('animal');
    expect(speaksOf(categoryThemes(questionNouns('What are my hobbies?')), 'I love hiking in the Lake District.')).toBe(true);
    expect(speaksOf(categoryThemes(questionNouns('What pets do I have?')), 'I love hiking in the Lake District.')).toBe(false);
    expect(speaksOf(new Set(), 'I love hiking.')).toBe(false);
  });
});

describe('question cues', () => {
  it('phrases are adjacent content words, as word keys', () => {
    expect([...phrasePairs('When did Caroline go to the LGBTQ support group?')]).toEqual(['lgbtq support', 'support group']);
    expect(phraseShare(phrasePairs('the support group'), 'I went to a support group yesterday.')).toBe(1);
    expect(phraseShare(phrasePairs('the support group'), 'The group gave me support.')).toBe(0);
    expect(phraseShare(new Set(), 'anything')).toBe(0);
  });

  it('"when" asks for a time; a memory saying one can answer it', () => {
    expect(asksWhen('When did Melanie run a charity race?')).toBe(true);
    expect(asksWhen('What did Melanie do when it rained?')).toBe(false);
    expect(saysTime('I ran a charity race last Saturday.')).toBe(true);
    expect(deriveTimes('My appointment is on May 4 at 10am.').length).toBeGreaterThan(0);
    expect(saysTime('I love running.')).toBe(false);
  });
});

describe('plural category nouns', () => {
  it('a plural asks for the members of a kind; a singular for one thing', () => {
    expect(isPlural('hobbies')).toBe(true);
    expect(isPlural('pets')).toBe(true);
    expect(isPlural('food')).toBe(false);
    expect(isPlural('hobby')).toBe(false);
  });

  it('the nouns a question asks for: after an asking or possessive determiner, not those it merely says', () => {
    expect(questionNouns('What are my hobbies?')).toEqual(['hobbies']);
    expect(questionNouns('What sports do I play?')).toEqual(['sports']);
    expect(questionNouns("What are Melanie's hobbies?")).toEqual(['hobbies']);
    expect(questionNouns('How many children do I have?')).toEqual(['children']);
    expect(questionNouns('Do I have any pets?')).toEqual(['pets']);
    expect(questionNouns('What are my favourite foods?')).toContain('foods');
    expect(questionNouns("'; drop table memories; --")).toEqual([]);
    expect(questionNouns('DROP TABLE users;')).toEqual([]);
    expect(questionNouns('Delete the users now.')).toEqual([]);
  });
});
