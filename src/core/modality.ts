/**
 * How a sentence holds its predicate (docs/corrections.md, "modality (distinct)"): said as so
 * ("I have a dog"), wished, planned or weighed ("I want a dog", "I'm going to quit smoking",
 * "I'm thinking about selling my car"), over ("I used to live in Leeds", "My wife was
 * pregnant", "I worked there until 2019"), a belief given up ("I thought I was allergic to cats"), or under a condition
 * ("If it rains, I drive to work"). A wish and its
 * fulfilment, a state and its end, are two facts: never one memory.
 *
 * Read only of a one-sentence statement, from grammar alone (frames of wanting, planning,
 * obligation and possibility; "used to"; "was"/"were" against "is"/"are"), and only where a
 * frame governs a predicate: "I'm going to Leeds" is a journey, not a plan, while "I'm going
 * to quit" is a plan. "I'd rather" and "I prefer" are preferences said as so.
 */
import { lexicon } from './lexicon.js';
import { lemma } from './words.js';
import { assertions } from './addressing.js';
import { contentKeys, key, norm, toks, verbsAfterSubject, type StatementLike } from './conflict-words.js';
import { memoByText, shared } from './memo.js';
import type { MemoryType } from './types.js';

export type Mode = 'so' | 'wished' | 'over' | 'then' | 'given-up' | 'if';

/** Frames that hold their predicate as wished, planned, needed or possible, not as so. */
const WISHED = new RegExp([
  "\\b(?:want|wants|wanted|wanting) (?:to|a|an|some|more|another)\\b",
  "\\b(?:would|'d) (?:like|love) (?:to|a|an|some|more|another)\\b",
  "\\bhop(?:e|es|ing) to\\b",
  "\\bplan(?:s|ned|ning)? (?:to|on)\\b",
  "\\bplanning (?:a|an|my|our)\\b",
  "\\bintend(?:s|ing)? to\\b",
  "\\bgonna\\b",
  "\\b(?:thinking|thought) (?:about|of) \\w+ing\\b",
  "\\bconsidering \\w+ing\\b",
  "\\bneeds? to\\b",
  "\\bshould\\b",
  "\\bmight\\b",
  "\\bwish(?:es)?\\b",
  "\\btrying to\\b",
  "\\bdream(?:s|ing)? of\\b",
].join('|'));

/** Whether WordNet knows the word as a verb (its comparison with "be" is null for no verb). */
const isVerbWord = (w: string) => lexicon().sameAction([w, lemma(w)], ['be']) !== null;

/** "going to" + a verb is a plan; + a place ("going to Leeds", "going to work") is a journey. */
const JOURNEY = new Set(['work', 'school', 'bed', 'church', 'town', 'class', 'lunch', 'dinner', 'breakfast', 'the', 'a', 'an', 'my', 'our', 'your', 'his', 'her', 'their', 'see', 'be']);
function plans(t: string): boolean {
  for (const m of t.matchAll(/\bgoing to (\w+)/g)) {
    const w = m[1]!;
    if (!JOURNEY.has(w) && isVerbWord(w)) return true;
  }
  return false;
}

const GIVEN_UP = /\b(?:i|we) (?:thought|assumed|believed) (?:that )?(?:i|we|i'd|we'd|i was|we were)\b/;
const OVER = /\bused to\b/;
/**
 * The subject's "be" in the past, of a state: "My wife was pregnant", "I was vegetarian", "I was a
 * teacher"; not a passive event ("I was raised by my grandmother", "was built", "was born").
 */
const WAS = /^(?:i|we|he|she|they|it|(?:my|our|the) \w+(?: \w+)?) (?:was|were) (\w+)/;
/** The subject's "have" in the past, of a thing held: "I had a dog", "We had two cars" (not "had been", "had lunch" said of a time). */
const HAD = /^(?:i|we|he|she|they|(?:my|our) \w+(?: \w+)?) had (?:a|an|two|three|four|five|several|some|my|our)\b(?!.*\b(?:yesterday|today|tonight|last|ago|this|on (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday))\b)/;
/** A time a past is told at ("I was 42 when I moved here", "I was shy as a child"): what held then, not a state that ended. */
const AT_A_TIME = /\b(?:when|while)\b|\bas an? (?:child|kid|teenager|teen|student|baby|boy|girl)\b/;
/** Verbs whose past participle is their base form: "was hurt", "was put on hold" (an event done to the subject). */
const SAME_PARTICIPLE = /^(?:put|hurt|hit|cut|set|shut|let|cast|spread|beat|bet|burst|cost|split|upset)$/;
function stateOver(t: string): boolean {
  if (HAD.test(t)) return true;
  const m = WAS.exec(t);
  if (!m) return false;
  // (a participle is an event, "was raised", "was built"; an adjective that is also a verb is a state: "was blue", "was empty")
  const w = m[1]!;
  const base = lemma(w);
  const participle = (base !== w && isVerbWord(base)) || SAME_PARTICIPLE.test(w) || (/(?:ed|en|ing)$/.test(w) && isVerbWord(w));
  return w !== 'born' && !participle;
}

/**
 * A past verb held until a time: "I worked at Google until 2019", "We lived with my parents until
 * the wedding" (the state is over; "I work until 5" is so).
 */
const UNTIL = /^(?:i|we|he|she|they|(?:my|our|the) \w+(?: \w+)?) (\w+) .*\buntil\b/;
function heldUntil(t: string): boolean {
  const m = UNTIL.exec(t);
  if (!m) return false;
  const w = m[1]!;
  const base = lemma(w);
  return base !== w && !/(?:s|ing)$/.test(w) && isVerbWord(base);
}

/**
 * How a one-sentence statement holds its predicate; null for several sentences (not read). Read
 * once per text, as the other readings: recognition asks it of the quote for every candidate.
 */
export const modeOf: (text: string) => Mode | null = memoByText(readMode, (m) => m);

function readMode(text: string): Mode | null {
  const said = assertions(text);
  if (said.length !== 1) return null;
  const t = norm(said[0]!).replace(/[.,;:!?]+/g, ' ').replace(/\s+/g, ' ').trim();
  if (GIVEN_UP.test(t)) return 'given-up';
  // held under a condition: "If it rains, I drive to work" is not "I drive to work"
  if (/^(?:if|unless|whenever) /.test(t)) return 'if';
  if (WISHED.test(t) || plans(t)) return 'wished';
  if (OVER.test(t) || stateOver(t) || heldUntil(t)) return AT_A_TIME.test(t) && !OVER.test(t) ? 'then' : 'over';
  return 'so';
}

/** Kinds of memory whose content is a want: "I always want an aisle seat", "I need to call the bank". */
const WANTS: ReadonlySet<MemoryType> = new Set(['PREFERENCE', 'INSTRUCTION', 'TASK', 'REMINDER']);

/**
 * Two statements holding their predicate differently: a description ("wished / so"), or null. A
 * want said as a preference, an instruction, a task or a reminder is that memory's content, not a
 * wish: there only a state over or a belief given up counts.
 */
export function otherMode(oldS: StatementLike, newS: StatementLike): string | null {
  const a = modeOf(oldS.text);
  if (a === null) return null;
  const b = modeOf(newS.text);
  if (b === null || a === b) return null;
  if ((a === 'wished' || b === 'wished') && (a === 'so' || b === 'so') && (WANTS.has(oldS.type) || WANTS.has(newS.type))) return null;
  // a past event told, then told with "was" ("We got married in June 2015." / "Our wedding was in June 2015."): both tell the past
  const past = (t: string) => tenseOf(t)?.tense === 'past';
  if ((a === 'so' && b === 'over' && past(oldS.text)) || (a === 'over' && b === 'so' && past(newS.text))) return null;
  return `${a} / ${b}`;
}

/**
 * Whether the new statement says the old one's doing is over, in fewer words: its "used to" clause says the old
 * statement's verb and nothing the old one does not ("I smoke about ten cigarettes a day." / "I used to smoke, but I
 * quit last year."; not "I used to smoke cigars").
 */
export function usedToDo(oldText: string, newText: string): boolean {
  const m = /\bused to ([^,.;:!?]+)/.exec(norm(newText));
  if (!m) return false;
  const said = contentKeys(m[1]!.replace(/\b(?:but|and|so|until|before)\b.*$/, ''));
  const old = contentKeys(oldText);
  const verbs = [...verbsAfterSubject(oldText)].map(key);
  return said.size > 0 && [...said].every((k) => old.has(k)) && verbs.some((v) => said.has(v));
}

type Tense = 'past' | 'present' | 'future';
const PRONOUNS = new Set(['i', 'we', 'he', 'she', 'they']);
const BE_NOW = new Set(['am', 'is', 'are']);
const BE_PAST = new Set(['was', 'were']);

/**
 * The tense of a one-sentence statement's main verb and that verb (its lemma), or null:
 * "My mum visited" -> past visit; "My mum is visiting" -> present visit; "We will visit" ->
 * future visit. Read only where the verb is plain: a past form ("visited", "went"), a present
 * one ("visit", "visits"), "be" + -ing, "will" + a verb, right after a pronoun or after "my / our /
 * the" and one word.
 */
export const tenseOf: (text: string) => Readonly<{ tense: Tense; verb: string }> | null = memoByText(readTense, shared);

function readTense(text: string): { tense: Tense; verb: string } | null {
  const said = assertions(text);
  if (said.length !== 1) return null;
  const t = toks(said[0]!).filter((w) => /^[a-z']+$/.test(w));
  if (PRONOUNS.has(t[0] ?? '')) return verbAt(t[1], t[2]);
  // "my / our / the" and one word: a word in -s after it may be a plural as well as a verb ("the dogs"), so only
  // a past form, "be" + -ing or "will" count there
  if (!['my', 'our', 'the'].includes(t[0] ?? '')) return null;
  const found = verbAt(t[2], t[3]);
  return found && (found.tense !== 'present' || BE_NOW.has(t[2]!)) ? found : null;
}

function verbAt(w1: string | undefined, w2: string | undefined): { tense: Tense; verb: string } | null {
  if (w1 === undefined) return null;
  const verbOf = (w: string) => (isVerbWord(lemma(w)) ? lemma(w) : null);
  if (w1 === 'will' && w2) { const v = verbOf(w2); return v ? { tense: 'future', verb: v } : null; }
  if ((BE_NOW.has(w1) || BE_PAST.has(w1)) && w2 && /[a-z]{2}ing$/.test(w2)) {
    const v = verbOf(w2);
    return v ? { tense: BE_PAST.has(w1) ? 'past' : 'present', verb: v } : null;
  }
  if (AUXILIARY.has(w1)) return null;
  const base = lemma(w1);
  if (!isVerbWord(base)) return null;
  if (base === w1 || /s$/.test(w1)) return { tense: 'present', verb: base };
  return /ing$/.test(w1) ? null : { tense: 'past', verb: base };
}
const AUXILIARY = new Set(['am', 'is', 'are', 'was', 'were', 'be', 'been', 'have', 'has', 'had', 'do', 'does', 'did', 'can', 'could', 'would', 'should', 'may', 'might', 'must', 'shall', "'m", "'re", "'s", "'ve", "'d", "'ll", 'not', 'never', 'always', 'usually', 'often', 'also', 'still', 'just']);

/**
 * The same verb said of a past event on one side and of now or later on the other, as "past /
 * present", or null: "My mum visited last Christmas." / "My mum is visiting this Christmas." are
 * two visits.
 */
export function otherTense(oldText: string, newText: string): string | null {
  const a = tenseOf(oldText);
  const b = tenseOf(newText);
  if (!a || !b || a.verb !== b.verb || a.tense === b.tense) return null;
  if (a.tense !== 'past' && b.tense !== 'past') return null;
  return `${a.tense} / ${b.tense} ${a.verb}`;
}
