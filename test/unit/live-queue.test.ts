/**
 * The live queue of a subscription (src/graphql/pubsub.ts) and the event stream over it
 * (src/graphql/event-stream.ts): a reader that falls behind is cut off with 'overflow' instead
 * of an error thrown from publish, and the stream catches up from the store without losing or
 * repeating an event. A stream ends, idle or not, when its space is dropped or its token revoked:
 * its last item says why, and nothing queued is sent after it. A stream its reader leaves while
 * idle lets go of what it holds at once (it used to wait for the space's next change).
 */
import { describe, expect, it, vi } from 'vitest';
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
      deps: { store: {
        spaceEvents: async (_s: string, after: number, limit: number) => stored.filter((e) => Number(e.id) > after).slice(0, limit),
        getSpaces: async (ids: string[]) => ids.map((id) => ({ id })),
      } },
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

  it('ending a topic wakes a waiting reader, drops what is queued, and leaves other topics alone', async () => {
    const { pubsub, bus } = createEventPubSub(8);
    const waiting = pubsub.subscribe('space:s');
    const queued = pubsub.subscribe('space:s');
    const other = pubsub.subscribe('space:t');
    const next = waiting.next();
    pubsub.publish('space:s', ev(1));
    expect(Number(((await next) as MemoryEvent).id)).toBe(1);
    const idle = waiting.next();
    pubsub.publish('space:s', ev(2)); // taken by the idle read
    const idleAgain = waiting.next();
    bus.spaceDropped!('s');
    expect(await idle).toMatchObject({ id: '2' });
    expect(await idleAgain).toBe('dropped');
    expect(await queued.next()).toBe('dropped'); // its two queued events are not given
    expect(queued.ended).toBe('dropped');
    pubsub.publish('space:s', ev(3));
    expect(await waiting.next()).toBe('dropped');
    pubsub.publish('space:t', ev(4, 't'));
    expect(await other.next()).toMatchObject({ id: '4' });
  });

  const streamCtx = (pubsub: ReturnType<typeof createEventPubSub>['pubsub'], exists: () => boolean) => ({
    pubsub,
    liveEvents: undefined,
    deps: { store: { spaceEvents: async () => [], getSpaces: async (ids: string[]) => (exists() ? ids.map((id) => ({ id })) : []) } },
  } as unknown as GraphQLContext);

  it('the stream ends when its space is dropped, idle or not yet listening, and when its token is revoked', async () => {
    const { pubsub, bus } = createEventPubSub(8);
    let exists = true;
    // idle, then the space dropped
    const idle = memoryEventStream(streamCtx(pubsub, () => exists), 's', null);
    const first = idle.next();
    await new Promise((r) => setImmediate(r));
    bus.spaceDropped!('s');
    expect((await first).value).toEqual({ ended: 'dropped', spaceId: 's' });
    expect((await idle.next()).done).toBe(true);
    // dropped before its listener was registered: the space is looked up once it is
    exists = false;
    const late = memoryEventStream(streamCtx(pubsub, () => exists), 's', null);
    expect((await late.next()).value).toEqual({ ended: 'dropped', spaceId: 's' });
    exists = true;
    // idle, then its token revoked
    let revoke = () => {};
    let unwatched = false;
    const watched = memoryEventStream(streamCtx(pubsub, () => exists), 't', null, (revoked) => {
      revoke = revoked;
      return () => { unwatched = true; };
    });
    const pending = watched.next();
    await new Promise((r) => setImmediate(r));
    pubsub.publish('space:t', ev(1, 't'));
    expect((await pending).value).toMatchObject({ id: '1' });
    const idleRead = watched.next();
    revoke();
    expect((await idleRead).value).toEqual({ ended: 'revoked', spaceId: 't' });
    expect((await watched.next()).done).toBe(true);
    expect(unwatched).toBe(true);
  });

  it('an idle stream its reader leaves lets go at once: listener, watch and token registration', async () => {
    const { pubsub } = createEventPubSub(8);
    const held = { watches: 0, tokens: 0 };
    const ctx = {
      ...streamCtx(pubsub, () => true),
      liveEvents: { watch: async () => { held.watches++; return () => { held.watches--; }; } },
    } as unknown as GraphQLContext;
    const stream = memoryEventStream(ctx, 's', null, () => { held.tokens++; return () => { held.tokens--; }; });
    const first = stream.next();
    await vi.waitFor(() => expect(held).toEqual({ watches: 1, tokens: 1 }));
    await new Promise((r) => setImmediate(r));
    pubsub.publish('space:s', ev(1));
    expect((await first).value).toMatchObject({ id: '1' });
    // the next read waits for a change of the space that will not come: leaving must not wait for it
    const pending = stream.next();
    await new Promise((r) => setImmediate(r));
    expect(await stream.return(undefined)).toEqual({ done: true, value: undefined });
    expect(await pending).toEqual({ done: true, value: undefined });
    expect(held).toEqual({ watches: 0, tokens: 0 });
    pubsub.publish('space:s', ev(2)); // nobody listens any more
  });
});
