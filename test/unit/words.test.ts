import { describe, expect, it } from 'vitest';
import { americanize, contentKeys, contentWords, expandContraction, lemma, tokenize, wordKey, words } from '../../src/core/words.js';

describe('tokenize and contractions', () => {
  it('lower-cases, keeps numbers and times, normalises curly apostrophes', () => {
    expect(tokenize('I take the 7:15 train, at 10am!')).toEqual(['i', 'take', 'the', '7:15', 'train', 'at', '10am']);
    expect(tokenize('I’m here')).toEqual(["i'm", 'here']);
  });

  it('expands contractions', () => {
    expect(expandContraction("don't")).toEqual(['do', 'not']);
    expect(expandContraction("won't")).toEqual(['will', 'not']);
    expect(words("I'm sure it's fine")).toEqual(['i', 'am', 'sure', 'it', "'s", 'fine']);
  });

  it('drops stop words from content words, keeps negations only when asked', () => {
    expect(contentWords("I don't eat pork")).toEqual(['eat', 'pork']);
    expect(contentWords("I don't eat pork", { keepNegations: true })).toEqual(['not', 'eat', 'pork']);
  });
});

describe('americanize', () => {
  it.each([
    ['colour', 'color'],
    ['colours', 'colors'],
    ['favourite', 'favorite'],
    ['favourites', 'favorites'],
    ['honourable', 'honorable'],
    ['neighbourhood', 'neighborhood'],
    ['summarise', 'summarize'],
    ['summarised', 'summarized'],
    ['organise', 'organize'],
    ['organisation', 'organization'],
    ['apologising', 'apologizing'],
    ['analyse', 'analyze'],
    ['centre', 'center'],
    ['centred', 'centered'],
    ['theatres', 'theaters'],
    ['kilometre', 'kilometer'],
    ['travelling', 'traveling'],
    ['travelled', 'traveled'],
    ['cancelled', 'canceled'],
    ['grey', 'gray'],
    ['programme', 'program'],
    ['licence', 'license'],
    ['mum', 'mom'],
  ])('%s -> %s', (british, american) => {
    expect(americanize(british)).toBe(american);
  });

  it.each(['hour', 'your', 'four', 'flour', 'tour', 'detour', 'exercise', 'advise', 'surprised', 'promising', 'fundraising', 'otherwise', 'praised', 'noise', 'acre', 'genre', 'massacre', 'compelled', 'controlled', 'color', 'crisis'])(
    'leaves %s alone',
    (w) => {
      expect(americanize(w)).toBe(w);
    },
  );
});

describe('wordKey', () => {
  it('keeps the existing meetings: grew/grow, allergy/allergic, summaries/summarize', () => {
    expect(lemma('grew')).toBe('grow');
    expect(wordKey('grew')).toBe(wordKey('grow'));
    expect(wordKey('allergy')).toBe(wordKey('allergic'));
    expect(wordKey('summaries')).toBe(wordKey('summarize'));
    expect(wordKey('summary')).toBe(wordKey('summarize'));
  });

  it('lets British and American spellings meet', () => {
    expect(wordKey('favourite')).toBe(wordKey('favorite'));
    expect(wordKey('colour')).toBe(wordKey('color'));
    expect(wordKey('colours')).toBe(wordKey('color'));
    expect(wordKey('summarise')).toBe(wordKey('summarize'));
    expect(wordKey('summarisation')).toBe(wordKey('summarize'));
    expect(wordKey('organise')).toBe(wordKey('organize'));
    expect(wordKey('organisation')).toBe(wordKey('organization'));
    expect(wordKey('centre')).toBe(wordKey('center'));
    expect(wordKey('travelling')).toBe(wordKey('traveling'));
    expect(wordKey('travelled')).toBe(wordKey('travel'));
  });

  it('leaves numbers and short words as they are', () => {
    expect(wordKey('1729')).toBe('1729');
    expect(wordKey('7:15')).toBe('7:15');
    expect(wordKey('cat')).toBe('cat');
  });

  it('gives content keys that agree across spellings', () => {
    expect(contentKeys('My favourite colour is grey')).toEqual(contentKeys('my favorite color is gray'));
  });
});
