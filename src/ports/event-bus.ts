import type { MemoryEvent } from './memory-store.js';

/** Live change notifications (GraphQL subscriptions listen here). */
export interface EventBus {
  publish(events: MemoryEvent[]): void;
  /** A space was dropped (committed): whatever listens to it ends (docs/live-updates.md). */
  spaceDropped?(spaceId: string): void;
}

export const nullBus: EventBus = { publish: () => {} };
