import { randomUUID } from 'node:crypto';
import type { Conversation, Message, MessageRole } from '../ports/memory-store.js';
import type { Actor, MemoryDeps } from './deps.js';
import { InvalidInputError, NotFoundError } from './errors.js';

/** Opens a conversation in a space chosen by the server (the caller's wall), never by the assistant. */
export async function openConversation(deps: MemoryDeps, spaceId: string): Promise<Conversation> {
  const [space] = await deps.store.getSpaces([spaceId]);
  if (!space) throw new NotFoundError('Space', spaceId);
  return deps.store.createConversation({ id: randomUUID(), spaceId });
}

/** The conversation if it was found and lies inside the actor's wall; otherwise NotFound, whichever it is. */
function insideWall(actor: Actor, c: Conversation | null | undefined, conversationId: string): Conversation {
  if (!c || (actor.spaceId !== null && c.spaceId !== actor.spaceId)) throw new NotFoundError('Conversation', conversationId);
  return c;
}

/** The conversation if it exists and lies inside the actor's wall; otherwise NotFound, whichever it is. */
export async function conversationFor(deps: MemoryDeps, actor: Actor, conversationId: string): Promise<Conversation> {
  const [c] = await deps.store.getConversations([conversationId]);
  return insideWall(actor, c, conversationId);
}

/**
 * `conversationFor` and the conversation's transcript, in one statement: what a remember reads
 * first (the quote is checked against the transcript).
 */
export async function conversationWithTranscript(deps: MemoryDeps, actor: Actor, conversationId: string): Promise<{ conversation: Conversation; transcript: Message[] }> {
  const found = await deps.store.conversationTranscript(conversationId);
  return { conversation: insideWall(actor, found?.conversation, conversationId), transcript: found!.messages };
}

/** Records what the person typed (USER) or the assistant answered (ASSISTANT); the chat side's job. */
export async function recordMessage(
  deps: MemoryDeps, actor: Actor, input: { conversationId: string; role: MessageRole; text: string; at?: Date | null },
): Promise<Message> {
  const c = await conversationFor(deps, actor, input.conversationId);
  if (input.text.trim() === '') throw new InvalidInputError('text', 'a message cannot be empty');
  if (input.text.length > 100_000) throw new InvalidInputError('text', 'a message is limited to 100,000 characters');
  return deps.store.addMessage({
    id: randomUUID(), conversationId: c.id, spaceId: c.spaceId, role: input.role, text: input.text,
    at: input.at ?? deps.clock.now(),
  });
}
