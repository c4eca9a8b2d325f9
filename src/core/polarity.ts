/**
 * Polarity: negation, like / hate stance, and what a negation bears on.
 * See docs/corrections.md, "polarity".
 */
import { lemma, STOP_WORDS, NEGATIONS } from './words.js';
import { findCues } from './correction-cues.js';
import { memoByText, shared } from './memo.js';
import { clauses, contentKeys, FILLER, key, norm, subset, toks } from './conflict-words.js';
import { splitSentences } from './sentences.js';

// ---------------------------------------------------------------- polarity

export const LIKE = new Set(['like', 'love', 'enjoy', 'adore', 'prefer', 'fan']);
// (and what a dislike calls its object: "Mushrooms are disgusting to me" says "I hate mushrooms" again, it does not deny it)
export const DISLIKE = new Set(['hate', 'dislike', 'detest', 'loathe', 'despise', 'abhor', 'disgust', 'disgusting', 'gross', 'awful', 'horrible',
  'revolting', 'vile', 'dreadful', 'unbearable']);
/** "can't stand", "cannot bear": a negation that means dislike. */
export const CANT_STAND = /\b(?:can ?not|can't|cannot|couldn't|could not) (?:stand|bear|stomach|abide)\b/g;

/**
 * "Stop sending me the digest", "I've quit smoking", "I gave up eating meat": to stop doing something
 * denies doing it. Read as "not sending", "not smoking" (not after a negation: "I can't stop laughing"
 * says the opposite, and "stop by" or "stop at" take no action).
 */
const STOP_DOING = /(?<!\b(?:not|never|n't|cannot|can't|couldn't|won't|don't|didn't)\s+)\b(?:stop|stops|stopped|stopping|quit|quits|quitting|cease|ceased|give up|gave up|given up|giving up)\s+(?=[a-z]{2,}ing\b)/g;

/** The text without contrastive "not X" (and "no, ..." openers), which name an alternative rather than deny. */
export function withoutContrast(text: string): string {
  let t = norm(text).replace(STOP_DOING, 'not ');
  for (const c of findCues(t)) {
    if (c.family === 'not-x' || c.family === 'no-wait' || c.family === 'no') t = t.replace(c.phrase, ' ');
  }
  // "can't wait for X" looks forward to X; it denies nothing
  // ("not only X" and "not just X" say X, and more)
  return t.replace(/\bnot only\b|\bnot just\b|\bif not\b|\bwhether or not\b|\bno matter\b|\bno problem\b|\bno doubt\b|\b(?:can ?not|can't|cannot|could not|couldn't) wait\b/g, ' ');
}

export function negated(text: string): boolean {
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
export const stance: (text: string) => 1 | -1 = memoByText(stanceOnce, (x) => x);

function stanceOnce(text: string): 1 | -1 {
  const t = withoutContrast(text);
  const stand = CANT_STAND.test(t);
  const rest = t.replace(CANT_STAND, ' hate ');
  const ws = toks(rest);
  const neg = ws.some((w) => NEGATIONS.has(w));
  const dislike = stand || ws.some((w) => DISLIKE.has(lemma(w)));
  return neg !== dislike ? -1 : 1;
}

/** Predicate content for the polarity rule: content keys without like/dislike verbs. */
export const core: (text: string) => ReadonlySet<string> = memoByText(coreOnce, shared);

function coreOnce(text: string): Set<string> {
  const out = new Set<string>();
  for (const k of contentKeys(norm(text).replace(CANT_STAND, ' ').replace(STOP_DOING, ' '))) if (!LIKE.has(k) && !DISLIKE.has(k)) out.add(k);
  return out;
}

/**
 * What each negation (or dislike verb) bears on: the first content word after it
 * ("I'm not allergic to penicillin" -> allergic, "I don't like jazz" -> jazz,
 * "never give up" -> give). A negation flip corrects only when this word is said
 * on the other side too: "Keep it up!" does not deny "... never give up!".
 */
export const negatedHeads: (text: string) => ReadonlySet<string> = memoByText(negatedHeadsOnce, shared);

function negatedHeadsOnce(text: string): Set<string> {
  const out = new Set<string>();
  const t = withoutContrast(text).replace(CANT_STAND, ' hate ');
  for (const c of clauses(t)) {
    // Right to left, carrying the nearest head word seen: one pass (reading on from every negation
    // was quadratic on "not not not ..."); the set is the same.
    let head: string | null = null;
    for (let i = c.length - 1; i >= 0; i--) {
      const w = c[i]!;
      if ((NEGATIONS.has(w) || DISLIKE.has(lemma(w))) && head !== null) out.add(head);
      if (STOP_WORDS.has(w) || NEGATIONS.has(w) || FILLER.has(w) || w === "'s") continue;
      const k = key(w);
      if (LIKE.has(k) || DISLIKE.has(k) || LIKE.has(lemma(w)) || DISLIKE.has(lemma(w))) continue;
      head = k;
    }
  }
  return out;
}
/**
 * The same predicate on both sides, the negation bearing on it (docs/corrections.md, "polarity"): the
 * content words but negation and like / hate verbs of one side are all said on the other, and a
 * negated head word of one side is said on the other. In statements of several sentences, also
 * one sentence of each side with the stance flipped that says so by itself: "I am allergic to
 * peanuts. I am not allergic to shellfish." restates the first sentence and negates nothing "I am
 * allergic to peanuts." says. (Only ever stricter than the statements read whole: two short
 * sentences of long messages, "I couldn't agree more." / "I totally agree!", are not the messages.)
 */
export function sharedPredicate(oldText: string, newText: string): boolean {
  if (!predicateShared(oldText, newText)) return false;
  const os = sentencesOf(oldText);
  const ns = sentencesOf(newText);
  if (os.length <= 1 && ns.length <= 1) return true;
  return os.some((o) => ns.some((n) => stance(o) !== stance(n) && predicateShared(o, n)));
}

function predicateShared(a: string, b: string): boolean {
  const ca = core(a);
  const cb = core(b);
  const headShared = [...negatedHeads(a)].some((h) => cb.has(h)) || [...negatedHeads(b)].some((h) => ca.has(h));
  return ca.size > 0 && cb.size > 0 && (subset(ca, cb) || subset(cb, ca)) && headShared;
}

const sentencesOf: (text: string) => readonly string[] = memoByText((text) => splitSentences(text).map((s) => s.text), shared);
