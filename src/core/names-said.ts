/**
 * Who a statement names, as recognition reads it (src/core/recognition.ts): a name said on both sides, whole or in
 * part, in capitals or typed in lower case, and whether a statement is the person's own (first person, no one else
 * named). Pure.
 */
import { lexicon } from './lexicon.js';
import { deriveNames } from './derive.js';
import { norm, wholeWord } from './conflict-words.js';
import { extractValues, foldMarks, valueGroup } from './values.js';
import { dayOf, monthOf } from './value-words.js';

/** A name's words as compared: lower-cased, accents folded ("Kraków" = "Krakow"). */
const nameWords = (name: string) => foldMarks(name.trim().toLowerCase()).split(/\s+/).filter(Boolean);

/**
 * Two proper names (capitalised) of which one is part of the other, word for word: "Raptors" /
 * "Toronto Raptors", "Ana" / "Ana Silva", or one name with and without its accents.
 */
export function partOfName(x: string, y: string): boolean {
  if (!/^\p{Lu}/u.test(x.trim()) || !/^\p{Lu}/u.test(y.trim())) return false;
  const a = nameWords(x);
  const b = nameWords(y);
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (short.length === 0) return false;
  for (let i = 0; i + short.length <= long.length; i++) if (short.every((w, j) => long[i + j] === w)) return true;
  return false;
}

/** A capitalised name read in both texts (src/core/values.ts), one the other or part of it, word for word ("Ford Focus" / "Focus"). */
export function sharesName(a: string, b: string): boolean {
  const names = (t: string) => extractValues(t).filter((v) => v.kind === 'name').map((v) => v.raw);
  const na = names(a);
  const nb = names(b);
  if (na.some((x) => nb.some((y) => partOfName(x, y)))) return true;
  // (or typed in lower case on the other side, as chat does, when it is a name and no word: "I pay for a Spotify Premium
  // family plan." / "cancelled spotify today"; not "Apple" / "an apple")
  return typedEitherWay(na, a, nb, b);
}

/** A name of one text typed in lower case in the other, either way round (`typedLower`). */
function typedEitherWay(na: readonly string[], a: string, nb: readonly string[], b: string): boolean {
  return na.some((x) => typedLower(x, b)) || nb.some((y) => typedLower(y, a));
}

/** A name of someone or somewhere read in both texts (the tagger's, a sentence's first word too), not a month or a day. */
export function sharesPersonName(a: string, b: string): boolean {
  const [na, nb] = [namesIn(a), namesIn(b)];
  // (or typed in lower case on the other side, as chat does: "I'm meeting Rafael for lunch …" / "lunch w/ rafael fri"; not
  // chat's own words, read as names where a sentence opens: "Gonna see the dentist on Friday." / "gonna grab lunch")
  if (na.some((x) => nb.some((y) => partOfName(x, y)))) return true;
  const named = (xs: string[]) => xs.filter((x) => !CHAT_WORDS.has(x.toLowerCase()));
  return typedEitherWay(named(na), a, named(nb), b);
}

/** Chat's words a tagger reads as names where a sentence opens ("Gonna …", "Yeah …"). */
const CHAT_WORDS = new Set(['gonna', 'wanna', 'gotta', 'kinda', 'sorta', 'dunno', 'lemme', 'gimme', 'yeah', 'nope', 'okay', 'hiya', 'cheers', 'omg']);

/** The tagger's capitalised names of a text, months and days aside. */
function namesIn(text: string): string[] {
  return deriveNames(text).filter((n) => /^\p{Lu}/u.test(n) && monthOf(n) === null && dayOf(n) === null);
}

/** The text says the name somewhere other than where a sentence opens (its capital is its own, not the sentence's). */
function saidMidSentence(name: string, text: string): boolean {
  for (let at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + name.length)) {
    if (!/(?:^|[.!?:;\n])\s*$/.test(text.slice(Math.max(0, at - 4), at))) return true;
  }
  return false;
}

/** Both texts are the person's own, said in the first person (I, my, we, our), and name nobody else: "My birthday is on 5 May." / "I was born on the fifth of May." */
export function bothOwn(a: string, b: string): boolean {
  return own(a) && own(b);
}

/**
 * Said of no one else: no name, no one by role ("my wife", "Tom"). (A word WordNet knows as a noun, capitalised where a
 * sentence opens, is no name: "Dentist: 14 Mar, 15:30".)
 */
function nobodyElse(t: string): boolean {
  const places = placesIn(t);
  return !namesIn(t).some((n) => !/^(?:I|My|Our|We)$/.test(n) && !places.has(foldMarks(n.toLowerCase()))
    && (saidMidSentence(n, t) || lexicon().nounThemes(n.toLowerCase()).length === 0))
    && !PERSON_WORD.test(t.toLowerCase());
}
/** The places a text names ("My flight to Lima …"): somewhere, not someone. */
const placesIn = (t: string): ReadonlySet<string> => new Set(extractValues(t).filter((v) => v.kind === 'place').map((v) => v.norm));
/** Said in the first person (I, my, we, our) and of no one else. */
const own = (t: string) => /\b(?:i|i'm|i've|my|me|we|we're|we've|our|us)\b/i.test(t) && nobodyElse(t);

/**
 * One side the person's own, the other said of no one (chat's note form): "My dentist appointment is on 14 March at 3:30 pm." /
 * "dentist: 14 Mar, 15:30". For an occasion dated to the day and the minute on both sides only (`sameDayAndTime`).
 */
export function ownAndUnsaid(a: string, b: string): boolean {
  return (own(a) && nobodyElse(b)) || (own(b) && nobodyElse(a));
}
/** Someone of the person's, by role: their birthday is not the person's. */
const PERSON_WORD = /\b(?:wife|husband|partner|son|daughter|kids?|children|child|mum|mom|mother|dad|father|brother|sister|friend|boss|grandma|grandpa|grandmother|grandfather|aunt|uncle|cousin|niece|nephew|colleague|girlfriend|boyfriend|fianc[eé]e?)\b/;

/** The longest one-word name looked for typed in lower case (characters). */
const NAME_MAX = 64;

/** A one-word name that WordNet does not know as a noun, said in lower case in the text. */
function typedLower(name: string, text: string): boolean {
  const w = name.trim().toLowerCase();
  // (a word longer than any name is none, and is not looked for as one pattern)
  // (the text's characters first: the name is rarely in it, and the lexicon and the pattern cost more)
  if (w.length < 4 || w.length > NAME_MAX || !text.includes(w) || /\s/.test(w)) return false;
  return lexicon().nounThemes(w).length === 0 && wholeWord(w, 'u').test(text);
}

/**
 * Whether a sentence and `b` each name someone or somewhere the other does not, leaving out the people spoken to
 * ("I live in Manchester." / "It's Leeds."): `b` read once, for all the sentences it is weighed against (each
 * sentence of a long memory read `b` whole again: quadratic, forty-fifth round).
 */
export function nameSwapper(b: string, vb: ReadonlySet<string>): (aNames: ReadonlySet<string>, aNorm: string) => boolean {
  const nb = namesOf(b, vb);
  const lb = norm(b);
  const inB = new Map<string, boolean>();
  const saidInB = (x: string): boolean => {
    let said = inB.get(x);
    if (said === undefined) inB.set(x, (said = lb.includes(x)));
    return said;
  };
  return (aNames, la) => [...aNames].some((x) => !saidInB(x)) && [...nb].some((x) => !la.includes(x));
}

/** The names a sentence says (`aNames` of `nameSwapper`), leaving out the people spoken to (`voc`). */
export const namesOf = (t: string, voc: ReadonlySet<string>): Set<string> =>
  new Set(extractValues(t).filter((v) => valueGroup(v.kind) === 'name' && !voc.has(v.norm)).map((v) => v.norm));
