/**
 * A correction marker's sentence that names the old words again, in a clause of its own that says something else of them
 * (docs/corrections.md, "explicit-cue"): "Correction: Tariq's teacher is Mr. Abiodun - Mrs. Henderson has the other Year 3
 * class." corrects "Tariq's teacher is Mrs. Henderson.", and "Let me correct that: it's cashews I'm allergic to, walnuts are
 * fine." corrects "I'm allergic to walnuts.". Read as a whole, the sentence says every word of the old one and seems to add
 * only; read by its clauses, the one that speaks to the old sentence gives another word in place of one of its own. Pure.
 */
import { factKeys } from './addressing.js';

/**
 * Where a sentence parts into clauses here: commas and colons (not between digits: "9:15", "£1,200", "1:16"),
 * semicolons, dashes; not a period ("Mr. Abiodun").
 */
const CLAUSE_BREAK = /(?<!\d)[,:]|[,:](?!\d)|;|\u2014|\s[-\u2013]\s/;

/**
 * The clause of `newText` that shares the most of `oldKeys` (the first of those sharing as many) gives a word of its own
 * in place of one of the old sentence's, and every old word it leaves out is said again in another clause that says
 * something of its own of it: "walnuts are fine", "Mrs. Henderson has the other Year 3 class". A clause that says every
 * old word again is the one read, and swaps nothing ("Actually I love jazz, and I still like blues" keeps "I like
 * blues"); an old word said alone in an apposition or a trailing phrase is the same thing said again, not something else
 * ("Actually our cat, the ginger one, is called Miso", "Correction: I live in Headingley, which is in Leeds").
 */
export function swappedInAClause(oldKeys: ReadonlySet<string>, newText: string, voc: ReadonlySet<string>): boolean {
  if (oldKeys.size === 0) return false;
  const keys = newText.split(CLAUSE_BREAK).map((c) => c.trim()).filter(Boolean).map((c) => factKeys(c, voc));
  if (keys.length < 2) return false;
  let at = -1;
  let most = 0;
  keys.forEach((k, i) => {
    const shared = [...oldKeys].filter((x) => k.has(x)).length;
    if (shared > most) {
      most = shared;
      at = i;
    }
  });
  if (at < 0) return false;
  const clause = keys[at]!;
  const left = [...oldKeys].filter((x) => !clause.has(x));
  if (left.length === 0 || ![...clause].some((x) => !oldKeys.has(x))) return false;
  // each old word left out, said of something else: in another clause that has a word of its own
  const elsewhere = keys.filter((k, i) => i !== at && [...k].some((x) => !oldKeys.has(x)));
  return left.every((x) => elsewhere.some((k) => k.has(x)));
}
