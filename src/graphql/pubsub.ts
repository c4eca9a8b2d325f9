import { createPubSub } from 'graphql-yoga';
import type { EventBus } from '../ports/event-bus.js';
import type { MemoryEvent } from '../ports/memory-store.js';

/** In-process pub/sub keyed by space: a subscription only ever hears its own space. */
export function createEventPubSub() {
  const pubsub = createPubSub<{ [key: `space:${string}`]: [MemoryEvent] }>();
  const bus: EventBus = {
    publish(events) {
      for (const e of events) pubsub.publish(`space:${e.spaceId}`, e);
    },
  };
  return { pubsub, bus };
}

export type EventPubSub = ReturnType<typeof createEventPubSub>['pubsub'];
