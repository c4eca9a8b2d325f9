/**
 * One clause of a new statement said again of an old memory (src/core/recognition.ts): its words the memory's, or
 * WordNet synonyms of them, or its values the memory's, however written. Pure.
 */
import { contentKeys, contentWords, lemma, wordKey } from './words.js';
import { lexicon } from './lexicon.js';
import { CHAT_ASIDES, contentKeys as conflictKeys, key } from './conflict-words.js';
import { extractValues } from './values.js';
import { valueIndex } from './value-index.js';

/** Words that hedge a value ("roughly 26.5 lbs"): said with a value the old memory gives too. */
const HEDGES = new Set(['roughly', 'approximately', 'approx', 'nearly', 'circa']);
/** The most consecutive clauses read as one restating run. */
const RUN_MAX = 3;

/** The longest old memory whose words are read with their synonyms by a clause restatement (content words). */
const SYNONYMS_MAX_WORDS = 40;

/**
 * One clause of the new statement restates the old memory outright: every content word of the clause (at least two) is
 * said by the old memory, a value it gives too however written, or a hedge on such a value, and one of them at least is a
 * word of the memory besides its values ("Owen, that's my brother, he works in a lab." restates "My brother Owen lives in
 * Bristol." and adds a detail). A run of up to three clauses counts as one; `keep` may refuse a run. A clause before a
 * colon (not between digits) is a label: a run ending on it counts only when what it labels says every old word the run
 * leaves unsaid.
 */
export function clauseRestates(oldText: string, newText: string, keep?: (clause: string) => boolean): boolean {
  const oldKeys = new Set(contentKeys(oldText));
  // a word of the old memory, or a WordNet synonym of one ("Keep your answers short." / "Keep your replies short."):
  // synonyms of a statement's words only (each word against each of a long text's would hold the process)
  const words = contentWords(oldText);
  const oldLemmas = words.length <= SYNONYMS_MAX_WORDS ? words.map((w) => lemma(w)) : [];
  // (and a word as the conflict rules key it: kin and roles by one word, "boss" / "manager", "mum" / "mother")
  const oldKin = conflictKeys(oldText);
  // (a value the old memory gives too is said, however written, and so is a hedge on it: "pepper weighs roughly 26.5 lbs"
  // restates "Our dog Pepper weighs 12 kg."; but a clause of values alone restates nothing: "Dentist - Sept 9th")
  const oldValues = valueIndex(extractValues(oldText));
  const newValues = extractValues(newText);
  const valueWords = new Set(newValues.filter((v) => oldValues.has(v)).flatMap((v) => contentWords(v.raw)));
  const inValues = new Set(newValues.flatMap((v) => contentWords(v.raw)));
  const saysWord = (w: string) => !inValues.has(w) && (oldKeys.has(wordKey(w)) || oldKin.has(key(w)) || oldLemmas.some((o) => lexicon().synonymous(lemma(w), o)));
  const saysValue = (w: string) => valueWords.has(w) || (valueWords.size > 0 && HEDGES.has(w))
    || (inValues.has(w) && oldKeys.has(wordKey(w)));
  // (with what parts them: a clause before a colon is a label, read with what follows it)
  const parts = newText.split(/([,;:\u2014]|\s-\s)/);
  const raw = parts.filter((_, i) => i % 2 === 0);
  // (a colon between digits parts no clauses of its own: "3:30", "1:16")
  const colonAfter = (i: number) => parts[2 * i + 1] === ':';
  const betweenDigits = (i: number) => /\d$/.test(raw[i]!) && /^\d/.test(raw[i + 1] ?? '');
  const labels = raw.map((_, i) => colonAfter(i) && !betweenDigits(i));
  // what the label before the colon after clause j labels: the next clause, a time or ratio split at its colon read whole
  const labelled = (j: number): string => {
    let k = j + 1;
    let text = raw[k] ?? '';
    while (k + 1 < raw.length && colonAfter(k) && betweenDigits(k)) text += `:${raw[++k]}`;
    return text;
  };
  // (chat's asides are no words of a clause: "fyi arjun has a peanut allergy")
  const clauses = raw.map((c) => {
    const ws = contentWords(c).filter((w) => !CHAT_ASIDES.has(w));
    let byWord = 0;
    for (const w of ws) {
      if (saysWord(w)) byWord++;
      else if (!saysValue(w)) return null;
    }
    return { all: ws.length, byWord };
  });
  // Runs of up to three consecutive clauses, so that an apposition ("Owen, that's my brother,") counts as one (each
  // clause read once, each run joined once: a text of many short clauses was cubic when `keep` refused them)
  for (let i = 0; i < clauses.length; i++) {
    let all = 0;
    let byWord = 0;
    for (let j = i; j < clauses.length && j < i + RUN_MAX; j++) {
      const c = clauses[j];
      if (!c) break;
      all += c.all;
      byWord += c.byWord;
      // (a run that ends on a label counts when what it labels says every old word the run leaves unsaid:
      // "my usual coffee order: oat latte" does not restate "My usual coffee order is a flat white.", "my usual coffee
      // order: flat white" does, and so does a sentence said in full before its colon, "I'm allergic to peanuts: even a
      // trace sends me to hospital", or a value said again with a detail, "wifi password: sunflower42 (all lowercase)")
      if (labels[j] && !labelSaid(raw.slice(i, j + 1), labelled(j), oldKeys)) continue;
      if (all >= 2 && byWord >= 1 && (!keep || keep(raw.slice(i, j + 1).join(',')))) return true;
    }
  }
  return false;
}

/** The old memory's words a labelling run leaves unsaid are all said by what it labels (by their keys). */
function labelSaid(run: readonly string[], labelled: string, oldKeys: ReadonlySet<string>): boolean {
  const said = new Set(run.flatMap((c) => contentKeys(c)));
  const after = new Set(contentKeys(labelled));
  for (const k of oldKeys) if (!said.has(k) && !after.has(k)) return false;
  return true;
}
