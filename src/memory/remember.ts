import { ensureLexicon } from '../core/lexicon.js';
import { whileReading } from '../core/readings.js';
import { randomUUID } from 'node:crypto';
import { normalizeText, showsNothing, trimInvisible } from '../core/normalize.js';
import { deriveEntities, deriveNames } from '../core/derive.js';
import { deciding, readIncoming, type Decision, type Incoming } from '../core/recognition.js';
import { mergeInto } from '../core/merge.js';
import { isTimedType } from '../core/cleanup-selection.js';
import { hasTime } from '../core/occasions.js';
import { norm, normalize, parseVector, VectorFormatError } from '../core/vectors.js';
import type { MemoryType, Tier } from '../core/types.js';
import type { KeptWording, MemoryEvent, MemoryHead, MemoryRecord, NewEvent, NewMemory, Reinforcement, Tx } from '../ports/memory-store.js';
import { actorLabel, type Actor, type MemoryDeps } from './deps.js';
import { assertStillSaid, checkQuoteIn, conversationWithTranscript, TRANSCRIPT_WINDOW } from './conversations.js';
import { InvalidInputError, quoteRefusal } from './errors.js';
import { lexicalText } from './lexical.js';
import { wordingParts } from './lexicon-rebuild.js';
import { indexStored, prepareSearch, vectorWithMemory } from './indexing.js';
import { gatherCandidates, previousSentenceKept, type FirstRead } from './candidates.js';
import { correctionEvents, supersede, type Supersedes } from './supersede.js';
import { inTurns } from './turns.js';

export interface RememberInput {
  conversationId: string;
  quote: string;
  type: MemoryType;
  entities?: string[];
  themes?: string[];
  tags?: string[];
  importance?: number | null;
  valence?: number | null;
  /** A client-supplied fingerprint, in any accepted form (array, Float32Array, "[...]" text). */
  vector?: unknown;
  startsAt?: Date | null;
  endsAt?: Date | null;
  dueAt?: Date | null;
  allDay?: boolean | null;
}

export type RememberResult =
  | { outcome: 'CREATED'; memory: MemoryRecord }
  | { outcome: 'REINFORCED'; memory: MemoryRecord; tier: Tier; score: number }
  | { outcome: 'CORRECTED'; memory: MemoryRecord; superseded: MemoryRecord; rule: string; score: number | null };

const MAX_LIST = 50;

/** A list as kept: each value trimmed of whitespace and invisible characters; values that were nothing else are dropped. */
function cleanList(field: string, xs: string[] | undefined): string[] {
  // (a value that shows nothing names nothing: a lone combining mark, a Hangul filler)
  const out = (xs ?? []).map(trimInvisible).filter((x) => !showsNothing(x));
  if (out.length > MAX_LIST) throw new InvalidInputError(field, `at most ${MAX_LIST} values`);
  if (out.some((x) => x.length > 200)) throw new InvalidInputError(field, 'values are limited to 200 characters');
  return out;
}

function checkRange(field: string, v: number | null | undefined, lo: number, hi: number): number | null {
  if (v == null) return null;
  if (!Number.isFinite(v) || v < lo || v > hi) throw new InvalidInputError(field, `must be between ${lo} and ${hi}`);
  return v;
}

/** A time span that ends before it starts is refused (an appointment from 15:00 to 14:00 says nothing). */
function checkPeriod(startsAt: Date | null | undefined, endsAt: Date | null | undefined): void {
  if (startsAt && endsAt && startsAt.getTime() > endsAt.getTime()) {
    throw new InvalidInputError('endsAt', `ends (${endsAt.toISOString()}) before it starts (${startsAt.toISOString()})`);
  }
}

/** Embeds one text; a failure is reported, not thrown: the memory is kept with embeddingStatus MISSING. */
export async function embedOrMissing(deps: MemoryDeps, text: string): Promise<{ vector: Float32Array | null; error?: unknown }> {
  try {
    const [v] = await deps.embedder.embed([text]);
    return { vector: parseVector(v, deps.embedder.dimensions) };
  } catch (error) {
    return { vector: null, error };
  }
}

/**
 * Keeps a sentence the person typed: checks the quote against the conversation's
 * transcript, then recognises it (reinforce / correct / create) and writes it under the
 * space's write lock, recognising again under the lock if the space changed meanwhile,
 * so two concurrent restatements never make two memories.
 */
export function remember(deps: MemoryDeps, actor: Actor, input: RememberInput): Promise<RememberResult> {
  return whileReading(() => keep(deps, actor, input));
}

async function keep(deps: MemoryDeps, actor: Actor, input: RememberInput): Promise<RememberResult> {
  // Without a caller's vector, the quote goes to the embedder (its worker thread) at once, while the
  // conversation is read and the quote checked. The memory keeps the transcript's own words, so this
  // embedding is used only if they are the caller's quote to the character (nearly always); a quote
  // refused is embedded for nothing (nothing is kept: the embedder's cache is in memory).
  const embeddingNow = input.vector == null && typeof input.quote === 'string' ? embedOrMissing(deps, input.quote) : null;
  const read = await conversationWithTranscript(deps, actor, input.conversationId, TRANSCRIPT_WINDOW);
  const { conversation } = read;
  const spaceId = conversation.spaceId;
  // WordNet's opposites and synonyms (loaded once); should it fail to load, the general rules decide alone
  await ensureLexicon().catch((e: unknown) => deps.log.warn({ cause: String(e) }, 'WordNet lexicon not loaded: deciding without it'));
  const entities = cleanList('entities', input.entities);
  const themes = cleanList('themes', input.themes);
  const tags = cleanList('tags', input.tags);
  const importance = checkRange('importance', input.importance, 0, 1);
  const valence = checkRange('valence', input.valence, -1, 1);
  let clientVector: Float32Array | null = null;
  if (input.vector != null) {
    try {
      clientVector = parseVector(input.vector, deps.embedder.dimensions);
    } catch (e) {
      if (e instanceof VectorFormatError) throw new InvalidInputError('vector', e.message);
      throw e;
    }
    // A vector of length 0 has no direction: its cosine with anything is undefined (0/0).
    const length = norm(clientVector);
    if (!(length > 0) || !Number.isFinite(length)) throw new InvalidInputError('vector', 'a zero vector (or one of infinite length) has no direction: give a vector with a finite, non-zero length');
    // Kept at unit length (cosine, the only measure used, is the same): components near float32's
    // ends (512 × 3e38, or 512 × 1e-45) overflowed or vanished in the engines' float32 sums of
    // squares, and their scores came back NaN ("Unexpected error." in recall) or 1 for anything.
    clientVector = normalize(clientVector);
  }
  checkPeriod(input.startsAt, input.endsAt);

  const { check, transcript } = await checkQuoteIn(deps, read, input.quote);
  if (!check.ok) {
    // Bad input changes nothing, not even the event log: the refusal is the typed error, and a log line.
    deps.log.info({ spaceId, actor: actorLabel(actor), reason: check.reason }, 'quote refused');
    throw quoteRefusal(check.reason, check.detail);
  }

  const normalized = normalizeText(check.quote);
  // Recognition runs before the space's lock (docs/concurrency.md): the search, the candidates'
  // records and the rules hold no lock, so writes of the space wait only for the write itself.
  // Every writer of a space holds its lock and records events in the same transaction, so the
  // space's last event id, read with the transcript (before the quote was checked and recognised)
  // and again under the lock, tells whether anything was written in between; if so, recognition
  // runs again under the lock, as before. The exact-text matches are recognition's first read,
  // made while the quote is embedded, with the vector engine's read-ahead (`prepareSearch`).
  // A timed statement's window (src/core/occasions.ts), with the space's time zone: an all-day window is a local date.
  const window = { startsAt: input.startsAt ?? null, endsAt: input.endsAt ?? null, dueAt: input.dueAt ?? null, allDay: input.allDay ?? false };
  const timed = isTimedType(input.type) && hasTime(window);
  const [embedded, start, timeZone] = await Promise.all([
    clientVector ? { vector: clientVector } : embeddingNow && check.quote === input.quote ? embeddingNow : embedOrMissing(deps, check.quote),
    // (with a client's vector too: a search finding its copy behind would catch up and rank again)
    // and, while the embedder works, the quote read as the rules will read it (not with a client's vector: nothing to wait for)
    deps.store.recognitionStart(spaceId, 'STATEMENT', normalized, { messageId: check.messageId, quote: check.quote }).then(async (st) => {
      // While the embedder works, also the statuses the search will not want (the engine may read
      // them ahead, then the search reads none); with a client's vector nothing is waited for.
      await prepareSearch(deps, spaceId, 'STATEMENT', clientVector ? undefined : ['ACTIVE'], true);
      // The statement kept from the sentence before the quote in its message (the next-sentence
      // correction's candidate), which needs no vector: read here too, after the last event id as the rest.
      const sameMessage = await previousSentenceKept(deps, undefined, spaceId, check.messageId, check.previousSentence);
      // (a reading that fails here fails again where the rules ask for it, as it did before)
      if (!clientVector) try { readIncoming(check.quote, entities); } catch { /* read by the rules */ }
      return { ...st, sameMessage };
    }),
    timed ? deps.store.getSpaces([spaceId]).then(([space]) => space?.timeZone ?? 'UTC') : null,
  ]);
  // A retry (the same sentence of the same message, kept already, whatever became of its memory since:
  // corrected, muted, merged): the answer the first call gave, nothing written (docs/recognition.md).
  const retried = start.kept ? await answeredBefore(deps, undefined, spaceId, start.kept) : null;
  if (retried) return retried;
  const vector = embedded.vector;
  const now = deps.clock.now();
  const saidAt = check.at;
  // The message just before the source message (often the question it answers: "Where did you
  // grow up?" / "Duluth."): searchable context, never returned as the person's words.
  const at = transcript.findIndex((m) => m.id === check.messageId);
  const preceding = at > 0 ? transcript[at - 1].text : null;
  // What this wording gives the lexicon; the same rule rebuilds it later (lexicon-rebuild.ts).
  const wording = wordingParts(check.quote, check.message, preceding);
  const context = wording[1];

  // The quote's derived entities are read only if a candidate within the rules' reach asks for them (cached by text).
  const quote = check.quote;
  const subject: Incoming = {
    text: quote, normalized, type: input.type, entities, themes,
    get derivedEntities() { return deriveEntities(quote); },
    get derivedNames() { return deriveNames(quote); },
    previousSentence: check.previousSentence, messageId: check.messageId,
    said: timeZone ? { window, saidAt, timeZone } : undefined,
  };
  const recognise = async (tx: Tx | undefined, firstRead?: FirstRead): Promise<{ decision: Decision; records: Map<string, MemoryHead> }> => {
    const { candidates, far, records } = await gatherCandidates(deps, tx, spaceId, normalized, vector, check.messageId, check.previousSentence, firstRead);
    return { decision: await inTurns('rules', deciding(subject, candidates, deps.thresholds, far)), records };
  };
  // The space's last event id, read with the transcript (one statement): a forget after the quote
  // was checked, or any other write, moves it; the write then checks the quote and recognises again.
  const seen = read.lastEventId;
  const early = await recognise(undefined, start);

  const actorName = actorLabel(actor);
  /** What each write's events say of the decision: the first candidates it weighed. */
  const detailOf = (decision: Decision) => ({ considered: decision.considered.slice(0, 5) });
  const newStatement = (decision: Decision, supersedes: NewStatement['supersedes']): NewStatement => ({
    spaceId, actor: actorName, detail: detailOf(decision), input, quote: check.quote, normalized,
    conversationId: conversation.id, messageId: check.messageId, context, preceding: wording[2] ?? null, saidAt, importance, valence, entities, themes, tags,
    vector, embedError: (embedded as { error?: unknown }).error, supersedes,
  });
  const reinforcement = (decision: Extract<Decision, { action: 'reinforce' }>, target: MemoryHead): Reinforcement => ({
    memoryId: target.id, ...mergeInto(target, { importance, valence, entities, themes, tags, lastMentionedAt: saidAt }),
    lexicalText: lexicalText([...wording, ...entities, ...themes]),
    mention: { id: randomUUID(), quote: check.quote, conversationId: conversation.id, messageId: check.messageId, saidAt, tier: decision.tier, score: decision.score },
    events: [{ spaceId, actor: actorName, detail: detailOf(decision), memoryId: target.id, kind: 'REINFORCED', tier: decision.tier, score: decision.score, rule: null, relatedId: null }],
  });
  const reinforced = (decision: Extract<Decision, { action: 'reinforce' }>, written: MemoryRecord & { events?: MemoryEvent[] }) => {
    const { events: ev, ...memory } = written;
    return { result: { outcome: 'REINFORCED', memory, tier: decision.tier, score: decision.score } as RememberResult, events: ev ?? [] };
  };
  // Where the store runs one statement at a time (PGlite), a new fact or a reinforcement is written by
  // one statement that checks itself that nothing was written in the space since `seen`: the lock's
  // check and the write at once, without a transaction (docs/concurrency.md). If something was, it
  // writes nothing and the lock's way follows. A correction (two writes) always takes the lock.
  const writeUnlocked = async (): Promise<{ result: RememberResult; events: MemoryEvent[] } | null> => {
    const d = early.decision;
    if (d.action === 'create' && deps.store.insertMemoryIfUnchanged && (!vector || deps.index.capabilities.storeVectors)) {
      const w = await storeNewStatement(deps, null, newStatement(d, null), seen);
      return w && { result: { outcome: 'CREATED', memory: w.memory }, events: w.events };
    }
    const target = d.action === 'reinforce' ? early.records.get(d.targetId) : undefined;
    if (d.action === 'reinforce' && target && deps.store.reinforceIfUnchanged) {
      const w = await deps.store.reinforceIfUnchanged(seen, reinforcement(d, target), spaceId);
      return w && reinforced(d, w);
    }
    return null;
  };
  const unlocked = deps.store.oneStatementAtATime === true ? await writeUnlocked() : null;

  const { result, events } = unlocked ?? await deps.store.withSpaceLock(spaceId, async (tx) => {
    const moved = (await deps.store.lastEventId(spaceId, tx)) !== seen;
    if (moved) await assertStillSaid(deps, tx, conversation.id, input.quote, check);
    // (a retry racing this one may have kept the sentence since the first read: its answer, nothing written)
    const kept = moved ? await deps.store.keptWording(tx, spaceId, check.messageId, check.quote) : null;
    const raced = kept ? await answeredBefore(deps, tx, spaceId, kept) : null;
    if (raced) return { result: raced, events: [] };
    const { decision } = moved ? await recognise(tx) : early;

    if (decision.action === 'reinforce') {
      // The target as recognition read it, when nothing was written in the space since (its lists and
      // counters change only under this lock, with an event); read again otherwise.
      const old = decision === early.decision ? early.records.get(decision.targetId) ?? null : null;
      const target = old ?? (await deps.store.getMemories([decision.targetId], spaceId, tx))[0]!;
      return reinforced(decision, await deps.store.reinforce(tx, reinforcement(decision, target), spaceId));
    }

    // The event's reason names the rule, never the rules' detail: it quotes the values, and the event log holds no words.
    const supersedes = decision.action === 'correct'
      ? { id: decision.targetId, rule: decision.rule, score: decision.score, reason: `recognised by the ${decision.rule} rule` } : null;
    // A correction said before the memory it would correct (remembered out of the order things were said:
    // another conversation's, another instance's) does not undo it: the later word stands, and this one is
    // kept as what it replaced, superseded by it from the start (docs/corrections.md, "Said before").
    if (supersedes) {
      const target = (decision === early.decision ? early.records.get(supersedes.id) : undefined) ?? (await deps.store.getMemoryHeads([supersedes.id], spaceId, tx))[0];
      if (target && await saidAfter(deps, tx, target, saidAt, check.messageId)) {
        const { memory, events: ev } = await storeNewStatement(deps, tx, {
          ...newStatement(decision, null), supersededBy: { ...supersedes, reason: `said before it, recognised by the ${supersedes.rule} rule` },
        });
        return { result: { outcome: 'CREATED', memory } as RememberResult, events: ev };
      }
    }
    const { memory, events: ev } = await storeNewStatement(deps, tx, newStatement(decision, supersedes));
    // The new memory is returned as written; only a superseded one is read again (its status changed).
    const [superseded] = decision.action === 'correct' ? await deps.store.getMemories([decision.targetId], spaceId, tx) : [];
    const result: RememberResult = decision.action === 'correct'
      ? { outcome: 'CORRECTED', memory, superseded: superseded!, rule: decision.rule, score: decision.score }
      : { outcome: 'CREATED', memory };
    return { result, events: ev };
  });

  deps.outbox?.kick();
  logDecision(deps, result, embedded);
  deps.bus.publish(events);
  return result;
}

/** What `storeNewStatement` writes. */
export interface NewStatement {
  spaceId: string; actor: string; detail: Record<string, unknown> | null; input: Pick<RememberInput, 'type' | 'startsAt' | 'endsAt' | 'dueAt' | 'allDay'>;
  quote: string; normalized: string; conversationId: string; messageId: string; context: string | null;
  /** The message before the source message, for the lexical index only. */
  preceding?: string | null; saidAt: Date;
  importance: number | null; valence: number | null; entities: string[]; themes: string[]; tags: string[];
  vector: Float32Array | null; embedError?: unknown;
  supersedes: Supersedes | null;
  /** A correction that arrived after the one it would correct: the memory (said later) that supersedes this one from the start. */
  supersededBy?: Supersedes;
}


type Stored = { id: string; memory: MemoryRecord; events: MemoryEvent[] };
/**
 * Writes a new statement (and, for a correction, supersedes the old one) with its events:
 * the memory, its vector and its events are one statement (`insertMemory`); a correction adds
 * the status change. Returns the events as written. With `unchangedSince` (and `tx` null: only
 * where the store runs one statement at a time, a new statement that supersedes nothing, and a
 * vector the store's write indexes), the write checks the space's last event id itself and
 * returns null, nothing written, if it moved.
 */
export async function storeNewStatement(deps: MemoryDeps, tx: Tx, a: NewStatement): Promise<Stored>;
export async function storeNewStatement(deps: MemoryDeps, tx: null, a: NewStatement, unchangedSince: number): Promise<Stored | null>;
export async function storeNewStatement(deps: MemoryDeps, tx: Tx | null, a: NewStatement, unchangedSince?: number): Promise<Stored | null> {
  const id = randomUUID();
  const { spaceId } = a;
  const base = { spaceId, actor: a.actor, detail: a.detail };
  const evs: NewEvent[] = [{ ...base, memoryId: id, kind: 'CREATED', tier: null, score: null, rule: null, relatedId: null }];
  if (!a.vector) {
    evs.push({ ...base, memoryId: id, kind: 'EMBEDDING_MISSING', tier: null, score: null, rule: null, relatedId: null, detail: { error: String(a.embedError ?? 'unknown') } });
  }
  const s = a.supersedes;
  if (s) evs.push(...correctionEvents(base, id, s));
  const late = a.supersededBy;
  if (late) evs.push(...correctionEvents(base, late.id, { ...late, id }));
  const row: NewMemory = {
    id, spaceId, kind: 'STATEMENT', type: a.input.type, quote: a.quote, normalized: a.normalized, conversationId: a.conversationId,
    messageId: a.messageId, context: a.context, basis: null, saidAt: a.saidAt, startsAt: a.input.startsAt ?? null,
    endsAt: a.input.endsAt ?? null, dueAt: a.input.dueAt ?? null, allDay: a.input.allDay ?? false, importance: a.importance,
    valence: a.valence, entities: a.entities, themes: a.themes, tags: a.tags, embeddingStatus: a.vector ? 'OK' : 'MISSING', review: null,
    lexicalText: lexicalText([a.quote, a.context, a.preceding, ...a.entities, ...a.themes]),
    vector: vectorWithMemory(deps, a.vector), events: evs,
  };
  let written: (MemoryRecord & { events?: MemoryEvent[] }) | null;
  if (tx === null) {
    if (unchangedSince === undefined || s || late || !deps.store.insertMemoryIfUnchanged || (a.vector && !deps.index.capabilities.storeVectors)) {
      throw new Error('storeNewStatement without a transaction: only a new statement the store indexes, checked against the last event id');
    }
    written = await deps.store.insertMemoryIfUnchanged(unchangedSince, row);
    if (!written) return null;
  } else written = await deps.store.insertMemory(tx, row);
  const { events, ...memory } = written;
  // (without a transaction only the store's own copy indexes the vector: `stored` takes no transaction)
  if (a.vector) await indexStored(deps, tx as Tx, { memoryId: id, spaceId, kind: 'STATEMENT', status: 'ACTIVE', vector: a.vector });
  if (s && tx) await supersede(deps, tx, spaceId, s.id, id);
  if (late && tx) {
    await supersede(deps, tx, spaceId, id, late.id);
    return { id, memory: (await deps.store.getMemories([id], spaceId, tx))[0]!, events: events ?? [] };
  }
  return { id, memory, events: events ?? [] };
}

/**
 * What a remember that kept this sentence answered: `CREATED` with the memory when the wording was
 * its first, else `REINFORCED` with the wording's tier and score; null when the memory is gone.
 */
async function answeredBefore(deps: MemoryDeps, tx: Tx | undefined, spaceId: string, kept: KeptWording): Promise<RememberResult | null> {
  const [memory] = await deps.store.getMemories([kept.memoryId], spaceId, tx);
  if (!memory) return null;
  return kept.tier === 'ORIGINAL' ? { outcome: 'CREATED', memory } : { outcome: 'REINFORCED', memory, tier: kept.tier, score: kept.score ?? 1 };
}

/**
 * Whether `target` was said after the statement said at `saidAt` in `messageId`: by the messages'
 * times, and at equal times by the order they were recorded in (a conversation imported with one
 * time for all its messages still has an order).
 */
async function saidAfter(deps: MemoryDeps, tx: Tx, target: MemoryHead, saidAt: Date, messageId: string): Promise<boolean> {
  const [a, b] = [target.saidAt.getTime(), saidAt.getTime()];
  if (a !== b || !target.messageId || target.messageId === messageId) return a > b;
  const order = await deps.store.messageOrder(tx, [target.messageId, messageId]);
  return (order.get(target.messageId) ?? 0) > (order.get(messageId) ?? 0);
}

function logDecision(deps: MemoryDeps, r: RememberResult, embedded: { vector: Float32Array | null; error?: unknown }): void {
  if (!embedded.vector) {
    deps.log.warn({ memoryId: r.memory.id, cause: String(embedded.error) }, 'embedding missing: memory stored without a vector');
  }
  if (r.outcome === 'REINFORCED') deps.log.info({ memoryId: r.memory.id, tier: r.tier, score: r.score }, 'memory reinforced');
  else if (r.outcome === 'CORRECTED') deps.log.info({ memoryId: r.memory.id, supersedes: r.superseded.id, rule: r.rule, score: r.score }, 'memory corrected');
  else deps.log.info({ memoryId: r.memory.id }, 'memory created');
}

export type { Decision, MemoryEvent };
