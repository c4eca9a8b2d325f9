/**
 * One holder, one part of what is said of it exchanged (docs/corrections.md, "opposite" and
 * "preference"): "I'm right-handed." / "I'm left-handed.", "Use the back entrance." / "Use the
 * front entrance.", "I prefer tea." / "I prefer coffee.". The two statements are the same words
 * but for one stretch, and that stretch lies in the predicate of a holder there is one of: the
 * person ("I", "we"), a definite subject that is one thing or one named person ("my car", "the
 * meeting", "my brother Owen", "Owen"), or the assistant, told what to do ("Use …", "Send …").
 * A stretch in the subject ("My left knee hurts." / "My right knee hurts.") is another holder;
 * a subject there may be several of ("my brother", "a man") holds nothing here.
 */
import { lexicon } from './lexicon.js';
import { diffHunks } from './opposites.js';
import { addNp, definiteSubject } from './slots.js';
import { MULTI } from './multi-valued.js';
import { AUX, clauses, contentKeys, isVerb, key, PREPS, stripOpeners } from './conflict-words.js';
import { lemma, NEGATIONS, STOP_WORDS } from './words.js';

/**
 * The one exchanged stretch (lemmas), the holder's verb (its lemma) and whether the stretch comes
 * after the verb's own definite object ("I take my coffee with milk" / "… without milk": the
 * coffee is the same, how I take it is exchanged).
 */
export interface PredicateSwap {
  old: string[]; new: string[]; verb: string; afterObject: boolean;
  /** the words between the verb and the stretch ("allergic to" in "I'm allergic to peanuts") */
  lead: string[];
  /** the word right after the stretch, on both sides ("club" in "the tennis club" / "the golf club"), or null */
  next: string | null;
}

const DETERMINERS = new Set(['my', 'our', 'the', 'your', 'his', 'her', 'their']);
/** Words a clause may have and still be read here (each side). */
const MAX_WORDS = 40;

/**
 * Where the holder's verb is in a clause (the index of the first word after the holder), or -1
 * when the clause opens with no single holder.
 */
function holderVerbAt(c: string[]): number {
  if ((c[0] === 'i' || c[0] === 'we') && c.length > 1) return 1;
  const d = definiteSubject(c);
  if (d) {
    const slot = new Set<string>();
    addNp(slot, d.np, new Set());
    return slot.size > 0 ? d.at : -1;
  }
  // an order to the assistant: a verb in its base form (WordNet knows it as a verb: its comparison with "be" is not
  // null), not followed by another verb ("Use the …", not "Cats are …", "Two men are …")
  const first = c[0];
  if (first !== undefined && !AUX.has(first) && lemma(first) === first && !STOP_WORDS.has(first) && !NEGATIONS.has(first)
    && c[1] !== undefined && !isVerb(c[1]) && lexicon().sameAction([first], ['be']) !== null) return 0;
  return -1;
}

/**
 * The stretch two one-clause statements exchange in the predicate of one holder, or null: the
 * same clause (openers aside) but for one replaced stretch, after the holder's verb, with no
 * content word added or dropped elsewhere. `names`: words said as names (a leading name is a
 * holder: "Owen is …").
 */
export function predicateSwap(oldText: string, newText: string, names: ReadonlySet<string>): PredicateSwap | null {
  const co = clauses(oldText).map(stripOpeners).filter((c) => c.length > 0);
  const cn = clauses(newText).map(stripOpeners).filter((c) => c.length > 0);
  if (co.length !== 1 || cn.length !== 1) return null;
  const [a, b] = [co[0]!, cn[0]!];
  // a statement about one holder is a short clause; the word diff below is quadratic in the words
  if (a.length > MAX_WORDS || b.length > MAX_WORDS) return null;
  const named = (c: string[]) => (names.has(c[0]!) && c[1] !== undefined && isVerb(c[1]) ? 1 : -1);
  const held = holderVerbAt(a);
  let at = held >= 0 ? held : named(a);
  if (at < 0) return null;
  // the verb's auxiliaries and the verb itself are the frame: "I'm coming" / "I'm going" exchanges the verb, not its object
  // (an adverb may stand between: "are playfully fighting")
  const verbal = (w: string | undefined) => w !== undefined && (isVerb(w) || /[a-z]{2}ing$/.test(w));
  for (;;) {
    if (verbal(a[at + 1])) at++;
    else if (/[a-z]{2}ly$/.test(a[at + 1] ?? '') && verbal(a[at + 2])) at += 2;
    else break;
  }
  // the holder and its verb are said the same on both sides
  for (let i = 0; i <= at; i++) if (a[i] !== b[i]) return null;
  const la = a.map(lemma);
  const lb = b.map(lemma);
  const hunks = diffHunks(la, lb);
  if (hunks.length !== 1) return null;
  const h = hunks[0]!;
  // a negation exchanged is the polarity rule's ("I am unemployed" / "I am not employed")
  if ([...h.a, ...h.b].some((w) => NEGATIONS.has(w))) return null;
  // one phrase, not two: a preposition inside a stretch opens another ("tea in the morning" / "coffee at night")
  if ([h.a, h.b].some((st) => st.slice(1).some((w) => PREPS.has(w)))) return null;
  // nothing else said differently: every content word not on both sides is in the stretch
  const ka = contentKeys(oldText);
  const kb = contentKeys(newText);
  const inStretch = new Set([...h.a, ...h.b].map(key));
  for (const k of ka) if (!kb.has(k) && !inStretch.has(k)) return null;
  for (const k of kb) if (!ka.has(k) && !inStretch.has(k)) return null;
  // the stretch starts after the verb: the common opening covers the holder and its verb
  let same = 0;
  while (same < la.length && la[same] === lb[same]) same++;
  if (same <= at) return null;
  let tail = 0;
  while (tail < la.length - same && la[la.length - 1 - tail] === lb[lb.length - 1 - tail]) tail++;
  return {
    old: h.a, new: h.b, verb: lemma(a[at]!), afterObject: DETERMINERS.has(a[at + 1] ?? '') && same >= at + 3,
    lead: la.slice(at + 1, same), next: tail > 0 ? la[la.length - tail]! : null,
  };
}

const BE = new Set(['is', 'am', 'are', 'was', 'were', 'be', "'s", "'re", "'m"]);

/**
 * Another kind of one thing said of the holder by "be", as "x / y", or null: "My car is blue" /
 * "My car is red", "My commute is by train" / "… by bus" (WordNet: two kinds right under one
 * hypernym, neither a kind of the other). A word and a narrower one ("a chef" / "a cook") is the
 * same said more precisely, not this.
 */
export function kindSwap(swap: PredicateSwap): string | null {
  if (!BE.has(swap.verb) || swap.old.length > 3 || swap.new.length > 3) return null;
  // of a predicate people have several objects of ("I'm allergic to peanuts" / "… to almonds"), or a word
  // said before the head it qualifies ("the tennis club" / "the golf club"): two facts, not another kind
  if (swap.lead.some((w) => MULTI.has(key(w))) || (swap.next !== null && !STOP_WORDS.has(swap.next))) return null;
  // "be" as an auxiliary ("are fighting on the beach"): the stretch is another verb's, not what the holder is
  if (swap.lead.some((w) => isVerb(w) || /[a-z]{2}ing$/.test(w))) return null;
  const content = (ws: string[]) => ws.filter((w) => !STOP_WORDS.has(w));
  const [a, b] = [content(swap.old), content(swap.new)];
  if (a.length === 0 || b.length === 0) return null;
  const lex = lexicon();
  for (const [x, y] of [[a.join(' '), b.join(' ')], [a[a.length - 1]!, b[b.length - 1]!]] as const) {
    if (lex.kindred(x, y)) return `${x} / ${y}`;
  }
  return null;
}

/**
 * Degree modifiers of English, a closed class in two ends: a little against a lot. "I'm slightly
 * allergic to cats" / "I'm severely allergic to cats" say two degrees of one thing.
 */
const LOW = new Set(['slightly', 'mildly', 'a bit', 'a little', 'somewhat', 'barely', 'hardly', 'faintly', 'marginally']);
const HIGH = new Set(['very', 'severely', 'extremely', 'badly', 'highly', 'seriously', 'terribly', 'deeply', 'hugely', 'a lot', 'really', 'incredibly', 'intensely']);

/** One degree exchanged for the other end's, as "x / y", or null. */
export function degreeSwap(swap: PredicateSwap): string | null {
  // "a little" / "a lot": the article before the stretch is said on both sides
  const pre = swap.lead[swap.lead.length - 1] === 'a' ? 'a ' : '';
  const [a, b] = [pre + swap.old.join(' '), pre + swap.new.join(' ')];
  return (LOW.has(a) && HIGH.has(b)) || (HIGH.has(a) && LOW.has(b)) ? `${a} / ${b}` : null;
}
