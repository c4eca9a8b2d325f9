import { GraphQLError } from 'graphql';
import { builder } from '../builder.js';
import { authorize, spaceOf } from '../authz.js';
import { createLoaders, type Loaders } from '../loaders.js';
import type { GraphQLContext } from '../context.js';
import { DomainError, ForbiddenError, InvalidInputError, NotFoundError, SpaceDroppedError } from '../../memory/errors.js';
import { isStreamEnd, memoryEventStream, type StreamEnd, type WatchToken } from '../event-stream.js';
import type { MemoryEvent } from '../../ports/memory-store.js';
import { MemoryEventRef, MemoryRef } from './memory.js';

/** Event kinds after which the memory no longer exists: only its id is sent. */
const GONE = new Set(['FORGOTTEN', 'CLEANED']);

const MemoryChangeRef = builder.objectRef<MemoryEvent>('MemoryChange').implement({
  description:
    'One change in a space, as it happens: the event (never with text) plus the memory as it is now, or only its id when it is gone ' +
    '(FORGOTTEN, CLEANED). `related` is the other memory of the change: the correction, the merge reference, the corrected one.',
  fields: (t) => ({
    kind: t.exposeString('kind', {
      description: 'CREATED, REINFORCED, CORRECTED, SUPERSEDED, MUTED, UNMUTED, RETRACTED, MARKED_ERRONEOUS, MERGED, UNMERGED, RESOLVED, REOPENED, FORGOTTEN, CLEANED, ...',
    }),
    memoryId: t.exposeID('memoryId', { nullable: true }),
    relatedId: t.exposeID('relatedId', { nullable: true }),
    spaceId: t.exposeID('spaceId'),
    gone: t.boolean({ description: 'The memory was deleted for good.', resolve: (e) => GONE.has(e.kind) }),
    event: t.field({ type: MemoryEventRef, resolve: (e) => e }),
    memory: t.field({
      type: MemoryRef, nullable: true,
      resolve: (e, _a, ctx) => (e.memoryId && !GONE.has(e.kind) ? ctx.loaders.memory.load(e.memoryId) : null),
    }),
    related: t.field({
      type: MemoryRef, nullable: true,
      resolve: async (e, _a, ctx) => {
        if (!e.relatedId) return null;
        const m = await ctx.loaders.memory.load(e.relatedId);
        return m && m.spaceId === e.spaceId ? m : null;
      },
    }),
  }),
});

/** Domain errors keep their message and code on a subscription (Yoga masks anything else), and InvalidInput its field, as over HTTP. */
function asGraphQLError(e: unknown): unknown {
  if (!(e instanceof DomainError)) return e;
  return new GraphQLError(e.message, { extensions: { code: e.code, ...(e instanceof InvalidInputError ? { field: e.field } : {}) } });
}

/** An event id (`after`): a whole number, or nothing. */
function eventIdArg(v: unknown): number | null {
  if (v == null || v === '') return null;
  const s = String(v);
  if (!/^\d{1,15}$/.test(s)) throw new InvalidInputError('after', 'an event id (a whole number) from MemoryEvent.id');
  return Number(s);
}

/** The loaders each delivered event's fields are read through (see `resolve`). */
const loadersOfEvent = new WeakMap<object, Loaders>();

builder.subscriptionType({});

builder.subscriptionFields((t) => ({
  memoryEvents: t.field({
    type: MemoryChangeRef,
    description: 'Every change in a space, in order, over graphql-ws (or SSE): enough for a client holding a list to stay consistent.',
    args: {
      spaceId: t.arg.id({ required: false, description: 'Admin only: a space-bound token listens to its own space.' }),
      after: t.arg.id({
        required: false,
        description: 'Resume: first every event of the space after this event id (the last one received), then the live ones.',
      }),
    },
    subscribe: async (_r, a, ctx: GraphQLContext) => {
      try {
        const actor = authorize(ctx, 'memoryEvents');
        const spaceId = spaceOf(actor, a.spaceId);
        if (!(await ctx.loaders.space.load(spaceId))) throw new NotFoundError('Space', spaceId);
        const after = eventIdArg(a.after);
        // An id past the space's last event is none this space gave: the stream would drop every event up to it, in silence.
        const last = after === null ? 0 : await ctx.deps.store.lastEventId(spaceId);
        if (after !== null && after > last) throw new InvalidInputError('after', `no event of this space has id ${after} (its last is ${last})`);
        // A stream over HTTP (SSE) has no socket that revoking its token could close: the registry ends it instead.
        const { tokenId } = actor;
        const hash = ctx.tokenHash;
        const watchToken: WatchToken | undefined = tokenId && hash && ctx.tokenWatch
          ? (revoked) => ctx.tokenWatch!.watch(tokenId, hash, revoked) : undefined;
        // At most `subscriptions` open per token (src/graphql/stream-count.ts): each is resolved on every event of its space.
        const max = ctx.limits?.subscriptions ?? 32;
        const release = tokenId && ctx.streams ? ctx.streams.take(tokenId, max) : () => {};
        if (!release) {
          throw new GraphQLError(`this token holds ${max} subscriptions open already (the most one token may): end one before opening another`, {
            extensions: { code: 'LIMIT_EXCEEDED', limit: 'subscriptions' },
          });
        }
        return memoryEventStream(ctx, spaceId, after, watchToken, release);
      } catch (e) {
        throw asGraphQLError(e);
      }
    },
    resolve: (e: MemoryEvent | StreamEnd, _a, ctx: GraphQLContext) => {
      // The stream's last item: why it ends (then `complete`), its code kept over graphql-ws too (no Yoga masking there).
      if (isStreamEnd(e)) {
        throw asGraphQLError(e.ended === 'revoked' ? new ForbiddenError('the bearer token was revoked') : new SpaceDroppedError(e.spaceId));
      }
      // The context lives as long as the subscription: fresh loaders per event, so nothing is served
      // stale; one set per event, shared by every subscription it is delivered to (the same object,
      // src/graphql/pubsub.ts), so that an event's memory is read once, not once per subscriber.
      let loaders = loadersOfEvent.get(e);
      if (!loaders) loadersOfEvent.set(e, (loaders = createLoaders(ctx.deps, ctx.limits?.readChars)));
      Object.assign(ctx.loaders, loaders);
      return e;
    },
  }),
}));
