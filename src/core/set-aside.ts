/**
 * What a statement sets aside, said again: "My favourite colour is green, not blue." then "My
 * favourite colour is blue." The first names blue only to deny it; the second says it, on the same
 * footing and in the same frame. That is the person changing back (or now holding both), a
 * correction of the first, never another wording of it (it reinforced the statement that denies
 * it: found by a probe, with "Correction: I work at Apple, not Google." / "I work at Google.").
 * Pure: no I/O.
 */
import { findCues } from './correction-cues.js';
import { memoByText, shared } from './memo.js';
import { contentKeys, toks } from './conflict-words.js';
import { modeOf, tenseOf } from './modality.js';
import { negated } from './polarity.js';

/** The cue families that name what they set aside: "X, not Y", "not Y but X", "X instead of / rather than Y". */
const SETS_ASIDE = new Set(['not-x', 'not-but', 'contrast']);

/**
 * Words that hold a statement on another footing than a plain fact now: might, could, will, if,
 * used to, want to... ("I could live in Leeds." says nothing against "I live in York, not Leeds.").
 */
const FOOTING = new Set([
  'could', 'should', 'would', 'might', 'may', 'must', 'can', "can't", 'cannot', 'will', "'ll", 'shall', 'going', 'gonna',
  'if', 'unless', 'when', 'whenever', 'used', 'want', 'wants', 'wanted', 'wish', 'hope', 'plan', 'planning', 'maybe',
  'perhaps', 'probably', 'someday', 'once', 'ever', 'never', 'sometimes', 'rather',
]);

/** What a text sets aside (`Cue.replaced` of its contrast cues), as said. */
function asideSaid(text: string): string[] {
  return findCues(text).filter((c) => c.replaced && SETS_ASIDE.has(c.family)).map((c) => c.replaced!);
}

/** The content keys of what a text sets aside. */
function setAside(text: string): Set<string> {
  return new Set(asideSaid(text).flatMap((r) => [...contentKeys(r)]));
}

/** The footing words of a text outside what it sets aside ("rather than" is the contrast, not a footing). */
function footing(text: string): Set<string> {
  const t = text.toLowerCase().replace(/\brather than\b/g, ' ');
  return new Set(toks(t).filter((w) => FOOTING.has(w)));
}

/**
 * Whether `newText` says again what `oldText` set aside. Every content word of the new statement is
 * the old one's, and it shares the old one's frame (a content word beside what was set aside and
 * the correction words); at least one of its words is one the old statement set aside (the new
 * one does not set it aside in turn); it denies nothing; and it holds what it says on the same
 * footing: the same mode and tense, no word of doubt, wish, condition or time the old one has not
 * ("I could / will / used to live in Leeds" against "I live in York, not Leeds" is another fact).
 * The detail names what was said again, or null.
 */
export function saysSetAsideAgain(oldText: string, newText: string, oldKeys: ReadonlySet<string>, newKeys: ReadonlySet<string>): string | null {
  const aside = setAside(oldText);
  if (aside.size === 0 || newKeys.size === 0) return null;
  const againAside = setAside(newText);
  const said = [...newKeys].filter((k) => aside.has(k) && !againAside.has(k));
  if (said.length === 0 || [...newKeys].some((k) => !oldKeys.has(k))) return null;
  const cueWords = new Set(findCues(oldText).flatMap((c) => [...contentKeys(c.phrase)]));
  const frame = [...oldKeys].filter((k) => !aside.has(k) && !cueWords.has(k) && newKeys.has(k) && !againAside.has(k));
  if (frame.length === 0 || negated(newText)) return null;
  if (modeOf(newText) !== modeOf(oldText)) return null;
  const [to, tn] = [tenseOf(oldText), tenseOf(newText)];
  if (to && tn && to.tense !== tn.tense) return null;
  const own = footing(oldText);
  if ([...footing(newText)].some((w) => !own.has(w))) return null;
  return `"${asideSaid(oldText).join('", "')}" set aside, said again`;
}

/**
 * Whether the old statement sets aside what a contrast of the new one replaces, in its own words ("over",
 * "than", "instead of", "not", "swapped X for"): "I prefer tea over coffee." / "I'll always pick tea rather than
 * coffee." make one choice, told twice.
 */
export function setAsideToo(oldText: string, replaced: string): boolean {
  const r = contentKeys(replaced);
  if (r.size === 0) return false;
  const t = oldText.toLowerCase();
  // (or swapped away: "I swapped the violin for the cello" sets the violin aside)
  const aside = [...t.matchAll(/\b(?:over|than|instead of|not)\s+([^,.;!?]+)/g), ...t.matchAll(/\b(?:swapped|switched|traded|exchanged|replaced)\s+([^,.;!?]+?)\s+(?:for|with)\b/g)];
  return aside.some((m) => [...r].every((k) => contentKeys(m[1]!).has(k)));
}

const ONES = new Set([...contentKeys('one ones')]);

/** What a text sets aside in a choice ("over", "than", "instead of", "rather than"; "to" after "prefer"), and the rest of its content, as keys. */
const choice: (text: string) => Readonly<{ aside: ReadonlySet<string>; kept: ReadonlySet<string> }> | null = memoByText(choiceOnce, shared);

function choiceOnce(text: string): { aside: Set<string>; kept: Set<string> } | null {
  const t = text.toLowerCase();
  const m = /\b(?:over|than|instead of)\s+([^,.;!?]+)/.exec(t) ?? (/\bprefer\b/.test(t) ? /\bto\s+([^,.;!?]+)/.exec(t) : null);
  if (!m) return null;
  // ("ones" stands for what was said before it: "morning meetings to afternoon ones")
  const aside = new Set([...contentKeys(m[1]!)].filter((k) => !ONES.has(k)));
  const kept = new Set([...contentKeys(t.slice(0, m.index))]);
  return aside.size > 0 && kept.size > 0 ? { aside, kept } : null;
}

/**
 * A choice turned round: what the old statement set aside is what the new one keeps, and what it kept the new one
 * sets aside ("I prefer tea over coffee." / "I prefer coffee over tea these days."), as "x set aside, then chosen", or null.
 */
export function choiceReversed(oldText: string, newText: string): string | null {
  const a = choice(oldText);
  const b = choice(newText);
  if (!a || !b) return null;
  const turned = [...a.aside].every((k) => b.kept.has(k)) && [...b.aside].some((k) => a.kept.has(k)) && [...b.aside].every((k) => !b.kept.has(k));
  return turned ? `${[...a.aside].join(' ')} set aside, then chosen` : null;
}

/** What a choice sets aside, as keys ("I prefer tea over coffee" -> coffee); empty without a choice. */
export function setAgainst(text: string): ReadonlySet<string> {
  return choice(text)?.aside ?? new Set();
}

