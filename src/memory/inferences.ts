import { randomUUID } from 'node:crypto';
import { normalizeText, showsNothing } from '../core/normalize.js';
import type { MemoryType } from '../core/types.js';
import type { MemoryRecord } from '../ports/memory-store.js';
import { actorLabel, type Actor, type MemoryDeps } from './deps.js';
import { conversationFor } from './conversations.js';
import { InvalidInputError, NotFoundError } from './errors.js';
import { indexStored, vectorWithMemory } from './indexing.js';
import { lexicalText } from './lexical.js';
import { embedOrMissing } from './remember.js';

/**
 * Stores the assistant's own conclusion as an INFERENCE: kept apart from the
 * person's statements, never recognised against them, listed for review.
 */
export async function infer(
  deps: MemoryDeps, actor: Actor, input: { conversationId: string; text: string; type: MemoryType; basis?: string | null },
): Promise<MemoryRecord> {
  const c = await conversationFor(deps, actor, input.conversationId);
  const text = input.text.trim();
  if (showsNothing(text)) throw new InvalidInputError('text', 'an inference cannot be empty (whitespace and invisible characters alone say nothing)');
  if (text.length > 2_000) throw new InvalidInputError('text', 'an inference is limited to 2,000 characters');
  const { vector } = await embedOrMissing(deps, text);
  const id = randomUUID();
  const { events, ...memory } = await deps.store.withSpaceLock(c.spaceId, async (tx) => {
    // One statement: the memory, its vector and its event; the record comes back as written.
    const written = await deps.store.insertMemory(tx, {
      id, spaceId: c.spaceId, kind: 'INFERENCE', type: input.type, quote: text, normalized: normalizeText(text),
      conversationId: c.id, messageId: null, context: null, basis: input.basis ?? null, saidAt: deps.clock.now(),
      importance: null, valence: null, entities: [], themes: [], tags: [], embeddingStatus: vector ? 'OK' : 'MISSING',
      review: 'PENDING', lexicalText: lexicalText([text]), vector: vectorWithMemory(deps, vector),
      events: [{ spaceId: c.spaceId, memoryId: id, kind: 'INFERRED', actor: actorLabel(actor), tier: null, score: null, rule: null, relatedId: null, detail: null }],
    });
    if (vector) await indexStored(deps, tx, { memoryId: id, spaceId: c.spaceId, kind: 'INFERENCE', status: 'ACTIVE', vector });
    return written;
  });
  deps.outbox?.kick();
  deps.bus.publish(events ?? []);
  return memory;
}

/** The operator accepts or dismisses an inference; it never becomes a statement either way. */
export async function reviewInference(
  deps: MemoryDeps, actor: Actor, spaceId: string, id: string, review: 'ACCEPTED' | 'DISMISSED',
): Promise<MemoryRecord> {
  const ok = await deps.store.setReview(spaceId, id, review);
  if (!ok) throw new NotFoundError('Inference', id);
  const events = await deps.store.addEvents(undefined, [{
    spaceId, memoryId: id, kind: review === 'ACCEPTED' ? 'INFERENCE_ACCEPTED' : 'INFERENCE_DISMISSED', actor: actorLabel(actor),
    tier: null, score: null, rule: null, relatedId: null, detail: null,
  }]);
  deps.bus.publish(events);
  const [m] = await deps.store.getMemories([id], spaceId);
  return m!;
}
