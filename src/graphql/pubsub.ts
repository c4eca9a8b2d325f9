import type { EventBus } from '../ports/event-bus.js';
import type { MemoryEvent } from '../ports/memory-store.js';

/** Events a subscriber may leave unread before it is cut off (docs/live-updates.md). */
export const LIVE_QUEUE_LIMIT = 1_024;

/**
 * One listener on a topic. `next()` gives the events in order; it gives `'overflow'` once the
 * subscriber left more than the limit unread: the listener is then gone and its queue dropped,
 * and the reader catches up from the store, from `oldestUnread` on, and subscribes again.
 * Memory stays bounded whatever a slow client does, and nothing is lost (the store has it all).
 */
export interface LiveSubscription {
  next(): Promise<MemoryEvent | 'overflow'>;
  /** Id of the oldest event dropped at the overflow (null before one). */
  readonly oldestUnread: number | null;
  close(): void;
}

/**
 * In-process pub/sub keyed by space: a subscription only ever hears its own space. Not
 * graphql-yoga's `createPubSub`: its Repeater throws from `publish` (an uncaught error in the
 * event listener) once 1,024 pushes wait unread, which a bulk change of thousands of memories
 * does to any subscriber that reads more slowly than they commit.
 */
export function createEventPubSub(limit = LIVE_QUEUE_LIMIT) {
  const topics = new Map<string, Set<(e: MemoryEvent) => void>>();
  const pubsub = {
    publish(topic: string, e: MemoryEvent): void {
      for (const push of [...(topics.get(topic) ?? [])]) push(e);
    },
    subscribe(topic: string): LiveSubscription {
      const queue: MemoryEvent[] = [];
      let waiting: ((v: MemoryEvent | 'overflow') => void) | null = null;
      let overflowed = false;
      let oldestUnread: number | null = null;
      const listeners = topics.get(topic) ?? new Set();
      topics.set(topic, listeners);
      const close = () => {
        listeners.delete(push);
        if (listeners.size === 0 && topics.get(topic) === listeners) topics.delete(topic);
      };
      function push(e: MemoryEvent): void {
        if (waiting) {
          const w = waiting;
          waiting = null;
          w(e);
        } else if (queue.length >= limit) {
          overflowed = true;
          oldestUnread = Number((queue[0] ?? e).id);
          queue.length = 0;
          close();
        } else queue.push(e);
      }
      listeners.add(push);
      return {
        next() {
          if (queue.length > 0) return Promise.resolve(queue.shift()!);
          if (overflowed) return Promise.resolve('overflow' as const);
          return new Promise((resolve) => { waiting = resolve; });
        },
        get oldestUnread() { return oldestUnread; },
        close,
      };
    },
  };
  const bus: EventBus = {
    publish(events) {
      for (const e of events) pubsub.publish(`space:${e.spaceId}`, e);
    },
  };
  return { pubsub, bus };
}

export type EventPubSub = ReturnType<typeof createEventPubSub>['pubsub'];
