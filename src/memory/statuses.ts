import { literalPieces, scrubContext, redactSentences } from '../core/scrub.js';
import { normalizeForQuote } from '../core/sentences.js';
import { letGoOfReadings } from '../core/readings.js';
import { rebuildLexicon } from './lexicon-rebuild.js';
import type { MemoryStatus } from '../core/types.js';
import type { MemoryRecord, Tx } from '../ports/memory-store.js';
import { actorLabel, type Actor, type MemoryDeps } from './deps.js';
import { ConfirmationRequiredError, InvalidInputError, NotFoundError } from './errors.js';
import { indexRemove, indexStatus } from './indexing.js';

export type BulkItemOutcome = 'DONE' | 'NOT_FOUND' | 'ALREADY';

export interface BulkResult {
  results: { id: string; outcome: BulkItemOutcome }[];
  changed: number;
}

export const MAX_BULK = 10_000;

interface Transition {
  to: MemoryStatus;
  from: MemoryStatus[];
  event: string;
}

const TRANSITIONS = {
  mute: { to: 'MUTED', from: ['ACTIVE'], event: 'MUTED' },
  unmute: { to: 'ACTIVE', from: ['MUTED'], event: 'UNMUTED' },
  retract: { to: 'RETRACTED', from: ['ACTIVE', 'MUTED'], event: 'RETRACTED' },
} satisfies Record<string, Transition>;

export type StatusAction = keyof typeof TRANSITIONS;

function checkIds(ids: readonly string[]): string[] {
  if (ids.length === 0) throw new InvalidInputError('ids', 'give at least one id');
  if (ids.length > MAX_BULK) throw new InvalidInputError('ids', `at most ${MAX_BULK} ids in one request`);
  return [...new Set(ids)];
}

/**
 * Changes the status of many memories of one space in one transaction with a
 * constant number of statements: ids of other spaces are reported NOT_FOUND,
 * memories already in the target state ALREADY.
 */
export async function changeStatus(
  deps: MemoryDeps, actor: Actor, spaceId: string, action: StatusAction, ids: readonly string[],
): Promise<BulkResult> {
  const t = TRANSITIONS[action];
  const unique = checkIds(ids);
  const { changed, events } = await deps.store.withSpaceLock(spaceId, async (tx) => {
    const done = await deps.store.setStatusLogged(tx, spaceId, unique, t.to, t.from, { kind: t.event, actor: actorLabel(actor) });
    await indexStatus(deps, tx, done.changed, t.to);
    return done;
  });
  deps.outbox?.kick();
  const changedSet = new Set(changed);
  const unchanged = unique.filter((id) => !changedSet.has(id));
  const existing = unchanged.length ? await deps.store.getMemories(unchanged, spaceId) : [];
  const exists = new Set(existing.filter((m): m is MemoryRecord => !!m).map((m) => m.id));
  deps.bus.publish(events);
  deps.log.info({ spaceId, action, changed: changed.length, asked: unique.length }, `memories ${action}d`);
  return {
    results: unique.map((id) => ({ id, outcome: changedSet.has(id) ? 'DONE' : exists.has(id) ? 'ALREADY' : 'NOT_FOUND' })),
    changed: changed.length,
  };
}

/** The operator marks a memory wrong and names the one that corrects it; it stays stored, linked, never current. */
export async function markErroneous(
  deps: MemoryDeps, actor: Actor, spaceId: string, memoryId: string, correctedBy: string | null,
): Promise<MemoryRecord> {
  const events = await deps.store.withSpaceLock(spaceId, async (tx) => {
    const [m, c] = await deps.store.getMemories(correctedBy ? [memoryId, correctedBy] : [memoryId], spaceId, tx);
    if (!m || m.kind !== 'STATEMENT') throw new NotFoundError('Memory', memoryId);
    if (correctedBy && !c) throw new NotFoundError('Memory', correctedBy);
    if (correctedBy === memoryId) throw new InvalidInputError('correctedBy', 'a memory cannot correct itself');
    // The corrector is what the chain reads as current: a memory no longer current (erroneous,
    // superseded, muted, ...) or an inference would leave the fact without a current version,
    // and two memories marked by each other would make a cycle (docs/corrections.md).
    if (c && (c.status !== 'ACTIVE' || c.kind !== 'STATEMENT')) {
      throw new InvalidInputError('correctedBy', `memory ${c.id} is ${c.kind === 'STATEMENT' ? c.status : 'an inference'}: only a current (ACTIVE) statement of the space can correct another`);
    }
    await deps.store.setStatus(tx, spaceId, [memoryId], 'ERRONEOUS', { correctedBy: correctedBy ?? null });
    await indexStatus(deps, tx, [memoryId], 'ERRONEOUS');
    return deps.store.addEvents(tx, [{
      spaceId, memoryId, kind: 'MARKED_ERRONEOUS', actor: actorLabel(actor), tier: null, score: null, rule: null,
      relatedId: correctedBy, detail: null,
    }]);
  });
  deps.outbox?.kick();
  deps.bus.publish(events);
  const [m] = await deps.store.getMemories([memoryId], spaceId);
  return m!;
}

/**
 * Forget for good: the memories, their mentions, vectors in every engine, lexical
 * entries and source messages are removed. Only with `confirm`; leaves an event
 * without content.
 */
/**
 * Removes memories for good inside the caller's transaction (forget, cleanup sweeps)
 * and every trace of their words in what stays: merged counts and wordings come off
 * references that stay, every message of the space holding a forgotten wording loses the
 * sentences that hold it, the context of a memory said in such a message loses them too,
 * and the lexicon of memories said in such a message, the message right after it (its
 * preceding-message context) or a reference is rebuilt. Returns the ids removed.
 */
export async function removeForGood(deps: MemoryDeps, tx: Tx, spaceId: string, ids: readonly string[]): Promise<string[]> {
  const references = await deps.store.releaseMerges(tx, spaceId, ids);
  // Every copy of the forgotten wordings goes, in every message of the space that holds one (user's
  // and assistant's alike): each sentence holding one becomes the redaction mark, the rest stays
  // quotable (docs/erasure.md, "Every copy").
  const found = await deps.store.forgottenMessages(tx, spaceId, ids, literalPieces);
  // Each message is read for the wordings whose every literal piece it holds (as the store chose
  // it), not for all of them, and the event loop turns between slices of messages: a sweep of
  // thousands of memories over a long history is work in proportion, never one long block.
  const pieces = found.wordings.map((w, i) => ({ w, pieces: found.pieces[i]! }));
  /** The wordings a text holds every literal piece of, read as the quote check reads it (composed, past invisible characters). */
  const heldIn = (text: string) => {
    const read = normalizeForQuote(text);
    return pieces.filter((p) => p.pieces.length > 0 && p.pieces.every((x) => read.includes(x))).map((p) => p.w);
  };
  const messages: { id: string; text: string | null }[] = [];
  for (const [i, m] of found.messages.entries()) {
    if (i > 0 && i % 200 === 0) await new Promise((r) => setImmediate(r));
    const held = heldIn(m.text);
    // a memory's own message is read for every wording, as before (the store returns it whatever its pieces)
    const text = redactSentences(m.text, held.length > 0 ? held : found.wordings);
    if (text !== m.text) messages.push({ id: m.id, text });
  }
  // An inference whose basis holds a forgotten wording was drawn from the forgotten words: it goes
  // with them (its text says what they said; its basis quotes them). docs/erasure.md, "Every copy".
  const forgetting = new Set(ids);
  for (const [i, inf] of (await deps.store.inferenceBases(tx, spaceId)).entries()) {
    if (i > 0 && i % 200 === 0) await new Promise((r) => setImmediate(r));
    if (heldIn(inf.basis).length > 0) forgetting.add(inf.id);
  }
  const all = [...forgetting];
  const near = await deps.store.forgetNeighbours(tx, spaceId, all, messages.map((m) => m.id));
  const contexts = near.siblings.map((m) => ({ id: m.id, context: scrubContext(m.context, m.quote, found.wordings) }));
  // A forgotten correction leaves what it replaced replaced: linked to the next version that stays, or to none.
  await deps.store.relinkPastForgotten(tx, spaceId, all);
  const gone = await deps.store.forget(tx, spaceId, all, { messages, contexts });
  await indexRemove(deps, tx, gone);
  const goneSet = new Set(gone);
  await rebuildLexicon(deps, tx, [...near.siblings.map((m) => m.id), ...near.followers, ...references].filter((id) => !goneSet.has(id)));
  return gone;
}

/**
 * After a forget, sweep or drop committed: the embedder lets go of the texts it holds, the
 * outside engine applies the removals now (and erases its old versions), and the system of
 * record rewrites the files that held the words (docs/erasure.md). An engine that is down gets them from the outbox later.
 */
export async function eraseEverywhere(deps: MemoryDeps): Promise<void> {
  // The texts the embedder answered lately may hold the words (a remember's quote, a recall's question),
  // and so may the rules' readings of sentences and words, and the lexicon's lookups.
  deps.embedder.letGo?.();
  letGoOfReadings();
  if (deps.outbox) {
    await deps.outbox.drain().catch((e) => deps.log.warn({ cause: String(e) }, 'erasure: the engine will apply the removals when it accepts writes'));
  }
  await deps.store.eraseResidue();
}

export async function forget(
  deps: MemoryDeps, actor: Actor, spaceId: string, ids: readonly string[], confirm: boolean,
): Promise<BulkResult> {
  if (!confirm) throw new ConfirmationRequiredError('forget');
  const unique = checkIds(ids);
  const { gone, events } = await deps.store.withSpaceLock(spaceId, async (tx) => {
    // Memories merged into a forgotten one are its wordings: they go with it; a forgotten
    // merged memory's count is taken back off a reference that stays (docs/consolidation.md).
    const all = [...unique, ...(await deps.store.mergedDescendants(tx, spaceId, unique))];
    const gone = await removeForGood(deps, tx, spaceId, all);
    const events = await deps.store.addEvents(tx, gone.map((id) => ({
      spaceId, memoryId: id, kind: 'FORGOTTEN', actor: actorLabel(actor), tier: null, score: null, rule: null, relatedId: null, detail: null,
    })));
    return { gone, events };
  });
  deps.bus.publish(events);
  if (gone.length) await eraseEverywhere(deps);
  deps.log.info({ spaceId, forgotten: gone.length }, 'memories forgotten');
  const goneSet = new Set(gone);
  return { results: unique.map((id) => ({ id, outcome: goneSet.has(id) ? 'DONE' : 'NOT_FOUND' })), changed: gone.length };
}
