/**
 * The live queue of a subscription (src/graphql/pubsub.ts) and the event stream over it
 * (src/graphql/event-stream.ts): a reader that falls behind is cut off with 'overflow' instead
 * of an error thrown from publish, and the stream catches up from the store without losing or
 * repeating an event.
 */
import { describe, expect, it } from 'vitest';
import { createEventPubSub } from '../../src/graphql/pubsub.js';
import { memoryEventStream } from '../../src/graphql/event-stream.js';
import type { MemoryEvent } from '../../src/ports/memory-store.js';
import type { GraphQLContext } from '../../src/graphql/context.js';

const ev = (id: number, spaceId = 's'): MemoryEvent => ({ id: String(id), spaceId } as unknown as MemoryEvent);

describe('live queue', () => {
  it('gives events in order, then overflow once the reader leaves more than the limit unread', async () => {
    const { pubsub } = createEventPubSub(3);
    const sub = pubsub.subscribe('space:s');
    const other = pubsub.subscribe('space:t');
    for (let i = 1; i <= 5; i++) expect(() => pubsub.publish('space:s', ev(i))).not.toThrow();
    pubsub.publish('space:t', ev(6, 't'));
    expect(await sub.next()).toBe('overflow');
    expect(sub.oldestUnread).toBe(1);
    pubsub.publish('space:s', ev(7));
    expect(await sub.next()).toBe('overflow');
    // another space's subscriber is untouched
    expect(Number(((await other.next()) as MemoryEvent).id)).toBe(6);
  });

  it('hands an event to a waiting reader at once', async () => {
    const { pubsub } = createEventPubSub(1);
    const sub = pubsub.subscribe('space:s');
    const next = sub.next();
    pubsub.publish('space:s', ev(1));
    pubsub.publish('space:s', ev(2));
    expect(Number(((await next) as MemoryEvent).id)).toBe(1);
    expect(Number(((await sub.next()) as MemoryEvent).id)).toBe(2);
  });

  it('the stream catches a slow reader up from the store: every event once, in order', async () => {
    const { pubsub } = createEventPubSub(4);
    const stored: MemoryEvent[] = [];
    const ctx = {
      pubsub,
      liveEvents: undefined,
      deps: { store: { spaceEvents: async (_s: string, after: number, limit: number) => stored.filter((e) => Number(e.id) > after).slice(0, limit) } },
    } as unknown as GraphQLContext;
    const publish = (id: number) => {
      stored.push(ev(id));
      pubsub.publish('space:s', ev(id));
    };
    const stream = memoryEventStream(ctx, 's', null);
    const first = stream.next();
    await new Promise((r) => setImmediate(r));
    publish(1);
    expect(Number((await first).value!.id)).toBe(1);
    // 1,200 events committed while the reader is busy: far past the queue's limit of 4
    for (let id = 2; id <= 1_201; id++) publish(id);
    const seen: number[] = [];
    while (seen.length < 1_200) seen.push(Number((await stream.next()).value!.id));
    expect(seen).toEqual(Array.from({ length: 1_200 }, (_, i) => i + 2));
    await stream.return(undefined);
  });
});
