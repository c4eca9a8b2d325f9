import { builder } from '../builder.js';
import { authorize, spaceIn, spaceOf } from '../authz.js';
import { NotFoundError, InvalidInputError } from '../../memory/errors.js';
import { conversationFor } from '../../memory/conversations.js';
import type { RecallHit, RecallResult } from '../../memory/recall.js';
import { useCases } from '../lazy-use-cases.js';
import type { ListFilter, ListOrder, MemoryRecord } from '../../ports/memory-store.js';
import type { GraphQLContext } from '../context.js';
import type { Actor } from '../../memory/deps.js';
import { COMMON_ERRORS } from './errors.js';
import { recallTimed } from '../../ops/metrics.js';
import { MemoryKindEnum, MemoryStatusEnum, MemoryTypeEnum, OrderEnum, ReviewEnum, RoleEnum } from './enums.js';
import { MemoryEventRef, MemoryRef } from './memory.js';
import { ConversationRef, SpaceRef } from './space.js';

interface Viewer { actor: Actor }
const ViewerRef = builder.objectRef<Viewer>('Viewer').implement({
  fields: (t) => ({
    role: t.field({ type: RoleEnum, resolve: (v) => v.actor.role }),
    space: t.field({ type: SpaceRef, nullable: true, resolve: (v, _a, ctx) => (v.actor.spaceId ? ctx.loaders.space.load(v.actor.spaceId) : null) }),
  }),
});

interface MemoryPage { items: MemoryRecord[]; hasNext: boolean; offset: number }
const PageInfoRef = builder.objectRef<{ hasNextPage: boolean; endCursor: string | null }>('PageInfo').implement({
  fields: (t) => ({ hasNextPage: t.exposeBoolean('hasNextPage'), endCursor: t.exposeString('endCursor', { nullable: true }) }),
});
const MemoryEdgeRef = builder.objectRef<{ cursor: string; node: MemoryRecord }>('MemoryEdge').implement({
  fields: (t) => ({ cursor: t.exposeString('cursor'), node: t.field({ type: MemoryRef, resolve: (e) => e.node }) }),
});
const cursorOf = (offset: number) => Buffer.from(`o:${offset}`).toString('base64url');
function offsetOf(cursor: string | null | undefined): number {
  if (!cursor) return 0;
  const m = /^o:(\d+)$/.exec(Buffer.from(cursor, 'base64url').toString());
  // A cursor's offset beyond what a list can hold is no cursor of ours (and no bigint either).
  if (!m || m[1]!.length > 12) throw new InvalidInputError('after', 'not a cursor from this list');
  return Number(m[1]) + 1;
}
export const MemoryConnectionRef = builder.objectRef<MemoryPage>('MemoryConnection').implement({
  description: 'A Relay connection of memories.',
  fields: (t) => ({
    edges: t.field({ type: [MemoryEdgeRef], resolve: (p) => p.items.map((node, i) => ({ node, cursor: cursorOf(p.offset + i) })) }),
    nodes: t.field({ type: [MemoryRef], resolve: (p) => p.items }),
    pageInfo: t.field({
      type: PageInfoRef,
      resolve: (p) => ({ hasNextPage: p.hasNext, endCursor: p.items.length ? cursorOf(p.offset + p.items.length - 1) : null }),
    }),
  }),
});

const MemoryFilter = builder.inputType('MemoryFilter', {
  fields: (t) => ({
    kind: t.field({ type: MemoryKindEnum, required: false, description: 'Defaults to STATEMENT.' }),
    statuses: t.field({ type: [MemoryStatusEnum], required: false, description: 'Defaults to [ACTIVE].' }),
    types: t.field({ type: [MemoryTypeEnum], required: false }),
  }),
});

const RecallHitRef = builder.objectRef<RecallHit>('RecallHit').implement({
  fields: (t) => ({
    memory: t.field({ type: MemoryRef, resolve: (h) => h.memory }),
    score: t.exposeFloat('score'),
    vectorScore: t.float({ nullable: true, resolve: (h) => h.vectorScore }),
    lexicalRank: t.float({ nullable: true, resolve: (h) => h.lexicalRank }),
    attribution: t.exposeString('attribution'),
  }),
});
const RecallResultRef = builder.objectRef<RecallResult>('RecallResult').implement({
  description: 'Current statements first, as dated quotes; inferences only in their own labelled list.',
  fields: (t) => ({
    statements: t.field({ type: [RecallHitRef], resolve: (r) => r.statements }),
    inferences: t.field({ type: [RecallHitRef], description: "The assistant's own conclusions, never the person's words.", resolve: (r) => r.inferences }),
    nothingOnFile: t.boolean({ resolve: (r) => r.statements.length === 0 }),
  }),
});

async function walledMemory(ctx: { loaders: { memory: { load(id: string): Promise<MemoryRecord | null> } } }, actor: Actor, id: string): Promise<MemoryRecord> {
  const m = await ctx.loaders.memory.load(id);
  if (!m || (actor.spaceId && m.spaceId !== actor.spaceId)) throw new NotFoundError('Memory', id);
  return m;
}

builder.queryFields((t) => ({
  viewer: t.field({
    type: ViewerRef, errors: { types: COMMON_ERRORS },
    resolve: (_r, _a, ctx) => ({ actor: authorize(ctx, 'viewer') }),
  }),
  spaces: t.field({
    type: [SpaceRef], errors: { types: COMMON_ERRORS, directResult: false },
    resolve: (_r, _a, ctx) => {
      authorize(ctx, 'spaces');
      return ctx.deps.store.listSpaces();
    },
  }),
  space: t.field({
    type: SpaceRef, errors: { types: COMMON_ERRORS }, args: { id: t.arg.id({ required: false }) },
    resolve: async (_r, a, ctx) => {
      const id = spaceOf(authorize(ctx, 'space'), a.id ? String(a.id) : null);
      const s = await ctx.loaders.space.load(id);
      if (!s) throw new NotFoundError('Space', id);
      return s;
    },
  }),
  memory: t.field({
    type: MemoryRef, errors: { types: COMMON_ERRORS }, args: { id: t.arg.id({ required: true }) },
    resolve: (_r, a, ctx) => walledMemory(ctx, authorize(ctx, 'memory'), String(a.id)),
  }),
  memories: t.field({
    type: MemoryConnectionRef, errors: { types: COMMON_ERRORS },
    args: {
      spaceId: t.arg.id({ required: false }),
      filter: t.arg({ type: MemoryFilter, required: false }),
      orderBy: t.arg({ type: OrderEnum, required: false, defaultValue: 'RECENT' }),
      first: t.arg.int({ required: false, defaultValue: 50 }),
      after: t.arg.string({ required: false }),
    },
    resolve: async (_r, a, ctx) => {
      const spaceId = await spaceIn(ctx, authorize(ctx, 'memories'), a.spaceId);
      const first = a.first ?? 50;
      if (first < 1 || first > 500) throw new InvalidInputError('first', 'must be between 1 and 500');
      const offset = offsetOf(a.after);
      const page = await weighedList(ctx, spaceId, {
        kind: a.filter?.kind ?? 'STATEMENT', statuses: a.filter?.statuses ?? ['ACTIVE'], types: a.filter?.types ?? undefined,
      }, a.orderBy ?? 'RECENT', first, offset);
      return { ...page, offset };
    },
  }),
  profile: t.field({
    type: [MemoryRef], errors: { types: COMMON_ERRORS, directResult: false },
    description: 'The layered view of a space: what was said most often first, then the most recent.',
    args: { spaceId: t.arg.id({ required: false }), first: t.arg.int({ required: false, defaultValue: 20 }) },
    resolve: async (_r, a, ctx) => {
      const spaceId = await spaceIn(ctx, authorize(ctx, 'profile'), a.spaceId);
      // 0 is an empty page, as for inferences and spaceEvents (the guard bounds it to 0..200).
      const first = Math.min(a.first ?? 20, 200);
      return (await weighedList(ctx, spaceId, { kind: 'STATEMENT', statuses: ['ACTIVE'] }, 'STRENGTH', first, 0)).items;
    },
  }),
  inferences: t.field({
    type: [MemoryRef], errors: { types: COMMON_ERRORS, directResult: false },
    description: "The assistant's inferences, for review.",
    args: { spaceId: t.arg.id({ required: false }), review: t.arg({ type: ReviewEnum, required: false }), first: t.arg.int({ required: false, defaultValue: 100 }) },
    resolve: async (_r, a, ctx) => {
      const spaceId = await spaceIn(ctx, authorize(ctx, 'inferences'), a.spaceId);
      const items = (await weighedList(ctx, spaceId, { kind: 'INFERENCE' }, 'CREATED', Math.min(a.first ?? 100, 500), 0)).items;
      return a.review ? items.filter((m) => m.review === a.review) : items;
    },
  }),
  conversation: t.field({
    type: ConversationRef, errors: { types: COMMON_ERRORS }, args: { id: t.arg.id({ required: true }) },
    resolve: (_r, a, ctx) => conversationFor(ctx.deps, authorize(ctx, 'conversation'), String(a.id)),
  }),
  recall: t.field({
    type: RecallResultRef, errors: { types: COMMON_ERRORS },
    description: 'What the person said that answers `query`, through a conversation of their space.',
    args: { conversationId: t.arg.id({ required: true }), query: t.arg.string({ required: true }), first: t.arg.int({ required: false, defaultValue: 5 }) },
    resolve: async (_r, a, ctx) => {
      const c = await conversationFor(ctx.deps, authorize(ctx, 'recall'), String(a.conversationId));
      const { recall } = await useCases(ctx.deps.embedder);
      ctx.loaders.beforeRead();
      return recallTimed(ctx.metrics, 'recall', () => recall(ctx.deps, c.spaceId, a.query, a.first ?? 5));
    },
  }),
  recallSpace: t.field({
    type: RecallResultRef, errors: { types: COMMON_ERRORS },
    args: { spaceId: t.arg.id({ required: false }), query: t.arg.string({ required: true }), first: t.arg.int({ required: false, defaultValue: 5 }) },
    resolve: async (_r, a, ctx) => {
      const spaceId = await spaceIn(ctx, authorize(ctx, 'recallSpace'), a.spaceId);
      const { recall } = await useCases(ctx.deps.embedder);
      ctx.loaders.beforeRead();
      return recallTimed(ctx.metrics, 'recallSpace', () => recall(ctx.deps, spaceId, a.query, a.first ?? 5));
    },
  }),
  spaceEvents: t.field({
    type: [MemoryEventRef], errors: { types: COMMON_ERRORS, directResult: false },
    description: 'The audit log of a space, oldest first, after an event id.',
    args: { spaceId: t.arg.id({ required: false }), after: t.arg.int({ required: false, defaultValue: 0 }), first: t.arg.int({ required: false, defaultValue: 100 }) },
    resolve: async (_r, a, ctx) => ctx.deps.store.spaceEvents(
      await spaceIn(ctx, authorize(ctx, 'spaceEvents'), a.spaceId), a.after ?? 0, Math.min(a.first ?? 100, 1000)),
  }),
}));

export { walledMemory };

/**
 * A page of a space's memories weighed before it is read (`listMemorySizes`, then the records of
 * the ids that fit in the request's words: src/graphql/loaders.ts, `weighPage`). A page cut short
 * has a next page. Aliases of one list run at once: each weighs its page as its sizes come back, so
 * together they read no more than the words allow.
 */
async function weighedList(ctx: GraphQLContext, spaceId: string, filter: ListFilter, order: ListOrder, first: number, offset: number): Promise<{ items: MemoryRecord[]; hasNext: boolean }> {
  if (first === 0) return { items: [], hasNext: false };
  const sizes = await ctx.deps.store.listMemorySizes(spaceId, filter, order, first, offset);
  const { ids, cut } = ctx.loaders.weighPage(sizes.items);
  return { items: await ctx.loaders.records(ids), hasNext: sizes.hasNext || cut };
}
