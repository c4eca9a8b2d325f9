/**
 * How two statements sent without hints meet as one fact (docs/recognition.md, "Meeting
 * without hints"): what stands in for the caller's shared entity or theme when the caller
 * gave none.
 *
 * - **Elaboration.** A derived common noun is shared and one statement says everything the
 *   other says, in the same or synonymous words (WordNet synsets, src/core/lexicon.ts), with the
 *   same stance: "I'm allergic to peanuts." / "I'm seriously allergic to peanuts, I carry an
 *   EpiPen." A shared noun alone is not enough: contradictions share nouns too ("A surfer is
 *   falling off the wave" / "A surfer is riding the wave"), but each side then says something
 *   the other does not.
 * - **The same value.** Both name one time, date, day, quantity, contact or ordinal, however written:
 *   "before 10am" / "before 10 in the morning" (src/core/values.ts), or one count, bare on one side
 *   and with its unit on the other: "I'm 42." / "I'm 42 years old.", or give one single-valued thing
 *   of the person's the same value: "I'm 42." / "I'm forty-two.".
 */
import { contentWordsOf, key } from './conflict-words.js';
import { lexicon } from './lexicon.js';
import { stance } from './polarity.js';
import { extractValues, isOrdinal, sameCount, sameValue, valueGroup, type Value } from './values.js';
import { lemma } from './words.js';
import { SINGLE_FRAMES, slots } from './slots.js';
import { deriveNames, deriveNouns } from './derive.js';
import { dayOf, monthOf } from './value-words.js';
import { valueIndex } from './value-index.js';

/** Every content word of `small` is said in `big`, by the same key or a synonym. */
export function saysAllOf(big: string[], small: string[]): boolean {
  const keys = new Set(big.map(key));
  const lex = lexicon();
  const lemmas = big.map((w) => lemma(w));
  return small.every((w) => keys.has(key(w)) || lemmas.some((v) => lex.synonymous(lemma(w), v)));
}

/** One statement says all the other says (and possibly more), with the same stance. */
export function elaborates(a: string, b: string): boolean {
  if (stance(a) !== stance(b)) return false;
  const wa = contentWordsOf(a);
  const wb = contentWordsOf(b);
  if (wa.length === 0 || wb.length === 0) return false;
  return wa.length <= wb.length ? saysAllOf(wb, wa) : saysAllOf(wa, wb);
}

/** Words pointing back at an earlier telling ("as I said", "like I told you", "as you know"): they add nothing to what is said. */
const TOLD_BEFORE = /\b(?:as|like) (?:i|i've|i have|i had) (?:said|told you|mentioned|say)(?: (?:before|earlier|already))?\b|\bas you (?:already )?know\b|\bas (?:i )?mentioned(?: before| earlier)?\b/gi;
/**
 * Those words, or the telling said of itself ("I think I mentioned it before", "I've told you this already"): set aside,
 * never read as a sign of a restatement (said in a clause of its own, it may come with a change: "I've told you this before,
 * steak well done for me").
 */
const TELLING = new RegExp(`${TOLD_BEFORE.source}|${String.raw`\b(?:i (?:think|believe|guess) )?i(?:'ve|\u2019ve| have)? (?:already )?(?:said|told you|mentioned)(?: (?:this|that|it))? (?:before|earlier|already)\b`}`, 'gi');

/** The text without its words pointing back at an earlier telling, or at the telling itself (`TELLING`). */
export function withoutToldBefore(text: string): string {
  return text.replace(TELLING, ' ');
}

/** The statement points back at an earlier telling of itself ("As I said, …", "As I mentioned before, …"). */
export function toldBefore(text: string): boolean {
  // (`search` reads from the start whatever the global pattern's lastIndex, and leaves it as it was)
  return text.search(TOLD_BEFORE) >= 0;
}

/**
 * The same content words in the same order once the words pointing back at an earlier telling
 * are set aside, with the same stance: "I am married." / "I'm married, as I said." (one content
 * word: no clause restatement reads it).
 */
export function sameButToldBefore(a: string, b: string): boolean {
  const [ta, tb] = [withoutToldBefore(a), withoutToldBefore(b)];
  if (ta === a && tb === b) return false;
  const seq = (t: string) => contentWordsOf(t).map(key).join(' ');
  return seq(ta) !== '' && seq(ta) === seq(tb) && stance(ta) === stance(tb);
}

/** Kinds of value that identify what a statement is about; a name is compared as an entity instead. */
const MEETING_KINDS = new Set(['time', 'date', 'day', 'month', 'year', 'quantity', 'contact']);

/** An ordinal ("fourth", "4th") names one of a series (a floor, a year at school, a place in a race); a bare number counts anything. */
const meets = (v: Value) => MEETING_KINDS.has(valueGroup(v.kind)) || (v.kind === 'number' && isOrdinal(v.norm));

/** The single-valued things a person has one of (src/core/slots.ts: home, employer, job, age, weight, ...). */
const FRAME_SLOTS = new Set(SINGLE_FRAMES.map(([slot]) => slot));
const NO_NAMES: ReadonlySet<string> = new Set();

/**
 * Both statements give one single-valued thing of the person's (an age, a weight) the same value, however written,
 * a bare number counting there: "I'm 42." / "I'm forty-two." (src/core/slots.ts reads the thing).
 */
export function sameFrameValue(a: string, b: string): boolean {
  const sa = slots(a, NO_NAMES);
  const sb = slots(b, NO_NAMES);
  if (![...sa].some((x) => FRAME_SLOTS.has(x) && sb.has(x))) return false;
  const vb = extractValues(b);
  return extractValues(a).some((x) => vb.some((y) => valueGroup(y.kind) === valueGroup(x.kind) && sameValue(x.kind, x.norm, y.norm)));
}

/**
 * Both statements name the same time, date, day, quantity or contact, however written, and the things one names (its
 * common nouns, the value's own words aside) are all named by the other, in the same or a synonymous word: "We got married
 * on 9 September 2016." / "Our wedding day was 09/09/2016.", "My mum's birthday is on the 12th of March." / "My mother was
 * born on March 12.". Not "My yoga class is at 6pm on Tuesdays." / "My pottery class is at 6pm on Tuesdays.": one value, two
 * things at it.
 */
export function sameValueSameThings(a: string, b: string): boolean {
  if (!sameValueSaid(a, b)) return false;
  const [na, nb] = [thingsNamed(a), thingsNamed(b)];
  if (!saysAllOf(nb, na) && !saysAllOf(na, nb)) return false;
  // (someone named on one side only, and something of the other's unsaid by it, is someone else: "i owe jonas 50 euros" /
  // "Lena owes me 50 euros." is two debts; not "My daughter Zoe starts university at Bath …" / "Zoe's off to Bath Uni …")
  const [wa, wb] = [wordsOf(a), wordsOf(b)];
  const [ua, ub] = [unsaidNames(a, wb), unsaidNames(b, wa)];
  const unsaidThing = (xs: readonly string[], there: ReadonlySet<string>) => xs.some((x) => !there.has(x.toLowerCase()));
  return !((ub.length > 0 && (ua.length > 0 || unsaidThing(na, wb))) || (ua.length > 0 && unsaidThing(nb, wa)));
}

/** The text's words, lower-cased. */
const wordsOf = (text: string): ReadonlySet<string> => new Set(text.toLowerCase().replace(/['\u2019]s\b/g, '').split(/[^\p{L}\p{N}'-]+/u).filter(Boolean));

/** The capitalised names the tagger reads in `text` (no month, day or number) of which no word is among `there` (the other text's words). */
function unsaidNames(text: string, there: ReadonlySet<string>): string[] {
  return deriveNames(text).filter((n) => /^\p{Lu}/u.test(n) && !/\d/.test(n) && monthOf(n) === null && dayOf(n) === null && n !== 'I')
    .filter((n) => !n.toLowerCase().split(/\s+/).some((w) => there.has(w)));
}

/**
 * Both statements give one number, address or handle that names one thing only (a phone, membership or account number, an
 * e-mail address): "my KLM Flying Blue number is 2204 881 360" / "Flying Blue (KLM) membership no. 2204881360".
 */
export function sameContact(a: string, b: string): boolean {
  const vb = extractValues(b).filter((v) => v.kind === 'contact');
  return vb.length > 0 && extractValues(a).some((x) => x.kind === 'contact' && vb.some((y) => y.norm === x.norm));
}

/**
 * Both statements give the same day of the year or clock time to things of the same name, each side naming at least
 * one and one side's all named by the other: "My wife Mireille's birthday is 22 October." / "Mireille was born on
 * October 22nd." (a birth is a birthday, a marriage a wedding). The caller asks that both name the same person or
 * place: a date and a name, said of the same things, are one occasion.
 */
export function sameOccasion(a: string, b: string): boolean {
  if (!sameOfKind(a, b, 'date') && !sameOfKind(a, b, 'time')) return false;
  // (a name typed in lower case is no thing: "I'm meeting Rafael for lunch …" / "lunch w/ rafael fri")
  const names = new Set([...namesOf(a), ...namesOf(b)]);
  const [na, nb] = [occasionThings(a), occasionThings(b)].map((xs) => xs.filter((x) => !names.has(x.toLowerCase())));
  if (na!.length === 0 || nb!.length === 0) return false;
  return saysAllOf(nb!, na!) || saysAllOf(na!, nb!);
}

/** The names a text gives (its values of kind name or place), in lower case. */
function namesOf(text: string): string[] {
  return extractValues(text).filter((v) => valueGroup(v.kind) === 'name').map((v) => v.norm);
}

/** Both statements give the same date and the same clock time: "14 March at 3:30 pm" / "14 Mar, 15:30". */
export function sameDayAndTime(a: string, b: string): boolean {
  return sameOfKind(a, b, 'date') && sameOfKind(a, b, 'time');
}

/** Both statements give one value of this kind, however written. */
function sameOfKind(a: string, b: string, kind: 'date' | 'time'): boolean {
  const vb = extractValues(b).filter((v) => v.kind === kind);
  return vb.length > 0 && extractValues(a).some((x) => x.kind === kind && vb.some((y) => sameValue(kind, x.norm, y.norm)));
}

/** The things of an occasion: its common nouns, a birth said as the birthday and a marriage as the wedding. */
function occasionThings(text: string): string[] {
  const t = text.toLowerCase();
  return [...thingsNamed(text), ...(/\bborn\b/.test(t) ? ['birthday'] : []), ...(/\bmarried\b/.test(t) ? ['wedding'] : [])];
}

/**
 * Both statements give someone the same name they go by: "Everyone in the family calls my grandfather Pops." / "grandpa goes
 * by 'Pops' with all of us", "My daughter Priyanka goes by Pri." / "Everyone calls Priyanka 'Pri'".
 */
export function sameNickname(a: string, b: string): boolean {
  const nb = nicknames(b);
  return nb.length > 0 && nicknames(a).some((x) => nb.includes(x));
}

/** The names a statement says someone goes by: quoted after "calls …", or the name right after "goes by", "known as", "nicknamed". */
function nicknames(text: string): string[] {
  const t = text.replace(/[\u2018\u2019\u201C\u201D"]/g, "'");
  const out: string[] = [];
  for (const m of t.matchAll(/\b(?:goes by|go by|went by|known as|nicknamed|nickname is|nickname's)\s+'?(\p{Lu}[\p{L}-]*)/gu)) out.push(m[1]!.toLowerCase());
  // "calls my grandfather Pops", "calls Priyanka 'Pri'": the last name within four words of "call", or a quoted one
  for (const m of t.matchAll(/\bcall(?:s|ed)?\s+((?:[\p{L}'-]+\s+){0,3}?)'?(\p{Lu}[\p{L}-]*)'?(?=\s*(?:[,.;:!?\u2014-]|$|\s+(?:with|by|at|in|since|for|and|but)\b))/gu)) out.push(m[2]!.toLowerCase());
  return out;
}

/** Nouns of time: when or how often a thing is, not a thing ("£52,000 a year", "every morning"). */
const TIME_NOUNS = new Set(['year', 'month', 'week', 'fortnight', 'day', 'night', 'hour', 'minute', 'morning', 'afternoon', 'evening', 'time'].map(key));

/** A sentence's common nouns without the words of its values and its nouns of time. */
export function thingsNamed(text: string): string[] {
  const valueWords = new Set(extractValues(text).flatMap((v) => v.raw.toLowerCase().split(/\s+/).map(key)));
  // (a verb in -ing after "am", "is", "'m" is a doing, not a thing: "I'm meeting Rafael for lunch")
  const doing = new Set(progressives(text));
  return deriveNouns(text).filter((n) => !valueWords.has(key(n)) && !TIME_NOUNS.has(key(lemma(n))) && !doing.has(n.toLowerCase()));
}

/** The words in -ing said right after a form of "be" ("I'm meeting", "we are moving"; not "'s": "Tom's wedding"). */
function progressives(text: string): string[] {
  return [...text.toLowerCase().replace(/[\u2018\u2019]/g, "'").matchAll(/(?:\b(?:am|is|are|was|were)|'m|'re) ([a-z]{2,}ing)\b/g)].map((m) => m[1]!);
}

/** Both statements name the same time, date, day, quantity, contact or ordinal, however written. */
export function sameValueSaid(a: string, b: string): boolean {
  // (each value looked up among those of the other side it may be: a pair of long texts of numbers weighed each pair of values)
  const inB = valueIndex(extractValues(b));
  // (or a count said bare on one side and with its unit on the other: "I'm 42." / "I'm 42 years old.")
  return extractValues(a).some((x) => inB.near(x).some((y) => (meets(x) && valueGroup(y.kind) === valueGroup(x.kind) && sameValue(x.kind, x.norm, y.norm))
    || sameCount(x, y)));
}
