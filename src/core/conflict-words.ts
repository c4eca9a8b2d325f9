/**
 * Words as the conflict rules compare them: tokens, comparable keys (colour = color,
 * mum = mother), content words, clauses, and the closed word classes the rules read
 * phrases with (roles, verbs, prepositions). See docs/corrections.md.
 */
import type { MemoryType } from './types.js';
import { words, wordKey, lemma, STOP_WORDS, NEGATIONS } from './words.js';
import { memoByText, registerTokenCache, shared } from './memo.js';
import { table } from './table.js';

export interface StatementLike {
  text: string;
  type: MemoryType;
  entities: string[];
  themes: string[];
  /** the sentence just before this one in the same user message, if any */
  previousSentence?: string | null;
}

export type Relation =
  | { kind: 'compatible' }
  | { kind: 'distinct'; rule: string; detail: string }
  | { kind: 'corrects'; rule: string; detail: string };

// ---------------------------------------------------------------- words

/** British -our spellings meet the American ones: colour/color, favourite/favorite, harbour/harbor. */
export function spelling(w: string): string {
  if (w.length < 6) return w;
  // Found from the ending, then two letters checked before it: linear (a leading greedy group retried
  // every start of a long token, quadratic).
  const m = /our(?=(?:ite|ites|s|ed|ing|able|ful|less|ly|ed)?$)/.exec(w);
  return m && m.index >= 2 && /^[a-z]{2}$/.test(w.slice(m.index - 2, m.index)) ? `${w.slice(0, m.index)}or${w.slice(m.index + 3)}` : w;
}

/** Family and role words said several ways: mum/mom/mother, kid/child, boss/manager. */
export const KIN: Readonly<Record<string, string>> = table({
  mum: 'mother', mom: 'mother', mummy: 'mother', mommy: 'mother', mama: 'mother', mamma: 'mother', ma: 'mother',
  dad: 'father', daddy: 'father', papa: 'father', pa: 'father',
  kid: 'child', kids: 'child', children: 'child', child: 'child',
  grandma: 'grandmother', granny: 'grandmother', gran: 'grandmother', nan: 'grandmother', nana: 'grandmother', nanny: 'grandmother',
  grandpa: 'grandfather', grandad: 'grandfather', granddad: 'grandfather', gramps: 'grandfather',
  boss: 'manager', coworker: 'colleague', 'co-worker': 'colleague', workmate: 'colleague',
  hubby: 'husband', neighbor: 'neighbour', bf: 'boyfriend', gf: 'girlfriend', fiance: 'fiance', fiancee: 'fiance', 'fiancé': 'fiance', 'fiancée': 'fiance',
  stepdad: 'stepfather', stepmum: 'stepmother', stepmom: 'stepmother',
});

/** Comparable key of one word token. */
export function key(tok: string): string {
  let k = keys.get(tok);
  if (k === undefined) {
    k = keyOnce(tok);
    if (keys.size >= 20_000) keys.delete(keys.keys().next().value as string);
    keys.set(tok, k);
  }
  return k;
}

/** key() of recent tokens (a string: nothing a caller could change). */
const keys = new Map<string, string>();
registerTokenCache(keys);

function keyOnce(tok: string): string {
  const w = spelling(tok.toLowerCase());
  if (KIN[w]) return KIN[w];
  // role words keep their whole form ("mother", not the stem "moth"), singular
  const l = lemma(w);
  if (KIN[l]) return KIN[l];
  if (PERSON.has(l)) return l;
  return wordKey(w);
}

/**
 * Chat's shorthands, written out as the rules read them ("my wfh days" says "work from home", "dentist appt" an
 * appointment): each one word only, never one read two ways ("bf" is a boyfriend or a best friend, "doc" a doctor or
 * a document, "ur" your or you're, "bc" because or British Columbia, "cuz" because or cousin, "uni" a university or
 * a sea urchin). Like contractions, a closed class of how people type, not of what they say. (Kin said short, "hubby",
 * "mum", are `KIN`'s.)
 */
const SHORTHANDS: Readonly<Record<string, readonly string[]>> = table({
  wfh: ['work', 'from', 'home'], appt: ['appointment'], appts: ['appointments'], bday: ['birthday'], u: ['you'],
  pls: ['please'], plz: ['please'], tmrw: ['tomorrow'], tmr: ['tomorrow'], b4: ['before'], abt: ['about'],
  ppl: ['people'], convo: ['conversation'],
});

/** Tokens with contractions expanded, chat's shorthands written out and hyphenated words split ("colour-blind" -> colour, blind). */
export const toks: (text: string) => readonly string[] = memoByText(
  (text) => words(text).flatMap((w) => SHORTHANDS[w] ?? (/^[a-z]+(-[a-z]+)+$/.test(w) && /^\D/.test(w) ? w.split('-') : [w])), shared);

/** Clauses of a text: split at sentence and clause punctuation. */
export const clauses: (text: string) => ReadonlyArray<readonly string[]> = memoByText((text): ReadonlyArray<readonly string[]> => text
  .split(/[.,;:!?()\u2014]+|\s-\s/)
  .map((c) => toks(c))
  .filter((c) => c.length > 0), shared);

/**
 * Chat's asides, said around a fact and no part of it: "btw i'm allergic to shellfish", "pls use metric". (Not thanks or
 * laughter: a chat turn may be nothing else, "Thanks! Glad you like it.", and two such turns are not one fact.)
 */
export const CHAT_ASIDES: ReadonlySet<string> = new Set(['btw', 'fyi', 'pls', 'plz', 'tbh', 'fwiw']);

/** Words that carry no fact of their own: cue words, hedges, intensifiers, chat's asides. */
export const FILLER = new Set(
  (
    'actually now new currently still really seriously sorry correction wrong wait anymore longer after all earlier ' +
    'scratch that instead rather than update updated please remember okay ok oh well yes yeah so anyway today ' +
    'definitely certainly truly totally absolutely usually always'
  ).split(' ').concat(...CHAT_ASIDES),
);

/** Content keys: not stop words, negations or filler. */
export const contentKeys: (text: string) => ReadonlySet<string> = memoByText(contentKeysOnce, shared);

function contentKeysOnce(text: string): Set<string> {
  const out = new Set<string>();
  for (const w of toks(text)) {
    if (STOP_WORDS.has(w) || NEGATIONS.has(w) || FILLER.has(w) || w === "'s") continue;
    out.add(key(w));
  }
  return out;
}

/** Content words (not keys) in the order said, repeats kept. */
export function contentWordsOf(text: string): string[] {
  return toks(text).filter((w) => !STOP_WORDS.has(w) && !NEGATIONS.has(w) && !FILLER.has(w) && w !== "'s");
}

/** Content keys in the order said, repeats kept. */
export function contentSeq(text: string): string[] {
  return contentWordsOf(text).map(key);
}

/** Every word's lemma in the order said, stop words kept (on/off, in/out are stop words). */
export function lemmaSeq(text: string): string[] {
  return toks(text).filter((w) => w !== "'s").map((w) => lemma(w));
}

export function subset<T>(a: ReadonlySet<T>, b: ReadonlySet<T>): boolean {
  for (const x of a) if (!b.has(x)) return false;
  return true;
}

/**
 * A pattern for a literal said as a whole word (no letter or digit on either side; `notAfter`: more characters that may
 * not stand before it). The literal is escaped: a text's own words, read in place, linear.
 */
export function wholeWord(literal: string, flags: string, notAfter = ''): RegExp {
  return new RegExp(`(?<![\\p{L}\\p{N}${notAfter}])${literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}])`, flags);
}

export const norm = (s: string) => s.replace(/[\u2018\u2019\u201B\u2032\u02BC`´]/g, "'").toLowerCase().replace(/\s+/g, ' ').trim();
// ---------------------------------------------------------------- subjects and things

/** People a statement can be about, by role. */
export const PERSON = new Set(
  (
    'mother father parent brother sister sibling son daughter child baby husband wife partner boyfriend girlfriend fiance ' +
    'spouse grandmother grandfather grandparent aunt uncle cousin niece nephew grandson granddaughter grandchild friend ' +
    'colleague manager dentist doctor therapist neighbour roommate flatmate housemate landlord landlady teacher tutor ' +
    'coach student boss assistant family stepmother stepfather stepson stepdaughter stepbrother stepsister stepchild in-law ex'
  ).split(' '),
);
/** Roles a person often has several of: "my brother" alone does not single one out. */
export const MANY = new Set('brother sister sibling son daughter child friend colleague cousin aunt uncle niece nephew grandson granddaughter grandchild neighbour roommate flatmate housemate student'.split(' '));
/** Adjectives inside a possessive phrase that do not change what it names. */
export const NP_ADJ = new Set(
  'favorite favourite new old current previous former actual real best own little big older younger elder eldest oldest youngest dear late main usual regular only first second third next last'.split(' '),
);
export const OPENERS = new Set('actually sorry correction no wait so and but well oh ok okay please also update now just yes yeah hey hi anyway right'.split(' '));
export const AUX = new Set("is are was were am be been has have had will would can could should does do did got gets get 's 're 'm 've keeps".split(' '));
/** Verbs that end a subject phrase ("my son's school STARTS at 8:30"). */
export const VERBS = new Set(
  (
    'live work start end begin finish renew expire cost play move go come leave arrive depart open close run take need want like love hate ' +
    'speak say call name know make stay sleep eat drink drive own study learn teach attend visit weigh turn change switch happen fall ' +
    'land meet ruin carry support prefer include use pay rise drop increase decrease become remain seem belong mean fly travel ' +
    'stay begin due sit hurt cause suffer wear grow'
  ).split(' '),
);
export const PREPS = new Set('to of for with from in at on by near about into over under after before during'.split(' '));

const SUBJECT_PRONOUNS = new Set(['i', 'we', 'you', 'they', 'he', 'she']);
const BEFORE_VERB = new Set(['always', 'usually', 'often', 'normally', 'generally', 'sometimes', 'typically', 'regularly', 'still', 'also', 'just', 'really', 'now']);

/** The words said right after a subject pronoun, an adverb of frequency aside ("I walk the dog", "we usually eat late"): verbs, whatever the word list knows. */
export function verbsAfterSubject(text: string): Set<string> {
  const t = toks(text);
  const out = new Set<string>();
  for (let i = 0; i + 1 < t.length; i++) {
    if (!SUBJECT_PRONOUNS.has(t[i]!)) continue;
    let j = i + 1;
    while (j < t.length && BEFORE_VERB.has(t[j]!)) j++;
    if (t[j] !== undefined && !STOP_WORDS.has(t[j]!) && !AUX.has(t[j]!)) out.add(t[j]!);
  }
  return out;
}

/** Two texts word for word the same but for one word (the same frame, one word swapped). */
export function oneWordApart(a: string, b: string): boolean {
  const [x, y] = [toks(a), toks(b)];
  return x.length === y.length && x.filter((w, i) => w !== y[i]).length === 1;
}

export function isVerb(w: string): boolean {
  return AUX.has(w) || VERBS.has(lemma(w));
}

export function stripOpeners(c: readonly string[]): string[] {
  let i = 0;
  while (i < c.length && OPENERS.has(c[i])) i++;
  return c.slice(i);
}

export function disjoint<T>(a: ReadonlySet<T>, b: ReadonlySet<T>): boolean {
  for (const x of a) if (b.has(x)) return false;
  return true;
}

const BE_FORMS = new Set(['am', 'is', 'are', 'was', 'were', 'be', 'been', "'s", "'re", "'m"]);

/**
 * Past participles said as a state: right after a form of "be" (an -ly adverb may stand
 * between) and not followed by an agent ("by ..."): "is based in", "am currently settled in".
 * They describe where or how something is, not an action done; "is being removed" and
 * "was removed by the man" are actions and are not returned.
 */
export function stateParticiples(text: string): Set<string> {
  const t = toks(text);
  const out = new Set<string>();
  t.forEach((w, i) => {
    if (!/[a-z]{2}ed$/.test(w) || t[i + 1] === 'by') return;
    const before = /ly$/.test(t[i - 1] ?? '') ? t[i - 2] : t[i - 1];
    if (before !== undefined && BE_FORMS.has(before)) out.add(w);
  });
  return out;
}
