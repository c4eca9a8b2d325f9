/**
 * Conflict rules: for an old and a new statement about the same thing, do
 * they disagree? A disagreement vetoes reinforcement: either the new one
 * corrects the old one (the old one is superseded, never merged), or both
 * are distinct facts that stay current. The rules and their examples are in
 * docs/corrections.md, one section per rule name used here.
 */
import type { MemoryType } from './types.js';
import { words, wordKey, lemma, STOP_WORDS, NEGATIONS } from './words.js';
import { extractValues, valueGroup, sameValue, type Value } from './values.js';
import { findCues, correctionCue, type Cue } from './correction-cues.js';
import { oppositeSwap, substitution, roleSwap } from './opposites.js';
import { splitSentences } from './sentences.js';

export { extractValues, correctionCue };
export type { Value, Cue };

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
function spelling(w: string): string {
  return w.length >= 6 ? w.replace(/([a-z]{2,})our(?=(?:ite|ites|s|ed|ing|able|ful|less|ly|ed)?$)/, '$1or') : w;
}

/** Family and role words said several ways: mum/mom/mother, kid/child, boss/manager. */
const KIN: Record<string, string> = {
  mum: 'mother', mom: 'mother', mummy: 'mother', mommy: 'mother', mama: 'mother', mamma: 'mother', ma: 'mother',
  dad: 'father', daddy: 'father', papa: 'father', pa: 'father',
  kid: 'child', kids: 'child', children: 'child', child: 'child',
  grandma: 'grandmother', granny: 'grandmother', gran: 'grandmother', nan: 'grandmother', nana: 'grandmother', nanny: 'grandmother',
  grandpa: 'grandfather', grandad: 'grandfather', granddad: 'grandfather', gramps: 'grandfather',
  boss: 'manager', coworker: 'colleague', 'co-worker': 'colleague', workmate: 'colleague',
  hubby: 'husband', neighbor: 'neighbour', bf: 'boyfriend', gf: 'girlfriend', fiance: 'fiance', fiancee: 'fiance', 'fiancé': 'fiance', 'fiancée': 'fiance',
};

/** Comparable key of one word token. */
function key(tok: string): string {
  const w = spelling(tok.toLowerCase());
  if (KIN[w]) return KIN[w];
  // role words keep their whole form ("mother", not the stem "moth"), singular
  const l = lemma(w);
  if (KIN[l]) return KIN[l];
  if (PERSON.has(l)) return l;
  return wordKey(w);
}

/** Tokens with contractions expanded and hyphenated words split ("colour-blind" -> colour, blind). */
function toks(text: string): string[] {
  return words(text).flatMap((w) => (/^[a-z]+(-[a-z]+)+$/.test(w) && /^\D/.test(w) ? w.split('-') : [w]));
}

/** Clauses of a text: split at sentence and clause punctuation. */
function clauses(text: string): string[][] {
  return text
    .split(/[.,;:!?()\u2014]+|\s-\s/)
    .map((c) => toks(c))
    .filter((c) => c.length > 0);
}

/** Words that carry no fact of their own: cue words, hedges, intensifiers. */
const FILLER = new Set(
  (
    'actually now new currently still really seriously sorry correction wrong wait anymore longer after all earlier ' +
    'scratch that instead rather than update updated please remember okay ok oh well yes yeah so anyway today ' +
    'definitely certainly truly totally absolutely usually always'
  ).split(' '),
);

/** Content keys: not stop words, negations or filler. */
function contentKeys(text: string): Set<string> {
  const out = new Set<string>();
  for (const w of toks(text)) {
    if (STOP_WORDS.has(w) || NEGATIONS.has(w) || FILLER.has(w) || w === "'s") continue;
    out.add(key(w));
  }
  return out;
}

/** Content keys in the order said, repeats kept. */
function contentSeq(text: string): string[] {
  return toks(text).filter((w) => !STOP_WORDS.has(w) && !NEGATIONS.has(w) && !FILLER.has(w) && w !== "'s").map(key);
}

/**
 * A substitution counts only for a noun said right before the head word both
 * sides share ("a soccer ball" / "a tennis ball"): a swapped verb, adverb or
 * adjective is too often a paraphrase (devour/eat, carefully/cautiously, big/huge).
 */
function attributive(oldText: string, newText: string, sub: string): boolean {
  const [x, y] = sub.split(' -> ');
  const at = (text: string, k: string) => {
    const ts = toks(text).filter((w) => w !== "'s");
    const i = ts.findIndex((w) => key(w) === k);
    return i < 0 ? null : { w: ts[i]!, next: ts[i + 1] };
  };
  const a = at(oldText, x!);
  const b = at(newText, y!);
  if (!a || !b || !a.next || a.next !== b.next || STOP_WORDS.has(a.next)) return false;
  const nounish = (w: string) => !/(?:ing|ed|ly|y|ful|ous|ive|al|ic|ish|less|able|en)$/.test(w) && lemma(w) === w && !isVerb(w);
  return nounish(a.w) && nounish(b.w);
}

/** Every word's lemma in the order said, stop words kept (on/off, in/out are stop words). */
function lemmaSeq(text: string): string[] {
  return toks(text).filter((w) => w !== "'s").map((w) => lemma(w));
}

function subset<T>(a: Set<T>, b: Set<T>): boolean {
  for (const x of a) if (!b.has(x)) return false;
  return true;
}

const norm = (s: string) => s.replace(/[\u2018\u2019\u201B\u2032\u02BC`´]/g, "'").toLowerCase().replace(/\s+/g, ' ').trim();

// ---------------------------------------------------------------- polarity

const LIKE = new Set(['like', 'love', 'enjoy', 'adore', 'prefer', 'fan']);
const DISLIKE = new Set(['hate', 'dislike', 'detest', 'loathe', 'despise', 'abhor']);
/** "can't stand", "cannot bear": a negation that means dislike. */
const CANT_STAND = /\b(?:can ?not|can't|cannot|couldn't|could not) (?:stand|bear|stomach|abide)\b/g;

/** The text without contrastive "not X" (and "no, ..." openers), which name an alternative rather than deny. */
function withoutContrast(text: string): string {
  let t = norm(text);
  for (const c of findCues(t)) {
    if (c.family === 'not-x' || c.family === 'no-wait' || c.family === 'no') t = t.replace(c.phrase, ' ');
  }
  // "can't wait for X" looks forward to X; it denies nothing
  return t.replace(/\bnot only\b|\bif not\b|\bwhether or not\b|\bno matter\b|\bno problem\b|\bno doubt\b|\b(?:can ?not|can't|cannot|could not|couldn't) wait\b/g, ' ');
}

function negated(text: string): boolean {
  const t = withoutContrast(text);
  return toks(t).some((w) => NEGATIONS.has(w));
}

/**
 * Whether a statement is said in the negative ("I don't eat pork", "I'm not
 * allergic", "I never...", "I can't stand cilantro") or the positive. A
 * contrastive "not X" ("Call me Sam, not Samuel") is not a negation.
 */
export function polarity(text: string): 'positive' | 'negative' {
  return negated(text) ? 'negative' : 'positive';
}

/** Stance towards the predicate: +1 / -1, counting dislike verbs as negative ("I hate X" vs "I love X"). */
function stance(text: string): 1 | -1 {
  const t = withoutContrast(text);
  const stand = CANT_STAND.test(t);
  const rest = t.replace(CANT_STAND, ' hate ');
  const ws = toks(rest);
  const neg = ws.some((w) => NEGATIONS.has(w));
  const dislike = stand || ws.some((w) => DISLIKE.has(lemma(w)));
  return neg !== dislike ? -1 : 1;
}

/** Predicate content for the polarity rule: content keys without like/dislike verbs. */
function core(text: string): Set<string> {
  const out = new Set<string>();
  for (const k of contentKeys(norm(text).replace(CANT_STAND, ' '))) if (!LIKE.has(k) && !DISLIKE.has(k)) out.add(k);
  return out;
}

/**
 * What each negation (or dislike verb) bears on: the first content word after it
 * ("I'm not allergic to penicillin" -> allergic, "I don't like jazz" -> jazz,
 * "never give up" -> give). A negation flip corrects only when this word is said
 * on the other side too: "Keep it up!" does not deny "... never give up!".
 */
function negatedHeads(text: string): Set<string> {
  const out = new Set<string>();
  const t = withoutContrast(text).replace(CANT_STAND, ' hate ');
  for (const c of clauses(t)) {
    for (let i = 0; i < c.length; i++) {
      if (!NEGATIONS.has(c[i]) && !DISLIKE.has(lemma(c[i]))) continue;
      for (let j = i + 1; j < c.length; j++) {
        const w = c[j];
        if (STOP_WORDS.has(w) || NEGATIONS.has(w) || FILLER.has(w) || w === "'s") continue;
        const k = key(w);
        if (LIKE.has(k) || DISLIKE.has(k) || LIKE.has(lemma(w)) || DISLIKE.has(lemma(w))) continue;
        out.add(k);
        break;
      }
    }
  }
  return out;
}

// ---------------------------------------------------------------- sentences a correction can address

/** Words that greet, thank or answer: they carry no fact, and a name next to them is the person spoken to. */
const PHATIC = new Set('hey hi hello hiya yo thanks thank ty cheers bye goodbye yeah yes yep yup nope wow woah whoa oh ah aw aww ha haha hah congrats congratulations sorry ok okay'.split(' '));
const INTERJECTIONS = new Set([...PHATIC, ...'you no dear welcome sure absolutely totally definitely right true indeed remember anytime great awesome cool nice good morning afternoon evening night see ya later much lot a so'.split(' ')]);

/**
 * Names used to address someone ("Thanks, Mel!", "Hey John, ...", "Yeah, Maria."): the
 * person spoken to, not a value of the statement. A name counts when it shares its clause
 * only with greetings and the like, or stands alone right after such a clause.
 */
export function vocatives(text: string): Set<string> {
  const out = new Set<string>();
  for (const sent of splitSentences(text.replace(/[\u2018\u2019]/g, "'"))) {
    const parts = sent.text.split(/[,;:!?.\u2014]+|\s[-\u2013]\s/);
    let prevInterjection = false;
    for (const part of parts) {
      const ws = part.match(/[\p{L}][\p{L}'-]*/gu) ?? [];
      if (ws.length === 0) continue;
      const caps = ws.filter((w) => /^\p{Lu}/u.test(w) && w !== 'I' && !INTERJECTIONS.has(w.toLowerCase()));
      const rest = ws.filter((w) => !caps.includes(w));
      const allInterj = rest.every((w) => INTERJECTIONS.has(w.toLowerCase()));
      if (caps.length > 0 && caps.length <= 2 && allInterj && (rest.length > 0 || prevInterjection)) {
        for (const c of caps) out.add(c.toLowerCase());
      }
      prevInterjection = caps.length === 0 && rest.length > 0 && allInterj;
    }
  }
  return out;
}

/** The sentences of a text that assert something: questions assert nothing, so they correct nothing and are corrected by nothing. */
function assertions(text: string): string[] {
  return splitSentences(text).map((x) => x.text).filter((x) => !/\?["')\]]*\s*$/.test(x));
}

/** The text without its questions. */
function declarative(text: string): string {
  return assertions(text).join(' ');
}

/** Keys a sentence says something with: content keys without greetings and the names of the people spoken to. */
function factKeys(text: string, voc: Set<string>): Set<string> {
  const out = new Set<string>();
  for (const k of contentKeys(text)) if (!PHATIC.has(k) && !voc.has(k)) out.add(k);
  return out;
}

/** Each side names someone or somewhere the other does not, leaving out the people spoken to ("I live in Manchester." / "It's Leeds."). */
function nameSwap(a: string, b: string, va: Set<string>, vb: Set<string>): boolean {
  const namesOf = (t: string, voc: Set<string>) => new Set(extractValues(t).filter((v) => valueGroup(v.kind) === 'name' && !voc.has(v.norm)).map((v) => v.norm));
  const na = namesOf(a, va);
  const nb = namesOf(b, vb);
  const lb = norm(b);
  const la = norm(a);
  return [...na].some((x) => !lb.includes(x)) && [...nb].some((x) => !la.includes(x));
}

/** A sentence as a statement of its own, for comparing its values. */
const s1 = (text: string): StatementLike => ({ text, type: 'FACT', entities: [], themes: [] });

interface Addressed { old: string; neu: string; oldKeys: Set<string>; newKeys: Set<string>; slot: string | null }

/**
 * Whether the new statement speaks to the old one: a sentence of the new one (the one
 * that carries the cue, when a cue family is given; with the sentence after it when the
 * cue stands alone, "Scratch that. It is June 13.") and a sentence of the old one give a
 * value to the same single-valued thing, or say the same thing: at least half of the old
 * sentence's content words, and at least a third of the new sentence's, are shared.
 * Two turns of a chat that only share a word or two ("I took my family camping" after
 * "I cherish time with family") are not addressed to each other.
 */
function addressedPair(oldText: string, newText: string, names: Set<string>, family: string | null): Addressed | null {
  const vo = vocatives(oldText);
  const vn = vocatives(newText);
  const olds = assertions(oldText).map((t) => ({ t, k: factKeys(t, vo), s: slots(t, names) })).filter((x) => x.k.size > 0 || x.s.size > 0);
  const newSents = assertions(newText);
  const units: string[] = [];
  for (let i = 0; i < newSents.length; i++) {
    if (family && !findCues(newSents[i]).some((c) => c.family === family)) continue;
    // a cue said (nearly) on its own ("Scratch that. It is June 13.", "My mistake! She lives in Lyon.") goes with the sentence after it
    units.push(newSents[i]);
    if (factKeys(newSents[i], vn).size <= 1 && i + 1 < newSents.length) units.push(`${newSents[i]} ${newSents[i + 1]}`);
  }
  let best: Addressed | null = null;
  let bestScore = -1;
  for (const u of units) {
    const nk = factKeys(u, vn);
    const ns = slots(u, names);
    const obj = family && ENDING_FAMILIES.has(family) ? cueObject(u, family, vn) : null;
    for (const o of olds) {
      // a value given in place of another ("It is June 13" / "... is June 3") speaks to the same thing too
      const swapped = compareValues(s1(o.t), s1(u)).disagree.filter((g) => g !== 'name').length + (nameSwap(o.t, u, vo, vn) ? 1 : 0);
      const shared = [...o.k].filter((k) => nk.has(k)).length + swapped;
      const slot = [...o.s].find((x) => ns.has(x)) ?? null;
      // a change cue names what changed ("I lost my job ...", "I sold the Civic"): that thing said in the old sentence will do
      const says = shared > 0 && 2 * shared >= o.k.size && (3 * shared >= nk.size || (obj !== null && o.k.has(obj)));
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

/** Cues that end something ("I lost my job", "I sold the Civic", "no longer"): the thing they end is what they correct. */
const ENDING_FAMILIES = new Set(['no-longer', 'any-more', 'state-change']);

/** The first content word after a cue in a text: what the change is about ("I lost my job at X" -> job). */
function cueObject(text: string, family: string, voc: Set<string>): string | null {
  const t = norm(text);
  const cue = findCues(t).find((c) => c.family === family);
  const at = cue ? t.indexOf(cue.phrase) : -1;
  if (!cue || at < 0) return null;
  for (const w of toks(t.slice(at + cue.phrase.length))) {
    if (STOP_WORDS.has(w) || NEGATIONS.has(w) || FILLER.has(w) || w === "'s") continue;
    const k = key(w);
    return PHATIC.has(k) || voc.has(k) ? null : k;
  }
  return null;
}

/** Cue families that say a change by themselves ("no longer", "moved to", "I quit"); the others only mark a correction ("actually", "no"). */
const CHANGE_FAMILIES = new Set(['no-longer', 'any-more', 'moved', 'changed', 'up-down-to', 'turned', 'state-change', 'update']);

// ---------------------------------------------------------------- values

interface ValueDiff {
  /** groups in which both sides say a value the other does not */
  disagree: string[];
  /** describes the first disagreement */
  detail: string;
  /** values said only by the new statement */
  added: Value[];
}

/** Values of a statement, with the capitalised entities it names in its text (a name opening the sentence is missed by extractValues). */
function valuesOf(s: StatementLike): Value[] {
  const vals = extractValues(s.text);
  const textToks = new Set(toks(s.text));
  const have = new Set(vals.map((v) => v.norm));
  for (const e of s.entities) {
    for (const part of e.split(/\s+/)) {
      if (!/^\p{Lu}/u.test(part) || extractValues(`x ${part}`).some((v) => v.kind !== 'name')) continue;
      const low = part.toLowerCase();
      if (textToks.has(low) && !have.has(low)) {
        vals.push({ kind: 'name', raw: part, norm: low });
        have.add(low);
      }
    }
  }
  return vals;
}

/** Word forms of a statement, for "is this name said on the other side?" */
function wordSet(s: StatementLike): Set<string> {
  const out = new Set<string>();
  for (const w of toks(s.text)) out.add(w.replace(/'s?$/, ''));
  for (const e of s.entities) for (const w of toks(e)) out.add(w);
  return out;
}

function compareValues(oldS: StatementLike, newS: StatementLike): ValueDiff {
  const ov = valuesOf(oldS);
  const nv = valuesOf(newS);
  const ow = wordSet(oldS);
  const nw = wordSet(newS);
  const found = (v: Value, others: Value[], otherWords: Set<string>) =>
    others.some((o) => valueGroup(o.kind) === valueGroup(v.kind) && sameValue(v.kind, o.norm, v.norm)) ||
    (valueGroup(v.kind) === 'name' && otherWords.has(v.norm));
  const oldOnly = ov.filter((v) => !found(v, nv, nw));
  const newOnly = nv.filter((v) => !found(v, ov, ow));
  const disagree: string[] = [];
  let detail = '';
  for (const g of new Set(oldOnly.map((v) => valueGroup(v.kind)))) {
    const n = newOnly.filter((v) => valueGroup(v.kind) === g);
    if (n.length === 0) continue;
    disagree.push(g);
    if (!detail) detail = `${g}: "${oldOnly.find((v) => valueGroup(v.kind) === g)!.raw}" -> "${n[0].raw}"`;
  }
  return { disagree, detail, added: newOnly };
}

// ---------------------------------------------------------------- subjects and things

/** People a statement can be about, by role. */
const PERSON = new Set(
  (
    'mother father parent brother sister sibling son daughter child baby husband wife partner boyfriend girlfriend fiance ' +
    'spouse grandmother grandfather grandparent aunt uncle cousin niece nephew grandson granddaughter grandchild friend ' +
    'colleague manager dentist doctor therapist neighbour roommate flatmate housemate landlord landlady teacher tutor ' +
    'coach student boss assistant family stepmother stepfather stepson stepdaughter in-law'
  ).split(' '),
);
/** Roles a person often has several of: "my brother" alone does not single one out. */
const MANY = new Set('brother sister sibling son daughter child friend colleague cousin aunt uncle niece nephew grandson granddaughter grandchild neighbour roommate flatmate housemate student'.split(' '));
/** Adjectives inside a possessive phrase that do not change what it names. */
const NP_ADJ = new Set(
  'favorite favourite new old current previous former actual real best own little big older younger elder eldest oldest youngest dear late main usual regular only first second third next last'.split(' '),
);
const OPENERS = new Set('actually sorry correction no wait so and but well oh ok okay please also update now just yes yeah hey hi anyway right'.split(' '));
const AUX = new Set("is are was were am be been has have had will would can could should does do did got gets get 's 're 'm 've keeps".split(' '));
/** Verbs that end a subject phrase ("my son's school STARTS at 8:30"). */
const VERBS = new Set(
  (
    'live work start end begin finish renew expire cost play move go come leave arrive depart open close run take need want like love hate ' +
    'speak say call name know make stay sleep eat drink drive own study learn teach attend visit weigh turn change switch happen fall ' +
    'land meet ruin carry support prefer include use pay rise drop increase decrease become remain seem belong mean fly travel ' +
    'stay begin due sit hurt cause suffer wear grow'
  ).split(' '),
);
const PREPS = new Set('to of for with from in at on by near about into over under after before during'.split(' '));

function isVerb(w: string): boolean {
  return AUX.has(w) || VERBS.has(lemma(w));
}

function stripOpeners(c: string[]): string[] {
  let i = 0;
  while (i < c.length && OPENERS.has(c[i])) i++;
  return c.slice(i);
}

/** Who each clause is about: "i", "we", or a person role after "my/our" ("my husband is vegan" -> husband). */
function subjects(text: string): Set<string> {
  const out = new Set<string>();
  for (const c0 of clauses(text)) {
    const c = stripOpeners(c0);
    if (c[0] === 'i' || c[0] === 'we') out.add(c[0]);
    else if (c[0] === 'my' || c[0] === 'our') {
      let i = 1;
      while (i < c.length && NP_ADJ.has(c[i])) i++;
      const k = c[i] ? key(c[i]) : '';
      // "my brother's flat" is about the flat, not the brother
      if (PERSON.has(k) && c[i + 1] !== "'s") out.add(`person:${k}`);
    }
  }
  return out;
}

/** Nouns named after "my/our/your": "My dog's name is Biscuit" -> dog. */
function possessed(text: string, names: Set<string>): Set<string> {
  const out = new Set<string>();
  for (const c of clauses(text)) {
    for (let i = 0; i < c.length; i++) {
      if (c[i] !== 'my' && c[i] !== 'our' && c[i] !== 'your') continue;
      for (let j = i + 1; j < c.length && j <= i + 4; j++) {
        const w = c[j];
        if (w === "'s" || NP_ADJ.has(w) || names.has(w)) continue;
        if (STOP_WORDS.has(w) || NEGATIONS.has(w) || (j > i + 1 && isVerb(w)) || PREPS.has(w) || /^\d/.test(w)) break;
        if (w !== 'name') out.add(key(w));
      }
    }
  }
  return out;
}

// ---------------------------------------------------------------- single-valued slots

const NUMW = '(?:\\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:-(?:one|two|three|four|five|six|seven|eight|nine))?';

/** Frames whose value a person has one of at a time. */
const SINGLE_FRAMES: Array<[string, RegExp]> = [
  ['home', /\b(?:i|we) (?:still |now |currently |just )?(?:live|am living|'m living|are living|reside|am based|'m based|are based|moved|have moved|'ve moved|relocated) (?:in|at|to|near)\b|\bmy (?:home|address) is\b|\bi'?m (?:now )?(?:living|based) in\b/],
  ['employer', /\bi (?:still |now |currently )?work (?:at|for)\b|\bi'?m (?:employed|working) (?:at|by|for)\b|\b(?:job|position|role) (?:at|with)\b|\bmy (?:employer|company) is\b/],
  ['job', /\bi (?:still |now |currently )?work as\b|\bmy job is\b|\bmy (?:occupation|profession) is\b/],
  ['age', new RegExp(`\\bi(?:'m| am) (?:now |just )?${NUMW}(?: years? old)?(?=\\s*[,.!?;]|\\s*$| years| today| now)|\\bturned ${NUMW}\\b|\\b${NUMW} years? old\\b|\\bmy age is\\b`)],
  ['weight', new RegExp(`\\bi (?:now )?weigh\\b|\\bmy weight\\b|\\b(?:down|up) to ${NUMW} (?:kilos?|kg|pounds|lbs?|stone)\\b|\\bi'?m (?:now )?${NUMW} (?:kilos?|kg|lbs?|stone)\\b`)],
  ['hometown', /\bgrew up in\b|\bi(?:'m| am) (?:originally )?from\b|\bi was born in\b|\bhome ?town is\b/],
  ['name', /\bcall me\b|\bmy name is\b|\bi(?:'m| am) called\b|\bi go by\b/],
  ['relationship', /\bi(?:'m| am) (?:single|married|engaged|divorced|widowed|separated|in a relationship|seeing someone)\b|\b(?:got|just) (?:engaged|married|divorced)\b/],
];

/** The single-valued things a statement gives a value for. */
function slots(text: string, names: Set<string>): Set<string> {
  const t = norm(text);
  const out = new Set<string>();
  for (const [slot, re] of SINGLE_FRAMES) if (re.test(t)) out.add(slot);
  // a favourite X
  // only the speaker's own favourite, and not "one of my favorite X" (that says there are several)
  for (const m of t.matchAll(/(?<!\b(?:one|some|few|two|three|all|many|several|most|any|none) of )\b(?:my|our) (?:all-time |absolute |very |new |current )?favou?rite ([a-z]+)/g)) out.add(`favorite:${key(m[1])}`);
  // a count of one noun: "I have two kids"
  for (const m of t.matchAll(new RegExp(`\\b(?:have|has|got|own|owns) (?:now |only |just )?(${NUMW}) ([a-z]+)`, 'g'))) out.add(`count:${key(m[2])}`);
  // a definite subject: "my rent is", "the team meeting is", "my son's school starts"
  for (const c0 of clauses(text)) {
    const c = stripOpeners(c0);
    const at = c[0] === 'my' || c[0] === 'our' || c[0] === 'the' ? 1 : -1;
    if (at > 0) {
      const np: string[] = [];
      let j = at;
      while (j < c.length && j <= at + 5 && !(np.length > 0 && isVerb(c[j]))) {
        if (!NP_ADJ.has(c[j]) && c[j] !== "'s" && !STOP_WORDS.has(c[j])) np.push(c[j]);
        j++;
      }
      if (j < c.length && isVerb(c[j]) && np.length > 0) addNp(out, np, names);
    }
    // inverted: "Rachel is my manager", "Dev is not my manager"
    for (let i = 1; i < c.length - 1; i++) {
      if (!AUX.has(c[i])) continue;
      let j = i + 1;
      while (c[j] === 'not' || c[j] === 'now' || c[j] === 'still') j++;
      if (c[j] !== 'my' && c[j] !== 'our') continue;
      const np = c.slice(j + 1).filter((w) => !NP_ADJ.has(w) && !STOP_WORDS.has(w) && !FILLER.has(w) && !NEGATIONS.has(w));
      if (np.length > 0 && np.length <= 3) addNp(out, np, names);
      break;
    }
  }
  return out;
}

/** Words of the single-valued frames themselves, which say nothing about the value. */
const FRAME_WORDS = new Set(['favorite', 'good', 'work', 'job', 'occupation', 'profession']);

function addNp(out: Set<string>, np: string[], names: Set<string>): void {
  const keys = np.filter((w) => w !== 'name').map(key);
  if (keys.length === 0) return;
  // "my brother" alone may be any of several brothers; "my brother Owen" is one
  if (keys.every((k) => MANY.has(k)) && !np.some((w) => names.has(w))) return;
  out.add(`np:${[...new Set(keys)].sort().join('+')}`);
}

// ---------------------------------------------------------------- multi-valued predicates

/** Predicates a person can have many objects of: I speak French AND Spanish. */
const MULTI = new Set(
  (
    'speak play like love enjoy hate dislike take visit eat drink read watch listen collect learn study practice practise own allerg ' +
    'afraid scared fear call pay buy send book email text meet see cook bake make write clean fix water walk feed support follow ' +
    'wear teach attend volunteer'
  ).split(' '),
);
const OBJ_SKIP = new Set('to of the a an my our some his her their your for being'.split(' '));
const OBJ_STOP = new Set(
  (
    'on in at every each before after when with for from during while because since and but or so usually always often sometimes ' +
    'now today anymore any too also as than over instead rather about around near by if until once twice not no never again more ' +
    'whenever lately recently these days weekly daily'
  ).split(' '),
);

/** For each multi-valued predicate in a text, the keys of its object ("I play tennis on Tuesdays" -> play: {tennis}). */
function objects(text: string): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  // the verb itself must match: "can't stand X" and "hate Y" are not compared (X and Y may be one thing by two names)
  for (const c of clauses(norm(text))) {
    for (let i = 0; i < c.length; i++) {
      const p = key(c[i]);
      const pred = MULTI.has(p) ? p : MULTI.has(lemma(c[i])) ? lemma(c[i]) : null;
      // "my email is", "a walk": the word is a noun here, not the predicate
      if (!pred || out.has(pred) || /^(my|our|your|the|a|an|his|her|their)$/.test(c[i - 1] ?? '')) continue;
      let j = i + 1;
      while (j < c.length && OBJ_SKIP.has(c[j])) j++;
      const obj = new Set<string>();
      for (; j < c.length && !OBJ_STOP.has(c[j]); j++) if (!STOP_WORDS.has(c[j]) && !FILLER.has(c[j])) obj.add(key(c[j]));
      if (obj.size > 0) out.set(pred, obj);
      break;
    }
  }
  return out;
}

function differentObject(oldText: string, newText: string): string | null {
  const a = objects(oldText);
  const b = objects(newText);
  for (const [pred, oa] of a) {
    const ob = b.get(pred);
    if (!ob) continue;
    if (!subset(oa, ob) && !subset(ob, oa)) return `${pred}: ${[...oa].join(' ')} / ${[...ob].join(' ')}`;
  }
  return null;
}

// ---------------------------------------------------------------- relate

const ADDITIVE = /\b(?:also|too|as well|another|second|third|additionally|plus|other one|in addition)\b/;

function disjoint<T>(a: Set<T>, b: Set<T>): boolean {
  for (const x of a) if (b.has(x)) return false;
  return true;
}

/** Cues of the new text whose family the old text does not already use. */
function freshCues(oldText: string, newText: string): Cue[] {
  const had = new Set(findCues(oldText).map((c) => c.family));
  // "instead", "rather than" and "instead of" are one way of saying it
  return findCues(newText).filter((c) => !had.has(c.family));
}

/**
 * A contrast cue ("instead of X", "not X", "isn't X, it's Y") is strong when X is content of the old
 * statement: it names what it replaces. Otherwise it is weak, like "now".
 */
function strength(c: Cue, oldKeys: Set<string>): 'strong' | 'weak' {
  // "English, not French" after "Always reply in English" names no old content: a plain contrast, not a correction
  if (c.replaced) {
    const r = contentKeys(c.replaced);
    return r.size > 0 && subset(r, oldKeys) ? 'strong' : 'weak';
  }
  return c.weak ? 'weak' : 'strong';
}

/** The cue family is found only in the questions of a text ("What have you been up to?"). */
function hasQuestionOnly(text: string, family: string): boolean {
  return !findCues(declarative(text)).some((c) => c.family === family);
}

function sameSentence(a: string, b: string): boolean {
  const f = (s: string) => norm(s).replace(/[.!?…]+$/, '').trim();
  return f(a) === f(b);
}

/**
 * How a new statement relates to an old one. `topical` says whether the two
 * are about the same thing (the caller decides from vector score, type,
 * entities and themes); without it only a next-sentence correction can
 * correct, and clear disagreements still keep the two apart.
 */
/**
 * The capitalised word that opens a sentence, when it can be a name: not a stop
 * word, pronoun, question word or negation (those are never names). Sentence-initial
 * words are otherwise ambiguous, so this is only compared with another opening word.
 */
function leadingName(text: string): string | null {
  const m = /^\s*["'“‘(]*(\p{Lu}\p{L}*)/u.exec(text);
  if (!m) return null;
  const w = m[1].toLowerCase();
  if (w.length < 2 || STOP_WORDS.has(w) || NEGATIONS.has(w) || /^(i|please|always|never|also|just|so|well|oh|yes|no|ok|okay|hey|hi|thanks|sorry|actually|correction|remind|book|send|call|tell|don|do|does|did)$/.test(w)) return null;
  return w;
}

export function relate(oldS: StatementLike, newS: StatementLike, topical: boolean): Relation {
  const cues = freshCues(oldS.text, newS.text);
  const oldKeys = contentKeys(oldS.text);
  const newKeys = contentKeys(newS.text);
  const values = compareValues(oldS, newS);
  const flip = stance(oldS.text) !== stance(newS.text);
  const oldCore = core(oldS.text);
  const newCore = core(newS.text);
  // the same predicate, and the negation bears on it: "I don't like jazz" / "I like jazz", not "Keep it up!" / "... never give up!"
  const headShared = [...negatedHeads(oldS.text)].some((h) => newCore.has(h)) || [...negatedHeads(newS.text)].some((h) => oldCore.has(h));
  const samePredicate = oldCore.size > 0 && newCore.size > 0 && (subset(oldCore, newCore) || subset(newCore, oldCore)) && headShared;
  const additive = ADDITIVE.test(norm(newS.text)) && !ADDITIVE.test(norm(oldS.text));
  const strongCue = cues.find((c) => strength(c, oldKeys) === 'strong');
  const weakCue = cues.find((c) => strength(c, oldKeys) === 'weak');
  const newContent = [...newKeys].filter((k) => !oldKeys.has(k));
  const hardDifference = values.disagree.length > 0 || (flip && samePredicate);

  // 4. a correction in the very next sentence of the same message: "My anniversary is June 3. Actually, it is June 13."
  if (newS.previousSentence && sameSentence(newS.previousSentence, oldS.text)) {
    if (strongCue && (hardDifference || newContent.length > 0 || values.added.length > 0)) {
      return { kind: 'corrects', rule: 'next-sentence', detail: `"${strongCue.phrase}" right after the corrected sentence` };
    }
    if (weakCue && hardDifference) {
      return { kind: 'corrects', rule: 'next-sentence', detail: `"${weakCue.phrase}" right after the corrected sentence, ${values.detail || 'negation flipped'}` };
    }
  }

  const names = new Set([...valuesOf(oldS), ...valuesOf(newS)].filter((v) => valueGroup(v.kind) === 'name').map((v) => v.norm));

  // Not the same person: "I'm vegetarian" / "My husband is vegan".
  const so = subjects(oldS.text);
  const sn = subjects(newS.text);
  // a role said on the other side too ("My kids are Mia and Leo" / "I have two kids, Mia and Leo") is not another subject
  const mentioned = (subj: Set<string>, keys: Set<string>) => [...subj].some((x) => x.startsWith('person:') && keys.has(x.slice(7)));
  if (so.size > 0 && sn.size > 0 && disjoint(so, sn) && !mentioned(so, newKeys) && !mentioned(sn, oldKeys)) {
    return { kind: 'distinct', rule: 'different-subject', detail: `${[...so].join(',')} / ${[...sn].join(',')}` };
  }
  // Two different names open otherwise similar sentences: "Hana gave me a kite." / "Femi gave me a kite."
  const lo = leadingName(oldS.text);
  const ln = leadingName(newS.text);
  if (lo && ln && lo !== ln && !newKeys.has(lo) && !oldKeys.has(ln)) {
    return { kind: 'distinct', rule: 'different-subject', detail: `${lo} / ${ln}` };
  }
  // Not the same thing: "My passport expires..." / "My driving licence expires...".
  const po = possessed(oldS.text, names);
  const pn = possessed(newS.text, names);
  if (po.size > 0 && pn.size > 0 && disjoint(po, pn) && disjoint(po, newKeys) && disjoint(pn, oldKeys)) {
    return { kind: 'distinct', rule: 'different-thing', detail: `my ${[...po].join(' ')} / my ${[...pn].join(' ')}` };
  }

  // a question asserts nothing: it neither corrects nor is corrected
  const asserting = assertions(oldS.text).length > 0 && assertions(newS.text).length > 0;
  const oldDecl = declarative(oldS.text);
  const newDecl = declarative(newS.text);

  if (topical && asserting) {
    // 1. explicit correction words, said in a sentence that speaks to the old statement, with a difference to show for them
    if (!additive) {
      const replacedKeys = new Set(cues.flatMap((c) => (c.replaced ? [...contentKeys(c.replaced)] : [])));
      for (const cue of cues.filter((c) => !hasQuestionOnly(newS.text, c.family))) {
        const strong = strength(cue, oldKeys) === 'strong';
        if (!strong && !hardDifference) continue;
        const pair = addressedPair(oldS.text, newS.text, names, cue.family);
        if (!pair) continue;
        if (strong && !hardDifference) {
          // a change cue ("no longer", "moved to", "I quit") says the change itself: any new content will do;
          // a marker ("actually", "no", "scratch that") needs something said in place of something else
          const newOnly = [...pair.newKeys].filter((k) => !pair.oldKeys.has(k));
          const oldOnly = [...pair.oldKeys].filter((k) => !pair.newKeys.has(k) || replacedKeys.has(k));
          const changes = CHANGE_FAMILIES.has(cue.family)
            ? newOnly.length > 0 || values.added.length > 0
            : oldOnly.length > 0 && newOnly.length > 0;
          if (!changes) continue;
        }
        return { kind: 'corrects', rule: 'explicit-cue', detail: strong ? `"${cue.phrase}"${values.detail ? `, ${values.detail}` : ''}` : `"${cue.phrase}" with ${values.detail || 'the negation flipped'}` };
      }
    }
    // 2. the same predicate, negated (or liked / hated)
    if (flip && samePredicate) {
      const restricts = values.added.some((v) => ['day', 'time', 'date', 'month'].includes(v.kind));
      if (!restricts) {
        return { kind: 'corrects', rule: 'polarity', detail: `${polarity(oldS.text)}/${stance(oldS.text) > 0 ? 'for' : 'against'} -> ${polarity(newS.text)}/${stance(newS.text) > 0 ? 'for' : 'against'}` };
      }
      return { kind: 'distinct', rule: 'polarity', detail: 'negated only for an added time or day' };
    }
    // 3. a new value for something that has one value at a time
    const shared = additive ? [] : [...slots(oldDecl, names)].filter((s) => slots(newDecl, names).has(s));
    if (values.disagree.length > 0 && shared.length > 0) {
      return { kind: 'corrects', rule: 'new-value', detail: `${shared[0]}: ${values.detail}` };
    }
    // a favourite or a job is one thing: "My favourite colour is green" / "... is purple" (colours are not values)
    const named = shared.find((s) => s.startsWith('favorite:') || s === 'job');
    if (named) {
      const oldOnly = [...oldKeys].filter((k) => !newKeys.has(k) && !FRAME_WORDS.has(k));
      const newOnly = [...newKeys].filter((k) => !oldKeys.has(k) && !FRAME_WORDS.has(k));
      if (oldOnly.length > 0 && newOnly.length > 0) {
        return { kind: 'corrects', rule: 'new-value', detail: `${named}: ${oldOnly.join(' ')} -> ${newOnly.join(' ')}` };
      }
    }
  } else if (flip && samePredicate) {
    return { kind: 'distinct', rule: 'polarity', detail: 'negation flipped (not topical)' };
  }

  // 5. different objects of a multi-valued predicate, counts of different things, or values that disagree
  const obj = differentObject(oldS.text, newS.text);
  if (obj) return { kind: 'distinct', rule: 'multi-valued', detail: obj };
  const co = [...slots(oldS.text, names)].filter((s) => s.startsWith('count:'));
  const cn = [...slots(newS.text, names)].filter((s) => s.startsWith('count:'));
  if (co.length > 0 && cn.length > 0 && disjoint(new Set(co), new Set(cn))) {
    return { kind: 'distinct', rule: 'different-thing', detail: `${co.join(',')} / ${cn.join(',')}` };
  }
  if (values.disagree.length > 0) return { kind: 'distinct', rule: 'value-mismatch', detail: values.detail };
  // one subject, nothing said about it in common: "My best friend Tom lives in Glasgow" / "... is a pilot"
  const npOld = [...slots(oldS.text, names)].filter((s) => s.startsWith('np:'));
  const npNew = new Set([...slots(newS.text, names)].filter((s) => s.startsWith('np:')));
  const np = npOld.find((s) => npNew.has(s));
  if (np) {
    const subjectKeys = new Set(np.slice(3).split('+'));
    const rest = (text: string) => new Set(toks(text).filter((w) => !NP_ADJ.has(w)).map(key).filter((k) => !subjectKeys.has(k)).filter((k) => contentKeys(text).has(k)));
    const restOld = rest(oldS.text);
    const restNew = rest(newS.text);
    if (restOld.size > 0 && restNew.size > 0 && disjoint(restOld, restNew)) {
      return { kind: 'distinct', rule: 'different-predicate', detail: `${np.slice(3)}: ${[...restOld].join(' ')} / ${[...restNew].join(' ')}` };
    }
  }

  // 6. nearly the same words, one side negated, a different verb or object: "There is no dog bouncing" / "A dog is jumping"
  const oldSeq = contentSeq(oldS.text);
  const newSeq = contentSeq(newS.text);
  if (flip && oldSeq.length > 0 && newSeq.length > 0 && oldSeq[0] === newSeq[0]) {
    const sharedCore = [...oldCore].filter((k) => newCore.has(k)).length;
    const oldRest = [...oldCore].filter((k) => !newCore.has(k)).length;
    const newRest = [...newCore].filter((k) => !oldCore.has(k)).length;
    if (sharedCore >= 2 && oldRest <= 1 && newRest <= 1) {
      return { kind: 'distinct', rule: 'polarity', detail: `${polarity(oldS.text)} -> ${polarity(newS.text)}, about the same ${oldSeq[0]}` };
    }
  }
  if (flip) return { kind: 'compatible' };
  // 7. the same statement with a word swapped for its opposite: "turning on" / "turning off", "near" / "far from"
  const sharedKeys = [...oldKeys].filter((k) => newKeys.has(k)).length;
  if (sharedKeys >= 1 && 2 * sharedKeys >= Math.max(oldKeys.size, newKeys.size)) {
    const opp = oppositeSwap(lemmaSeq(oldS.text), lemmaSeq(newS.text));
    if (opp) {
      const single = !additive && [...slots(oldS.text, names)].some((s) => slots(newS.text, names).has(s));
      if (topical && single) return { kind: 'corrects', rule: 'opposite', detail: opp };
      return { kind: 'distinct', rule: 'opposite', detail: opp };
    }
  }
  // 8. the same words with the two sides of the verb exchanged: "The woman is picking up the kangaroo" / "The kangaroo is picking up the woman"
  const passive = (t: string) => /\bby\b/.test(norm(t));
  if (passive(oldS.text) === passive(newS.text)) {
    const verbs = new Set([...toks(oldS.text), ...toks(newS.text)].filter((w) => isVerb(w) || /[a-z]{2}(?:ing|ed)$/.test(w)).map(key));
    const swap = roleSwap(oldSeq, newSeq, (k) => verbs.has(k));
    if (swap) return { kind: 'distinct', rule: 'role-swap', detail: swap };
  }
  // 9. one content word swapped for another that is not a near-synonym: "a soccer ball" / "a tennis ball"
  const sub = substitution(oldSeq, newSeq);
  if (sub && attributive(oldS.text, newS.text, sub)) return { kind: 'distinct', rule: 'substitution', detail: sub };
  return { kind: 'compatible' };
}
