/**
 * Recognition's candidates for a new statement (src/memory/remember.ts): the exact-text matches,
 * the nearest active statements by vector, and the statement kept from the sentence just before
 * the quote in its message, each with its score and record (docs/recognition.md, "Candidates").
 */
import { sameSentence } from '../core/conflicts.js';
import { deriveEntities, deriveNames } from '../core/derive.js';
import { timeWindow } from '../core/occasions.js';
import { reachFloor, withinReach, type Candidate, type FarCandidate } from '../core/recognition.js';
import { cosine } from '../core/vectors.js';
import type { MemoryHead, Tx } from '../ports/memory-store.js';
import type { VectorHit } from '../ports/vector-index.js';
import type { MemoryDeps } from './deps.js';
import { searchVectors } from './indexing.js';
import { stage } from './stages.js';

/**
 * Recognition's candidates read while the quote is embedded, after the space's last event id: the
 * exact-text matches and the statement kept from the sentence before the quote in its message.
 */
export interface FirstRead { exact: MemoryHead[]; sameMessage: MemoryHead[] }

/**
 * The active statements kept from the quote's message whose quote is the sentence just before it
 * (`sameSentence`: case, spacing and end punctuation aside): the next-sentence rule's candidates,
 * the only ones it reads beyond the nearest neighbours. Every statement kept from the message was
 * a candidate once, each with its vector read: a message of 1,600 sentences made each remember of
 * one of them weigh all those kept before (0.45 s at the 300th, the process held for seconds;
 * found by an adversarial probe).
 */
export async function previousSentenceKept(
  deps: MemoryDeps, tx: Tx | undefined, spaceId: string, messageId: string | null, previousSentence: string | null,
): Promise<MemoryHead[]> {
  if (!previousSentence || !messageId) return [];
  return (await deps.store.activeOfMessage(tx, spaceId, messageId)).filter((m) => sameSentence(previousSentence, m.quote));
}

/**
 * Candidates for recognition: active statements with the same normalised text,
 * the nearest neighbours by vector (plus outbox rows not applied yet), and the
 * statements kept from the same message (next-sentence corrections). A neighbour out of
 * the rules' reach (`withinReach`: below every threshold) is only recorded as considered
 * (`far`, in score order after the others): its record is not read, unless the quote has a
 * sentence before it in its message, whose memory may be any neighbour. `firstRead`: what
 * recognition's first read gave (`FirstRead`); without it, read here.
 */
export async function gatherCandidates(
  deps: MemoryDeps, tx: Tx | undefined, spaceId: string, normalized: string, vector: Float32Array | null,
  messageId: string | null, previousSentence: string | null, firstRead?: FirstRead,
): Promise<{ candidates: Candidate[]; far: FarCandidate[]; records: Map<string, MemoryHead> }> {
  const exact = firstRead?.exact ?? await deps.store.findActiveByNormalized(tx, spaceId, 'STATEMENT', normalized);
  let hits: VectorHit[] = [];
  // Before the lock (no tx), the search is preliminary (the port's `preliminary`): the engine may
  // return rows of any status at or above minScore; their records, read here, say which are ACTIVE
  // statements, and the first k of those are the hits (as the engine's own filter would give).
  // Whatever was written meanwhile, the lock's check of the space's last event id sees it.
  const preliminary = tx === undefined;
  if (vector) {
    // Recognition weighs nothing below its lowest threshold: the engine may pre-filter far vectors.
    const minScore = Math.min(deps.thresholds.recallFloor, deps.thresholds.topic);
    hits = await searchVectors(deps, { spaceId, vector, k: deps.candidateK, statuses: ['ACTIVE'], kind: 'STATEMENT', exact: true, minScore, preliminary }, tx);
  }
  const sameMessage = firstRead?.sameMessage ?? await previousSentenceKept(deps, tx, spaceId, messageId, previousSentence);
  const known = new Map<string, MemoryHead>([...exact, ...sameMessage].map((m) => [m.id, m]));
  const lowest = reachFloor(deps.thresholds);
  if (preliminary && hits.length > 0) {
    // Only hits within the rules' reach by score can be unchecked: an engine that honours the flag
    // returns nothing below minScore (itself at least `lowest`); one that ignores it checked the
    // statuses of all it returned, and its hits below reach are read, or not, as always (below).
    const ids = hits.filter((h) => h.score >= lowest && !known.has(h.memoryId)).map((h) => h.memoryId);
    (ids.length ? await deps.store.getMemoryHeads(ids, spaceId) : []).forEach((m, i) => { if (m) known.set(ids[i]!, m); });
    hits = hits.filter((h) => {
      if (h.score < lowest) return true;
      const m = known.get(h.memoryId);
      return !!m && m.status === 'ACTIVE' && m.kind === 'STATEMENT';
    }).slice(0, deps.candidateK);
  }
  const scores = new Map<string, number | null>();
  for (const m of exact) scores.set(m.id, 1);
  for (const h of hits) if (!scores.has(h.memoryId)) scores.set(h.memoryId, h.score);
  const missingScore = sameMessage.filter((m) => !scores.has(m.id));
  if (missingScore.length && vector) {
    const vecs = await deps.store.getVectors(missingScore.map((m) => m.id), tx);
    for (const m of missingScore) {
      const v = vecs.get(m.id);
      scores.set(m.id, v ? cosine(vector, v) : null);
    }
  } else for (const m of missingScore) scores.set(m.id, null);
  // The exact-text matches, the same-message statements and a preliminary search's hits within
  // reach are read whole already: only the other vector hits' records are read (in the
  // candidates' order, as before), and of those only
  // the ones the rules can reach. Without a sentence before the quote, a hit below every
  // threshold can only be far (an exact match was read above; the hits come by score, so the
  // far ones are the last).
  const unread = (id: string) => !previousSentence && !known.has(id) && (scores.get(id) ?? 0) < lowest;
  const toRead = [...scores.keys()].filter((id) => !known.has(id) && !unread(id));
  const read = toRead.length ? await deps.store.getMemoryHeads(toRead, spaceId, tx) : [];
  read.forEach((m, i) => { if (m) known.set(toRead[i], m); });
  const far: FarCandidate[] = [...scores.keys()].filter(unread).map((id) => ({ id, score: scores.get(id) ?? null }));
  const records = [...scores.keys()].filter((id) => !unread(id)).map((id) => known.get(id) ?? null);
  const candidates = records
    .filter((m): m is MemoryHead => !!m && m.status === 'ACTIVE' && m.kind === 'STATEMENT')
    .map((m) => {
      const c: Candidate = {
        id: m.id, text: m.quote, normalized: m.normalized, type: m.type, entities: m.entities, themes: m.themes,
        messageId: m.messageId, score: scores.get(m.id) ?? null, window: timeWindow(m), saidAt: m.saidAt,
      };
      // A candidate out of the rules' reach is recorded, not read (src/core/recognition.ts): its entities are not derived.
      if (!withinReach({ normalized, previousSentence }, c, deps.thresholds)) return c;
      return stage('rules: derived entities', () => ({ ...c, derivedEntities: deriveEntities(m.quote), derivedNames: deriveNames(m.quote) }));
    });
  return { candidates, far, records: known };
}
