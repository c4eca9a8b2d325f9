/**
 * One thing given another value (docs/corrections.md, "new-value"): both statements name the same things, each side's
 * words (verbs aside) all said by the other in the same or a synonymous word, and each gives it one number, quantity or
 * contact, the two different: "I wear a size 42 shoe." / "shoe size 44". The mirror of `sameValueSameThings`
 * (src/core/meeting.ts): the same things at one value are one fact said again; at another value, that fact changed.
 */
import { extractValues, sameValue, valueGroup, type Value, type ValueKind } from './values.js';
import { saysAllOf, thingsNamed } from './meeting.js';
import { tenseOf } from './modality.js';
import { lengthOfTime, unitOf } from './quantities.js';
import { foldMarks, isOrdinal } from './value-words.js';
import { contentWordsOf, isVerb, key, norm, PERSON, toks, wholeWord } from './conflict-words.js';
import { swappedInFrame } from './swapped.js';
import { lexicon } from './lexicon.js';
import { lemma } from './words.js';

/**
 * The kinds of value a thing has one of at a time here (a time, a day or a date may be one of several occasions: `WHEN`,
 * below; a year often dates one of several events: "japan trip 2024" / "japan trip 2026").
 */
const ONE_AT_A_TIME = new Set<ValueKind>(['number', 'quantity', 'contact']);

/**
 * When a thing is (a time, a date, a day, a part of the day): one of several occasions when the thing is one of several
 * ("I have a meeting with Ana on Monday." / "… on Thursday." is two meetings), the thing's one when it is named as the one:
 * "The kids' dental check-up is on 2 March." / "The children's dental check-up is on 16 March." (`definite`).
 */
const WHEN = new Set<ValueKind>(['time', 'date', 'day', 'daypart']);

/** Words of a wish, a plan or a future, and of a limit or a share: not the thing's value as it stands ("I want 4 kids", "max dose"). */
const NOT_AS_IT_STANDS = /\b(?:want|wants|wanted|wish|hope|plan|plans|planning|will|would|'ll|'d|going to|gonna|should|could|might|may|must|max|maximum|min|minimum|up to|at most|at least|over the years|ever)\b/;

/** The most content words a side may say (`saysAllOf` weighs them pairwise). */
const MAX_WORDS = 40;

export function anotherValueOfOneThing(a: string, b: string): boolean {
  const [va, vb] = [extractValues(a), extractValues(b)];
  const said = (vs: readonly Value[]) => vs.filter((v) => valueGroup(v.kind) !== 'name');
  const [oa, ob] = [said(va), said(vb)];
  if (oa.length !== 1 || ob.length !== 1) return false;
  const [x, y] = [oa[0]!, ob[0]!];
  const when = WHEN.has(x.kind);
  if (x.kind !== y.kind || !(ONE_AT_A_TIME.has(x.kind) || when) || sameValue(x.kind, x.norm, y.norm)) return false;
  // (an ordinal is a position or a day of the month, "on the 5th"; a quantity is one of its unit: "under 500 calories" / "under 20 minutes")
  if (isOrdinal(x.norm) || isOrdinal(y.norm) || (x.kind === 'quantity' && unitOf(x.norm) !== unitOf(y.norm))) return false;
  // (a length of time grows as time goes by: "I've been vegetarian for two years." / "… for three years." is told later)
  if (lengthOfTime(x.norm) !== null || lengthOfTime(y.norm) !== null) return false;
  // (how often and how many are read two ways: "one coffee a day" gives 1, "once a day" 1/day; a rate against a count is left)
  if (x.norm.includes('/') !== y.norm.includes('/')) return false;
  // (the same people and places on both sides, a name typed in lower case too: another's number is not this one's)
  const namesSaidIn = (vs: readonly Value[], other: string) => {
    const o = foldMarks(other.toLowerCase());
    return vs.every((v) => valueGroup(v.kind) !== 'name' || wholeWord(v.norm, 'u').test(o));
  };
  if (!namesSaidIn(va, b) || !namesSaidIn(vb, a)) return false;
  // (a past event is one of many: "I ran a marathon in 2019." / "… in 2022."; a wish or a plan is not what is)
  if (tenseOf(a)?.tense === 'past' || tenseOf(b)?.tense === 'past') return false;
  if (NOT_AS_IT_STANDS.test(norm(a)) || NOT_AS_IT_STANDS.test(norm(b))) return false;
  // (the same things, in the same or synonymous words, and nothing said of them on one side only but a verb: "I wear a
  // size 42 shoe." / "shoe size 44"; a word on one side only is another thing or someone else's: "my phone number at the
  // office", "my mum phone number", "anna shoe size 38", "return flight number", "My work e-mail" / "My personal email")
  const [ta, tb] = [thingsNamed(a), thingsNamed(b)];
  if (ta.length === 0 || tb.length === 0) return false;
  // (a time is the thing's own only when the thing is named as the one, on both sides; and its verbs are said too: "I start
  // my shift at 8." / "I finish my shift at 5." is two times of one shift)
  // (nor a time something was: "My last check-up was on 2 March." / "… on 16 March.", the past tense read above by its verb)
  if (when && (!definite(a, ta) || !definite(b, tb) || PAST_BE.test(norm(a)) || PAST_BE.test(norm(b)))) return false;
  const [wa, wb] = [qualifiers(a, x, ta, when), qualifiers(b, y, tb, when)];
  // (one thing's value is said in a sentence, not a page: the words are weighed pairwise, by synonym)
  if (wa.length > MAX_WORDS || wb.length > MAX_WORDS) return false;
  return saysAllOf(wa, wb) && saysAllOf(wb, wa);
}

/**
 * A statement's content words but its verbs (a word the tagger reads as a thing stays: "my work phone"; with `verbs`, the
 * verbs stay too) and its value's own words.
 */
function qualifiers(text: string, value: Value, things: readonly string[], verbs = false): string[] {
  const own = new Set(value.raw.toLowerCase().split(/\s+/).map(key));
  const named = new Set(things.map((t) => t.toLowerCase()));
  return contentWordsOf(text).filter((w) => !own.has(key(w)) && (verbs || !isVerb(w) || named.has(w)));
}

/** "was", "were": a time said in the past. */
const PAST_BE = /\b(?:was|were)\b/;

/** Words that name a thing as one of several ("a meeting", "another appointment", "some lessons"). */
const ONE_OF_SEVERAL = new Set(['a', 'an', 'another', 'some', 'one', 'any', 'every', 'each', 'other', 'more']);
/** Words that name a thing as the one ("the", "my", "our", …; a possessive: "the Corsa's MOT", "Leo's school"). */
const THE_ONE = new Set(['the', 'my', 'our', 'your', 'his', 'her', 'their', 'this', 'that']);

/** Words a chat sentence may open with before what it is about ("So the plumber is coming on Friday."). */
const OPENING = new Set(['so', 'and', 'also', 'oh', 'ok', 'okay', 'well', 'btw', 'fyi', 'just', 'now']);

/** "she's", "it's", "there's": a pronoun and a verb, not a possessive. */
const NOT_POSSESSIVE = /^(?:he|she|it|that|there|here|what|who|where|when|how|let|this)'s$/;

/**
 * The statement is about a thing named as the one: it opens with "the", "my", "our", … or a possessive ("The kids'
 * dental check-up is on …", "My physio appointment is on …"), and its first thing's word (a possessor's aside: "the kids'")
 * is among its first words. Not what someone does, a person or an animal, however named: "I walk the dog in the
 * morning." / "… in the evening.", "My son takes his inhaler in the morning." / "… at bedtime.", "The baby naps at 10am." /
 * "… at 2pm." are two occasions each; nor a thing named as one of several ("I have a meeting with Ana on Monday.").
 */
function definite(text: string, things: readonly string[]): boolean {
  const named = new Set(things.map((t) => key(t.toLowerCase())));
  const words = norm(text).split(/[^\p{L}\p{N}'-]+/u).filter(Boolean);
  let start = 0;
  while (start < words.length && OPENING.has(words[start]!)) start++;
  const first = words[start];
  const possessive = (w: string) => /.'s?$/.test(w) && !NOT_POSSESSIVE.test(w);
  if (first === undefined || !(THE_ONE.has(first) || possessive(first))) return false;
  for (let i = start; i < Math.min(words.length, start + 6); i++) {
    const w = words[i]!;
    if (ONE_OF_SEVERAL.has(w)) return false;
    if (possessive(w)) continue;
    // (the first who or what the statement names, before its thing: "The kids go to bed at 8." is what the kids do)
    const themes = lexicon().nounThemes(lemma(w));
    if (PERSON.has(lemma(w)) || themes.includes('person') || themes.includes('animal')) return false;
    // (the tagger reads "check-up" as "check")
    if (named.has(key(w)) || w.split('-').some((x) => named.has(key(x)))) return true;
  }
  return false;
}

/**
 * Two instructions in the same words but one stretch (`swappedInFrame`), said right after "in", "into", "use" or "using":
 * another way to answer ("reply to me in Spanish" / "… in Portuguese", "use Celsius" / "use Fahrenheit"), not a place
 * ("check the weather in London" / "… in Paris": WordNet's locations) nor whom or what to act on ("add Tom" / "add Sarah").
 */
export function anotherWayAsked(oldText: string, newText: string, swapped: readonly Value[]): boolean {
  if (!swappedInFrame(oldText, newText) || swapped.some((v) => lexicon().nounThemes(v.norm).includes('location'))) return false;
  const [a, b] = [toks(oldText), toks(newText)];
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i > 0 && i < a.length && i < b.length && /^(?:in|into|use|using)$/.test(a[i - 1]!);
}
