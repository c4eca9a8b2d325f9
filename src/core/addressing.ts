/**
 * Correction cues in use: which cues are new, how strong, and which sentence of the old
 * statement a cue's sentence speaks to. See docs/corrections.md, "explicit-cue".
 */
import { lemma, STOP_WORDS, NEGATIONS } from './words.js';
import { lexicon } from './lexicon.js';
import { findCues, type Cue } from './correction-cues.js';
import { extractValues, valueGroup } from './values.js';
import { splitSentences } from './sentences.js';
import { contentKeys, contentWordsOf, FILLER, isVerb, key, norm, subset, toks, type StatementLike } from './conflict-words.js';
import { disagreeingGroups, slots, withoutSetAside } from './slots.js';
import { memoByText, shared } from './memo.js';
import { namesOf, nameSwapper } from './names-said.js';
import { deriveTimes } from './derive.js';

// ---------------------------------------------------------------- sentences a correction can address

/** Words that greet, thank or answer: they carry no fact, and a name next to them is the person spoken to. */
export const PHATIC = new Set('hey hi hello hiya yo thanks thank ty cheers bye goodbye yeah yes yep yup nope wow woah whoa oh ah aw aww ha haha hah congrats congratulations sorry ok okay'.split(' '));
export const INTERJECTIONS = new Set([...PHATIC, ...'you no dear welcome sure absolutely totally definitely right true indeed remember anytime great awesome cool nice good morning afternoon evening night see ya later much lot a so'.split(' ')]);

/**
 * Names used to address someone ("Thanks, Mel!", "Hey John, ...", "Yeah, Maria."): the
 * person spoken to, not a value of the statement. A name counts when it shares its clause
 * only with greetings and the like, or stands alone right after such a clause.
 */
export const vocatives: (text: string) => ReadonlySet<string> = memoByText(vocativesOnce, shared);

function vocativesOnce(text: string): Set<string> {
  const out = new Set<string>();
  for (const sent of splitSentences(text.replace(/[\u2018\u2019]/g, "'"))) {
    const parts = sent.text.split(/[,;:!?.\u2014]+|\s[-\u2013]\s/);
    let prevInterjection = false;
    for (const part of parts) {
      const ws = part.match(/[\p{L}][\p{L}'-]*/gu) ?? [];
      if (ws.length === 0) continue;
      const caps = ws.filter((w) => /^\p{Lu}/u.test(w) && w !== 'I' && !INTERJECTIONS.has(w.toLowerCase()));
      const capSet = new Set(caps); // a set: caps.includes per word was quadratic in a long clause
      const rest = ws.filter((w) => !capSet.has(w));
      const allInterj = rest.every((w) => INTERJECTIONS.has(w.toLowerCase()));
      if (caps.length > 0 && caps.length <= 2 && allInterj && (rest.length > 0 || prevInterjection)) {
        for (const c of caps) out.add(c.toLowerCase());
      }
      prevInterjection = caps.length === 0 && rest.length > 0 && allInterj;
    }
  }
  return out;
}

/**
 * The sentences of a text that assert something: questions assert nothing, so they correct nothing and are corrected by
 * nothing; a request asked as one ("Could you …?") asks for something, as an order does.
 */
export const assertions: (text: string) => readonly string[] = memoByText(assertionsOnce, shared);

function assertionsOnce(text: string): string[] {
  // (a request asked as a question is an instruction: "Can you call me Kate from here on?")
  return splitSentences(text).map((x) => x.text).filter((x) => !/\?["')\]]*\s*$/.test(x) || /^\W*(?:can|could|would|will) you\b/i.test(x));
}

/** The text without its questions. */
export function declarative(text: string): string {
  return assertions(text).join(' ');
}

/** Keys a sentence says something with: content keys without greetings and the names of the people spoken to. */
export function factKeys(text: string, voc: ReadonlySet<string>): Set<string> {
  const out = new Set<string>();
  for (const k of contentKeys(text)) if (!PHATIC.has(k) && !voc.has(k)) out.add(k);
  return out;
}

/** A sentence as a statement of its own, for comparing its values. */
export const s1 = (text: string): StatementLike => ({ text, type: 'FACT', entities: [], themes: [] });

/** The most (unit, old sentence) pairs `addressedPair` weighs. */
export const MAX_PAIRS = 4_096;

export interface Addressed { old: string; neu: string; oldKeys: Set<string>; newKeys: Set<string>; slot: string | null }

/**
 * Whether the new statement speaks to the old one: a sentence of the new one (the one
 * that carries the cue, when a cue family is given; with the sentence after it when the
 * cue stands alone, "Scratch that. It is June 13.") and a sentence of the old one give a
 * value to the same single-valued thing, or say the same thing: at least half of the old
 * sentence's content words, and at least a third of the new sentence's, are shared.
 * Two turns of a chat that only share a word or two ("I took my family camping" after
 * "I cherish time with family") are not addressed to each other.
 */
export function addressedPair(oldText: string, newText: string, names: ReadonlySet<string>, family: string | null): Addressed | null {
  const vo = vocatives(oldText);
  const vn = vocatives(newText);
  // (each old sentence read once: its lower-cased words, names and values are weighed against every unit)
  const olds = assertions(oldText).map((t) => ({ t, k: factKeys(t, vo), s: slots(t, names) })).filter((x) => x.k.size > 0 || x.s.size > 0)
    .map((x) => ({ ...x, n: norm(x.t), st: s1(x.t), names: namesOf(x.t, vo) }));
  const newSents = assertions(newText);
  const units: string[] = [];
  for (let i = 0; i < newSents.length; i++) {
    if (family && !findCues(newSents[i]).some((c) => c.family === family)) continue;
    // a cue said (nearly) on its own ("Scratch that. It is June 13.", "My mistake! She lives in Lyon.") goes with the sentence after it
    units.push(newSents[i]);
    if (factKeys(newSents[i], vn).size <= 1 && i + 1 < newSents.length) units.push(`${newSents[i]} ${newSents[i + 1]}`);
  }
  // Every unit is weighed against every old sentence: a bound on the pairs, far above any correction's (a few cue
  // sentences against a few), keeps as many units as the bound allows, those sharing a word with the old statement first,
  // each in its order (docs/limits.md): 1,500 cue sentences against a memory of 1,500 sentences were 2 million pairs, 1.5 s
  // (forty-fifth round).
  const room = Math.max(1, Math.floor(MAX_PAIRS / Math.max(1, olds.length)));
  if (units.length > room) {
    const oldKeys = new Set(olds.flatMap((o) => [...o.k]));
    const sharing = (u: string) => [...factKeys(u, vn)].some((k) => oldKeys.has(k));
    const kept = [...units.filter(sharing), ...units.filter((u) => !sharing(u))].slice(0, room);
    units.splice(0, units.length, ...kept);
  }
  let best: Addressed | null = null;
  let bestScore = -1;
  for (const u of units) {
    const nk = factKeys(u, vn);
    const ns = slots(u, names);
    const obj = family && OBJECT_FAMILIES.has(family) ? cueObject(u, family, vn) : NO_OBJECT;
    // (its values without what it sets aside: "dentist is wed 3pm not tues" gives Wednesday in place of Tuesday)
    const given = withoutSetAside(s1(u), findCues(u));
    const dating = datingKeys(u);
    const nkSaid = [...nk].filter((k) => !dating.has(k)).length;
    // what a contrast sets aside ("pescatarian now rather than vegetarian"), every word of it said by the old sentence, names it
    const replaced = family ? findCues(u).find((c) => c.family === family)?.replaced : undefined;
    const asideKeys = replaced ? [...contentKeys(replaced)] : [];
    const swapsName = nameSwapper(u, vn);
    // (whether the old statement says the cue's own words, in any sentence: the same for every sentence)
    const cueSaid = obj.cue.some((k) => olds.some((x) => x.k.has(k)));
    for (const o of olds) {
      // a value given in place of another ("It is June 13" / "... is June 3") speaks to the same thing too
      const swapped = disagreeingGroups(o.st, given).filter((g) => g !== 'name').length + (swapsName(o.names, o.n) ? 1 : 0);
      const both = [...o.k].filter((k) => nk.has(k));
      const shared = both.length + swapped;
      // (a time or date said on both sides, and nothing else, speaks to nothing: "We got married in June 2015." /
      // "We moved into this house in June 2015.")
      // (unless the new sentence sets the old time aside by name: "Our wedding was in July 2015, not June.")
      const setAside = asideKeys.length > 0 && asideKeys.every((k) => o.k.has(k));
      if (swapped === 0 && both.length > 0 && both.every((k) => timeKeys(o.t).has(k)) && !setAside) continue;
      const slot = [...o.s].find((x) => ns.has(x)) ?? null;
      // a change to what the old sentence says of a thing, its verbs aside, is its result told, not a change of it:
      // "I drink oat milk." / "I switched to oat milk years ago."
      if (family === 'changed' && obj.after.length > 0) {
        const things = [...o.k].filter((k) => !isVerb(k));
        if (things.length > 0 && things.every((k) => obj.after.includes(k))) continue;
      }
      // a change cue names what changed ("I lost my job ...", "I sold the Fiesta", "switched to soy milk"): that thing said
      // in the old sentence will do ("My car is a red Fiesta.", "I drink oat milk.")
      // (unless the old statement says the cue's own words: "… I also lost my job at Door Dash." / "I lost my job." is one event told twice)
      // (someone moving or changing something names what was said of where they are only: "Callum moved to Valencia" ends
      // "Callum lives in Manchester", not "Callum loves football")
      const named = [...obj.named, ...(WHEREABOUTS.test(o.n) ? obj.mover ?? [] : []), ...saidFor(o.t, obj.purpose)];
      // a part replaced that the old sentence does not say is the part's change, not the thing's: "My phone is an iPhone 13." /
      // "I replaced the screen on my iPhone 13." ("We replaced the old boiler with a heat pump" ends "Our boiler is a Worcester Bosch")
      if (obj.cue.includes(REPLACE) && obj.after.length > 0 && !obj.after.some((k) => o.k.has(k))) continue;
      // (the thing in another word of the same sense: "I love horror films." / "I've gone off horror movies")
      // (an account closed ends being the provider's customer, not working there: "I work at Monzo." / "Closed my Monzo account")
      const heldWith = obj.named.some((k) => HELD_WITH.has(k));
      if (heldWith && EMPLOYED.test(o.n)) continue;
      const said = named.some((k) => o.k.has(k)) || (obj.namedWord !== undefined && sayThing(o.t, obj.namedWord));
      const names = said && !cueSaid;
      // (the person moving house speaks to where they live: "we live at 12 Harlow Road" / "we moved house")
      const personMoved = family === 'moved' && obj.byPerson === true && OWN_WHEREABOUTS.test(o.n);
      // a thing sold or given away that the old sentence does not say, the words in common only saying which one, is
      // another thing: "I work at Apple." / "I sold my Apple shares." ("I sold my Leeds flat" ends "I have a flat in Leeds")
      if (obj.handedOver && !o.k.has(obj.handedOver) && swapped === 0 && both.length > 0 && both.every((k) => obj.after.includes(k))) continue;
      // (the words that date the new sentence say when, not what: "cancelled my Economist subscription last week")
      // (nor do the old sentence's times, counted one by one: "Gym is Monday, Wednesday and Friday at 7am." says the gym, at times
      // the new one swaps for others, as a value)
      const oldTimes = [...o.k].filter((k) => timeKeys(o.t).has(k) && !nk.has(k)).length;
      const oSaid = oldTimes > 0 ? o.k.size - oldTimes + 1 : o.k.size;
      const says = shared > 0 && ((2 * shared >= oSaid && 3 * shared >= nkSaid) || names || setAside || personMoved);
      if (!says && !slot) continue;
      const score = shared / Math.max(1, o.k.size) + (slot ? 1 : 0);
      if (score > bestScore) {
        bestScore = score;
        best = { old: o.t, neu: u, oldKeys: o.k, newKeys: nk, slot };
      }
    }
  }
  return best;
}

const REPLACE = key('replaced');
/** A sentence opened by who it is about ("I use …", "my wife uses …"): told, not asked. */
const TOLD_BY_SOMEONE = /^(?:i|we|you|he|she|they|my|our|his|her|their)\b/;

/**
 * Of `purpose`'s keys, those the sentence asks a choice for ("Use Fahrenheit for temperatures." -> temperature): a request
 * to the assistant, opened by its verb; not what someone tells of their own ("I use my Kindle for reading." is no choice
 * that "I switched to glasses for reading" replaces).
 */
function saidFor(sentence: string, purpose: readonly string[] | undefined): string[] {
  if (!purpose || TOLD_BY_SOMEONE.test(norm(sentence))) return [];
  const t = toks(sentence);
  return purpose.filter((k) => t.some((w, i) => w === 'for' && t.slice(i + 1, i + 3).some((x) => key(x) === k)));
}

/** A content word of the sentence is the thing's word or a synonym of it (WordNet). */
function sayThing(sentence: string, word: string): boolean {
  const w = lemma(word);
  return contentWordsOf(sentence).some((x) => lexicon().synonymous(lemma(x), w));
}

/** The keys of the words that date a sentence: its times and dates, and relative ones ("last week", "yesterday"). */
const datingKeys: (text: string) => ReadonlySet<string> = memoByText((text) => new Set([
  ...timeKeys(text), ...deriveTimes(text).flatMap((x) => toks(norm(x)).map(key)),
  ...toks(norm(text)).filter((w) => DATING_WORDS.has(w)).map(key),
]), shared);
const DATING_WORDS = new Set(['yesterday', 'today', 'tonight', 'tomorrow', 'ago']);

/** Where the person lives or stays, said of themselves: "we live at 12 Harlow Road", "I'm renting in Leeds". */
const OWN_WHEREABOUTS = /\b(?:i|we)(?:'m|'re| am| are)? (?:(?:now |currently |still )?(?:live|living|stay|staying|based|renting|rent))\b/;

/** The keys of a sentence's times, dates, days, months and years ("June 2015" -> june, 2015). */
const timeKeys: (text: string) => ReadonlySet<string> = memoByText((text) => new Set(extractValues(text)
  .filter((v) => ['time', 'daypart', 'date', 'day', 'month', 'year'].includes(valueGroup(v.kind))).flatMap((v) => toks(v.raw).map(key))), shared);

/** Cues that end something ("I lost my job", "I sold the Civic", "no longer"): the thing they end is what they correct. */
export const ENDING_FAMILIES = new Set(['no-longer', 'any-more', 'state-change']);

/** Cues whose object is what they change: a thing ended ("I sold the Fiesta"), or one taken in place of another ("switched to soy milk"). */
const OBJECT_FAMILIES = new Set([...ENDING_FAMILIES, 'changed', 'moved', 'up-down-to']);
/**
 * Cues whose subject is what changed, or whose: "Luna passed away", "Dad moved into a care home" (a move's object is where
 * to, not what), "Ella changed schools".
 */
const SUBJECT_FAMILIES = new Set([...ENDING_FAMILIES, 'moved', 'changed']);

/** What a cue says it changes (`cueObject`). */
export interface CueObject {
  /** the content words right after the cue, up to the next stop word ("switched to soy milk" -> soy, milk) */
  after: string[];
  /**
   * the thing it names: the head of those words (the last: "I sold my Apple shares" names shares, not Apple; a move's
   * own object is where to, never named), and for a cue that ends something, the words right before it when it names
   * no thing, a doing, a post or a group ("Luna passed away" -> luna, "My partner quit teaching" -> partner); for a change
   * to something, only when the person changed it ("The café switched to oat milk" names nothing of the person's)
   */
  named: string[];
  /** the cue's own content words ("lost") */
  cue: string[];
  /** what a new choice is for, said after it ("switch to celsius for temperatures" -> temperature): it names the old choice said for it too */
  purpose?: string[];
  /** who moved or changed something, said before the cue ("Dad moved into a care home" -> father, "Ella changed schools" -> ella) */
  mover?: string[];
  /** the thing a sale or a gift names, when the cue is one ("I sold my Apple shares" -> shares): what changed hands */
  handedOver?: string;
  /** the thing named, as said ("gone off horror movies" -> movies): the old sentence may say it in another word ("films") */
  namedWord?: string;
  /** the person made the change ("we moved house", "Switched broadband to BT") */
  byPerson?: boolean;
}

const NO_OBJECT: CueObject = { after: [], named: [], cue: [] };

/** A thing had something done to it, said before the doing: "had its brake pads", "got the boiler". */
const HAD_DONE = /\b(?:had|got|has|have|having|getting)\s+(?:(?:its|the|my|our|his|her|their|a|an|some|new)\s+)?((?:[a-z'-]+\s+){0,2}[a-z'-]+)\s*$/;

/** Where a cue's phrase ends: a clause's punctuation or a dash between words (a decimal point does not). */
const CLAUSE_END = /[,;:!?()\u2013\u2014]|\.(?!\d)|\s-\s/;

/** A cue phrase with the thing changed inside it: "switched dentists", "moved the parents' evening to". */
const INNER_OBJECT = /^(?:changed|switched|swapped)\s+([a-z]{3,}s)$|^(?:moved|pushed|shifted|brought|bumped|extended|change|switch|move)\s+(?:all\s+)?(?:my|our|the|his|her|their)\s+(.+?)\s+(?:to|back|forward|up|over)$/;

/** A sentence that says where someone works. */
const EMPLOYED = /\b(?:work(?:s|ed|ing)? (?:at|for)|employed (?:at|by)|job at)\b/;

/** What a provider keeps for the person: ending one ends what was said of the provider ("closed my Monzo account"). */
const HELD_WITH = new Set(['account', 'subscription', 'membership', 'card', 'policy', 'plan', 'contract'].map(key));

/** Cues of a thing that changed hands: what they name is the thing, and the words before it only say which. */
const HANDED_OVER = /\b(?:sold|gave away|got rid of|gave|traded)$/;

/** Words that date what is said ("last weekend", "two years ago"), as keys. */
const RELATIVE_TIME = new Set(['yesterday', 'today', 'tonight', 'tomorrow', 'last', 'next', 'ago', 'weekend', 'week', 'month', 'year', 'night', 'morning', 'afternoon', 'evening'].map(key));

/** Words for a post held: leaving one's job ends what was said of one's work ("Priya's left her job"). */
const ROLE_NOUNS = new Set(['job', 'role', 'post', 'position']);

/** A sentence that says where someone is: lives, stays, is based, goes to, attends, works at. */
const WHEREABOUTS = /\b(?:liv(?:e|es|ing)|stay(?:s|ing)?|based|go(?:es)? to|attend(?:s|ing)?|work(?:s|ing)? (?:at|for|in)|stud(?:y|ies|ying) at)\b/;

/** The person as a clause's subject, right before a cue: "I", "we", "I've just", "we have finally". */
const PERSON_BEFORE = /\b(?:i|we)(?:'ve| have|'d| had)?(?: (?:just|recently|finally|already|now|since))*\s*$/;

export function cueObject(text: string, family: string, voc: ReadonlySet<string>): CueObject {
  const t = norm(text);
  const cue = findCues(text).find((c) => c.family === family);
  const at = cue ? t.indexOf(cue.phrase) : -1;
  if (!cue || at < 0) return NO_OBJECT;
  const own = (w: string) => !(STOP_WORDS.has(w) || NEGATIONS.has(w) || FILLER.has(w) || w === "'s");
  const clause = t.slice(0, at).split(/[,.;:!?]/).at(-1) ?? '';
  const before: string[] = [];
  // a thing ended may be said before its cue too, as the clause's subject: "Luna passed away", "my dad died"
  if (SUBJECT_FAMILIES.has(family)) {
    // (the other one of "X and I": "jake and i broke up" ends what was said of Jake)
    const ws = toks(clause).join(' ').replace(/(?: (?:'s|has|have|'ve|had|was|were|been|got|just|recently|finally))+$/, '').replace(/ and (?:i|me)$/, '').split(' ').filter(Boolean);
    for (let i = ws.length - 1; i >= 0 && before.length < 3; i--) {
      const w = ws[i]!;
      if (!own(w) || PHATIC.has(key(w)) || voc.has(key(w))) break;
      before.push(key(w));
    }
  }
  const after: string[] = [];
  let lastAfter = '';
  // (the phrase ends at a time said after it: "I finished Dune last night" names Dune, not the night)
  const when = new Set([...datingKeys(text), ...RELATIVE_TIME]);
  // (the phrase ends with its clause: "no longer doing the Brighton half - pulled out" names the half)
  const rest = toks(t.slice(at + cue.phrase.length).split(CLAUSE_END)[0]!);
  let afterEnd = 0;
  for (const w of rest) {
    afterEnd++;
    if (!own(w) && after.length === 0) continue;
    const k = key(w);
    // (an adverb ends the phrase: "gone off coffee completely" names coffee; "family" is a noun)
    const adverb = /[a-z]{3}ly$/.test(w) && lexicon().nounThemes(w).length === 0;
    if (!own(w) || PHATIC.has(k) || voc.has(k) || when.has(k) || adverb || after.length === 3) break;
    after.push(k);
    lastAfter = w;
  }
  // what the new choice is for, said after it: "switch to celsius for temperatures" changes what "Use Fahrenheit for
  // temperatures." chose for them (`addressedPair`: only an old sentence that says what it chose for that)
  const purposeAt = rest[afterEnd - 1] === 'for' ? afterEnd : -1;
  const purpose = family === 'changed' && purposeAt > 0 ? rest.slice(purposeAt).filter(own).slice(0, 1).map(key) : [];
  // (a part had replaced is said before its cue: "the car had its brake pads replaced in May" replaced the pads)
  const had = after.length === 0 && cue.phrase === 'replaced' ? HAD_DONE.exec(clause) : null;
  if (had) for (const w of toks(had[1]!)) if (own(w)) { after.push(key(w)); lastAfter = w; }
  // (the person's thing, whoever changed it: "council changed our bin day to Mondays"; a provider's account names the provider too)
  const ours = /\b(?:my|our)$/.test(cue.phrase);
  const head = after.length > 0 && family !== 'moved' ? (HELD_WITH.has(after[after.length - 1]!) ? after : [after[after.length - 1]!]) : [];
  // the thing changed said inside the cue's phrase: "switched dentists", "moved the parents' evening to", "extended the
  // deadline to": that thing is named, whoever changed it, and the phrase's own word is its verb alone
  const inner = INNER_OBJECT.exec(cue.phrase);
  if (inner && (family === 'changed' || family === 'moved')) {
    const thing = toks(inner[1] ?? inner[2]!).filter(own);
    const last = thing.at(-1);
    if (last) {
      return {
        after, named: [key(last)], cue: [...contentKeys(cue.phrase.split(' ')[0]!)], mover: before,
        namedWord: last, byPerson: PERSON_BEFORE.test(clause) || toks(clause).length === 0,
      };
    }
  }
  // (a sentence opening with the cue leaves out its "I", as chat does: "Switched broadband to BT")
  const byPerson = ENDING_FAMILIES.has(family) || PERSON_BEFORE.test(clause) || /^\s*(?:i|we)\b/.test(cue.phrase) || toks(clause).length === 0;
  const handedOver = HANDED_OVER.test(cue.phrase) && head.length > 0 ? { handedOver: head[0]! } : {};
  const ends = ENDING_FAMILIES.has(family);
  // (who ended something is what it names only when the cue says no thing of its own, or a doing, a place of work or a
  // group: "Luna passed away", "My partner quit teaching", "Priya's left the company"; "Sarah's left the group chat" ends
  // no "Sarah is on the PTA")
  const whose = ends && (head.length === 0 || /[a-z]{3}ing$/.test(lastAfter) || ROLE_NOUNS.has(head[0]!) || lexicon().nounThemes(lemma(lastAfter))[0] === 'group');
  return {
    after, named: [...(whose ? before : []), ...(byPerson || ours ? head : [])], ...(purpose.length > 0 ? { purpose } : {}), cue: [...contentKeys(cue.phrase)], ...(ends ? {} : { mover: before }), ...handedOver, byPerson,
    ...(byPerson && head.length > 0 ? { namedWord: lastAfter } : {}),
  };
}

/** Cue families that say a change by themselves ("no longer", "moved to", "I quit"); the others only mark a correction ("actually", "no"). */
export const CHANGE_FAMILIES = new Set(['no-longer', 'any-more', 'moved', 'changed', 'up-down-to', 'turned', 'state-change', 'state-over', 'update']);

/** A marital state's cue phrase ("got divorced", "'m married"): the one change of state told apart by its word. */
const MARITAL = /\b(?:engaged|married|divorced|separated|remarried|widowed)$/;

/** Cues of the new text whose family the old text does not already use. */
export function freshCues(oldText: string, newText: string): Cue[] {
  // (a change of state is told by its state: "got divorced" is fresh after "I'm married", "got married" is not)
  // ("passed away" / "died" are one change, said two ways: a marital state only is told apart by its word)
  // (an ending is one change however told: "Rob's left Deloitte." / "Rob doesn't work at Deloitte any more.")
  const said = (c: Readonly<Cue>) => (c.family === 'state-change' && MARITAL.test(c.phrase) ? `${c.family}:${c.phrase.split(' ').at(-1)}`
    : ENDING_FAMILIES.has(c.family) ? 'ending' : c.family);
  const had = new Set(findCues(oldText).map(said));
  // "instead", "rather than" and "instead of" are one way of saying it
  return findCues(newText).filter((c) => !had.has(said(c)));
}

/**
 * A contrast cue ("instead of X", "not X", "isn't X, it's Y") is strong when X is content of the old
 * statement: it names what it replaces. Otherwise it is weak, like "now".
 */
export function strength(c: Readonly<Cue>, oldKeys: ReadonlySet<string>): 'strong' | 'weak' {
  // "English, not French" after "Always reply in English" names no old content: a plain contrast, not a correction
  if (c.replaced) {
    const r = contentKeys(c.replaced);
    return r.size > 0 && subset(r, oldKeys) ? 'strong' : 'weak';
  }
  return c.weak ? 'weak' : 'strong';
}

/** The cue family is found only in the questions of a text ("What have you been up to?"). */
export function hasQuestionOnly(text: string, family: string): boolean {
  return !findCues(declarative(text)).some((c) => c.family === family);
}