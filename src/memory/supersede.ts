/**
 * What a correction writes beside the new memory (docs/corrections.md): its two events and the
 * replaced memory's status, in the store and in the engines.
 */
import type { NewEvent, Tx } from '../ports/memory-store.js';
import type { MemoryDeps } from './deps.js';
import { indexStatus } from './indexing.js';

/** The memory a correction replaces, and why. */
export interface Supersedes { id: string; rule: string; score: number | null; reason: string }

/** The two events of a correction: CORRECTED on the memory that holds the fact now (`byId`), SUPERSEDED on the one it replaces. */
export function correctionEvents(base: Pick<NewEvent, 'spaceId' | 'actor' | 'detail'>, byId: string, s: Supersedes): NewEvent[] {
  return [
    { ...base, memoryId: byId, kind: 'CORRECTED', tier: null, score: s.score, rule: s.rule, relatedId: s.id, detail: { ...(base.detail ?? {}), reason: s.reason } },
    { ...base, memoryId: s.id, kind: 'SUPERSEDED', tier: null, score: s.score, rule: s.rule, relatedId: byId },
  ];
}

/** The replaced memory's status, in the store and in the engines: SUPERSEDED by `byId`. */
export async function supersede(deps: MemoryDeps, tx: Tx, spaceId: string, oldId: string, byId: string): Promise<void> {
  await deps.store.setStatus(tx, spaceId, [oldId], 'SUPERSEDED', { from: ['ACTIVE'], supersededBy: byId });
  await indexStatus(deps, tx, [oldId], 'SUPERSEDED');
}
