/**
 * A correction marker's sentence that names the old words again, in a clause of its own that says something else of them
 * (docs/corrections.md, "explicit-cue"): "Correction: Tariq's teacher is Mr. Abiodun - Mrs. Henderson has the other Year 3
 * class." corrects "Tariq's teacher is Mrs. Henderson.", and "Let me correct that: it's cashews I'm allergic to, walnuts are
 * fine." corrects "I'm allergic to walnuts.". Read as a whole, the sentence says every word of the old one and seems to add
 * only; read by its clauses, the one that speaks to the old sentence gives another word in place of one of its own. Pure.
 */
import { factKeys } from './addressing.js';

/** Where a sentence parts into clauses here: commas, semicolons, colons, dashes (not a period: "Mr. Abiodun"). */
const CLAUSE_BREAK = /[,;:\u2014]|\s[-\u2013]\s/;

/**
 * The clause of `newText` that shares the most of `oldKeys` (the first of those sharing as many) gives a word of its own
 * in place of one of the old sentence's. A clause that says every old word again is that clause, and swaps nothing: the
 * sentence restates the old one beside what it adds ("Actually I love jazz, and I still like blues" keeps "I like blues").
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
  const oldOnly = [...oldKeys].some((x) => !clause.has(x));
  const newOnly = [...clause].some((x) => !oldKeys.has(x));
  return oldOnly && newOnly;
}
