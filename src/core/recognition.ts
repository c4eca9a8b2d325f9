/**
 * Recognition: does a new statement restate a memory already in its space,
 * correct one, or say something new? Pure: the caller supplies the candidates
 * (exact matches and vector neighbours with their scores) and the rules.
 * See docs/recognition.md.
 */
import type { MemoryType, Tier } from './types.js';
import type { Relation, StatementLike } from './conflicts.js';
import { relate, sameSentence, sharedSlot } from './conflicts.js';
import { contentKeys } from './words.js';
import { elaborates, sameButToldBefore, sameContact, sameDayAndTime, sameFrameValue, sameNickname, sameOccasion, sameValueSaid, sameValueSameThings, toldBefore } from './meeting.js';
import { core, negatedHeads, stance } from './polarity.js';
import { deriveEntities, deriveNames } from './derive.js';
import { clauses, contentKeys as conflictKeys } from './conflict-words.js';
import { findCues } from './correction-cues.js';
import { bothOwn, ownAndUnsaid, partOfName, sharesName, sharesPersonName } from './names-said.js';
import { clauseRestates } from './clause-restates.js';
import { extractValues } from './values.js';
import { slots, valuesOf, wordSet } from './slots.js';
import { objects } from './multi-valued.js';
import { subjects } from './subjects.js';
import { assertions, vocatives } from './addressing.js';
import { movedDetail, occasion, type SaidWhen, type TimeWindow } from './occasions.js';

/** Read by recognition, kept in files of their own (names-said.ts, clause-restates.ts). */
export { clauseRestates, sharesName, sharesPersonName };

export interface Thresholds {
  close: number;
  related: number;
  topic: number;
  /** Clearly related at all (the recall relevance floor): the least a clause restatement needs. */
  recallFloor: number;
}

export interface Incoming {
  text: string;
  normalized: string;
  type: MemoryType;
  entities: string[];
  themes: string[];
  /** Entities the server read from the quote itself (src/core/derive.ts), kept apart from the caller's. */
  derivedEntities?: string[];
  /** Of those, the names, dates and quantities only: what may let two wordings meet as one fact. */
  derivedNames?: string[];
  /** The sentence just before the quote in the same message (next-sentence corrections). */
  previousSentence: string | null;
  messageId: string | null;
  /** The time window the caller gave (a timed type only), when it was said, the space's time zone (src/core/occasions.ts). */
  said?: SaidWhen;
}

export interface Candidate {
  id: string;
  text: string;
  normalized: string;
  type: MemoryType;
  entities: string[];
  themes: string[];
  /** Entities the server read from the memory's quote (src/core/derive.ts). */
  derivedEntities?: string[];
  derivedNames?: string[];
  messageId: string | null;
  /** The memory's time window (src/core/occasions.ts): the same words at another time may be another occasion. */
  window?: TimeWindow;
  /** When the memory was said (an occasion may be told late: src/core/occasions.ts). */
  saidAt?: Date;
  /** Vector similarity with the incoming statement; null when only found another way. */
  score: number | null;
}

export type Decision =
  | { action: 'reinforce'; targetId: string; tier: Tier; score: number; considered: Considered[] }
  | { action: 'correct'; targetId: string; rule: string; detail: string; score: number | null; considered: Considered[] }
  | { action: 'create'; considered: Considered[] };

/** Why each candidate was or was not taken: kept for the event log. */
export interface Considered {
  id: string;
  score: number | null;
  /** `far`: below every threshold and not the sentence just before: no rule could take it, none ran. */
  relation: Relation['kind'] | 'far';
  rule?: string;
}

/**
 * Reads a new statement as the rules will read it (each reading is cached by its text:
 * derived entities, content words, cues, values, predicate core): a caller with time to
 * spare (remember, while the quote is embedded) calls it first, so `decide` finds the
 * readings made. Pure: the decision is the same either way; only when the work is done moves.
 */
export function readIncoming(text: string, entities: string[] = []): void {
  // the statement as `decide` builds it (the caller's entities, then the derived ones): its values and words
  const statement = { text, entities: allEntities({ entities, derivedEntities: deriveEntities(text) }) };
  valuesOf(statement);
  wordSet(statement);
  deriveNames(text);
  contentKeys(text);
  conflictKeys(text);
  clauses(text);
  findCues(text);
  extractValues(text);
  core(text);
  negatedHeads(text);
  subjects(text);
  vocatives(text);
  assertions(text);
  objects(text);
  slots(text, NO_NAMES);
}

const NO_NAMES: ReadonlySet<string> = new Set();

/** The lowest score any rule weighs: below it a candidate is out of reach by its score alone. */
export function reachFloor(t: Thresholds): number {
  return Math.min(t.close, t.related, t.topic, t.recallFloor);
}

/**
 * Whether the rules can make anything of a candidate: a candidate whose score is below every
 * threshold can be neither reinforced (every tier needs one of them) nor topical, and a
 * candidate that is not topical can be corrected only by the very next sentence of the same
 * message. Anything else is `far`: `decide` records it without running a rule, so the caller
 * need not derive its entities either (the answer is the same; only the work is saved).
 */
export function withinReach(incoming: Pick<Incoming, 'normalized' | 'previousSentence'>, c: Pick<Candidate, 'normalized' | 'score' | 'text'>, t: Thresholds): boolean {
  if (c.normalized === incoming.normalized) return true;
  if ((c.score ?? 0) >= reachFloor(t)) return true;
  return !!incoming.previousSentence && sameSentence(incoming.previousSentence, c.text);
}

const lc = (xs: string[]) => new Set(xs.map((x) => x.trim().toLowerCase()).filter(Boolean));

interface Hinted { entities: string[]; themes: string[]; derivedEntities?: string[] }

/** The caller's entities and the derived ones: either may meet either. */
export function allEntities(a: { entities: string[]; derivedEntities?: string[] }): string[] {
  return a.derivedEntities?.length ? [...a.entities, ...a.derivedEntities] : a.entities;
}

export function sharesEntityOrTheme(a: Hinted, b: Hinted): boolean {
  const ta = lc(a.themes);
  return sharesEntity(a, b) || b.themes.some((t) => ta.has(t.trim().toLowerCase()));
}

export function sharesEntity(a: { entities: string[]; derivedEntities?: string[] }, b: { entities: string[]; derivedEntities?: string[] }): boolean {
  const all = allEntities(a);
  const ea = lc(all);
  const bs = allEntities(b);
  if (bs.some((e) => ea.has(e.trim().toLowerCase()))) return true;
  return all.some((x) => bs.some((y) => partOfName(x, y)));
}

function toStatement(c: { text: string; type: MemoryType } & Hinted, prev: string | null = null): StatementLike {
  return { text: c.text, type: c.type, entities: allEntities(c), themes: c.themes, previousSentence: prev };
}

/**
 * Types one statement can be corrected across (docs/recognition.md, "Types are walls"): what is and what happened
 * (FACT, EVENT: "I pay for Netflix." / "Cancelled Netflix last night."), what the person likes and what they ask of
 * the assistant (PREFERENCE, INSTRUCTION: "I like short answers." / "Give me detailed answers from now on."). Not a
 * wish against a fact, nor an appointment against a task: those stay walled.
 */
const AKIN: ReadonlyArray<ReadonlySet<MemoryType>> = [new Set<MemoryType>(['FACT', 'EVENT']), new Set<MemoryType>(['PREFERENCE', 'INSTRUCTION'])];
export function akinTypes(a: MemoryType, b: MemoryType): boolean {
  return AKIN.some((s) => s.has(a) && s.has(b));
}

/** A neighbour the caller already knows is out of the rules' reach (`withinReach`), passed by id and score only. */
export interface FarCandidate { id: string; score: number | null }

/**
 * Decides what a new statement does. Precedence: a correction always wins (it is
 * never merged into what it corrects, whatever the score); then the best
 * reinforcement (EXACT, then CLOSE, then RELATED by score); otherwise create.
 */
export function decide(incoming: Incoming, candidates: Candidate[], t: Thresholds, far: readonly FarCandidate[] = []): Decision {
  const steps = deciding(incoming, candidates, t, far);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * `decide`, one candidate at a time: the generator pauses before weighing each candidate after the
 * first, and returns the decision. The use case lets the event loop run between candidates (src/memory/
 * turns.ts): each candidate costs time linear in both texts' lengths, and ten memories of 20,000
 * characters against a quote as long held every space's requests for 0.5 s (12 s before the forty-fifth
 * round's rules). The same decision as `decide`, however often it pauses.
 */
export function* deciding(incoming: Incoming, candidates: Candidate[], t: Thresholds, far: readonly FarCandidate[] = []): Generator<void, Decision, void> {
  const considered: Considered[] = [];
  // The new statement as the conflict rules read it: built for the first candidate within reach (it reads the derived entities).
  let nextOnce: StatementLike | undefined;
  const next = () => (nextOnce ??= toStatement(incoming, incoming.previousSentence));
  let correction: { c: Candidate; rel: Extract<Relation, { kind: 'corrects' }> } | null = null;
  let best: { c: Candidate; tier: Tier; score: number } | null = null;
  const tierRank: Record<Tier, number> = { EXACT: 3, CLOSE: 2, RELATED: 1 };

  let first = true;
  for (const c of candidates) {
    if (!first) yield;
    first = false;
    // The caller's times, when both sides give one: another occasion is not this memory at all; a
    // moved one is the same thing said at another time, which corrects it where it would restate it.
    const when = incoming.said && c.window && c.type === incoming.type ? occasion(c.type, c.window, incoming.said, c.saidAt) : 'unsaid';
    if (when === 'another') {
      considered.push({ id: c.id, score: c.score, relation: 'distinct', rule: 'another-occasion' });
      continue;
    }
    const moved = (): void => {
      const rule = when === 'precise' ? 'precise-time' : 'new-time';
      considered.push({ id: c.id, score: c.score, relation: 'corrects', rule });
      if (!correction || (c.score ?? 1) > (correction.c.score ?? 0)) {
        correction = { c, rel: { kind: 'corrects', rule, detail: movedDetail(c.window!, incoming.said!, when === 'precise') } };
      }
    };
    const exact = c.normalized === incoming.normalized;
    if (exact) {
      if (when === 'moved' || when === 'precise') { moved(); continue; }
      considered.push({ id: c.id, score: 1, relation: 'compatible', rule: 'exact' });
      if (!best || tierRank[best.tier] < 3) best = { c, tier: 'EXACT', score: 1 };
      continue;
    }
    if (!withinReach(incoming, c, t)) {
      considered.push({ id: c.id, score: c.score, relation: 'far' });
      continue;
    }
    const score = c.score ?? 0;
    const sameType = c.type === incoming.type;
    // (a correction may come as the other type of its pair: an ending told as an event corrects a fact, "I pay for
    // Netflix." (FACT) / "Cancelled Netflix last night." (EVENT); a restatement still needs the same type)
    const akin = sameType || akinTypes(c.type, incoming.type);
    // Reinforcement meets by the caller's entities and themes and the derived names only: derived
    // common nouns are shared by contradictions too ("A dog is running" / "A dog is resting").
    const named = (x: Candidate | Incoming) => ({ entities: x.entities, themes: x.themes, derivedEntities: x.derivedNames });
    // Without hints, a derived noun counts when one statement elaborates the other, and a value said on both sides counts
    // (src/core/meeting.ts). Read only when a score needs it (pure: the same answer, read later or never).
    let sharedOnce: boolean | undefined;
    const shared = () => (sharedOnce ??= sharesEntityOrTheme(named(c), named(incoming)) || sameValueSaid(c.text, incoming.text)
      || (sharesEntity(c, incoming) && elaborates(c.text, incoming.text)));
    // About the same thing: close enough on its own, or sharing an entity (derived ones included), a
    // theme or a single-valued slot ("I work at Acme." / "I just started a new job at Globex.") and at least clearly related.
    // (or a name said in both texts, whole or in part, which the tagger may not read as an entity: "I drive a Ford Focus." / "I sold the Focus.")
    const about = () => shared() || sharesEntity(c, incoming) || sharedSlot(c.text, incoming.text) !== null || sharesName(c.text, incoming.text);
    const topical = akin && (score >= t.topic || (score >= t.recallFloor && about()));
    const rel = relate(toStatement(c), next(), topical);
    considered.push({ id: c.id, score: c.score, relation: rel.kind, rule: 'rule' in rel ? rel.rule : undefined });
    if (rel.kind === 'corrects') {
      if (!correction || (score > (correction.c.score ?? 0))) correction = { c, rel };
      continue;
    }
    if (rel.kind === 'distinct' || !sameType) continue;
    let tier: Tier | null = null;
    if (score >= t.close) tier = 'CLOSE';
    else if (score >= t.related && shared()) tier = 'RELATED';
    else if (score >= t.recallFloor && sharesEntity(named(c), named(incoming)) && clauseRestates(c.text, incoming.text)) tier = 'RELATED';
    // without a shared entity (no hints, no name), a clause restating the old memory needs a topical score and the same stance
    // as the old memory, in that clause: "I'm allergic to peanuts." / "I have a peanut allergy, so watch out for that in recipes.",
    // "I'm lactose intolerant." / "Dairy doesn't agree with me — I'm lactose intolerant."
    else if (score >= t.topic && clauseRestates(c.text, incoming.text, (clause) => stance(clause) === stance(c.text))) tier = 'RELATED';
    // the same words pointing back at their first telling: "I am married." / "I'm married, as I said."
    else if (score >= t.recallFloor && sameButToldBefore(c.text, incoming.text)) tier = 'RELATED';
    // one single-valued thing of the person's given the same value, however written: "I'm 42." / "I'm forty-two."
    else if (score >= t.recallFloor && sameFrameValue(c.text, incoming.text)) tier = 'RELATED';
    // told again in other words, saying so, about the same thing and at one with it: "I'm allergic to penicillin." / "As I
    // mentioned before, penicillin gives me an allergic reaction, so I can't take it." (the nearest such memory wins)
    else if (score >= t.topic && toldBefore(incoming.text)) tier = 'RELATED';
    // one value said of the same things, however written: "We got married on 9 September 2016." / "Our wedding day was
    // 09/09/2016." (not two things at one value: "My yoga class is at 6pm." / "My pottery class is at 6pm.")
    else if (score >= t.topic && sameValueSameThings(c.text, incoming.text)) tier = 'RELATED';
    // one number that names one thing only, given again in other words (whoever's it is was told apart above: a different
    // subject is distinct): "my KLM Flying Blue number is 2204 881 360" / "Flying Blue (KLM) membership no. 2204881360" (0.61)
    else if (score >= t.recallFloor && sameContact(c.text, incoming.text)) tier = 'RELATED';
    // one occasion of someone named on both sides, however dated: "My wife Mireille's birthday is 22 October." / "Mireille
    // was born on October 22nd.", "Dentist appointment with Dr. Okafor on 14 May at 3:30pm." / "I see Dr Okafor, my dentist, on
    // May 14th at half three in the afternoon." (scores under the topic score, over the recall floor)
    else if (score >= t.recallFloor && (sharesPersonName(c.text, incoming.text) || bothOwn(c.text, incoming.text)
      || (ownAndUnsaid(c.text, incoming.text) && sameDayAndTime(c.text, incoming.text))) && sameOccasion(c.text, incoming.text)) tier = 'RELATED';
    // the same name someone goes by, said again: "Everyone in the family calls my grandfather Pops." / "grandpa goes by 'Pops'"
    else if (score >= t.recallFloor && sameNickname(c.text, incoming.text)) tier = 'RELATED';
    if (!tier) continue;
    if (when === 'moved' || when === 'precise') {
      considered.pop();
      moved();
      continue;
    }
    if (!best || tierRank[tier] > tierRank[best.tier] || (tierRank[tier] === tierRank[best.tier] && score > best.score)) {
      best = { c, tier, score };
    }
  }
  // Far neighbours come last (the lowest scores): recorded as considered, never weighed.
  for (const f of far) considered.push({ id: f.id, score: f.score, relation: 'far' });

  if (correction) {
    return {
      action: 'correct', targetId: correction.c.id, rule: correction.rel.rule, detail: correction.rel.detail,
      score: correction.c.score, considered,
    };
  }
  if (best) return { action: 'reinforce', targetId: best.c.id, tier: best.tier, score: best.score, considered };
  return { action: 'create', considered };
}
