import type { MemoryEvent } from '../ports/memory-store.js';
import type { GraphQLContext } from './context.js';
import type { TokenStanding } from './revocation.js';

const PAGE = 500;

/**
 * One subscription's events of a space (docs/live-updates.md): first, when `after` is given,
 * every event after that id read from the store (a client resuming after a disconnect, a
 * restart or a switch of instance), then the live ones, each once, in order. The live
 * listener is registered before the backlog is read, and a live event at or below the last
 * id already sent is dropped, so the seam between the two neither loses nor repeats one
 * (ids of one space increase in commit order: every writer holds the space's lock). A reader
 * that falls more than the live queue's limit behind (src/graphql/pubsub.ts) is caught up
 * the same way: a new listener, then the store from the last id sent. With `token`, an event met
 * once the caller's token no longer stands is not sent: the stream yields `REVOKED` and ends.
 */
export const REVOKED = Symbol('token revoked');

export async function* memoryEventStream(
  ctx: GraphQLContext, spaceId: string, after: number | null, token?: TokenStanding,
): AsyncGenerator<MemoryEvent | typeof REVOKED> {
  const topic = `space:${spaceId}`;
  let live = ctx.pubsub.subscribe(topic);
  const unwatch = ctx.liveEvents ? await ctx.liveEvents.watch(spaceId) : () => {};
  let last = after ?? -1;
  async function* fromStore(): AsyncGenerator<MemoryEvent> {
    for (;;) {
      const page = await ctx.deps.store.spaceEvents(spaceId, last, PAGE);
      for (const e of page) {
        last = Number(e.id);
        if (token && !(await token.standing())) throw REVOKED;
        yield e;
      }
      if (page.length < PAGE) return;
    }
  }
  try {
    if (after !== null) yield* fromStore();
    for (;;) {
      const e = await live.next();
      if (e === 'overflow') {
        // Nothing sent yet (no `after`): resume just before the oldest event the queue dropped.
        if (last < 0) last = (live.oldestUnread ?? 0) - 1;
        live = ctx.pubsub.subscribe(topic);
        yield* fromStore();
        continue;
      }
      if (Number(e.id) <= last) continue;
      last = Number(e.id);
      if (token && !(await token.standing())) throw REVOKED;
      yield e;
    }
  } catch (e) {
    if (e !== REVOKED) throw e;
    yield REVOKED;
  } finally {
    token?.close();
    unwatch();
    live.close();
  }
}
