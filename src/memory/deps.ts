import type { Embedder, RecognitionThresholds } from '../ports/embedder.js';
import type { EventBus } from '../ports/event-bus.js';
import type { Logger } from '../ports/logger.js';
import type { MemoryStore } from '../ports/memory-store.js';
import type { VectorIndex } from '../ports/vector-index.js';
import type { Clock } from '../ports/clock.js';
import type { Outbox } from '../ports/outbox.js';

/** Everything a use case may touch: ports only, never a driver. */
export interface MemoryDeps {
  store: MemoryStore;
  index: VectorIndex;
  embedder: Embedder;
  clock: Clock;
  bus: EventBus;
  log: Logger;
  thresholds: RecognitionThresholds;
  /** Present when the vector engine is fed through the transactional outbox. */
  outbox: Outbox | null;
  /** Neighbours compared with each new statement. */
  candidateK: number;
}

export type Role = 'admin' | 'operator' | 'chat' | 'assistant';

/** Who is acting: recorded on every event. */
export interface Actor {
  role: Role;
  tokenId: string | null;
  /** The space a space-bound token is walled into; null for admin. */
  spaceId: string | null;
}

export const systemActor: Actor = { role: 'admin', tokenId: null, spaceId: null };

export function actorLabel(a: Actor): string {
  return a.tokenId ? `${a.role}:${a.tokenId}` : a.role;
}
