import { describe, expect, it } from 'vitest';
import { normalizeForQuote, normalizeMapped, splitSentences, splitSentencesDetailed } from '../../src/core/sentences.js';

const texts = (s: string): string[] => splitSentences(s).map((x) => x.text);

describe('splitSentences: spans', () => {
  it('gives offsets into the original string, trimmed', () => {
    const src = '  Hello there.   How are you?  ';
    const spans = splitSentences(src);
    expect(spans).toEqual([
      { text: 'Hello there.', start: 2, end: 14 },
      { text: 'How are you?', start: 17, end: 29 },
    ]);
    for (const s of spans) expect(src.slice(s.start, s.end)).toBe(s.text);
  });

  it('returns nothing for empty or blank text', () => {
    expect(splitSentences('')).toEqual([]);
    expect(splitSentences('  \n\n \t ')).toEqual([]);
  });

  it('keeps offsets right around emoji (surrogate pairs)', () => {
    const src = 'Great! 😍 See you.';
    for (const s of splitSentences(src)) expect(src.slice(s.start, s.end)).toBe(s.text);
  });
});

describe('splitSentences: invisible characters', () => {
  it('a zero-width space after end punctuation parts two sentences, as a space does', () => {
    expect(texts('I like dogs.\u200bI hate cats.')).toEqual(['I like dogs.', 'I hate cats.']);
    expect(texts('I like dogs.\u200b I hate cats.')).toEqual(['I like dogs.', 'I hate cats.']);
  });

  it('a direction mark or word joiner beside the gap is read past, and trimmed off the sentences', () => {
    expect(texts('I like dogs.\u200f I hate cats.\u2060')).toEqual(['I like dogs.', 'I hate cats.']);
    expect(texts('\u200eI like dogs. \u200eI hate cats.')).toEqual(['I like dogs.', 'I hate cats.']);
  });

  it('an invisible character does not make a split where none was: no gap, a lowercase word, an abbreviation', () => {
    expect(texts('See example.\u200ecom today.')).toEqual(['See example.\u200ecom today.']);
    expect(texts('It was fine.\u200b\u200band then.')).toEqual(['It was fine.\u200b\u200band then.']);
    expect(texts('Ask Dr.\u200b Smith.')).toEqual(['Ask Dr.\u200b Smith.']);
  });
});

describe('splitSentences: abbreviations', () => {
  it('does not split after titles', () => {
    expect(texts('Dr. Smith met Mr. Jones and Mrs. Brown. Ms. Lee came too.')).toEqual([
      'Dr. Smith met Mr. Jones and Mrs. Brown.',
      'Ms. Lee came too.',
    ]);
  });

  it('does not split after St. or Prof.', () => {
    expect(texts('We flew to St. Louis with Prof. Adams. It was fun.')).toEqual([
      'We flew to St. Louis with Prof. Adams.',
      'It was fun.',
    ]);
  });

  it('does not split after e.g., i.e. and vs., even before a capital', () => {
    expect(texts('Use a name, e.g. Tom. Or a place, i.e. Rome. It was Lakers vs. Celtics.')).toEqual([
      'Use a name, e.g. Tom.',
      'Or a place, i.e. Rome.',
      'It was Lakers vs. Celtics.',
    ]);
  });

  it('etc. ends a sentence before a capital but not before a lowercase word', () => {
    expect(texts('I bought apples, pears etc. and some bread. I bought apples etc. Then I left.')).toEqual([
      'I bought apples, pears etc. and some bread.',
      'I bought apples etc.',
      'Then I left.',
    ]);
  });

  it('a.m. / p.m. inside a sentence do not split; before a capital they end it', () => {
    expect(texts('I woke at 7 a.m. and slept at 11 p.m. Then I dreamt.')).toEqual([
      'I woke at 7 a.m. and slept at 11 p.m.',
      'Then I dreamt.',
    ]);
  });

  it('U.S. does not split', () => {
    expect(texts('I moved to the U.S. Army base. It was big.')).toEqual(['I moved to the U.S. Army base.', 'It was big.']);
    expect(texts('I live in the U.S.')).toEqual(['I live in the U.S.']);
  });

  it('month abbreviations before a number do not split', () => {
    expect(texts('We met on Jan. 5 and again on Feb. 14. Sept. 2020 was hard.')).toEqual([
      'We met on Jan. 5 and again on Feb. 14.',
      'Sept. 2020 was hard.',
    ]);
  });

  it('a name that looks like a month still ends a sentence', () => {
    expect(texts('I met Jan. She was nice.')).toEqual(['I met Jan.', 'She was nice.']);
  });

  it('No. before a number does not split, but "no." as a word does', () => {
    expect(texts('Room No. 5 is mine. I said no. Then I left.')).toEqual(['Room No. 5 is mine.', 'I said no.', 'Then I left.']);
  });
});

describe('splitSentences: numbers, times, URLs', () => {
  it('times and decimals do not split', () => {
    expect(texts('Meet me at 7:15. It costs $4.99 or 3.5 euros.')).toEqual(['Meet me at 7:15.', 'It costs $4.99 or 3.5 euros.']);
  });

  it('URLs, emails and version numbers do not split', () => {
    expect(texts('See https://example.com/a.b?x=1&y=2 or write to me@example.co.uk. I run v1.2.3 now.')).toEqual([
      'See https://example.com/a.b?x=1&y=2 or write to me@example.co.uk.',
      'I run v1.2.3 now.',
    ]);
  });

  it('a sentence can end with a number', () => {
    expect(texts('I was born in 1990. Then I moved.')).toEqual(['I was born in 1990.', 'Then I moved.']);
  });
});

describe('splitSentences: initials', () => {
  it('keeps J. R. R. Tolkien together', () => {
    expect(texts('J. R. R. Tolkien wrote it. I read it twice.')).toEqual(['J. R. R. Tolkien wrote it.', 'I read it twice.']);
  });

  it('keeps "My friend A. J. lives here." together', () => {
    expect(texts('My friend A. J. lives here.')).toEqual(['My friend A. J. lives here.']);
  });
});

describe('splitSentences: ellipses', () => {
  it('an ellipsis before a lowercase word does not end the sentence', () => {
    expect(texts("I don't know... maybe.")).toEqual(["I don't know... maybe."]);
    expect(texts("I don't know… maybe.")).toEqual(["I don't know… maybe."]);
  });

  it('an ellipsis before a capital ends the sentence', () => {
    expect(texts("I don't know... Maybe.")).toEqual(["I don't know...", 'Maybe.']);
  });

  it('a trailing ellipsis ends the message', () => {
    expect(texts('Well... I guess...')).toEqual(['Well...', 'I guess...']);
  });
});

describe('splitSentences: quotes', () => {
  it('the closing quote stays with its sentence', () => {
    expect(texts('She said "Go home." Then she left.')).toEqual(['She said "Go home."', 'Then she left.']);
  });

  it('curly closing quotes and brackets stay too', () => {
    expect(texts('She said “Go home.” Then she left. (I stayed.) It was late.')).toEqual([
      'She said “Go home.”',
      'Then she left.',
      '(I stayed.)',
      'It was late.',
    ]);
  });

  it('a quoted question followed by a lowercase word does not split', () => {
    expect(texts('"Why?" she asked. I had no answer.')).toEqual(['"Why?" she asked.', 'I had no answer.']);
  });
});

describe('splitSentences: question and exclamation marks', () => {
  it('splits after ? and !, keeping runs like ?! together', () => {
    expect(texts('Really?! No way!!! Are you sure?')).toEqual(['Really?!', 'No way!!!', 'Are you sure?']);
  });

  it('splits after ? and ! even before a lowercase word (chat is not capitalised)', () => {
    expect(texts('where are you? i am here! ok')).toEqual(['where are you?', 'i am here!', 'ok']);
  });

  it('splits after a plain word and one period before a lowercase opening (chat typed in lower case)', () => {
    expect(texts("my daughter Elsie turns 7 on june 3rd. she's obsessed with dinosaurs rn")).toEqual([
      'my daughter Elsie turns 7 on june 3rd.', "she's obsessed with dinosaurs rn",
    ]);
    expect(texts('i moved to leeds. my sister lives in york. the flat is small')).toEqual([
      'i moved to leeds.', 'my sister lives in york.', 'the flat is small',
    ]);
    // any lower-case word that does not go on a clause, after a plain word or a figure (a time, a price)
    expect(texts('the vet is at 7:30am. need to leave by 7. remind me the night before')).toEqual([
      'the vet is at 7:30am.', 'need to leave by 7.', 'remind me the night before',
    ]);
    expect(texts('netflix is £10.99/mo. cancelling it soon. Pepper hates the groomer. booked anyway')).toEqual([
      'netflix is £10.99/mo.', 'cancelling it soon.', 'Pepper hates the groomer.', 'booked anyway',
    ]);
  });

  it('a lowercase word that goes on a clause, an abbreviation, an initial or an ellipsis keeps one sentence', () => {
    for (const t of [
      'I bought pears etc. and bread.', 'It took 20 mins. the traffic was bad', 'We went to Mill Rd. the shop was shut',
      'I got an a. my mum was happy', "I don't know... maybe.", 'meeting at 3 p.m. tomorrow', 'ask dr. smith about it',
      'I saw them in the U.S. my friend lives there', 'it rained. and then it stopped', 'see you wed. morning works',
      'we paid approx. twenty quid', 'it rained all day. but we went out', 'meet at 9 a.m. sharp',
    ]) expect(texts(t), t).toEqual([t]);
  });

  it('does not split inside a word or before a comma', () => {
    expect(texts('Wow!, he said.')).toEqual(['Wow!, he said.']);
  });
});

describe('splitSentences: emoji', () => {
  it('an emoji after end punctuation belongs to that sentence', () => {
    expect(texts('Great! 😍 See you.')).toEqual(['Great! 😍', 'See you.']);
    expect(texts('Done.👍🏽 Next one.')).toEqual(['Done.👍🏽', 'Next one.']);
    expect(texts('We won! 🎉🎉 Party tonight.')).toEqual(['We won! 🎉🎉', 'Party tonight.']);
  });

  it('an emoji without punctuation does not end a sentence', () => {
    expect(texts('I love it 😍 It is great')).toEqual(['I love it 😍 It is great']);
    expect(texts('I ❤️ New York.')).toEqual(['I ❤️ New York.']);
  });

  it('ZWJ sequences and flags stay whole', () => {
    expect(texts('Family time! 👨‍👩‍👧 Off to Paris 🇫🇷. Bye.')).toEqual(['Family time! 👨‍👩‍👧', 'Off to Paris 🇫🇷.', 'Bye.']);
  });

  it('text emoticons after punctuation stay with the sentence', () => {
    expect(texts('Fine. :) See you.')).toEqual(['Fine. :)', 'See you.']);
  });
});

describe('splitSentences: missing punctuation and line breaks', () => {
  it('a last sentence without a period is still a sentence', () => {
    expect(texts('I grew up in Duluth. It was cold')).toEqual(['I grew up in Duluth.', 'It was cold']);
  });

  it('a message of one line without punctuation is one sentence', () => {
    expect(texts('just moved to lisbon and loving it')).toEqual(['just moved to lisbon and loving it']);
  });

  it('a newline ends a sentence even without punctuation', () => {
    expect(texts('I grew up in Duluth\nIt was cold')).toEqual(['I grew up in Duluth', 'It was cold']);
    expect(texts('First paragraph\n\nSecond paragraph')).toEqual(['First paragraph', 'Second paragraph']);
    expect(texts('Windows line\r\nNext line')).toEqual(['Windows line', 'Next line']);
  });

  it('list lines are sentences', () => {
    expect(texts('Groceries:\n- milk\n- eggs and bread')).toEqual(['Groceries:', 'milk', 'eggs and bread']);
  });
});

describe('splitSentences: numbered lists', () => {
  it('"1. Buy milk" is one sentence, without its marker', () => {
    expect(texts('1. Buy milk')).toEqual(['Buy milk']);
    expect(texts('To do:\n1. Buy milk.\n2. Call Mom. She is waiting.\n10) Sleep')).toEqual([
      'To do:',
      'Buy milk.',
      'Call Mom.',
      'She is waiting.',
      'Sleep',
    ]);
  });

  it('reports where the marker starts', () => {
    const [s] = splitSentencesDetailed('  1. Buy milk');
    expect(s).toMatchObject({ text: 'Buy milk', start: 5, markerStart: 2 });
  });

  it('a decimal at the start of a line is not a marker', () => {
    expect(texts('3.5 apples is too many.')).toEqual(['3.5 apples is too many.']);
  });
});

describe('splitSentencesDetailed: terminated', () => {
  it('tells whether each sentence has end punctuation', () => {
    const s = splitSentencesDetailed('Hi there. She said "Go." Great! 😍\nno period here');
    expect(s.map((x) => [x.text, x.terminated])).toEqual([
      ['Hi there.', true],
      ['She said "Go."', true],
      ['Great! 😍', true],
      ['no period here', false],
    ]);
  });
});

describe('normalizeForQuote', () => {
  it('collapses whitespace runs and trims', () => {
    expect(normalizeForQuote('  I grew   up\n\tin  Duluth.  ')).toBe('I grew up in Duluth.');
  });

  it('unifies apostrophe and quote styles', () => {
    expect(normalizeForQuote('I’m ‘here’ ′ `x` “a” „b”')).toBe(`I'm 'here' ' 'x' "a" "b"`);
  });

  it('keeps letter case and all other punctuation', () => {
    expect(normalizeForQuote('I Grew up, in DULUTH!')).toBe('I Grew up, in DULUTH!');
  });

  it('normalizeMapped agrees and maps back to original offsets', () => {
    const src = '  I’m   here. ';
    const m = normalizeMapped(src);
    expect(m.text).toBe(normalizeForQuote(src));
    expect(m.map.length).toBe(m.text.length);
    expect(src[m.map[0]]).toBe('I');
    expect(src[m.map[m.text.length - 1]]).toBe('.');
  });

  it('normalizeMapped reads every text as the per-character reading it replaced (random texts of spaces, quotes, surrogates)', () => {
    // The reading it replaced: one code point at a time, each tested by regular expressions.
    const reference = (text: string, foldCase: boolean) => {
      let out = '';
      const map: number[] = [];
      let pendingSpace = -1;
      let i = 0;
      for (const ch of text) {
        const at = i;
        i += ch.length;
        if (/\s/.test(ch)) {
          if (pendingSpace < 0 && out.length > 0) pendingSpace = at;
          continue;
        }
        // (invisible format characters are read past, but for the joiners)
        if (/[\u00ad\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064]/.test(ch)) continue;
        if (pendingSpace >= 0) {
          out += ' ';
          map.push(pendingSpace);
          pendingSpace = -1;
        }
        let c = ch.replace(/[\u2018\u2019\u201B\u2032\u02BC\u00B4`]/g, "'").replace(/[\u201C\u201D\u201E\u201F\u2033]/g, '"');
        if (foldCase) c = c.toLowerCase();
        out += c;
        for (let u = 0; u < c.length; u++) map.push(at);
      }
      return { text: out, map };
    };
    // every white space /\s/ knows, every quote style, surrogate pairs and lone halves, letters whose lower case is longer
    const units = [' ', '\t', '\n', '\v', '\f', '\r', '\u00a0', '\u1680', '\u2000', '\u2005', '\u200a', '\u2028', '\u2029', '\u202f',
      '\u205f', '\u3000', '\ufeff', '\u200b', '\u200d', '\u00ad', '\u2060', '\u0085', '’', '‘', '‛', '′', 'ʼ', '´', '`', '“', '”', '„', '‟', '″', "'", '"',
      'a', 'B', 'é', 'İ', 'Σ', '.', '😀', '\ud83d', '\ude00', '\ud800\ud800\udc00', 'x'];
    let seed = 7;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
    for (let n = 0; n < 3_000; n++) {
      let text = '';
      const len = Math.floor(next() * 24);
      for (let k = 0; k < len; k++) text += units[Math.floor(next() * units.length)];
      for (const fold of [false, true]) {
        const got = normalizeMapped(text, fold);
        const want = reference(text, fold);
        expect({ text: got.text, map: Array.from(got.map) }, JSON.stringify(text)).toEqual(want);
      }
    }
  });
});
