/**
 * Subjects, possessed things and single-valued slots (values compared: value-diff.ts; multi-valued predicates: multi-valued.ts):
 * what a statement gives a value for. See docs/corrections.md, "new-value", "different-subject",
 * "different-thing", "multi-valued".
 */
import { lemma, STOP_WORDS, NEGATIONS } from './words.js';
import { extractValues } from './values.js';
import { lexicon } from './lexicon.js';
import { memoByText, registerSentenceCache, shared } from './memo.js';
import { deriveNouns } from './derive.js';
import { AUX, clauses, FILLER, isVerb, key, MANY, norm, NP_ADJ, PERSON, PREPS, stripOpeners, wholeWord, type StatementLike } from './conflict-words.js';
import type { Cue } from './correction-cues.js';

// ---------------------------------------------------------------- values (value-diff.ts)

export { compareValues, disagreeingGroups, valuesOf, wordSet, type ValueDiff } from './value-diff.js';

/**
 * Nouns named after "my/our/your", as said ("My dog's name is Biscuit" -> dog). The phrase ends where the sentence's tagger (wink-nlp,
 * `deriveNouns`) sees no noun after its first word: "My bedroom faces east" -> bedroom.
 */
export function possessedWords(text: string, names: Set<string>): Set<string> {
  const out = new Set<string>();
  // (the tagger reads "e-mail" as one noun, the clauses as two words: each part is the noun's)
  const nouns = new Set(deriveNouns(text).flatMap((n) => (n.includes('-') ? [n, ...n.split('-')] : [n])));
  for (const c of clauses(text)) {
    for (let i = 0; i < c.length; i++) {
      if (c[i] !== 'my' && c[i] !== 'our' && c[i] !== 'your') continue;
      // (a time or an occasion the statement is dated by is not its thing: "Dose went up at my follow-up", "on my birthday")
      if (i > 0 && OCCASION_PREPS.has(c[i - 1]!)) continue;
      let head = false;
      for (let j = i + 1; j < c.length && j <= i + 4; j++) {
        const w = c[j];
        if (w === "'s" || NP_ADJ.has(w) || names.has(w)) continue;
        if (STOP_WORDS.has(w) || NEGATIONS.has(w) || (j > i + 1 && isVerb(w)) || PREPS.has(w) || /^\d/.test(w)) break;
        if (head && !nouns.has(w)) break;
        // a compound is one thing however it is written: "step-dad" (read as two words) is also the closed "stepdad"
        if (head && out.has(c[j - 1])) out.add(c[j - 1] + w);
        head = true;
        if (w !== 'name') out.add(w);
        // the rules compare these pairwise by synonym: a long quote full of "my ..." reads only its first things
        if (out.size >= MAX_POSSESSED) return out;
      }
    }
  }
  return out;
}

const MAX_POSSESSED = 16;
/** Words before "my …" that make it when something was said or done, not what it is about. */
const OCCASION_PREPS = new Set(['at', 'during', 'after', 'before', 'since', 'until', 'till', 'following']);

/** Whether no word of one set is a word of the other by key or by a WordNet synonym ("film" / "movie"). */
export function disjointInSense(a: Set<string>, b: Set<string>): boolean {
  for (const x of a) {
    for (const y of b) if (key(x) === key(y) || lexicon().synonymous(lemma(x), lemma(y))) return false;
  }
  return true;
}

// ---------------------------------------------------------------- single-valued slots

export const NUMW = '(?:\\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:[-\\s](?:one|two|three|four|five|six|seven|eight|nine))?';

/** Frames whose value a person has one of at a time. */
export const SINGLE_FRAMES: Array<[string, RegExp]> = [
  ['home', /\b(?:i|we)(?:'ve| have)? (?:still |now |currently |just )?(?:live|am living|'m living|are living|reside|am based|'m based|are based|moved|have moved|'ve moved|relocated) (?:in|at|to|near)\b|\bmy (?:home|address) is\b|\bi(?:'?m| am) (?:now |currently |still )?(?:living|based) in\b/],
  ['employer', /\bi (?:still |now |currently )?work (?:at|for)\b|\bi(?:'?m| am) (?:still |now |currently )?(?:employed|working) (?:at|by|for)\b|\b(?:job|position|role) (?:at|with)\b|\bmy (?:employer|company) is\b/],
  ['job', /\bi (?:still |now |currently )?work as\b|\bmy job is\b|\bmy (?:occupation|profession) is\b|\bi(?:'ve| have)? (?:re)?(?:trained|qualified) as\b/],
  // a school year, one at a time: "My daughter is in Year 3." / "She started Year 4 in September.", "Eli is in 3rd grade"
  ['school-year', new RegExp(`\\b(?:is in|are in|'s in|started|starts|starting|going into|moved up to|now in) (?:year|grade) ${NUMW}\\b|\\b(?:is in|are in|'s in|started|starts|starting|going into|moved up to|now in) (?:the )?(?:\\d+(?:st|nd|rd|th)|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth) grade\\b`)],
  // (someone of the person's by role, with a bare number: "My son is 7." / "My son is 8.")
  ['age', new RegExp(`\\bi(?:'m| am) (?:now |just )?${NUMW}(?: (?:years?|yrs?) old)?(?=\\s*[,.!?;]|\\s*$| years| yrs| today| now)|\\bturned ${NUMW}\\b|\\b${NUMW} (?:years?|yrs?) old\\b|\\bmy age is\\b`
    + `|\\b(?:my|our) (?:${[...PERSON].join('|')})(?: is|'s) (?:now |just |only )?${NUMW}(?=\\s*[,.!?;]|\\s*$| today| now)`)],
  ['weight', new RegExp(`\\bi (?:now )?weigh\\b|\\bmy weight\\b|\\b(?:down|up) to ${NUMW} ?(?:kilos?|kg|pounds|lbs?|stone)\\b|\\bi(?:'?m| am) (?:now )?${NUMW} ?(?:kilos?|kg|lbs?|stone)\\b`)],
  // what the person earns, in money: "I earn £35,000 a year", "I'm on £40,000 now", "my salary is ..."
  ['income', /\bi (?:now |currently |still )?(?:earn|make) (?:about |around |roughly |over |under )?[£$€]|\bmy (?:salary|pay|income|wage) is\b|\bi(?:'m| am) (?:now )?on (?:about |around )?(?:[£$€]\s?\d|\d+(?:\.\d+)?k\b)|\b(?:pay ?rise|raise|salary|pay) (?:to|of) [£$€]\s?\d/],
  ['hometown', /\bgrew up in\b|\bi(?:'m| am) (?:originally )?from\b|\bi was born in\b|\bhome ?town is\b/],
  ['name', /\bcall me\b|\b(?:address|refer to) me as\b|\bmy name is\b|\bi(?:'m| am) called\b|\bi go by\b|\bmy name'?s\b/],
  ['relationship', /\bi(?:'m| am) (?:single|married|engaged|divorced|widowed|separated|in a relationship|seeing someone)\b|\bi(?:'ve| have) been (?:seeing someone|dating)\b|\bi(?:'m| am) (?:now )?dating\b|\bi(?:'ve| have)? started dating\b|\bi(?:'m| am) not seeing anyone\b|\b(?:got|just) (?:engaged|married|divorced)\b|\bi(?:'ve| have)? (?:got|have|found) (?:a|my) (?:new )?(?:girlfriend|boyfriend|partner|fianc[eé]e?)\b/],
];

/** `slots` with no names given, read once per sentence (recognition asks it of every candidate). */
const slotsAlone: (text: string) => ReadonlySet<string> = memoByText((text) => slotsRead(text, new Set()), shared);

/**
 * The single-valued things a statement gives a value for (`slotsRead`), read once per text and
 * names: `relate` asks each side's slots of one pair up to four times, against the pair's names.
 * Without names among the text's words, the per-text cache (`slotsAlone`); with names, the texts of
 * the last pair read (a cache of the sentence kind: a forget for good empties it with the others).
 */
export function slots(text: string, names: ReadonlySet<string>): ReadonlySet<string> {
  // A name counts only in `addNp`, where a subject of roles one may have several of ("my brother",
  // MANY) said with a name is one person: only a name that is itself such a word, said in the text's
  // clauses, can change the reading; with none, it is the per-text one.
  if (!namesMatter(text, names)) return slotsAlone(text);
  const held = slotsOfPair.get(text);
  if (held && held.names === names) return held.slots;
  if (slotsOfPair.size >= 16) slotsOfPair.clear();
  const read = slotsRead(text, names);
  slotsOfPair.set(text, { names, slots: read });
  return read;
}

/** Every word of a text's clauses, as `slots` reads them. */
const clauseWords: (text: string) => ReadonlySet<string> = memoByText((text) => new Set(clauses(text).flat()), shared);
const namesMatter = (text: string, names: ReadonlySet<string>): boolean => {
  for (const n of names) if (MANY.has(key(n)) && clauseWords(text).has(n)) return true;
  return false;
};

const slotsOfPair = new Map<string, { names: ReadonlySet<string>; slots: ReadonlySet<string> }>();
registerSentenceCache(slotsOfPair);

/**
 * People at a place who are not employed there: who gives time, belongs, learns, is treated, buys, stays or
 * cheers ("I'm a volunteer at the food bank", "I'm a member at the golf club"): no employer.
 */
const NOT_EMPLOYED = new Set(['volunteer', 'member', 'student', 'pupil', 'patient', 'customer', 'client', 'guest', 'visitor', 'regular', 'fan', 'supporter', 'subscriber', 'resident', 'tenant', 'trustee', 'parishioner', 'alumnus', 'donor']);

function slotsRead(text: string, names: ReadonlySet<string>): Set<string> {
  const t = norm(text);
  const out = new Set<string>();
  for (const [slot, re] of SINGLE_FRAMES) if (re.test(t)) out.add(slot);
  // a favourite X
  // only the speaker's own favourite, and not "one of my favorite X" (that says there are several)
  for (const m of t.matchAll(/(?<!\b(?:one|some|few|two|three|all|many|several|most|any|none) of )\b(?:my|our) (?:all-time |absolute |very |new |current )?favou?rite ([a-z]+)/g)) out.add(`favorite:${key(m[1])}`);
  // another's favourite is theirs: "Sam's favourite food" (not "my mum's favourite", which is said of "my")
  for (const m of t.matchAll(/(?<!\b(?:one|some|few|two|three|all|many|several|most|any|none) of |\b(?:my|our|your|his|her|their) )\b([a-z]+)'s (?:all-time |absolute |very |new |current )?favou?rite ([a-z]+)/g)) {
    if (!STOP_WORDS.has(m[1]!) && !isVerb(m[1]!)) out.add(`favorite:${key(m[1]!)}:${key(m[2]!)}`);
  }
  // a trade at a place of work: "I'm a software engineer at Monzo", "I'm a nurse at St Mary's" (the head a person's noun in WordNet)
  if (!out.has('employer')) {
    const m = /\bi(?:'m| am) (?:now |still |currently )?an? ((?:[a-z-]+ ){0,2}?)([a-z]+) (?:at|for|with) /.exec(t);
    if (m && !NOT_EMPLOYED.has(lemma(m[2]!)) && lexicon().nounThemes(lemma(m[2]!))[0] === 'person') out.add('employer');
  }
  // how the person has a thing, one way at a time: "I take my coffee black", "I like my steak medium-rare", "I'd rather have my steak well done"
  for (const m of t.matchAll(/\bi(?:'d| would)? (?:rather |now |usually |always )?(?:like|take|have|drink|eat|prefer|want|order) my ([a-z]{3,})\b/g)) out.add(`manner:${key(m[1]!)}`);
  // (what goes in it: "I have oat milk in my coffee")
  for (const m of t.matchAll(/\bi (?:now |usually |always )?(?:have|take|put|add) (?:[a-z]+ ){1,3}?in my ([a-z]{3,})\b/g)) out.add(`manner:${key(m[1]!)}`);
  // a count of one noun: "I have two kids"
  for (const m of t.matchAll(new RegExp(`\\b(?:have|has|got|own|owns) (?:now |only |just )?(${NUMW}) ([a-z]+)`, 'g'))) out.add(`count:${key(m[2])}`);
  for (const c of clauses(text).map(stripOpeners)) {
    const d = definiteSubject(c);
    if (d) addNp(out, d.np, names, d.owner);
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

/**
 * A clause opening with a definite subject and its verb: "my rent is", "the team meeting is",
 * "my son's school starts" -> the subject's words and the verb (`at`: the verb's index in the clause).
 */
export function definiteSubject(c: string[]): { np: string[]; verb: string; at: number; owner?: string[] } | null {
  // a possessive is a determiner too: "Mum's birthday is", "Owen's flat is" (the owner is part of the subject)
  const possessive = c[1] === "'s" && c[0] !== undefined && /^[a-z]+$/.test(c[0]) && !STOP_WORDS.has(c[0]) && !isVerb(c[0]);
  if (c[0] !== 'my' && c[0] !== 'our' && c[0] !== 'the' && !possessive) return null;
  const from = possessive ? 2 : 1;
  const lead = possessive ? [c[0]!] : undefined;
  // "my mum's birthday is": the 's of a possessive, when a verb follows; else "my mum's in hospital" ('s = is)
  return subjectFrom(c, from, true, lead) ?? subjectFrom(c, from, false, lead);
}

function subjectFrom(c: string[], from: number, throughPossessive: boolean, lead: string[] | undefined): { np: string[]; verb: string; at: number; owner?: string[] } | null {
  const verb = (w: string | undefined) => w !== undefined && isVerb(w) && !(throughPossessive && w === "'s");
  let np: string[] = [];
  let owner = lead;
  let j = from;
  while (j < c.length && j <= 6 && !(np.length > 0 && verb(c[j]))) {
    if (throughPossessive && c[j] === "'s" && np.length > 0 && owner === undefined) { owner = np; np = []; }
    else if (!NP_ADJ.has(c[j]) && c[j] !== "'s" && !STOP_WORDS.has(c[j])) np.push(c[j]);
    j++;
  }
  if (!(j < c.length && verb(c[j]) && np.length > 0)) return null;
  return owner ? { np, verb: c[j]!, at: j, owner } : { np, verb: c[j]!, at: j };
}

/** Words after "be" that say the subject is going somewhere: "are off to Spain", "is away in Rome". */
const TRIP = new Set(['off', 'away', 'going', 'heading', 'flying', 'travelling', 'traveling']);
/** Words between "be" and its participle: "were both born", "was originally built". */
const BETWEEN_BE = new Set(['both', 'all', 'each', 'still', 'now', 'just', 'also', 'originally', 'first', 'actually']);

/**
 * The verbs a statement says of each definite subject (`np:` slot -> verb lemmas). A subject has one
 * value at a time only for one predicate: "My sister Nadia lives in Cardiff." / "My sister Nadia
 * works in Swansea." give the same subject two places, where she lives and where she works.
 */
export function subjectVerbs(text: string, names: Set<string>): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const c of clauses(text).map(stripOpeners)) {
    const d = definiteSubject(c);
    if (!d) continue;
    const slot = new Set<string>();
    addNp(slot, d.np, names, d.owner);
    // (a form of "be" before a participle says the participle: "My grandparents were both born in Kano" is born, not be)
    let k = d.at + 1;
    while (k < c.length && BETWEEN_BE.has(c[k]!)) k++;
    // (and "be" before "off" / "away" / "going" says a trip: "My parents are off to Spain for a fortnight" is travel, not live)
    const verb = AUX.has(d.verb) && c[k] !== undefined && (c[k] === 'born' || /[a-z]{3}(?:ed|en)$/.test(c[k]!)) ? c[k]!
      : AUX.has(d.verb) && TRIP.has(c[k] ?? '') ? 'travel' : d.verb;
    for (const s of slot) out.set(s, (out.get(s) ?? new Set<string>()).add(lemma(verb)));
  }
  return out;
}

/**
 * Whether two statements say the same predicate of a definite subject (`subjectVerbs` of each):
 * the same verb, a WordNet synonym of it, or an auxiliary — a form of "be", "have", ... — on either
 * side ("My flight is at 9" / "My flight leaves at 10"). A subject said without a verb on one side
 * (inverted: "Dev is my manager") is not compared.
 */
export function samePredicateOf(slot: string, oldVerbs: Map<string, Set<string>>, newVerbs: Map<string, Set<string>>): boolean {
  if (!slot.startsWith('np:')) return true;
  const a = oldVerbs.get(slot);
  const b = newVerbs.get(slot);
  if (!a || !b) return true;
  for (const x of a) {
    for (const y of b) {
      if (x === y || AUX.has(x) || AUX.has(y) || lexicon().synonymous(x, y)) return true;
    }
  }
  return false;
}

/** Words of the single-valued frames themselves, which say nothing about the value. */
export const FRAME_WORDS = new Set(['favorite', 'good', 'work', 'job', 'occupation', 'profession']);

export function addNp(out: Set<string>, np: string[], names: ReadonlySet<string>, owner: string[] = []): void {
  // "my landlord's name" is said of the landlord
  const own = np.filter((w) => w !== 'name');
  const keys = [...own, ...owner].map(key);
  if (keys.length === 0) return;
  // "my brother" (or "Anna's brother", "my brother's flat") may be any of several brothers; "my brother Owen" is one
  const several = (ws: string[]) => ws.length > 0 && ws.map(key).every((k) => MANY.has(k)) && !ws.some((w) => names.has(w));
  if (several(own) || several(owner)) return;
  out.add(`np:${[...new Set(keys)].sort().join('+')}`);
}

/**
 * A single-valued thing both statements give a value for ("I work at Acme." / "I just started a
 * new job at Globex.": employer; "I'm single." / "I got engaged to Alex.": relationship): the
 * two speak to the same slot, so a correction can find what it corrects without shared words.
 */
export function sharedSlot(oldText: string, newText: string): string | null {
  const a = slotsAlone(oldText);
  if (a.size === 0) return null;
  const b = slotsAlone(newText);
  for (const x of a) if (b.has(x) && !x.startsWith('count:')) return x;
  return null;
}

/** The statement without the values a contrast sets aside ("instead of Wednesdays", "not 3pm"), when it sets aside any. */
export function withoutSetAside(s: StatementLike, cues: readonly Cue[]): StatementLike {
  let text = s.text;
  for (const c of cues) {
    // (a phrase set aside is a few words: one as long as a message is none, and is not looked for as one pattern)
    if (!c.replaced || c.replaced.length > SET_ASIDE_MAX || extractValues(c.replaced).length === 0) continue;
    // (the last time it is said as a whole word: what is set aside comes after its cue, "4:30 not 3")
    const said = [...text.matchAll(wholeWord(c.replaced, 'giu', ':.'))].at(-1);
    if (said?.index !== undefined) text = `${text.slice(0, said.index)}${text.slice(said.index + said[0].length)}`;
  }
  return text === s.text ? s : { ...s, text };
}

/** The longest phrase a contrast sets aside that is looked for in the text (characters). */
const SET_ASIDE_MAX = 200;
