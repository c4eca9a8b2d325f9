/**
 * One stretch of a statement swapped for another (src/core/conflicts.ts): what a weak cue ("now",
 * "sorry") may show, and what "too" / "also" says is one more of a kind. Pure.
 */
import { STOP_WORDS } from './words.js';
import { toks } from './conflict-words.js';
import { diffHunks, synonyms } from './opposites.js';
import { extractValues } from './values.js';
import { valueIndex } from './value-index.js';

/** The longest statement read for a swapped stretch (words of each side). */
const SWAP_MAX_WORDS = 60;

/** Words that date a statement to now, not part of what it says ("I cycle to work now"). */
const NEWS_WORDS = new Set(['now', 'currently', 'nowadays']);

/**
 * The same words but one stretch of one to three swapped for another that is no synonym, the words
 * dating it to now aside, in a frame of at least two words: "I drive to work." / "I cycle to work
 * now.", "I live in a flat." / "… a house now.", "I take my tea with milk." / "… black now", "I
 * drive to work." / "I take the bus to work now.".
 */
export function swappedInFrame(oldText: string, newText: string, withoutAdditive = false): boolean {
  const words = (text: string) => {
    const t = toks(text).filter((w) => !NEWS_WORDS.has(w));
    return withoutAdditive ? withoutAdditiveWords(t) : t;
  };
  const a = words(oldText);
  const b = words(newText);
  // (a statement's words, not a long message's: the diff is quadratic, and a swap says nothing of pages of text)
  if (a.length > SWAP_MAX_WORDS || b.length > SWAP_MAX_WORDS) return false;
  const hunks = diffHunks(a, b);
  if (hunks.length !== 1) return false;
  const h = hunks[0]!;
  if (h.a.length === 0 || h.b.length === 0 || h.a.length > 3 || h.b.length > 3 || a.length - h.a.length < 2) return false;
  const ca = h.a.filter((w) => !STOP_WORDS.has(w));
  const cb = h.b.filter((w) => !STOP_WORDS.has(w));
  return ca.length > 0 && cb.length > 0 && !(ca.length === 1 && cb.length === 1 && synonyms(ca[0]!, cb[0]!)) && !oneValue(h.a, h.b);
}

/** Two stretches that say the same values, each written its own way: "three years" / "3 yrs", "182 cm" / "1.82 metres". */
function oneValue(a: readonly string[], b: readonly string[]): boolean {
  const [va, vb] = [extractValues(a.join(' ')), extractValues(b.join(' '))];
  if (va.length === 0 || vb.length === 0) return false;
  const [ia, ib] = [valueIndex(va), valueIndex(vb)];
  return va.every((v) => ib.has(v)) && vb.every((v) => ia.has(v));
}

/** A statement's words without those that say it is one more ("also", "too", "as well"). */
function withoutAdditiveWords(t: readonly string[]): string[] {
  return t.filter((w, i) => !(w === 'also' || w === 'too' || w === 'additionally' || (w === 'as' && t[i + 1] === 'well') || (w === 'well' && t[i - 1] === 'as')));
}
