import { randomUUID } from 'node:crypto';
import { mergeInto } from '../core/merge.js';
import { normalizeText } from '../core/normalize.js';
import type { MemoryType } from '../core/types.js';
import type { MemoryEvent, MemoryHead, MemoryRecord, Tx } from '../ports/memory-store.js';
import { actorLabel, type Actor, type MemoryDeps } from './deps.js';
import { assertStillSaid, checkQuoteIn, conversationWithTranscript, TRANSCRIPT_WINDOW } from './conversations.js';
import { InvalidInputError, InvalidStateError, NotFoundError, quoteRefusal } from './errors.js';
import { lexicalText } from './lexical.js';
import { wordingParts } from './lexicon-rebuild.js';
import { embedOrMissing, storeNewStatement } from './remember.js';
import { correctionEvents, supersede } from './supersede.js';

/**
 * The assistant states a correction explicitly: the quote passes the same check as
 * `remember`, and `memoryId` (which stays stored) is superseded by the memory that holds
 * the corrected fact: a new memory, or the active memory that already holds this wording
 * (recognition's exact tier), which gets the wording as a mention. A memory is never
 * corrected by its own wording (docs/corrections.md, "Explicit corrections").
 */
export async function correct(
  deps: MemoryDeps, actor: Actor, input: { memoryId: string; conversationId: string; quote: string; type?: MemoryType | null },
): Promise<{ memory: MemoryRecord; superseded: MemoryRecord }> {
  // The conversation and its last messages (one statement); the whole conversation only if the quote
  // check needs it (`checkQuoteIn`, as remember's).
  const read = await conversationWithTranscript(deps, actor, input.conversationId, TRANSCRIPT_WINDOW);
  const { conversation } = read;
  const spaceId = conversation.spaceId;
  const [old] = await deps.store.getMemories([input.memoryId], spaceId);
  if (!old || old.kind !== 'STATEMENT') throw new NotFoundError('Memory', input.memoryId);
  const { check, transcript } = await checkQuoteIn(deps, read, input.quote);
  if (!check.ok) throw quoteRefusal(check.reason, check.detail);
  const normalized = normalizeText(check.quote);
  const ownWordings = new Set([old.normalized, ...(await deps.store.mentionsOf([old.id]))[0]!.map((x) => normalizeText(x.quote))]);
  if (ownWordings.has(normalized)) {
    throw new InvalidInputError('quote', `this is how memory ${old.id} already says it: a correction says something else`);
  }
  const at = transcript.findIndex((m) => m.id === check.messageId);
  const [, context, preceding] = wordingParts(check.quote, check.message, at > 0 ? transcript[at - 1]!.text : null);
  const { vector, error } = await embedOrMissing(deps, check.quote);
  const actorName = actorLabel(actor);
  const { id, events } = await deps.store.withSpaceLock(spaceId, async (tx) => {
    // A forget since the transcript was read may have redacted the quote's message: its words stay gone.
    await assertStillSaid(deps, tx, conversation.id, input.quote, check);
    const [cur] = await deps.store.getMemories([old.id], spaceId, tx);
    // (forgotten for good meanwhile: not found, as it would be a moment later)
    if (!cur) throw new NotFoundError('Memory', old.id);
    if (cur.status !== 'ACTIVE') throw new InvalidStateError(`memory ${old.id} is ${cur.status}: only a current memory can be corrected`);
    // One memory per fact: a wording an active memory already holds is that memory's, not a second copy.
    const holder = (await deps.store.findActiveByNormalized(tx, spaceId, 'STATEMENT', normalized)).find((m) => m.id !== old.id);
    if (holder) {
      const lexical = lexicalText([check.quote, context ?? null, preceding ?? null]);
      return supersedeBy(deps, tx, { spaceId, actor: actorName, old: cur, by: holder, quote: check.quote, conversationId: conversation.id, messageId: check.messageId, saidAt: check.at, lexical });
    }
    // A correction of the same fact keeps its topic (themes, tags) and importance; its entities are
    // the old wording's names, which the correction may replace: the new memory's come from its quote.
    const w = await storeNewStatement(deps, tx, {
      spaceId, actor: actorName, detail: null, input: { type: input.type ?? old.type }, quote: check.quote,
      normalized, conversationId: conversation.id, messageId: check.messageId, context: context ?? null, preceding: preceding ?? null,
      saidAt: check.at, importance: old.importance, valence: null, entities: [], themes: old.themes, tags: old.tags, vector, embedError: error,
      supersedes: { id: old.id, rule: 'explicit', score: null, reason: 'corrected explicitly by the assistant' },
    });
    return { id: w.id, events: w.events };
  });
  deps.outbox?.kick();
  deps.bus.publish(events);
  const [memory, superseded] = await deps.store.getMemories([id, old.id], spaceId);
  return { memory: memory!, superseded: superseded! };
}

/**
 * `old` superseded by `by`, an active memory that already holds the correction's wording: `by`
 * is reinforced with the wording as a mention (its own entities, themes and tags kept), and the
 * two are linked as a correction is (CORRECTED on `by`, SUPERSEDED on `old`).
 */
async function supersedeBy(deps: MemoryDeps, tx: Tx, a: {
  spaceId: string; actor: string; old: MemoryRecord; by: MemoryHead; quote: string; conversationId: string; messageId: string; saidAt: Date; lexical: string;
}): Promise<{ id: string; events: MemoryEvent[] }> {
  const { spaceId, actor, old, by } = a;
  const base = { spaceId, actor, detail: null };
  const written = await deps.store.reinforce(tx, {
    memoryId: by.id,
    ...mergeInto(by, { importance: null, valence: null, entities: [], themes: [], tags: [], lastMentionedAt: a.saidAt }),
    lexicalText: a.lexical,
    mention: { id: randomUUID(), quote: a.quote, conversationId: a.conversationId, messageId: a.messageId, saidAt: a.saidAt, tier: 'EXACT', score: 1 },
    events: [
      { ...base, memoryId: by.id, kind: 'REINFORCED', tier: 'EXACT', score: 1, rule: null, relatedId: null },
      ...correctionEvents(base, by.id, { id: old.id, rule: 'explicit', score: null, reason: 'corrected explicitly by the assistant, with the wording of this memory' }),
    ],
  }, spaceId);
  await supersede(deps, tx, spaceId, old.id, by.id);
  return { id: by.id, events: written.events ?? [] };
}
