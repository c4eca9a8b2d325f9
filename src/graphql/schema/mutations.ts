import { builder } from '../builder.js';
import { authorize, spaceIn } from '../authz.js';
import { ConfirmationRequiredError, InvalidStateError, NotFoundError } from '../../memory/errors.js';
import { openConversation, recordMessage, conversationFor } from '../../memory/conversations.js';
import type { RememberResult } from '../../memory/remember.js';
import type { BulkResult, StatusAction } from '../../memory/statuses.js';
import { useCases } from '../lazy-use-cases.js';
import { createToken } from '../../memory/tokens.js';
import { reembedMissing } from '../../memory/reembed.js';
import type { MemoryRecord } from '../../ports/memory-store.js';
import { COMMON_ERRORS, QUOTE_ERRORS } from './errors.js';
import { BulkOutcomeEnum, MemoryTypeEnum, MessageRoleEnum, OutcomeEnum, ReviewDecisionEnum, RoleEnum, TierEnum } from './enums.js';
import { MemoryRef } from './memory.js';
import { ConversationRef, MessageRef, SpaceRef } from './space.js';
import { walledMemory } from './queries.js';
import { tokenRevoked } from '../revocation.js';

const RememberOutcomeRef = builder.objectRef<RememberResult>('RememberOutcome').implement({
  description: 'What keeping a sentence did: created a memory, reinforced one (with tier and score), or corrected one. '
    + 'A retry (the same sentence of the same message, kept already) answers as the first call did and writes nothing. '
    + 'A correction said before the memory it would correct (remembered late) is CREATED already SUPERSEDED by that later memory.',
  fields: (t) => ({
    outcome: t.field({ type: OutcomeEnum, resolve: (r) => r.outcome }),
    memory: t.field({ type: MemoryRef, resolve: (r) => r.memory }),
    tier: t.field({ type: TierEnum, nullable: true, resolve: (r) => (r.outcome === 'REINFORCED' ? r.tier : null) }),
    score: t.float({ nullable: true, resolve: (r) => (r.outcome === 'CREATED' ? null : r.score) }),
    superseded: t.field({ type: MemoryRef, nullable: true, resolve: (r) => (r.outcome === 'CORRECTED' ? r.superseded : null) }),
    rule: t.string({ nullable: true, resolve: (r) => (r.outcome === 'CORRECTED' ? r.rule : null) }),
  }),
});

const CorrectionRef = builder.objectRef<{ memory: MemoryRecord; superseded: MemoryRecord }>('Correction').implement({
  fields: (t) => ({
    memory: t.field({ type: MemoryRef, resolve: (r) => r.memory }),
    superseded: t.field({ type: MemoryRef, resolve: (r) => r.superseded }),
  }),
});

const BulkItemRef = builder.objectRef<BulkResult['results'][number]>('BulkItem').implement({
  fields: (t) => ({ id: t.exposeID('id'), outcome: t.field({ type: BulkOutcomeEnum, resolve: (r) => r.outcome }) }),
});
const BulkResultRef = builder.objectRef<BulkResult>('BulkResult').implement({
  description: 'Per id: DONE, NOT_FOUND (an id of another space counts as not found) or ALREADY in that state.',
  fields: (t) => ({
    changed: t.exposeInt('changed'),
    results: t.field({ type: [BulkItemRef], resolve: (r) => r.results }),
  }),
});

const TokenRef = builder.objectRef<{ id: string; secret: string; role: string; spaceId: string | null }>('CreatedToken').implement({
  description: 'The secret is shown once: only its hash is stored.',
  fields: (t) => ({
    id: t.exposeID('id'), secret: t.exposeString('secret'), role: t.exposeString('role'), spaceId: t.exposeID('spaceId', { nullable: true }),
  }),
});

const ReembedRef = builder.objectRef<{ filled: number; failed: number }>('ReembedResult').implement({
  fields: (t) => ({ filled: t.exposeInt('filled'), failed: t.exposeInt('failed') }),
});

const RememberInput = builder.inputType('RememberInput', {
  fields: (t) => ({
    conversationId: t.id({ required: true }),
    quote: t.string({ required: true, description: 'Whole sentence(s), word for word, of one message the person typed in this conversation.' }),
    type: t.field({ type: MemoryTypeEnum, required: true }),
    entities: t.stringList({ required: false }),
    themes: t.stringList({ required: false }),
    tags: t.stringList({ required: false }),
    importance: t.float({ required: false }),
    valence: t.float({ required: false }),
    vector: t.field({ type: 'JSON', required: false, description: 'A client-supplied fingerprint: number array or "[0.1,...]" text.' }),
    startsAt: t.field({ type: 'DateTime', required: false }),
    endsAt: t.field({ type: 'DateTime', required: false }),
    dueAt: t.field({ type: 'DateTime', required: false }),
    allDay: t.boolean({ required: false }),
  }),
});

const idArg = (t: any) => t.arg.id({ required: true });
const ERR_WITH_STATE = [...COMMON_ERRORS, InvalidStateError];

builder.mutationFields((t) => ({
  createSpace: t.field({
    type: SpaceRef, errors: { types: COMMON_ERRORS },
    args: { name: t.arg.string({ required: true }), sealed: t.arg.boolean({ required: false }), timeZone: t.arg.string({ required: false }) },
    resolve: async (_r, a, ctx) => {
      authorize(ctx, 'createSpace');
      return (await useCases()).createSpace(ctx.deps, { name: a.name, sealed: a.sealed ?? false, timeZone: a.timeZone });
    },
  }),
  dropSpace: t.boolean({
    errors: { types: [...ERR_WITH_STATE, ConfirmationRequiredError], directResult: false },
    description: 'Drops a sealed space and everything in it.',
    args: { id: idArg(t), confirm: t.arg.boolean({ required: false }) },
    resolve: async (_r, a, ctx) => {
      authorize(ctx, 'dropSpace');
      await (await useCases()).dropSealedSpace(ctx.deps, String(a.id), a.confirm === true);
      return true;
    },
  }),
  createToken: t.field({
    type: TokenRef, errors: { types: COMMON_ERRORS },
    args: { role: t.arg({ type: RoleEnum, required: true }), spaceId: t.arg.id({ required: false }), label: t.arg.string({ required: false }) },
    resolve: (_r, a, ctx) => {
      authorize(ctx, 'createToken');
      return createToken(ctx.deps, { role: a.role, spaceId: a.spaceId, label: a.label });
    },
  }),
  revokeToken: t.boolean({
    errors: { types: COMMON_ERRORS, directResult: false }, args: { id: idArg(t) },
    resolve: async (_r, a, ctx) => {
      authorize(ctx, 'revokeToken');
      if (!(await ctx.deps.store.revokeToken(String(a.id)))) throw new NotFoundError('Token', String(a.id));
      tokenRevoked(String(a.id)); // closes the token's open subscriptions (src/graphql/revocation.ts)
      return true;
    },
  }),
  openConversation: t.field({
    type: ConversationRef, errors: { types: COMMON_ERRORS },
    description: "Opens a conversation in the caller's space (the server assigns it).",
    args: { spaceId: t.arg.id({ required: false, description: 'Admin only.' }) },
    resolve: async (_r, a, ctx) => openConversation(ctx.deps, await spaceIn(ctx, authorize(ctx, 'openConversation'), a.spaceId)),
  }),
  recordMessage: t.field({
    type: MessageRef, errors: { types: COMMON_ERRORS },
    description: 'The chat side records what the person typed (USER) or the assistant answered (ASSISTANT).',
    args: {
      conversationId: idArg(t), role: t.arg({ type: MessageRoleEnum, required: true }), text: t.arg.string({ required: true }),
      at: t.arg({ type: 'DateTime', required: false, description: 'When it was typed (now by default): earlier for a past conversation, never more than a day after the server\'s clock.' }),
    },
    resolve: (_r, a, ctx) => recordMessage(ctx.deps, authorize(ctx, 'recordMessage'), {
      conversationId: String(a.conversationId), role: a.role, text: a.text, at: a.at,
    }),
  }),
  remember: t.field({
    type: RememberOutcomeRef, errors: { types: [...COMMON_ERRORS, ...QUOTE_ERRORS] },
    args: { input: t.arg({ type: RememberInput, required: true }) },
    resolve: async (_r, { input }, ctx) => {
      const actor = authorize(ctx, 'remember');
      const { remember } = await useCases(input.vector == null ? ctx.deps.embedder : undefined);
      const r = await remember(ctx.deps, actor, {
        ...input, conversationId: String(input.conversationId), entities: input.entities ?? [], themes: input.themes ?? [], tags: input.tags ?? [],
      });
      ctx.metrics?.remembered(r);
      return r;
    },
  }),
  infer: t.field({
    type: MemoryRef, errors: { types: COMMON_ERRORS },
    description: "Stores the assistant's own conclusion, apart from the person's words.",
    args: { conversationId: idArg(t), text: t.arg.string({ required: true }), type: t.arg({ type: MemoryTypeEnum, required: true }), basis: t.arg.string({ required: false }) },
    resolve: async (_r, a, ctx) => (await useCases()).infer(ctx.deps, authorize(ctx, 'infer'), { conversationId: String(a.conversationId), text: a.text, type: a.type, basis: a.basis }),
  }),
  correct: t.field({
    type: CorrectionRef, errors: { types: [...ERR_WITH_STATE, ...QUOTE_ERRORS] },
    args: { memoryId: idArg(t), conversationId: idArg(t), quote: t.arg.string({ required: true }), type: t.arg({ type: MemoryTypeEnum, required: false }) },
    resolve: async (_r, a, ctx) => (await useCases()).correct(ctx.deps, authorize(ctx, 'correct'), {
      memoryId: String(a.memoryId), conversationId: String(a.conversationId), quote: a.quote, type: a.type,
    }),
  }),
  ...statusMutation(t, 'mute', 'mute', 'Use muteMemories(ids: [id]): one mutation per gesture.'),
  ...statusMutation(t, 'unmute', 'unmute', 'Use unmuteMemories(ids: [id]): one mutation per gesture.'),
  ...statusMutation(t, 'retract', 'retract'),
  muteMemories: bulkMutation(t, 'muteMemories', 'mute'),
  unmuteMemories: bulkMutation(t, 'unmuteMemories', 'unmute'),
  markErroneous: t.field({
    type: MemoryRef, errors: { types: ERR_WITH_STATE },
    args: { memoryId: idArg(t), correctedBy: t.arg.id({ required: false }), spaceId: t.arg.id({ required: false }) },
    resolve: async (_r, a, ctx) => {
      const actor = authorize(ctx, 'markErroneous');
      return (await useCases()).markErroneous(ctx.deps, actor, await spaceIn(ctx, actor, a.spaceId), String(a.memoryId), a.correctedBy ? String(a.correctedBy) : null);
    },
  }),
  forget: forgetField(t, 'forget', 'Forget for good: permanent, only with confirm: true. Leaves an event without content.',
    'Use forgetMemories: the same operation (it takes the same ids list).'),
  forgetMemories: forgetField(t, 'forgetMemories', 'Forget many memories for good in one operation (up to 10,000 ids).'),
  reviewInference: t.field({
    type: MemoryRef, errors: { types: COMMON_ERRORS },
    args: { id: idArg(t), decision: t.arg({ type: ReviewDecisionEnum, required: true }), spaceId: t.arg.id({ required: false }) },
    resolve: async (_r, a, ctx) => {
      const actor = authorize(ctx, 'reviewInference');
      return (await useCases()).reviewInference(ctx.deps, actor, await spaceIn(ctx, actor, a.spaceId), String(a.id), a.decision);
    },
  }),
  reembed: t.field({
    type: ReembedRef, errors: { types: COMMON_ERRORS },
    description: 'Fills in vectors of memories stored while the embedder was failing.',
    args: { spaceId: t.arg.id({ required: false }) },
    resolve: async (_r, a, ctx) => reembedMissing(ctx.deps, await spaceIn(ctx, authorize(ctx, 'reembed'), a.spaceId)),
  }),
}));

function statusMutation(t: any, name: string, action: StatusAction, deprecationReason?: string) {
  return {
    [name]: t.field({
      type: MemoryRef, errors: { types: ERR_WITH_STATE }, deprecationReason,
      args: { memoryId: idArg(t) },
      resolve: async (_r: unknown, a: { memoryId: string }, ctx: any) => {
        const actor = authorize(ctx, name);
        const m = await walledMemory(ctx, actor, String(a.memoryId));
        const r = await (await useCases()).changeStatus(ctx.deps, actor, m.spaceId, action, [m.id]);
        if (r.results[0].outcome === 'ALREADY') throw new InvalidStateError(`memory ${m.id} is ${m.status}: cannot ${action}`);
        const [fresh] = await ctx.deps.store.getMemories([m.id], m.spaceId);
        return fresh;
      },
    }),
  };
}

function forgetField(t: any, name: string, description: string, deprecationReason?: string) {
  return t.field({
    type: BulkResultRef, errors: { types: [...COMMON_ERRORS, ConfirmationRequiredError] }, description, deprecationReason,
    args: { ids: t.arg.idList({ required: true }), confirm: t.arg.boolean({ required: false }), spaceId: t.arg.id({ required: false }) },
    resolve: async (_r: unknown, a: { ids: string[]; confirm?: boolean | null; spaceId?: string | null }, ctx: any) => {
      const actor = authorize(ctx, name);
      return (await useCases()).forget(ctx.deps, actor, await spaceIn(ctx, actor, a.spaceId ?? null), a.ids.map(String), a.confirm === true);
    },
  });
}

function bulkMutation(t: any, name: string, action: StatusAction) {
  return t.field({
    type: BulkResultRef, errors: { types: COMMON_ERRORS },
    args: { ids: t.arg.idList({ required: true }), spaceId: t.arg.id({ required: false }) },
    resolve: async (_r: unknown, a: { ids: string[]; spaceId?: string | null }, ctx: any) => {
      const actor = authorize(ctx, name);
      return (await useCases()).changeStatus(ctx.deps, actor, await spaceIn(ctx, actor, a.spaceId ?? null), action, a.ids.map(String));
    },
  });
}

export { conversationFor };
