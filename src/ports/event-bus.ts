import type { MemoryEvent } from './memory-store.js';

/** Live change notifications (GraphQL subscriptions listen here). */
export interface EventBus {
  publish(events: MemoryEvent[]): void;
}

export const nullBus: EventBus = { publish: () => {} };
