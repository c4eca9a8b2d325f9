/**
 * One statement said again in other words, at a score the embedder gives few different facts
 * (docs/recognition.md, "Said alike"): at the `related` score or above, without the caller's
 * hints, sharing a thing the tagger reads (a common noun), the conflict rules finding nothing
 * between them, and nothing in the new words saying it is another fact: the same stance, no
 * correction cue the old one lacks, nothing said as one more, no name said on one side only,
 * and not the same words with one stretch exchanged. "I don't eat pork." / "no pork for me,
 * ever" (0.80), "I prefer window seats on planes." / "when flying i always want the seat by the
 * window" (0.76).
 */
import { freshCues } from './addressing.js';
import { saidAsOneMore } from './conflict-words.js';
import { deriveNames } from './derive.js';
import { stance } from './polarity.js';
import { swappedInFrame } from './swapped.js';
import { foldMarks } from './value-words.js';

/** The capitalised names the tagger reads in a text, lower-cased, "I" aside. */
const namesOf = (t: string) => deriveNames(t).filter((n) => /^\p{Lu}/u.test(n) && n !== 'I').map((n) => foldMarks(n.toLowerCase()));

export function saidAlike(oldText: string, newText: string): boolean {
  if (stance(oldText) !== stance(newText)) return false;
  // (a cue the old statement lacks says what changed: "moved over to gmail, no more outlook")
  if (freshCues(oldText, newText).length > 0 || saidAsOneMore(oldText, newText)) return false;
  // (a name on one side only is someone or something else: "our landlord is mr papadopoulos" / "Our landlord is Mr. Georgiou.")
  const [lo, ln] = [foldMarks(oldText.toLowerCase()), foldMarks(newText.toLowerCase())];
  if (namesOf(oldText).some((n) => !ln.includes(n)) || namesOf(newText).some((n) => !lo.includes(n))) return false;
  // (the same words, one stretch exchanged, are another object: "… reminders by e-mail." / "… reminders by text.")
  return !swappedInFrame(oldText, newText);
}
