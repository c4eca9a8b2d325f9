import { builder } from '../builder.js';
import { authorize, spaceIn } from '../authz.js';
import { ConfirmationRequiredError, InvalidStateError } from '../../memory/errors.js';
import type { CleanUpResult } from '../../memory/cleanup.js';
import type { ConsolidationResult, DuplicateCluster } from '../../memory/consolidate.js';
import { useCases } from '../lazy-use-cases.js';
import type { ClusterLink } from '../../core/consolidation.js';
import type { MemoryType } from '../../core/types.js';
import { COMMON_ERRORS } from './errors.js';
import { MemoryTypeEnum, ResolutionEnum, TierEnum } from './enums.js';
import { MemoryRef } from './memory.js';
import { SpaceRef } from './space.js';
import { walledMemory } from './queries.js';

export const CleanupScopeEnum = builder.enumType('CleanupScope', {
  values: ['PAST_OR_RESOLVED', 'EVERYTHING'] as const,
  description:
    "PAST_OR_RESOLVED: resolved, in any state but ACTIVE, or whose window has closed (an all-day item's at the end of its day " +
    "in the space's time zone). EVERYTHING: every memory of the categories, whatever its date or state, undated ones included.",
});

const TypeCountRef = builder.objectRef<{ type: MemoryType; count: number }>('TypeCount').implement({
  fields: (t) => ({ type: t.field({ type: MemoryTypeEnum, resolve: (c) => c.type }), count: t.exposeInt('count') }),
});

const CleanUpResultRef = builder.objectRef<CleanUpResult>('CleanUpResult').implement({
  description: 'What a sweep deleted, per type; for a dry run, exactly what the real run would delete.',
  fields: (t) => ({
    dryRun: t.exposeBoolean('dryRun'),
    total: t.exposeInt('total'),
    counts: t.field({ type: [TypeCountRef], resolve: (r) => r.counts }),
  }),
});

const ClusterLinkRef = builder.objectRef<ClusterLink>('ClusterLink').implement({
  description: 'A pair recognition would merge: the newer memory (from), the older (to), the tier and score.',
  fields: (t) => ({
    fromId: t.id({ resolve: (l) => l.from }),
    toId: t.id({ resolve: (l) => l.to }),
    tier: t.field({ type: TierEnum, resolve: (l) => l.tier }),
    score: t.exposeFloat('score'),
  }),
});

const DuplicateClusterRef = builder.objectRef<DuplicateCluster>('DuplicateCluster').implement({
  description: 'Active memories recognition would now merge. The reference is the most complete: kept when consolidating.',
  fields: (t) => ({
    reference: t.field({ type: MemoryRef, resolve: (c) => c.reference }),
    members: t.field({ type: [MemoryRef], description: 'The reference first, then the others oldest first.', resolve: (c) => c.members }),
    links: t.field({ type: [ClusterLinkRef], resolve: (c) => c.links }),
  }),
});

const ConsolidationResultRef = builder.objectRef<ConsolidationResult>('ConsolidationResult').implement({
  fields: (t) => ({
    dryRun: t.exposeBoolean('dryRun'),
    merged: t.exposeInt('merged', { description: 'Memories marked MERGED into their reference (0 for a dry run).' }),
    clusters: t.field({ type: [DuplicateClusterRef], resolve: (r) => r.clusters }),
  }),
});

builder.objectFields(MemoryRef, (t) => ({
  mergedInto: t.field({
    type: MemoryRef, nullable: true, description: 'For a MERGED memory: the reference it was merged into by consolidation.',
    resolve: (m, _a, ctx) => (m.status === 'MERGED' && m.mergedInto ? ctx.loaders.memory.load(m.mergedInto) : null),
  }),
}));

const spaceArg = (t: any) => t.arg.id({ required: false, description: 'Admin only: a space-bound token acts on its own space.' });
const ERR_WITH_STATE = [...COMMON_ERRORS, InvalidStateError];

builder.queryFields((t) => ({
  duplicateClusters: t.field({
    type: [DuplicateClusterRef], errors: { types: COMMON_ERRORS, directResult: false },
    description: 'Groups of active memories that recognition, with its current rules and thresholds, would merge.',
    args: { spaceId: spaceArg(t) },
    resolve: async (_r, a, ctx) => (await useCases()).duplicateClusters(ctx.deps, await spaceIn(ctx, authorize(ctx, 'duplicateClusters'), a.spaceId)),
  }),
}));

builder.mutationFields((t) => ({
  cleanUp: t.field({
    type: CleanUpResultRef, errors: { types: [...COMMON_ERRORS, ConfirmationRequiredError] },
    description: 'The cleanup sweep: deletes for good every memory of these types that the scope selects. Permanent: confirm: true, or dryRun: true to count.',
    args: {
      spaceId: spaceArg(t),
      categories: t.arg({ type: [MemoryTypeEnum], required: true }),
      scope: t.arg({ type: CleanupScopeEnum, required: true }),
      confirm: t.arg.boolean({ required: false }),
      dryRun: t.arg.boolean({ required: false }),
    },
    resolve: async (_r, a, ctx) => {
      const actor = authorize(ctx, 'cleanUp');
      return (await useCases()).cleanUp(ctx.deps, actor, await spaceIn(ctx, actor, a.spaceId), {
        categories: a.categories, scope: a.scope, confirm: a.confirm === true, dryRun: a.dryRun === true,
      });
    },
  }),
  consolidate: t.field({
    type: ConsolidationResultRef, errors: { types: COMMON_ERRORS },
    description: 'Keeps the most complete memory of each duplicate cluster and marks the others MERGED into it (reversible with unmerge).',
    args: { spaceId: spaceArg(t), dryRun: t.arg.boolean({ required: false }) },
    resolve: async (_r, a, ctx) => {
      const actor = authorize(ctx, 'consolidate');
      return (await useCases()).consolidate(ctx.deps, actor, await spaceIn(ctx, actor, a.spaceId), a.dryRun === true);
    },
  }),
  unmerge: t.field({
    type: MemoryRef, errors: { types: ERR_WITH_STATE },
    description: 'Undoes a consolidation merge: the memory is ACTIVE again and its mentions leave the reference.',
    args: { memoryId: t.arg.id({ required: true }) },
    resolve: async (_r, a, ctx) => {
      const actor = authorize(ctx, 'unmerge');
      const m = await walledMemory(ctx, actor, String(a.memoryId));
      return (await useCases()).unmerge(ctx.deps, actor, m.spaceId, m.id);
    },
  }),
  resolveMemory: t.field({
    type: MemoryRef, errors: { types: ERR_WITH_STATE },
    description: 'Resolves an appointment, reminder, task or event: DONE or CANCELLED, at `at` (now by default).',
    args: {
      memoryId: t.arg.id({ required: true }),
      resolution: t.arg({ type: ResolutionEnum, required: true }),
      at: t.arg({ type: 'DateTime', required: false }),
    },
    resolve: async (_r, a, ctx) => {
      const actor = authorize(ctx, 'resolveMemory');
      const m = await walledMemory(ctx, actor, String(a.memoryId));
      return (await useCases()).resolveMemory(ctx.deps, actor, m.spaceId, m.id, a.resolution, a.at ?? null);
    },
  }),
  reopenMemory: t.field({
    type: MemoryRef, errors: { types: ERR_WITH_STATE },
    description: 'Clears the resolution of an item with a time.',
    args: { memoryId: t.arg.id({ required: true }) },
    resolve: async (_r, a, ctx) => {
      const actor = authorize(ctx, 'reopenMemory');
      const m = await walledMemory(ctx, actor, String(a.memoryId));
      return (await useCases()).resolveMemory(ctx.deps, actor, m.spaceId, m.id, null);
    },
  }),
  setSpaceTimeZone: t.field({
    type: SpaceRef, errors: { types: COMMON_ERRORS },
    description: "The IANA time zone (e.g. Europe/Paris) in which the space's all-day items are read.",
    args: { spaceId: spaceArg(t), timeZone: t.arg.string({ required: true }) },
    resolve: async (_r, a, ctx) => {
      const actor = authorize(ctx, 'setSpaceTimeZone');
      return (await useCases()).setSpaceTimeZone(ctx.deps, await spaceIn(ctx, actor, a.spaceId), a.timeZone);
    },
  }),
}));
