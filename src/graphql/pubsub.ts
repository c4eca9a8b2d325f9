import type { EventBus } from '../ports/event-bus.js';
import type { MemoryEvent } from '../ports/memory-store.js';

/** Events a subscriber may leave unread before it is cut off (docs/live-updates.md). */
export const LIVE_QUEUE_LIMIT = 1_024;

/** Why a subscription's live feed ended for good: its space was dropped, its token revoked, or its reader went away. */
export type LiveEnd = 'dropped' | 'revoked' | 'closed';

/**
 * One listener on a topic. `next()` gives the events in order; it gives `'overflow'` once the
 * subscriber left more than the limit unread: the listener is then gone and its queue dropped,
 * and the reader catches up from the store, from `oldestUnread` on, and subscribes again.
 * Memory stays bounded whatever a slow client does, and nothing is lost (the store has it all).
 * Once ended (`end`, or `pubsub.end` of its topic) it gives the reason, at once, even to a reader
 * already waiting, and nothing queued: an idle stream ends without an event to carry the news.
 */
export interface LiveSubscription {
  next(): Promise<MemoryEvent | 'overflow' | LiveEnd>;
  /** Id of the oldest event dropped at the overflow (null before one). */
  readonly oldestUnread: number | null;
  /** Why it ended (null while it lasts). */
  readonly ended: LiveEnd | null;
  end(why: LiveEnd): void;
  close(): void;
}

/**
 * In-process pub/sub keyed by space: a subscription only ever hears its own space. Not
 * graphql-yoga's `createPubSub`: its Repeater throws from `publish` (an uncaught error in the
 * event listener) once 1,024 pushes wait unread, which a bulk change of thousands of memories
 * does to any subscriber that reads more slowly than they commit.
 */
export function createEventPubSub(limit = LIVE_QUEUE_LIMIT) {
  const topics = new Map<string, Set<LiveSubscription & { push(e: MemoryEvent): void }>>();
  const pubsub = {
    publish(topic: string, e: MemoryEvent): void {
      for (const sub of [...(topics.get(topic) ?? [])]) sub.push(e);
    },
    /** Ends every subscription of a topic (a dropped space's): waiting readers are woken with `why`. */
    end(topic: string, why: LiveEnd): void {
      for (const sub of [...(topics.get(topic) ?? [])]) sub.end(why);
    },
    subscribe(topic: string): LiveSubscription {
      const queue: MemoryEvent[] = [];
      let waiting: ((v: MemoryEvent | 'overflow' | LiveEnd) => void) | null = null;
      let overflowed = false;
      let ended: LiveEnd | null = null;
      let oldestUnread: number | null = null;
      const listeners = topics.get(topic) ?? new Set();
      topics.set(topic, listeners);
      const close = () => {
        listeners.delete(sub);
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
      const sub = {
        push,
        next(): Promise<MemoryEvent | 'overflow' | LiveEnd> {
          if (ended) return Promise.resolve(ended);
          if (queue.length > 0) return Promise.resolve(queue.shift()!);
          if (overflowed) return Promise.resolve('overflow' as const);
          return new Promise((resolve) => { waiting = resolve; });
        },
        get oldestUnread() { return oldestUnread; },
        get ended() { return ended; },
        end(why: LiveEnd) {
          if (ended) return;
          ended = why;
          queue.length = 0;
          close();
          const w = waiting;
          waiting = null;
          w?.(why);
        },
        close,
      };
      listeners.add(sub);
      return sub;
    },
  };
  const bus: EventBus = {
    publish(events) {
      for (const e of events) pubsub.publish(`space:${e.spaceId}`, e);
    },
    spaceDropped(spaceId) {
      pubsub.end(`space:${spaceId}`, 'dropped');
    },
  };
  return { pubsub, bus };
}

export type EventPubSub = ReturnType<typeof createEventPubSub>['pubsub'];
