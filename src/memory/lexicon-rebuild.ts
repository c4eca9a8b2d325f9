import { withoutMarks } from '../core/scrub.js';
import { contextAround, precedingTail } from '../core/context-window.js';
import type { MemoryRecord, Mention, Message, Tx } from '../ports/memory-store.js';
import type { MemoryDeps } from './deps.js';
import { lexicalText } from './lexical.js';

/**
 * The lexical parts the write path gives one wording (remember.ts): the quote, its
 * source message when the message says more than the quote (of a long one, the part around the
 * quote), and the end of the message just before it (often the question it answers).
 */
export function wordingParts(quote: string, message: string | null, preceding: string | null): (string | null)[] {
  // A forget's redaction marks are no words of the person: neither context nor lexicon (docs/erasure.md).
  // Of a long message, the part around the quote (src/core/context-window.ts).
  const said = message === null ? null : withoutMarks(message);
  const around = said === null ? null : contextAround(said, quote);
  const context = around !== null && around.trim() !== quote.trim() ? around : null;
  const before = preceding === null ? null : withoutMarks(preceding);
  return [quote, context, before === null ? null : precedingTail(before)];
}

/**
 * The lexical text of each memory as the write path would have built it from its
 * wordings: for every memory of its merge tree (itself first, then the memories
 * merged into it, in the order of their first wording), the first wording with its
 * message context, that memory's entities and themes, then its later wordings with
 * theirs. A memory never reinforced gets exactly the text it was written with.
 * Returned in key order; null for a memory that does not exist.
 */
export async function lexicalTextsOf(deps: MemoryDeps, tx: Tx, ids: readonly string[]): Promise<(string | null)[]> {
  if (ids.length === 0) return [];
  const records = await deps.store.getMemories(ids, null, tx);
  const mentions = await deps.store.mentionsOf(ids, tx);
  const ownerIds = [...new Set(mentions.flat().map((m) => m.memoryId))].filter((id) => !ids.includes(id));
  const owners = new Map<string, MemoryRecord>();
  for (const m of [...records, ...(ownerIds.length ? await deps.store.getMemories(ownerIds, null, tx) : [])]) if (m) owners.set(m.id, m);
  const transcripts = new Map<string, Message[]>();
  for (const c of new Set(mentions.flat().map((m) => m.conversationId).filter((c): c is string => !!c))) {
    transcripts.set(c, await deps.store.listMessages(c, tx));
  }

  const partsOf = (x: Mention, owner: MemoryRecord | undefined): (string | null)[] => {
    const transcript = x.conversationId ? transcripts.get(x.conversationId) ?? [] : [];
    const at = x.messageId ? transcript.findIndex((msg) => msg.id === x.messageId) : -1;
    if (at >= 0) return wordingParts(x.quote, transcript[at].text, at > 0 ? transcript[at - 1].text : null);
    // The message is gone: the memory still has its own source message as context.
    return owner && x.messageId === owner.messageId && x.quote === owner.quote ? [x.quote, owner.context, null] : [x.quote];
  };

  return records.map((m, i) => {
    if (!m) return null;
    const byOwner = new Map<string, Mention[]>([[m.id, []]]);
    for (const x of mentions[i]) byOwner.set(x.memoryId, [...(byOwner.get(x.memoryId) ?? []), x]);
    const parts: (string | null)[] = [];
    for (const [ownerId, xs] of byOwner) {
      const owner = owners.get(ownerId);
      const [first, ...later] = xs;
      if (first) parts.push(...partsOf(first, owner));
      if (owner) parts.push(...owner.entities, ...owner.themes);
      for (const x of later) parts.push(...partsOf(x, owner));
    }
    return lexicalText(parts);
  });
}

/** Rewrites the lexicon rows of these memories from their wordings (consolidation, unmerge). */
export async function rebuildLexicon(deps: MemoryDeps, tx: Tx, ids: readonly string[]): Promise<void> {
  const unique = [...new Set(ids)];
  const texts = await lexicalTextsOf(deps, tx, unique);
  await deps.store.setLexicon(tx, unique.flatMap((memoryId, i) => (texts[i] === null ? [] : [{ memoryId, text: texts[i]! }])));
}
