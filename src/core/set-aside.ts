/**
 * What a statement sets aside, said again: "My favourite colour is green, not blue." then "My
 * favourite colour is blue." The first names blue only to deny it; the second says it, in the
 * same words otherwise, without the green it kept. That is the person changing back, a
 * correction of the first, never another wording of it (it reinforced the statement that denies
 * it: found by a probe, with "Correction: I work at Apple, not Google." / "I work at Google.").
 * Pure: no I/O.
 */
import { findCues } from './correction-cues.js';
import { contentKeys } from './conflict-words.js';
import { negated } from './polarity.js';

/** The cue families that name what they set aside: "X, not Y", "not Y but X", "X instead of / rather than Y". */
const SETS_ASIDE = new Set(['not-x', 'not-but', 'contrast']);

/** The content keys of what a text sets aside (`Cue.replaced` of its contrast cues). */
function setAside(text: string): Set<string> {
  return new Set(findCues(text).filter((c) => c.replaced && SETS_ASIDE.has(c.family)).flatMap((c) => [...contentKeys(c.replaced!)]));
}

/**
 * Whether `newText` says again what `oldText` set aside, in place of what `oldText` kept: every
 * content word of the new statement is the old one's (the same frame, nothing else said), at
 * least one of them is one the old statement set aside (and the new one does not set it aside
 * in turn), the new statement denies nothing, and the old one keeps something the new one does
 * not say (its value, beyond its correction words). The detail names both, or null.
 */
export function saysSetAsideAgain(oldText: string, newText: string, oldKeys: ReadonlySet<string>, newKeys: ReadonlySet<string>): string | null {
  const aside = setAside(oldText);
  if (aside.size === 0 || newKeys.size === 0) return null;
  const againAside = setAside(newText);
  const said = [...newKeys].filter((k) => aside.has(k) && !againAside.has(k));
  if (said.length === 0 || [...newKeys].some((k) => !oldKeys.has(k)) || negated(newText)) return null;
  const cueWords = new Set(findCues(oldText).flatMap((c) => [...contentKeys(c.phrase)]));
  const kept = [...oldKeys].filter((k) => !newKeys.has(k) && !aside.has(k) && !cueWords.has(k));
  if (kept.length === 0) return null;
  return `"${said.join(' ')}" set aside, said again in place of "${kept.join(' ')}"`;
}
