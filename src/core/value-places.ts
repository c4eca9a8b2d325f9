/**
 * Values at their places in a statement's wording (src/core/slots.ts, `compareValues`, reads them
 * beside its comparison of values as sets). Pure: no I/O.
 */
import { extractValues, numberWord, sameValue, valueGroup } from './values.js';
import { toks } from './conflict-words.js';

/** A word that is a value by itself: digits ("12", "3pm", "1,200", "9:30", "12th") or a number word ("seven"). */
const isValueToken = (t: string): boolean => /^\d/.test(t) || numberWord(t) !== null;

/** A value word's comparable form: "3pm" and "3", "1,200" and "1200", "9:00" and "9", "seven" and "7" read alike. */
function valueTokenKey(t: string): string {
  const n = numberWord(t);
  if (n !== null) return String(n);
  return t.replace(/,(?=\d{3}(?!\d))/g, '').replace(/(?:am|pm|st|nd|rd|th)$/, '').replace(/:00$/, '');
}

/**
 * Values bound to their places (docs/corrections.md, after "Values disagree"). Two statements that say the same
 * words in the same order, apart from their values, say different things when a value differs at
 * its place: "Room 3 is on floor 7." / "Room 7 is on floor 3.", "The meeting moved from 3pm to 5pm."
 * / "... from 5pm to 3pm.", "Writer 0 note 12" / "Writer 12 note 0". Compared as sets (above),
 * each value is found on the other side, and nothing disagreed. Only the same wording is read so
 * (the same words around each value): "I have 2 kids and 3 cats." / "I have 3 cats and 2 kids."
 * binds each number to its own noun on both sides, and is not compared here.
 */
export function misplacedValue(oldText: string, newText: string): { group: string; detail: string } | null {
  const a = toks(oldText);
  const b = toks(newText);
  if (a.length !== b.length) return null;
  let moved: { group: string; detail: string } | null = null;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x === y) continue;
    if (!isValueToken(x) || !isValueToken(y)) return null;
    if (moved || valueTokenKey(x) === valueTokenKey(y)) continue;
    const vx = extractValues(x);
    const vy = extractValues(y);
    if (vx.some((p) => vy.some((q) => valueGroup(p.kind) === valueGroup(q.kind) && sameValue(p.kind, p.norm, q.norm)))) continue;
    // Only values of one kind are compared at a place: "'89" (a number alone) and "1989" (a year)
    // may be one year, which this reading cannot tell.
    const group = vx[0] ? valueGroup(vx[0].kind) : null;
    if (!group || !vy.some((q) => valueGroup(q.kind) === group)) continue;
    moved = { group, detail: `"${x}" -> "${y}" at the same place` };
  }
  return moved;
}
