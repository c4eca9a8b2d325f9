/**
 * Conflict rules: for an old and a new statement about the same thing, do
 * they disagree? A disagreement vetoes reinforcement: either the new one
 * corrects the old one (the old one is superseded, never merged), or both
 * are distinct facts that stay current. The rules and their examples are in
 * docs/corrections.md, one section per rule name used here.
 */
import { STOP_WORDS, NEGATIONS, lemma } from './words.js';
import { extractValues, numberWord, valueGroup, type Value } from './values.js';
import { correctionCue, findCues, type Cue } from './correction-cues.js';
import { actionSwap, oppositeIn, oppositeSwap, substitution, synonyms, roleSwap } from './opposites.js';
import { degreeSwap, kindSwap, predicateSwap } from './holder.js';
import {
  contentKeys, contentSeq, contentWordsOf, disjoint, isVerb, key, lemmaSeq, NP_ADJ, norm, oneWordApart, stateParticiples, toks, verbsAfterSubject,
  type Relation, type StatementLike,
} from './conflict-words.js';
import { core, polarity, sharedPredicate, stance } from './polarity.js';
import { prefixNegated } from './prefix-negation.js';
import { swappedInFrame } from './swapped.js';
import { addressedPair, assertions, CHANGE_FAMILIES, declarative, freshCues, hasQuestionOnly, s1, strength, vocatives } from './addressing.js';
import { swappedInAClause } from './clause-swap.js';
import { compareValues, FRAME_WORDS, samePredicateOf, slots, subjectVerbs, valuesOf, withoutSetAside } from './slots.js';
import { attributive, differentObject, MULTI } from './multi-valued.js';
import { anotherHolder } from './others.js';
import { movedThing } from './whereabouts.js';
import { otherMode, otherTense, tenseOf, usedToDo } from './modality.js';
import { anotherValueOfOneThing, anotherWayAsked } from './another-value.js';
import { withoutToldBefore } from './meeting.js';
import { choiceReversed, saysSetAsideAgain, setAgainst, setAsideToo } from './set-aside.js';

export { extractValues, correctionCue, polarity };
export { vocatives } from './addressing.js';
export { sharedSlot } from './slots.js';
export type { Value, Cue, Relation, StatementLike };

// ---------------------------------------------------------------- relate

// "a second car" and "our other dog" add one; "the second Wednesday of the month" names a position; "too" adds at a clause's end ("… in the
// evening too"), before a word it says a degree ("Katherine feels too formal")
const ADDITIVE = /\b(?:also|as well|another|additionally|plus|other one|in addition|(?:my|our|his|her|their) other(?! half))\b|\btoo\b(?=\s*(?:[,.;:!?)]|$))|(?<!\bthe )\b(?:second|third)\b/;


/** The same sentence but for case, spacing and the final punctuation. */
export function sameSentence(a: string, b: string): boolean {
  const f = (s: string) => norm(s).replace(/[.!?…]+$/, '').trim();
  return f(a) === f(b);
}

/**
 * How a new statement relates to an old one. `topical` says whether the two
 * are about the same thing (the caller decides from vector score, type,
 * entities and themes); without it only a next-sentence correction can
 * correct, and clear disagreements still keep the two apart.
 */

export function relate(oldS: StatementLike, newS: StatementLike, topical: boolean): Relation {
  // (a repair, "Sorry,", "Oops,", speaks to the sentence just before it only: the next-sentence rule's)
  const nextSentence = !!newS.previousSentence && sameSentence(newS.previousSentence, oldS.text);
  const cues = freshCues(oldS.text, newS.text).filter((c) => c.family !== 'repair' || nextSentence);
  const oldKeys = contentKeys(oldS.text);
  const newKeys = contentKeys(newS.text);
  // (what a contrast sets aside is not said of the thing now: "every other Monday now instead of weekly on Wednesdays" says Monday)
  const values = compareValues(oldS, withoutSetAside(newS, cues));
  // The statements as the polarity rule reads them: a prefix that negates a word the other says,
  // written out ("non-smoker" / "smoker", "unemployed" / "employed": src/core/prefix-negation.ts).
  const [polOld, polNew] = prefixNegated(oldS.text, newS.text);
  const flip = stance(polOld) !== stance(polNew);
  const oldCore = core(polOld);
  const newCore = core(polNew);
  // the same predicate, and the negation bears on it: "I don't like jazz" / "I like jazz", not "Keep it up!" / "... never give up!"
  const samePredicate = sharedPredicate(polOld, polNew);
  const additive = ADDITIVE.test(norm(newS.text)) && !ADDITIVE.test(norm(oldS.text));
  const strongCue = cues.find((c) => strength(c, oldKeys) === 'strong');
  const weakCue = cues.find((c) => strength(c, oldKeys) === 'weak');
  const newContent = [...newKeys].filter((k) => !oldKeys.has(k));
  const hardDifference = values.disagree.length > 0 || (flip && samePredicate);
  // what a weak cue ("now", "sorry") may also show: the same words, one stretch swapped ("I drive to work." / "I cycle to work now.")
  let swappedOnce: boolean | undefined;
  const oldChange = () => findCues(oldS.text).some((c) => CHANGE_FAMILIES.has(c.family));
  const weakDifference = () => hardDifference || (swappedOnce ??= swappedInFrame(oldS.text, newS.text) && !differentObject(oldS.text, newS.text));

  // 4. a correction in the very next sentence of the same message: "My anniversary is June 3. Actually, it is June 13."
  if (nextSentence) {
    if (strongCue && (hardDifference || newContent.length > 0 || values.added.length > 0)) {
      return { kind: 'corrects', rule: 'next-sentence', detail: `"${strongCue.phrase}" right after the corrected sentence` };
    }
    if (weakCue && weakDifference()) {
      return { kind: 'corrects', rule: 'next-sentence', detail: `"${weakCue.phrase}" right after the corrected sentence, ${values.detail || (hardDifference ? 'negation flipped' : 'a word swapped')}` };
    }
  }

  const names = new Set([...valuesOf(oldS), ...valuesOf(newS)].filter((v) => valueGroup(v.kind) === 'name').map((v) => v.norm));

  // Not the same person, nor the same thing (src/core/others.ts)
  // (whoever said it before is not whom it is said of: "luca, my boy, has a peanut allergy, I think I mentioned it before")
  const another = anotherHolder(oldS.text, withoutToldBefore(newS.text), { cues, oldKeys, newKeys, names });
  if (another) return another;

  // One more of the same kind: the same words, one stretch swapped, said "too" / "also" / "as well": "I drink
  // coffee in the morning." / "I drink coffee in the evening too." is a second fact, neither a restatement nor a change.
  if (additive && swappedInFrame(oldS.text, newS.text, true)) return { kind: 'distinct', rule: 'additive', detail: 'one stretch swapped, said as one more' };

  // what each side counts ("two kids" -> count:child): counts of different things are two facts
  const counted = (text: string) => [...slots(text, names)].filter((x) => x.startsWith('count:'));
  const countsOfOtherThings = () => {
    const [co, cn] = [counted(oldS.text), counted(newS.text)];
    return co.length > 0 && cn.length > 0 && disjoint(new Set(co), new Set(cn));
  };

  // a question asserts nothing: it neither corrects nor is corrected
  const asserting = assertions(oldS.text).length > 0 && assertions(newS.text).length > 0;
  const oldDecl = declarative(oldS.text);
  const newDecl = declarative(newS.text);

  if (topical && asserting) {
    // 1. explicit correction words, said in a sentence that speaks to the old statement, with a difference to show for them
    if (!additive) {
      const replacedKeys = new Set(cues.flatMap((c) => (c.replaced ? [...contentKeys(c.replaced)] : [])));
      for (const cue of cues.filter((c) => !hasQuestionOnly(newS.text, c.family))) {
        // a state said to be over ends a state, not a past event: "I had knee surgery in March." / "I recovered from my knee surgery."
        if (cue.family === 'state-over' && (tenseOf(oldS.text)?.tense === 'past' || PAST_EVENT.test(norm(oldS.text)))) continue;
        // (nor is what the person used to do, already over when they said it: "I used to live in Glasgow." / "I live in Edinburgh now.")
        if (USED_TO.test(norm(oldS.text)) && !USED_TO.test(norm(newS.text))) continue;
        // (a contrast naming what the old statement set aside too tells its choice again: "tea over coffee" / "tea rather than coffee")
        if (cue.replaced && setAsideToo(oldS.text, cue.replaced)) continue;
        const strong = strength(cue, oldKeys) === 'strong';
        // (nor does what holds "now" change where or when someone was born, when that is what the old sentence tells: "my
        // grandma was born in Kraków" / "My grandmother lives in Gdańsk these days."; a marker still may: "Actually she was
        // born in Warsaw."; a birth said by the way is not: "My grandma, born in 1930, lives in Kraków." / "… in Gdańsk now.")
        if (!strong && BORN.test(norm(oldS.text)) && !BORN.test(norm(newS.text))) continue;
        // (asked to stop doing something ends what was asked of the assistant, or the doing the old sentence tells: "i want
        // your answers in bullet points" / "Please stop using bullet points"; not a fact or a liking told by the way: "I like
        // going to the gym on Mondays." / "Can you stop suggesting the gym?")
        if (/\bstop$/.test(cue.phrase) && oldS.type !== 'INSTRUCTION' && !stoppedDoing(newS.text).some((k) => oldKeys.has(k))) continue;
        // (a weak cue's values may disagree in the sentence that speaks to the old one, the old value said elsewhere:
        // "Call me Katherine." / "Can you call me Kate from here on? Katherine feels too formal."; only where the new
        // statement adds a value of a kind the old one has)
        const mayDiffer = !strong && !hardDifference && values.added.some((v) => valuesOf(oldS).some((o) => valueGroup(o.kind) === valueGroup(v.kind)));
        if (!strong && !mayDiffer && !weakDifference()) continue;
        const pair = addressedPair(oldS.text, newS.text, names, cue.family);
        if (!pair) continue;
        const pairDiffers = () => mayDiffer && compareValues(s1(pair.old), s1(pair.neu)).disagree.length > 0;
        if (!strong && !weakDifference() && !pairDiffers()) continue;
        // (a change told, then its result said "now" with no value changed: "Callum moved to Valencia." / "Callum lives in Valencia now.")
        if (!strong && !hardDifference && !pairDiffers() && oldChange()) continue;
        if (strong && !hardDifference) {
          // a change cue ("no longer", "moved to", "I quit") says the change itself: any new content will do;
          // a marker ("actually", "no", "scratch that") needs something said in place of something else
          const newOnly = [...pair.newKeys].filter((k) => !pair.oldKeys.has(k));
          const oldOnly = [...pair.oldKeys].filter((k) => !pair.newKeys.has(k) || replacedKeys.has(k));
          // (a doing said to be over is the change itself, nothing else new: "we're renting" / "not renting anymore")
          const changes = cue.family === 'state-over' || cue.family === 'no-longer' || cue.family === 'any-more' || (CHANGE_FAMILIES.has(cue.family)
            ? newOnly.length > 0 || values.added.length > 0
            : oldOnly.length > 0 && newOnly.length > 0);
          // (or, read by its clauses, one of them does: "Correction: Tariq's teacher is Mr. Abiodun - Mrs. Henderson has
          // the other Year 3 class.", the old words said again of something else; src/core/clause-swap.ts)
          if (!changes && !swappedInAClause(pair.oldKeys, pair.neu, vocatives(newS.text))) continue;
        }
        return { kind: 'corrects', rule: 'explicit-cue', detail: strong ? `"${cue.phrase}"${values.detail ? `, ${values.detail}` : ''}` : `"${cue.phrase}" with ${values.detail || (hardDifference ? 'the negation flipped' : 'a word swapped')}` };
      }
    }
    // 1b. what the old statement set aside, said again in its place: "... is green, not blue." / "... is blue." (src/core/set-aside.ts)
    // (or the choice turned round: "I prefer tea over coffee." / "I prefer coffee over tea these days.")
    const back = additive ? null : saysSetAsideAgain(oldS.text, newS.text, oldKeys, newKeys) ?? choiceReversed(oldS.text, newS.text);
    if (back) return { kind: 'corrects', rule: 'set-aside', detail: back };
    // 2. the same predicate, negated (or liked / hated)
    if (flip && samePredicate) {
      const restricts = values.added.some((v) => ['day', 'time', 'date', 'month'].includes(v.kind));
      if (!restricts) {
        return { kind: 'corrects', rule: 'polarity', detail: `${polarity(polOld)}/${stance(polOld) > 0 ? 'for' : 'against'} -> ${polarity(polNew)}/${stance(polNew) > 0 ? 'for' : 'against'}` };
      }
      return { kind: 'distinct', rule: 'polarity', detail: 'negated only for an added time or day' };
    }
    // 3. a new value for something that has one value at a time
    const newSlots = slots(newDecl, names);
    let verbs: [Map<string, Set<string>>, Map<string, Set<string>>] | undefined;
    const onePredicate = (s: string) => samePredicateOf(s, ...(verbs ??= [subjectVerbs(oldDecl, names), subjectVerbs(newDecl, names)]));
    const shared = additive ? [] : [...slots(oldDecl, names)].filter((s) => newSlots.has(s) && onePredicate(s));
    // (unless each side counts another thing: "Our house has three bedrooms." / "… two bathrooms.", step 5)
    // (a school year said of two children by name is two children: "my son Eli is in 3rd grade" / "his sister Mia is in 4th grade")
    const otherChild = shared.every((x) => x === 'school-year') && values.disagree.includes('name');
    if (values.disagree.length > 0 && shared.length > 0 && !countsOfOtherThings() && !otherChild) {
      return { kind: 'corrects', rule: 'new-value', detail: `${shared[0]}: ${values.detail}` };
    }
    // the same things given another number, quantity or contact, in the same mode and tense: "I wear a size 42 shoe." /
    // "shoe size 44" (src/core/another-value.ts)
    if (!additive && values.disagree.length === 1 && anotherValueOfOneThing(oldS.text, newS.text) && !otherMode(oldS, newS) && !otherTense(oldS.text, newS.text)) {
      return { kind: 'corrects', rule: 'new-value', detail: `the same things: ${values.detail}` };
    }
    // a favourite, a job or a relationship status is one thing: "My favourite colour is green" / "... is purple" (colours
    // are not values), "I'm single." / "I've got a girlfriend now."
    const named = shared.find((s) => s.startsWith('favorite:') || s === 'job' || s === 'relationship');
    if (named) {
      // (a status is its words, not whom or when: "I'm married to Chris." / "We got married in 2010." say one status)
      const said = named === 'relationship' ? new Set([...valuesOf(oldS), ...valuesOf(newS)].flatMap((v) => toks(v.raw).map(key))) : null;
      const own = (k: string) => !FRAME_WORDS.has(k) && !said?.has(k);
      const [oldOnly, newOnly] = eachAlone(oldKeys, newKeys, own);
      if (oldOnly.length > 0 && newOnly.length > 0) {
        return { kind: 'corrects', rule: 'new-value', detail: `${named}: ${oldOnly.join(' ')} -> ${newOnly.join(' ')}` };
      }
    }
    // how the person has a thing, said again with the present set against the past ("these days", "now"), in other words:
    // "I like my steak medium-rare." / "these days I'd rather have my steak well done" (the frame's verbs aside)
    const manner = additive ? undefined : [...slots(oldDecl, names)].find((x) => x.startsWith('manner:') && newSlots.has(x));
    if (manner && cues.some((c) => c.family === 'now' || c.family === 'from-now-on')) {
      const own = (k: string) => !FRAME_WORDS.has(k) && !MANNER_VERBS.has(k) && !NOW_WORDS.has(k);
      const [oldOnly, newOnly] = eachAlone(oldKeys, newKeys, own);
      if (oldOnly.length > 0 && newOnly.length > 0) {
        return { kind: 'corrects', rule: 'new-value', detail: `${manner}: ${oldOnly.join(' ')} -> ${newOnly.join(' ')}` };
      }
    }
    // a thing is in one place at a time: "The spare key is under the flowerpot" / "... under the doormat"
    const moved = movedThing(oldDecl, newDecl, names, shared);
    if (moved) return { kind: 'corrects', rule: 'new-value', detail: moved };
    // one holder, one part of what is said of it exchanged (src/core/holder.ts)
    const swap = additive || flip ? null : predicateSwap(oldS.text, newS.text, names);
    // a preference is one choice: "I prefer tea" / "I prefer coffee", "I prefer the window seat" / "... the aisle seat"
    if (swap?.verb === 'prefer' && exchanged(swap.old, swap.new)) {
      // (what it is preferred to, exchanged, is another comparison: "I prefer tea over coffee." / "I prefer tea over juice.")
      const against = setAgainst(oldS.text);
      if (swap.old.every((w) => against.has(key(w)))) return { kind: 'distinct', rule: 'multi-valued', detail: `preferred to: ${swap.old.join(' ')} / ${swap.new.join(' ')}` };
      return { kind: 'corrects', rule: 'new-value', detail: `preference: ${swap.old.join(' ')} -> ${swap.new.join(' ')}` };
    }
    // the opposite of what it was: "I'm right-handed" / "I'm left-handed", "Use the back entrance" / "... the front entrance"
    // (for a verb people have several objects of, only after its object: "I love hot weather" / "I love cold weather"
    // is two facts, "I take my coffee with milk" / "… without milk" one)
    // (or the other end of a degree: "slightly allergic" / "severely allergic")
    const held = swap && (!MULTI.has(swap.verb) || swap.afterObject) ? oppositeIn(swap.old, swap.new, true) ?? degreeSwap(swap) : null;
    if (held) return { kind: 'corrects', rule: 'opposite', detail: held };
    // another kind of one thing: "My car is blue" / "My car is red", "My commute is by train" / "... by bus"
    // (numbers, times and dates are the value rules' own: "for two years" / "for three years")
    const kind = swap && values.disagree.every((g) => g === 'name') ? kindSwap(swap) : null;
    if (kind) return { kind: 'corrects', rule: 'new-value', detail: `another kind: ${kind}` };
    // an instruction of how to answer asks for one way: the same words naming another language, unit or tool ask for that
    // instead ("Please reply to me in Spanish." / "… in Portuguese.", "Use Celsius for temperatures." / "Use Fahrenheit …");
    // not whom or what else to act on, which adds ("Add Tom to the invite." / "Add Sarah …"), nor a place ("Check the weather in
    // London …" / "… in Paris …"), nor a refusal
    if (oldS.type === 'INSTRUCTION' && newS.type === 'INSTRUCTION' && !additive && !flip && stance(polOld) > 0
      && values.disagree.length === 1 && values.disagree[0] === 'name' && anotherWayAsked(oldDecl, newDecl, [...values.added, ...values.dropped])) {
      return { kind: 'corrects', rule: 'new-value', detail: `instruction: ${values.detail}` };
    }
  } else if (flip && samePredicate) {
    return { kind: 'distinct', rule: 'polarity', detail: 'negation flipped (not topical)' };
  }

  // 5. different objects of a multi-valued predicate, counts of different things, or values that disagree
  const obj = differentObject(oldS.text, newS.text);
  if (obj) return { kind: 'distinct', rule: 'multi-valued', detail: obj };
  if (countsOfOtherThings()) {
    return { kind: 'distinct', rule: 'different-thing', detail: `${counted(oldS.text).join(',')} / ${counted(newS.text).join(',')}` };
  }
  if (values.disagree.length > 0) return { kind: 'distinct', rule: 'value-mismatch', detail: values.detail };
  // each side says a value the other does not, of different kinds, with no number in common: the same frame with
  // another qualifier ("Never book me on a flight before 7am." / "... longer than 10 hours."), not one value
  // read two ways ("around 11" / "at about 11pm", "two toddlers" / "Two toddlers")
  const said = (vs: Value[]) => vs.filter((v) => valueGroup(v.kind) !== 'name');
  const [oldOwn, newOwn] = [said(values.dropped), said(values.added)];
  const oldNumbers = new Set(oldOwn.flatMap(numbersIn));
  if (oldOwn.length > 0 && newOwn.length > 0 && values.shared === 0 && !newOwn.flatMap(numbersIn).some((n) => oldNumbers.has(n))) {
    return { kind: 'distinct', rule: 'value-mismatch', detail: `"${oldOwn[0]!.raw}" / "${newOwn[0]!.raw}"` };
  }
  // one subject, nothing said about it in common: "My best friend Tom lives in Glasgow" / "... is a pilot"
  const npOld = [...slots(oldS.text, names)].filter((s) => s.startsWith('np:'));
  const npNew = new Set([...slots(newS.text, names)].filter((s) => s.startsWith('np:')));
  const np = npOld.find((s) => npNew.has(s));
  if (np) {
    const subjectKeys = new Set(np.slice(3).split('+'));
    const rest = (text: string) => {
      const content = contentKeys(text);
      return new Set(toks(text).filter((w) => !NP_ADJ.has(w)).map(key).filter((k) => !subjectKeys.has(k) && content.has(k)));
    };
    const restOld = rest(oldS.text);
    const restNew = rest(newS.text);
    // a value said on both sides, however written, is something said in common: "is 6" / "is six years old"
    if (restOld.size > 0 && restNew.size > 0 && disjoint(restOld, restNew) && values.shared === 0) {
      return { kind: 'distinct', rule: 'different-predicate', detail: `${np.slice(3)}: ${[...restOld].join(' ')} / ${[...restNew].join(' ')}` };
    }
  }

  // 6. nearly the same words, one side negated, a different verb or object: "There is no dog bouncing" / "A dog is jumping"
  const oldSeq = contentSeq(oldS.text);
  const newSeq = contentSeq(newS.text);
  if (flip && oldSeq.length > 0 && newSeq.length > 0 && oldSeq[0] === newSeq[0]) {
    const sharedCore = [...oldCore].filter((k) => newCore.has(k)).length;
    const oldRest = [...oldCore].filter((k) => !newCore.has(k)).length;
    const newRest = [...newCore].filter((k) => !oldCore.has(k)).length;
    if (sharedCore >= 2 && oldRest <= 1 && newRest <= 1) {
      return { kind: 'distinct', rule: 'polarity', detail: `${polarity(polOld)} -> ${polarity(polNew)}, about the same ${oldSeq[0]}` };
    }
  }
  if (flip) return { kind: 'compatible' };
  // 7. the same statement with a word swapped for its opposite: "turning on" / "turning off", "near" / "far from"
  const sharedKeys = [...oldKeys].filter((k) => newKeys.has(k)).length;
  if (sharedKeys >= 1 && 2 * sharedKeys >= Math.max(oldKeys.size, newKeys.size)) {
    const [oldLemmas, newLemmas] = [lemmaSeq(oldS.text), lemmaSeq(newS.text)];
    const opp = oppositeSwap(oldLemmas, newLemmas);
    if (opp) {
      const single = !additive && [...slots(oldS.text, names)].some((s) => slots(newS.text, names).has(s));
      // (opposites that may both hold are two facts, never a correction: "my flight to Rome" / "my flight from Rome")
      if (topical && single && oppositeSwap(oldLemmas, newLemmas, true)) return { kind: 'corrects', rule: 'opposite', detail: opp };
      return { kind: 'distinct', rule: 'opposite', detail: opp };
    }
  }
  // 7b. the same things, another action: "A dog is stopping on the snow" / "A dog is running on the snow"
  // a participle said as a state ("is based in") is no action: "lives in Paris" / "is based in Paris"
  // (nor is a verb that takes another after "to": the other is the action, "I need to submit my tax return" files it,
  // "I'd prefer to be addressed as Liz" calls her)
  const states = new Set([...stateParticiples(oldS.text), ...stateParticiples(newS.text), ...catenatives(oldS.text), ...catenatives(newS.text)]);
  // (the word after "I" / "we" is the clause's verb, known to the word list or not: "I walk the dog at 7am" / "I feed the dog at 7am";
  // the same frame with one word swapped needs only one content word in common: "I go swimming on Mondays" / "… running …")
  const mainVerbs = new Set([...verbsAfterSubject(oldS.text), ...verbsAfterSubject(newS.text)]);
  const action = actionSwap(contentWordsOf(oldS.text), contentWordsOf(newS.text), (w) => !states.has(w) && (isVerb(w) || mainVerbs.has(w) || /[a-z]{2}(?:ing|ed)$/.test(w)),
    [particleAfter(oldS.text), particleAfter(newS.text)], oneWordApart(oldS.text, newS.text) ? 1 : 2);
  if (action) return { kind: 'distinct', rule: 'other-action', detail: action };
  // 8. the same words with the two sides of the verb exchanged: "The woman is picking up the kangaroo" / "The kangaroo is picking up the woman"
  const passive = (t: string) => /\bby\b/.test(norm(t));
  if (passive(oldS.text) === passive(newS.text)) {
    const verbs = new Set([...toks(oldS.text), ...toks(newS.text)].filter((w) => isVerb(w) || /[a-z]{2}(?:ing|ed)$/.test(w)).map(key));
    const swap = roleSwap(oldSeq, newSeq, (k) => verbs.has(k));
    if (swap) return { kind: 'distinct', rule: 'role-swap', detail: swap };
  }
  // 9. one content word swapped for another that is not a near-synonym: "a soccer ball" / "a tennis ball"
  const sub = substitution(oldSeq, newSeq, contentWordsOf(oldS.text), contentWordsOf(newS.text));
  if (sub && attributive(oldS.text, newS.text, sub)) return { kind: 'distinct', rule: 'substitution', detail: sub };
  // 10. the same words held another way: "I want a dog" / "I have a dog", "My son is scared of dogs" / "... used to be"
  const mode = otherMode(oldS, newS) ?? otherTense(oldS.text, newS.text);
  // the same state said, then said to be over ("I play the guitar." / "I used to play the guitar.", "I have a dog." /
  // "I had a dog."): it ended, and the later word stands; the other way round, or a wish, stays two facts
  // (the old statement said again whole, every content word of it: "It was fun to plant tomatoes" ends no "I love my garden")
  // (or what it did said to be over, its details aside: "I smoke about ten cigarettes a day." / "I used to smoke, but I quit.")
  if (mode === 'so / over' && topical && asserting && !additive && oldKeys.size > 0 && ([...oldKeys].every((k) => newKeys.has(k)) || usedToDo(oldS.text, newS.text))) {
    return { kind: 'corrects', rule: 'state-over', detail: mode };
  }
  if (mode) return { kind: 'distinct', rule: 'modality', detail: mode };
  return { kind: 'compatible' };
}

/** The words each side says and the other does not, of those `own` keeps: [the old side's, the new side's]. */
function eachAlone(oldKeys: ReadonlySet<string>, newKeys: ReadonlySet<string>, own: (k: string) => boolean): [string[], string[]] {
  return [[...oldKeys].filter((k) => !newKeys.has(k) && own(k)), [...newKeys].filter((k) => !oldKeys.has(k) && own(k))];
}


/** The verbs of how one has a thing ("I take my coffee …"), and the words dating the present: not what changed. */
const MANNER_VERBS = new Set(['like', 'take', 'have', 'drink', 'eat', 'prefer', 'want', 'order', 'rather', 'usually', 'always'].map(key));
const NOW_WORDS = new Set(['now', 'days', 'day', 'these', 'nowadays', 'currently', 'lately'].map(key));

/** A state or habit told as over ("I used to live in Glasgow"). */
const USED_TO = /\bused to\b/;
/** The doings asked to stop, as keys ("Please stop using bullet points" -> use). */
function stoppedDoing(text: string): string[] {
  return [...norm(text).matchAll(/\bstop ([a-z]{2,}ing)\b/g)].map((m) => key(m[1]!));
}

/** A birth told ("was born"): when and where it was does not change. */
const BORN = /\b(?:was|were|is|am|are|'s|'m) born\b/;

/** A statement told in the past ("I had knee surgery in March.", "We got the flu shot."): an event, not a state held now. */
const PAST_EVENT = /^(?:i|we|he|she|they|(?:my|our) \w+) (?:had|got|was|were|did|\w{3,}ed)\b/;

/** Verbs that take another verb after "to" ("need to", "prefer to", "want to"), as said in the text. */
function catenatives(text: string): string[] {
  const t = toks(text);
  return t.filter((w, i) => t[i + 1] === 'to' && CATENATIVE.has(lemma(w)));
}
const CATENATIVE = new Set(['need', 'want', 'prefer', 'like', 'love', 'hate', 'try', 'plan', 'hope', 'intend', 'mean', 'wish', 'have', 'get']);

/** The numbers a value is written with, in digits or words: "7am" -> 7, "10 hours" -> 10, "Two" -> 2. */
function numbersIn(v: Value): number[] {
  return (v.raw.match(/\d+(?:\.\d+)?|[a-z]+(?:-[a-z]+)?/gi) ?? []).map((w) => (/^\d/.test(w) ? Number(w) : numberWord(w))).filter((n): n is number => n !== null);
}

/** Two stretches that say different things: content words on both sides, not one word for its synonym. */
function exchanged(a: readonly string[], b: readonly string[]): boolean {
  const content = (ws: readonly string[]) => ws.filter((w) => !STOP_WORDS.has(w) && !NEGATIONS.has(w));
  const [ca, cb] = [content(a), content(b)];
  if (ca.length === 0 || cb.length === 0) return false;
  return !(ca.length === 1 && cb.length === 1 && synonyms(ca[0]!, cb[0]!));
}

/** The preposition or adverb said right after a word, if any ("goes to" -> "to"): a verb's particle. */
function particleAfter(text: string): (w: string) => string | undefined {
  const t = toks(text);
  return (w) => {
    const next = t[t.indexOf(w) + 1];
    return next !== undefined && STOP_WORDS.has(next) ? next : undefined;
  };
}
