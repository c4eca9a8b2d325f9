import { builder } from '../builder.js';
import { MEMORY_KINDS, MEMORY_STATUSES, MEMORY_TYPES, TIERS } from '../../core/types.js';

export const MemoryTypeEnum = builder.enumType('MemoryType', { values: MEMORY_TYPES });
export const MemoryStatusEnum = builder.enumType('MemoryStatus', {
  values: MEMORY_STATUSES,
  description: 'Only ACTIVE memories are current: recognised, reinforced and recalled.',
});
export const MemoryKindEnum = builder.enumType('MemoryKind', {
  values: MEMORY_KINDS,
  description: "STATEMENT: the person's own words. INFERENCE: the assistant's conclusion, kept apart.",
});
export const TierEnum = builder.enumType('Tier', { values: TIERS });
export const MentionTierEnum = builder.enumType('MentionTier', { values: ['ORIGINAL', ...TIERS] as const });
export const RoleEnum = builder.enumType('Role', { values: ['admin', 'operator', 'chat', 'assistant'] as const });
export const MessageRoleEnum = builder.enumType('MessageRole', { values: ['USER', 'ASSISTANT'] as const });
export const OrderEnum = builder.enumType('MemoryOrder', {
  values: ['STRENGTH', 'RECENT', 'CREATED'] as const,
  description: 'STRENGTH: most often said first, then most recent.',
});
export const EmbeddingStatusEnum = builder.enumType('EmbeddingStatus', { values: ['OK', 'MISSING'] as const });
export const ReviewEnum = builder.enumType('Review', { values: ['PENDING', 'ACCEPTED', 'DISMISSED'] as const });
export const ReviewDecisionEnum = builder.enumType('ReviewDecision', { values: ['ACCEPTED', 'DISMISSED'] as const });
export const ResolutionEnum = builder.enumType('Resolution', { values: ['DONE', 'CANCELLED'] as const });
export const OutcomeEnum = builder.enumType('RememberOutcomeKind', { values: ['CREATED', 'REINFORCED', 'CORRECTED'] as const });
export const BulkOutcomeEnum = builder.enumType('BulkItemOutcome', { values: ['DONE', 'NOT_FOUND', 'ALREADY'] as const });
