import type { Actor, Role } from '../memory/deps.js';
import { ForbiddenError, InvalidInputError, NotFoundError } from '../memory/errors.js';
import type { GraphQLContext } from './context.js';

/**
 * Who may call each root operation. Every Query / Mutation / Subscription field
 * must have a row: the authorisation-matrix test fails on a field without one.
 */
export const PERMISSIONS: Record<string, readonly Role[]> = {
  // queries
  viewer: ['admin', 'operator', 'chat', 'assistant'],
  spaces: ['admin'],
  space: ['admin', 'operator'],
  memory: ['admin', 'operator'],
  memories: ['admin', 'operator'],
  profile: ['admin', 'operator'],
  inferences: ['admin', 'operator'],
  conversation: ['admin', 'operator', 'chat'],
  recall: ['assistant'],
  recallSpace: ['admin', 'operator'],
  spaceEvents: ['admin', 'operator'],
  // mutations
  createSpace: ['admin'],
  dropSpace: ['admin'],
  createToken: ['admin'],
  revokeToken: ['admin'],
  openConversation: ['admin', 'chat'],
  recordMessage: ['chat'],
  remember: ['assistant'],
  infer: ['assistant'],
  correct: ['assistant'],
  mute: ['admin', 'operator'],
  unmute: ['admin', 'operator'],
  retract: ['admin', 'operator'],
  muteMemories: ['admin', 'operator'],
  unmuteMemories: ['admin', 'operator'],
  markErroneous: ['admin', 'operator'],
  forget: ['admin', 'operator'],
  forgetMemories: ['admin', 'operator'],
  reviewInference: ['admin', 'operator'],
  reembed: ['admin', 'operator'],
  // tidy (docs/cleanup.md, docs/consolidation.md)
  duplicateClusters: ['admin', 'operator'],
  cleanUp: ['admin', 'operator'],
  consolidate: ['admin', 'operator'],
  unmerge: ['admin', 'operator'],
  resolveMemory: ['admin', 'operator'],
  reopenMemory: ['admin', 'operator'],
  setSpaceTimeZone: ['admin', 'operator'],
  // subscriptions: memories' content is for the roles that may list them; chat only reads its own conversation
  memoryEvents: ['admin', 'operator'],
};

/** Refuses the call unless the actor's role may perform `operation`. */
export function authorize(ctx: GraphQLContext, operation: string): Actor {
  const allowed = PERMISSIONS[operation];
  if (!allowed) throw new ForbiddenError(`${operation} has no authorisation rule`);
  if (!ctx.actor) throw new ForbiddenError('a bearer token is required');
  if (!allowed.includes(ctx.actor.role)) throw new ForbiddenError(`the ${ctx.actor.role} role cannot ${operation}`);
  return ctx.actor;
}

/**
 * The space an operation acts on: a space-bound token's own space (a different
 * `spaceId` argument reads as not found), or the argument for admin.
 */
export function spaceOf(actor: Actor, spaceIdArg: unknown): string {
  // GraphQL ID arguments may arrive as numbers; an empty value means "my own space".
  const spaceId = spaceIdArg == null || spaceIdArg === '' ? null : String(spaceIdArg);
  if (actor.spaceId) {
    if (spaceId && spaceId !== actor.spaceId) throw new NotFoundError('Space', spaceId);
    return actor.spaceId;
  }
  if (!spaceId) throw new InvalidInputError('spaceId', 'an admin must name the space');
  return spaceId;
}
