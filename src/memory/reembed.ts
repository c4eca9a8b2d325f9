import type { MemoryDeps } from './deps.js';
import { NotFoundError } from './errors.js';
import { indexNew } from './indexing.js';

/**
 * Fills in vectors of memories stored with embeddingStatus MISSING (the embedder
 * was failing when they arrived). Safe to run repeatedly.
 */
export async function reembedMissing(deps: MemoryDeps, spaceId: string | null, batch = 100): Promise<{ filled: number; failed: number }> {
  // A space named that does not exist is NotFound (an admin's typo used to read as "nothing to do").
  if (spaceId !== null && !(await deps.store.getSpaces([spaceId]))[0]) throw new NotFoundError('Space', spaceId);
  let filled = 0;
  let failed = 0;
  const seen = new Set<string>();
  for (;;) {
    const todo = (await deps.store.missingEmbeddings(spaceId, batch)).filter((m) => !seen.has(m.id));
    if (todo.length === 0) break;
    for (const m of todo) seen.add(m.id);
    let vectors: Float32Array[];
    try {
      vectors = await deps.embedder.embed(todo.map((m) => m.quote));
    } catch (e) {
      deps.log.warn({ cause: String(e), count: todo.length }, 'reembed: embedder still failing');
      failed += todo.length;
      break;
    }
    for (let i = 0; i < todo.length; i++) {
      const m = todo[i];
      const events = await deps.store.withSpaceLock(m.spaceId, async (tx) => {
        await indexNew(deps, tx, { memoryId: m.id, spaceId: m.spaceId, kind: m.kind, status: m.status, vector: vectors[i] });
        await deps.store.setEmbeddingStatus(tx, m.id, 'OK');
        return deps.store.addEvents(tx, [{ spaceId: m.spaceId, memoryId: m.id, kind: 'REEMBEDDED', actor: 'system', tier: null, score: null, rule: null, relatedId: null, detail: null }]);
      });
      deps.bus.publish(events);
      filled++;
    }
  }
  deps.outbox?.kick();
  return { filled, failed };
}
