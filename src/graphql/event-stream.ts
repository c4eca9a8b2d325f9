import type { MemoryEvent } from '../ports/memory-store.js';
import type { GraphQLContext } from './context.js';
import type { LiveEnd, LiveSubscription } from './pubsub.js';

const PAGE = 500;

/**
 * The stream's last item, why it ends: its token was revoked (the resolver answers FORBIDDEN), or
 * its space dropped (NOT_FOUND, naming the drop).
 */
export interface StreamEnd { readonly ended: LiveEnd; readonly spaceId: string }

export function isStreamEnd(x: MemoryEvent | StreamEnd): x is StreamEnd {
  return 'ended' in x;
}

/** Registers `revoked` to be called once the subscription's token is revoked; returns the unregister. */
export type WatchToken = (revoked: () => void) => () => void;

/**
 * One subscription's events of a space (docs/live-updates.md): first, when `after` is given,
 * every event after that id read from the store (a client resuming after a disconnect, a
 * restart or a switch of instance), then the live ones, each once, in order. The live
 * listener is registered before the backlog is read, and a live event at or below the last
 * id already sent is dropped, so the seam between the two neither loses nor repeats one
 * (ids of one space increase in commit order: every writer holds the space's lock). A reader
 * that falls more than the live queue's limit behind (src/graphql/pubsub.ts) is caught up
 * the same way: a new listener, then the store from the last id sent.
 *
 * It ends, idle or not, sending nothing more, when its space is dropped (the live feed ends:
 * in process, or announced by the database on a server) and, with `watchToken`, when the caller's
 * token is revoked (the socket registry tells it: at once through this process, within its re-check
 * otherwise); its last item then says which (`StreamEnd`).
 */
export function memoryEventStream(
  ctx: GraphQLContext, spaceId: string, after: number | null, watchToken?: WatchToken, onEnd?: () => void,
): AsyncGenerator<MemoryEvent | StreamEnd> {
  const reader = { gone: false, wake: () => {} };
  const stream = events(ctx, spaceId, after, watchToken, reader);
  // `onEnd` once, however the stream ends: the client went away, it ended itself, or it failed.
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    onEnd?.();
  };
  // The client went away (an SSE request aborted, a graphql-ws `complete`): `return` waits for a
  // generator to stop at a yield, and an idle one waits for the next change of its space, holding
  // its listener, the hub's watch and the token's registration until then. Woken, it stops now.
  const stop = stream.return.bind(stream);
  stream.return = (value) => {
    reader.gone = true;
    reader.wake();
    end();
    return stop(value);
  };
  const next = stream.next.bind(stream);
  stream.next = async (...a) => {
    try {
      const r = await next(...a);
      if (r.done) end();
      return r;
    } catch (e) {
      end();
      throw e;
    }
  };
  const fail = stream.throw.bind(stream);
  stream.throw = (e) => {
    end();
    return fail(e);
  };
  return stream;
}

async function* events(
  ctx: GraphQLContext, spaceId: string, after: number | null, watchToken: WatchToken | undefined,
  reader: { gone: boolean; wake: () => void },
): AsyncGenerator<MemoryEvent | StreamEnd> {
  const topic = `space:${spaceId}`;
  let live: LiveSubscription = ctx.pubsub.subscribe(topic);
  let revoked = false;
  let unwatchToken = () => {};
  let unwatch = () => {};
  // Ending the live feed wakes a read waiting for the next change.
  reader.wake = () => live.end('closed');
  const ended = (): LiveEnd | null => (reader.gone ? 'closed' : revoked ? 'revoked' : live.ended);
  let last = after ?? -1;
  /**
   * A drop committed before the live listener (and, on a server, the hub's watch) was registered
   * ended nothing: the space is looked up once it is. One committed after is announced to it.
   */
  const droppedBefore = async () => {
    const [space] = await ctx.deps.store.getSpaces([spaceId]);
    if (!space) live.end('dropped');
  };
  async function* fromStore(): AsyncGenerator<MemoryEvent> {
    for (;;) {
      const page = await ctx.deps.store.spaceEvents(spaceId, last, PAGE);
      for (const e of page) {
        if (ended()) return;
        last = Number(e.id);
        yield e;
      }
      if (page.length < PAGE) return;
    }
  }
  try {
    unwatchToken = watchToken?.(() => {
      revoked = true;
      live.end('revoked');
    }) ?? unwatchToken;
    if (ctx.liveEvents) unwatch = await ctx.liveEvents.watch(spaceId);
    await droppedBefore();
    if (after !== null && !ended()) yield* fromStore();
    while (!ended()) {
      const e = await live.next();
      // Ended while this read waited, or while its event was on its way: nothing more is sent.
      if (ended() || (typeof e === 'string' && e !== 'overflow')) break;
      if (e === 'overflow') {
        // Nothing sent yet (no `after`): resume just before the oldest event the queue dropped.
        if (last < 0) last = (live.oldestUnread ?? 0) - 1;
        live = ctx.pubsub.subscribe(topic);
        // The overflowed listener was gone: a drop meanwhile reached no one.
        await droppedBefore();
        if (!ended()) yield* fromStore();
        continue;
      }
      if (Number(e.id) <= last) continue;
      last = Number(e.id);
      yield e;
    }
    const why = ended();
    if (why !== 'closed') yield { ended: why ?? 'dropped', spaceId };
  } finally {
    unwatchToken();
    unwatch();
    live.close();
  }
}
