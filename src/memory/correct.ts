import { checkQuote } from '../core/quote-check.js';
import { normalizeText } from '../core/normalize.js';
import type { MemoryType } from '../core/types.js';
import type { MemoryRecord } from '../ports/memory-store.js';
import { actorLabel, type Actor, type MemoryDeps } from './deps.js';
import { conversationFor } from './conversations.js';
import { InvalidStateError, NotFoundError, quoteRefusal } from './errors.js';
import { embedOrMissing, storeNewStatement } from './remember.js';

/**
 * The assistant states a correction explicitly: the quote passes the same check as
 * `remember`, becomes a new memory, and supersedes `memoryId` (which stays stored).
 */
export async function correct(
  deps: MemoryDeps, actor: Actor, input: { memoryId: string; conversationId: string; quote: string; type?: MemoryType | null },
): Promise<{ memory: MemoryRecord; superseded: MemoryRecord }> {
  const conversation = await conversationFor(deps, actor, input.conversationId);
  const spaceId = conversation.spaceId;
  const [old] = await deps.store.getMemories([input.memoryId], spaceId);
  if (!old || old.kind !== 'STATEMENT') throw new NotFoundError('Memory', input.memoryId);
  const check = checkQuote(input.quote, await deps.store.listMessages(conversation.id));
  if (!check.ok) throw quoteRefusal(check.reason, check.detail);
  const { vector, error } = await embedOrMissing(deps, check.quote);
  const { id, events } = await deps.store.withSpaceLock(spaceId, async (tx) => {
    const [cur] = await deps.store.getMemories([old.id], spaceId, tx);
    if (!cur || cur.status !== 'ACTIVE') throw new InvalidStateError(`memory ${old.id} is ${cur?.status ?? 'gone'}: only a current memory can be corrected`);
    const w = await storeNewStatement(deps, tx, {
      spaceId, actor: actorLabel(actor), detail: null, input: { type: input.type ?? old.type }, quote: check.quote,
      normalized: normalizeText(check.quote), conversationId: conversation.id, messageId: check.messageId,
      context: check.message.trim() !== check.quote.trim() ? check.message : null, saidAt: check.at,
      importance: old.importance, valence: null, entities: old.entities, themes: old.themes, tags: old.tags, vector, embedError: error,
      supersedes: { id: old.id, rule: 'explicit', score: null, reason: 'corrected explicitly by the assistant' },
    });
    return { id: w.id, events: w.events };
  });
  deps.outbox?.kick();
  deps.bus.publish(events);
  const [memory, superseded] = await deps.store.getMemories([id, old.id], spaceId);
  return { memory: memory!, superseded: superseded! };
}
