import type { MemoryEvent } from '../ports/memory-store.js';
import type { GraphQLContext } from './context.js';

const PAGE = 500;

/**
 * One subscription's events of a space (docs/live-updates.md): first, when `after` is given,
 * every event after that id read from the store (a client resuming after a disconnect, a
 * restart or a switch of instance), then the live ones, each once, in order. The live
 * listener is registered before the backlog is read, and a live event at or below the last
 * id already sent is dropped, so the seam between the two neither loses nor repeats one
 * (ids of one space increase in commit order: every writer holds the space's lock).
 */
export async function* memoryEventStream(ctx: GraphQLContext, spaceId: string, after: number | null): AsyncGenerator<MemoryEvent> {
  const live = ctx.pubsub.subscribe(`space:${spaceId}`)[Symbol.asyncIterator]();
  // The first next() starts the listener: events published from here on are buffered.
  let pending = live.next();
  const unwatch = ctx.liveEvents ? await ctx.liveEvents.watch(spaceId) : () => {};
  try {
    let last = after ?? -1;
    if (after !== null) {
      for (;;) {
        const page = await ctx.deps.store.spaceEvents(spaceId, last, PAGE);
        for (const e of page) {
          last = Number(e.id);
          yield e;
        }
        if (page.length < PAGE) break;
      }
    }
    for (;;) {
      const r = await pending;
      if (r.done) return;
      pending = live.next();
      const e = r.value as MemoryEvent;
      if (Number(e.id) <= last) continue;
      last = Number(e.id);
      yield e;
    }
  } finally {
    unwatch();
    await live.return?.();
  }
}
