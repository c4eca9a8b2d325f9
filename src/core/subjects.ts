/**
 * Who a statement is about and whose each thing is (docs/corrections.md, "different-subject"):
 * the clause's subject ("I", "we", a role after "my"), another's quoted words, and the owner of
 * each possessed thing.
 */
import { lemma, STOP_WORDS, NEGATIONS } from './words.js';
import { lexicon } from './lexicon.js';
import { findCues } from './correction-cues.js';
import { splitSentences } from './sentences.js';
import { quotedSpeaker } from './quoted-speech.js';
import { AUX, clauses, isVerb, key, norm, NP_ADJ, PERSON, PREPS, stripOpeners, toks } from './conflict-words.js';
import { deriveNames } from './derive.js';
import { extractValues } from './values.js';
import { memoByText, shared } from './memo.js';

/** Cue families that mark a correction without saying anything of their own ("I was wrong", "I meant", "correction"). */
const MARKERS = new Set(['wrong', 'correction', 'scratch-that', 'no-wait']);

/**
 * Words before a role that make it another person: someone the role was ("ex-husband", "former
 * boss", "old flatmate"; an old friend is still a friend), or a kin once removed ("half-brother",
 * "step-mother", "great-grandmother", "foster son", "godfather"). Hyphenated words are read as
 * their parts ("ex", "husband").
 */
const FORMERLY = new Set(['ex', 'former', 'previous', 'old']);
const REMOVED = new Set(['half', 'step', 'great', 'foster', 'god', 'adoptive']);

/**
 * The role a possessive phrase names from `from` on (after "my" / "our"), with what makes it
 * another person than the bare role: "my ex-husband" -> former-husband, "my brother-in-law" ->
 * brother-in-law, "my best friend" -> friend. `end` is the index after the role's words.
 */
export function roleAt(c: readonly string[], from: number): { role: string; at: number; end: number } | null {
  let i = from;
  const said: string[] = [];
  while (i < c.length && (NP_ADJ.has(c[i]!) || FORMERLY.has(c[i]!) || REMOVED.has(c[i]!))) said.push(c[i++]!);
  // "my ex" alone is a role of its own: "my ex's new partner", "my ex lives in Bristol"
  if (said.at(-1) === 'ex' && !PERSON.has(c[i] ? key(c[i]!) : '')) { said.pop(); i--; }
  const k = c[i] ? key(c[i]!) : '';
  if (!PERSON.has(k)) return null;
  const inLaw = c[i + 1] === 'in' && c[i + 2] === 'law';
  const former = said.some((w) => FORMERLY.has(w) && !(w === 'old' && k === 'friend'));
  const removed = said.filter((w) => REMOVED.has(w));
  // (a kin once removed is one word however spelt: "step-dad", "stepdad" and "stepfather" are one role)
  const role = [...(former ? ['former'] : []), `${removed.join('')}${k}`].join('-') + (inLaw ? '-in-law' : '');
  return { role, at: i, end: inLaw ? i + 3 : i + 1 };
}

/** The roles a text names with what makes them another person ("ex-husband": husband), by their bare role: not that role said. */
export function qualifiedRoles(text: string): Set<string> {
  const ts = toks(text);
  const out = new Set<string>();
  for (let j = 0; j < ts.length; j++) {
    if (ts[j] !== 'my' && ts[j] !== 'our') continue;
    const r = roleAt(ts, j + 1);
    if (r && r.role !== key(ts[r.at]!)) out.add(key(ts[r.at]!));
  }
  return out;
}

/** The index of the first word from `from` on that is no determiner-like adjective ("my NEW car"). */
function afterAdjectives(c: readonly string[], from: number): number {
  let j = from;
  while (j < c.length && NP_ADJ.has(c[j]!)) j++;
  return j;
}

/** Each "<owner>'s <head>" not inside "my / our …'s" ("Dad's car", "Owen's manager"), adjectives before the head skipped. */
function possessives(c: readonly string[]): Array<{ owner: string; head: string | undefined }> {
  const out: Array<{ owner: string; head: string | undefined }> = [];
  for (let i = 0; i + 2 < c.length; i++) {
    if (c[i + 1] !== "'s" || c[i - 1] === 'my' || c[i - 1] === 'our') continue;
    out.push({ owner: c[i]!, head: c[afterAdjectives(c, i + 2)] });
  }
  return out;
}

/**
 * The words of the proper names a statement says (as the sentence model reads them: "Tom", "Priya
 * Shah"), lower-cased; a day, month or date ("Monday's meeting", "Today's standup") is a time, not
 * someone: left out.
 */
function nameWords(text: string): Set<string> {
  const out = new Set<string>();
  for (const n of deriveNames(text)) {
    if (extractValues(n).length > 0 || DAYS_FROM_NOW.has(n.toLowerCase())) continue;
    for (const w of n.toLowerCase().split(/\s+/)) if (w && !STOP_WORDS.has(w)) out.add(w);
  }
  return out;
}

/** The days named from the day of speaking (a sentence's first word is capitalised: "Today's standup …"). */
const DAYS_FROM_NOW = new Set(['today', 'tonight', 'tomorrow', 'yesterday']);

/** The proper name a clause opens with, when it is the clause's subject (a verb follows it): "Tom is allergic to penicillin" -> tom. */
function namedSubject(c: readonly string[], names: Set<string>): string | null {
  let j = 0;
  while (j < c.length && names.has(c[j]!)) j++;
  // the verb said of one person: "is", "has", "can", "plays", "moved" (not "Gotta go")
  const verb = c[j];
  if (j === 0 || verb === undefined || !(AUX.has(verb) || (isVerb(verb) && /[^s]s$|ed$/.test(verb)))) return null;
  // A sentence's first word is capitalised whatever it is, and the sentence model then reads a noun
  // without its determiner as a name ("Pottery is a huge part of my life", "Volunteering is …"): a
  // word WordNet knows as a noun counts as a name only if its most frequent sense is a person
  // ("Leo", "Jenny"), and no "-ing" form does. A name that is also a common noun ("Tom", a male
  // cat) is left unread: precision first.
  const w = c[0]!;
  const asSaid = lexicon().nounThemes(w);
  const themes = asSaid.length ? asSaid : lexicon().nounThemes(lemma(w));
  if (/ing$/.test(w) || (themes.length > 0 && themes[0] !== 'person')) return null;
  return c.slice(0, j).join(' ');
}

/** A word that names a possessed thing: no function word, verb, preposition, number or person role. */
function isThing(w: string | undefined): w is string {
  return w !== undefined && !STOP_WORDS.has(w) && !NEGATIONS.has(w) && !isVerb(w) && !PREPS.has(w) && !/^\d/.test(w) && !PERSON.has(key(w));
}

/**
 * Who each clause is about: "i", "we", or a person role after "my/our" ("my husband is vegan" -> husband).
 * A sentence that quotes someone else's words ('He said "I hate cats."', '"I'm fine," my doctor said')
 * is about that speaker ("reported:he"): the "I" inside the quotation marks is theirs, not the person's.
 */
export const subjects: (text: string) => ReadonlySet<string> = memoByText(subjectsOnce, shared);

function subjectsOnce(text: string): Set<string> {
  const out = new Set<string>();
  let namesOnce: Set<string> | undefined;
  // (read once: a test per clause would read a long text once per clause)
  let capitals: boolean | undefined;
  let own = text;
  for (const s of splitSentences(text)) {
    const who = quotedSpeaker(s.text);
    if (who === null) continue;
    out.add(`reported:${who}`);
    own = own.replace(s.text, ' ');
  }
  const cs = clauses(own);
  for (const [ci, c0] of cs.entries()) {
    // a name, then who they are, set off by commas: "Kwame, my sister's husband, flies for BA" is about Kwame too
    const next = cs[ci + 1];
    if (c0.length === 1 && next && ci + 2 < cs.length && (next[0] === 'my' || next[0] === 'our') && roleAt(next, 1)
      && (capitals ??= /\p{Lu}/u.test(text)) && (namesOnce ??= nameWords(text)).has(c0[0]!)) out.add(`name:${c0[0]}`);
    // "Sorry, I got it wrong before: Bea's birthday is 28 August": the speaker owning up to a mistake
    // is not what the statement is about
    if (findCues(c0.join(' ')).some((cue) => MARKERS.has(cue.family))) continue;
    const c = stripOpeners(c0);
    // "My partner and I live in Leeds": the person is a subject too, beside the role; "Jamie and I split up": the person and
    // Jamie (a name the sentence model reads as one)
    const andI = c.indexOf('i');
    if ((c[0] === 'my' || c[0] === 'our') && andI > 1 && andI <= 6 && c[andI - 1] === 'and') out.add('i');
    if (andI === 2 && c[1] === 'and' && (capitals ??= /\p{Lu}/u.test(text)) && (namesOnce ??= nameWords(text)).has(c[0]!)) out.add(`name:${c[0]}`).add('i');
    if (c[0] === 'i' || c[0] === 'we') out.add(c[0]);
    else if (c[0] === 'my' || c[0] === 'our') {
      const r = roleAt(c, 1);
      // "my brother's flat" is about the flat, not the brother; "my boss's wife" is about her, not the boss nor "my wife"
      if (r && c[r.end] !== "'s") out.add(`person:${r.role}`);
      else if (r) {
        const r2 = roleAt(c, r.end + 1);
        if (r2) out.add(`person:${r.role}'s ${r2.role}`);
      }
    } else if (c[0] && (capitals ??= /\p{Lu}/u.test(text))) {
      // someone by name: "Tom is allergic to penicillin" is about Tom, not the person
      const n = namedSubject(c, (namesOnce ??= nameWords(text)));
      if (n) out.add(`name:${n}`);
    }
  }
  return out;
}

/** Third persons' pronouns for people: someone, and never the speaker ("they" is as often things: "Cherish the moments, they're the best"). */
const THIRD_PERSON = new Set(['he', 'she']);
/** The speaker, as subject or object. */
const SPEAKER = new Set(['i', 'we', 'me', 'us']);

/** A clause said of "he" / "she", or of "the <role>" and its verb ("The kids love pasta"): who, else undefined. */
function thirdPersonOpening(clause: readonly string[]): string | undefined {
  const c = stripOpeners(clause);
  if (c[0] !== undefined && THIRD_PERSON.has(c[0])) return c[0];
  if (c[0] !== 'the') return undefined;
  const i = afterAdjectives(c, 1);
  const role = c[i] === undefined ? '' : key(c[i]!);
  const verb = c[i + 1];
  return PERSON.has(role) && verb !== undefined && (AUX.has(verb) || isVerb(verb)) ? `the ${role}` : undefined;
}

/**
 * The person on one side, someone else on the other: every clause subject of one statement is
 * the speaker ("I", "we"), and the other's clauses are said of "he", "she" or "the <role>" with the
 * speaker nowhere in them: "I can't eat sesame." / "He can't eat sesame.". (Who "he" is the
 * statement does not say, so against "my son" nothing is decided.)
 */
export function otherPerson(oldText: string, newText: string, so: ReadonlySet<string>, sn: ReadonlySet<string>): string | null {
  const speakerOnly = (subj: ReadonlySet<string>) => subj.size > 0 && [...subj].every((x) => x === 'i' || x === 'we');
  const thirdOnly = (text: string, subj: ReadonlySet<string>): string[] => {
    if (subj.size > 0 || toks(text).some((w) => SPEAKER.has(w))) return [];
    return [...new Set(clauses(text).map(thirdPersonOpening).filter((w): w is string => w !== undefined))];
  };
  for (const [one, other, text, flip] of [[so, sn, newText, false], [sn, so, oldText, true]] as const) {
    if (!speakerOnly(one)) continue;
    const them = thirdOnly(text, other);
    if (them.length === 0) continue;
    const sides = [[...one].join(','), them.join(',')];
    return (flip ? sides.reverse() : sides).join(' / ');
  }
  return null;
}

/** Third persons' possessives: the owner is someone, not said who. */
const THIRD_OWNER = new Set(['his', 'her', 'their']);

/**
 * Whose each possessed thing is: "my car" -> car: me; "my wife's car" or "Dad's car" -> car: wife,
 * father (a person role before "'s" owns what follows it). "My dog's name" stays the speaker's (a dog is no person role).
 */
export function owners(text: string): Map<string, string> {
  const out = new Map<string, string>();
  let namesOnce: Set<string> | undefined;
  for (const c of clauses(text)) {
    for (let i = 0; i < c.length; i++) {
      // "his / her / their car": someone else's, who is not said (`third:his`)
      if (THIRD_OWNER.has(c[i]!)) {
        const w = c[afterAdjectives(c, i + 1)];
        if (isThing(w) && !out.has(key(w))) out.set(key(w), `third:${c[i]}`);
        continue;
      }
      if (c[i] !== 'my' && c[i] !== 'our') continue;
      let j = afterAdjectives(c, i + 1);
      let owner = 'me';
      const s = c.indexOf("'s", j);
      if (s > j && s <= j + 2 && PERSON.has(key(c[j]!))) {
        owner = key(c[j]!);
        j = afterAdjectives(c, s + 1);
      }
      const w = c[j];
      if (isThing(w) && !out.has(key(w))) out.set(key(w), owner);
    }
    // a role's possessive without "my": "Dad's car", "Mum's birthday" are theirs
    for (const { owner, head } of possessives(c)) {
      if (!isThing(head) || out.has(key(head))) continue;
      if (PERSON.has(key(owner))) out.set(key(head), key(owner));
      // or someone by name: "Sam's favourite food", "Leo's dentist appointment"
      else if ((namesOnce ??= nameWords(text)).has(owner)) out.set(key(head), owner);
    }
  }
  return out;
}

/**
 * Roles said of another person ("my boss's wife" -> boss, wife): naming them names neither "my
 * boss" nor "my wife" as the statement's subject.
 */
export function rolesOfOthers(text: string): Set<string> {
  const ts = toks(text);
  const out = new Set<string>();
  for (let i = 0; i + 2 < ts.length; i++) {
    if (ts[i + 1] !== "'s" || !PERSON.has(key(ts[i]!))) continue;
    // (adjectives between: "my ex's new partner")
    const j = afterAdjectives(ts, i + 2);
    if (ts[j] !== undefined && PERSON.has(key(ts[j]!))) out.add(key(ts[i]!)).add(key(ts[j]!));
  }
  return out;
}

/**
 * A role said the other way round, as "x's role / my role", or null: "I'm Owen's manager." /
 * "Owen is my manager." name one relation from its two ends (who manages whom), two facts. One
 * side says "<someone>'s <role>", the other "my <role>" and names that someone.
 */
export function reversedRole(oldText: string, newText: string): string | null {
  for (const [a, b] of [[oldText, newText], [newText, oldText]] as const) {
    const own = myRoles(b);
    const inA = myRoles(a);
    const tb = toks(b);
    for (const [owner, role] of theirRoles(a)) {
      if (own.has(role) && !inA.has(role) && tb.includes(owner)) return `${owner}'s ${role} / my ${role}`;
    }
  }
  return null;
}

// a role: the closed list of family and social roles, or any noun WordNet files under people ("godfather", "mentor")
const isRole = (w: string) => PERSON.has(key(w)) || lexicon().nounThemes(lemma(w))[0] === 'person';
/** The roles a text says are someone's ("Sam's brother" -> [sam, brother]), read once per text. */
const theirRoles: (text: string) => ReadonlyArray<readonly [string, string]> = memoByText((text) => possessives(toks(text))
  .flatMap(({ owner, head }): Array<[string, string]> => (!STOP_WORDS.has(owner) && !isWhen(owner) && head !== undefined && isRole(head) ? [[owner, key(head)]] : [])), shared);
/** A day, a month or a date as an owner is a time, not someone: "Wednesday's dentist appointment", "today's meeting". */
const isWhen = (w: string) => DAYS_FROM_NOW.has(w) || extractValues(w).length > 0;
/** The roles a text says are the speaker's ("my brother" -> brother), read once per text. */
const myRoles: (text: string) => ReadonlySet<string> = memoByText((text) => {
  const ts = toks(text);
  return new Set(ts.flatMap((w, i) => ((ts[i - 1] === 'my' || ts[i - 1] === 'our') && isRole(w) ? [key(w)] : [])));
}, shared);

/** Quantifiers before "my/our …": all of them, or some of them (English determiners: a closed class). */
const ALL = new Set(['all', 'both', 'every', 'each']);
const PART = new Set(['some', 'one', 'two', 'three', 'most', 'half', 'few', 'several', 'many', 'either', 'any']);

/**
 * How many of one's own a clause's subject takes, and which: "Both my parents …" -> all of
 * parent, "One of my parents …" -> some of parent, "My parents …" -> all of parent; null when
 * the subject is no quantified possession.
 */
function share(text: string): { part: boolean; of: string } | null {
  const c = stripOpeners(clauses(text)[0] ?? []);
  let i = 0;
  let part = false;
  if (ALL.has(c[0] ?? '') || PART.has(c[0] ?? '')) {
    part = PART.has(c[0]!);
    i = c[1] === 'of' ? 2 : 1;
    if (c[i] === 'the') return null;
  }
  if (c[i] !== 'my' && c[i] !== 'our') return null;
  const j = afterAdjectives(c, i + 1);
  return c[j] === undefined ? null : { part, of: key(c[j]!) };
}

/**
 * All of one's own against some of them, as "my parent: all / some", or null: "Both
 * my parents are retired." / "One of my parents is retired." are two facts.
 */
export function otherShare(oldText: string, newText: string): string | null {
  const a = share(oldText);
  const b = share(newText);
  if (!a || !b || a.of !== b.of || a.part === b.part) return null;
  return `my ${a.of}: ${a.part ? 'some' : 'all'} / ${b.part ? 'some' : 'all'}`;
}

/** "<x>'s <role>" opening a text's first clause, as owner and role, or null (read once per text). */
const opening: (text: string) => Readonly<{ owner: string; role: string }> | null = memoByText((text) => {
  const c = stripOpeners(clauses(text)[0] ?? []);
  const owner = c[0];
  if (owner === undefined || c[1] !== "'s" || STOP_WORDS.has(owner)) return null;
  const head = c[afterAdjectives(c, 2)];
  // (or a group of theirs: "Tom's team left Google" is the team's leaving, not Tom's)
  return head !== undefined && (isRole(head) || lexicon().nounThemes(lemma(head))[0] === 'group') ? { owner, role: key(head) } : null;
}, shared);

/**
 * Someone, and someone of theirs, as the subject: "Tom works at Google." / "Tom's wife has left Google.",
 * "Sarah is allergic to nuts." / "Sarah's son is allergic to nuts.": two people, as "x / x's role", or
 * null. One side's first clause opens with "<x>'s <role>" (a person role or a noun WordNet files under
 * people or groups: "Tom's team left Google"), and the other says x, never as "<x>'s".
 */
export function possessorSwap(oldText: string, newText: string): string | null {
  for (const [a, b, flip] of [[newText, oldText, false], [oldText, newText, true]] as const) {
    const o = opening(a);
    if (!o) continue;
    const tb = toks(b);
    if (!tb.includes(o.owner) || tb.some((w, i) => w === o.owner && tb[i + 1] === "'s") || tb.map(key).includes(o.role)) continue;
    const sides = [o.owner, `${o.owner}'s ${o.role}`];
    return (flip ? sides.reverse() : sides).join(' / ');
  }
  return null;
}

/** A past tense of "be", "have" or "do": what a sentence says was, not is. */
const PAST = /\b(?:was|were|had|did)\b/;

/** Words that make a thing of one's an earlier one: "my first car", "my old flat", "our previous house". */
const EARLIER = new Set(['first', 'old', 'previous', 'former', 'last', 'childhood']);

/** The things a text says are the person's ("my car", "our first house"), each with its earlier-word or null (read once per text). */
const things: (text: string) => ReadonlyMap<string, string | null> = memoByText((text) => {
  const out = new Map<string, string | null>();
  const ts = toks(text);
  for (let i = 0; i < ts.length; i++) {
    if (ts[i] !== 'my' && ts[i] !== 'our') continue;
    const j = afterAdjectives(ts, i + 1);
    const w = ts[j];
    if (!isThing(w)) continue;
    const earlier = ts.slice(i + 1, j).find((x) => EARLIER.has(x)) ?? null;
    if (!out.has(key(w))) out.set(key(w), earlier);
  }
  return out;
}, shared);

/**
 * An earlier thing of the person's and the thing itself: "My car is blue." / "My first car was blue." are two cars,
 * as "my first car / my car", or null. One side says "my / our" + an earlier-word + a thing, the other "my / our" +
 * that thing without one.
 */
export function earlierThing(oldText: string, newText: string): string | null {
  const [a, b] = [things(oldText), things(newText)];
  for (const [thing, e] of a) {
    const f = b.get(thing);
    if (f === undefined || (e === null) === (f === null)) continue;
    // (the thing said plainly in the past may be that earlier one: "Ran my first half marathon in 2:04:37." / "my half
    // marathon time was actually 2:06:12"; "My car is blue." speaks of the car now)
    if (PAST.test(norm(e === null ? oldText : newText))) continue;
    return `my ${e ?? ''} ${thing} / my ${f ?? ''} ${thing}`.replace(/ {2}/g, ' ');
  }
  return null;
}

