import { randomUUID } from 'node:crypto';
import { showsNothing } from '../core/normalize.js';
import type { Conversation, ConversationTranscript, Message, MessageRole, Tx } from '../ports/memory-store.js';
import type { Actor, MemoryDeps } from './deps.js';
import { InvalidInputError, NotFoundError, quoteRefusal } from './errors.js';
import { quoteCheckSteps, type QuoteCheckResult, type TranscriptMessage } from '../core/quote-check.js';
import { stage } from './stages.js';
import { turns } from './turns.js';

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

/** The messages a remember's or a correction's quote check reads first: the conversation's last ones (`checkQuoteIn`). */
export const TRANSCRIPT_WINDOW = 64;
/** ... as many of them as fit in this many bytes of text, the latest always (the others are read in pages if needed). */
export const TRANSCRIPT_WINDOW_BYTES = 1_000_000;

/** Work done between two turns of the event loop, at most (about: one message is weighed whole). */
const SLICE_MS = 10;

/**
 * The quote checked against a transcript (src/core/quote-check.ts), a message at a time: after
 * SLICE_MS of work the check lets the event loop run before it goes on, so a long conversation
 * (messages of up to 100,000 characters, as many as were recorded) delays this request only, not
 * every other request of the process.
 */
export async function checkQuoteInTurns(quote: string, transcript: TranscriptMessage[]): Promise<QuoteCheckResult> {
  const steps = quoteCheckSteps(quote, transcript);
  const turn = turns(SLICE_MS);
  for (;;) {
    const r = stage('quote check', () => steps.next());
    if (r.done) return r.value;
    await turn();
  }
}

/** What `conversationWithTranscript` read: the conversation, its last messages, and what lies before them. */
export interface TranscriptRead {
  conversation: Conversation;
  transcript: Message[];
  earlier: ConversationTranscript['earlier'];
  /** The space's last event id as the transcript was read (one statement): a write or forget after it moves it. */
  lastEventId: number;
}

/**
 * `conversationFor` and the conversation's transcript, in one statement: what a remember reads
 * first (the quote is checked against the transcript): its last `last` messages.
 */
export async function conversationWithTranscript(deps: MemoryDeps, actor: Actor, conversationId: string, last: number): Promise<TranscriptRead> {
  const found = await deps.store.conversationTranscript(conversationId, last, TRANSCRIPT_WINDOW_BYTES);
  return { conversation: insideWall(actor, found?.conversation, conversationId), transcript: found!.messages, earlier: found!.earlier, lastEventId: found!.lastEventId };
}

/**
 * The quote checked against the last messages read, when that answers exactly as the whole
 * transcript would, else against the whole transcript, read now. The last messages answer when:
 * the quote is found there (a refusal is decided on the whole: its reason may lie earlier); no
 * earlier message sorts among them (the check reads the latest first, by `at`: a backdated
 * message could); and the source message is not the first read (the message before it, kept as
 * context, is then among them). A quote of a recent message costs the last messages, not the
 * conversation's length.
 */
export async function checkQuoteIn(deps: MemoryDeps, read: TranscriptRead, quote: string): Promise<{ check: QuoteCheckResult; transcript: Message[] }> {
  const check = await checkQuoteInTurns(quote, read.transcript);
  const before = read.earlier;
  if (!before.any) return { check, transcript: read.transcript };
  if (check.ok && !before.datedLater && read.transcript.findIndex((m) => m.id === check.messageId) > 0) return { check, transcript: read.transcript };
  // (in pages: the store's listMessages)
  const transcript = await deps.store.listMessages(read.conversation.id);
  return { check: await checkQuoteInTurns(quote, transcript), transcript };
}

/**
 * Under the space's lock: the message a quote was found in still reads as it did when it was
 * checked. A forget (or a cleanup sweep) committed in between redacted the sentences holding its
 * words (docs/erasure.md, "Every copy"); keeping the quote then would bring the forgotten words
 * back, in a memory whose message no longer holds them. Refused as the check refuses it now.
 */
export async function assertStillSaid(
  deps: MemoryDeps, tx: Tx, conversationId: string, quote: string, said: { messageId: string; message: string },
): Promise<void> {
  // (the message alone: the conversation, which may hold hundreds of long messages, is read only if it changed)
  if ((await deps.store.messageText(conversationId, said.messageId, tx)) === said.message) return;
  const now = await checkQuoteInTurns(quote, await deps.store.listMessages(conversationId, tx));
  throw now.ok
    ? quoteRefusal('NOT_FOUND', 'the message it was said in changed while it was being kept (words forgotten meanwhile): keep it again')
    : quoteRefusal(now.reason, now.detail);
}

/** How far past the server's clock a message's `at` may be (a chat side's clock a little ahead). */
export const FUTURE_SLACK_MS = 24 * 3600 * 1000;

/** Records what the person typed (USER) or the assistant answered (ASSISTANT); the chat side's job. */
export async function recordMessage(
  deps: MemoryDeps, actor: Actor, input: { conversationId: string; role: MessageRole; text: string; at?: Date | null },
): Promise<Message> {
  const c = await conversationFor(deps, actor, input.conversationId);
  if (showsNothing(input.text)) throw new InvalidInputError('text', 'a message cannot be empty (whitespace and invisible characters alone say nothing)');
  if (input.text.length > 100_000) throw new InvalidInputError('text', 'a message is limited to 100,000 characters');
  // A message recorded late keeps its own time (an import of a past conversation); one "typed" in
  // the future is a client's mistake, and it sorted first in every list for good ("On 9999-12-31
  // you wrote: ...", found by a probe). A day of slack for a chat side's clock.
  const now = deps.clock.now();
  if (input.at && input.at.getTime() > now.getTime() + FUTURE_SLACK_MS) {
    throw new InvalidInputError('at', `a message cannot be typed in the future: ${input.at.toISOString()} is more than a day after the server's clock (${now.toISOString()})`);
  }
  return deps.store.addMessage({
    id: randomUUID(), conversationId: c.id, spaceId: c.spaceId, role: input.role, text: input.text,
    at: input.at ?? now,
  });
}
