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
  node: ['admin', 'operator'],
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

/** Each operation as a refusal names it: "the assistant role cannot list memories". */
export const GESTURES: Record<string, string> = {
  viewer: 'see who it is', spaces: 'list spaces', space: 'read a space', memory: 'read a memory', memories: 'list memories',
  profile: 'read the profile', inferences: 'list inferences', conversation: 'read a conversation', recall: 'recall',
  recallSpace: 'recall across a space', spaceEvents: "read a space's event log", createSpace: 'create spaces',
  dropSpace: 'drop spaces', createToken: 'create tokens', revokeToken: 'revoke tokens', openConversation: 'open conversations',
  recordMessage: 'record messages', remember: 'remember', infer: 'store inferences', correct: 'correct memories',
  mute: 'mute memories', unmute: 'unmute memories', retract: 'retract memories', muteMemories: 'mute memories',
  unmuteMemories: 'unmute memories', markErroneous: 'mark memories erroneous', forget: 'forget memories',
  forgetMemories: 'forget memories', reviewInference: 'review inferences', reembed: 're-embed memories',
  duplicateClusters: 'list duplicate clusters', cleanUp: 'clean up memories', consolidate: 'consolidate memories',
  unmerge: 'unmerge memories', resolveMemory: 'resolve memories', reopenMemory: 'reopen memories',
  setSpaceTimeZone: "set a space's time zone", memoryEvents: 'subscribe to memory events', node: 'fetch objects by id',
};

/** Refuses the call unless the actor's role may perform `operation`. */
export function authorize(ctx: GraphQLContext, operation: string): Actor {
  const allowed = PERMISSIONS[operation];
  if (!allowed) throw new ForbiddenError(`${operation} has no authorisation rule`);
  if (!ctx.actor) throw new ForbiddenError(ctx.authProblem ?? 'a bearer token is required');
  if (!allowed.includes(ctx.actor.role)) {
    throw new ForbiddenError(`the ${ctx.actor.role} role cannot ${GESTURES[operation] ?? `use ${operation}`}`);
  }
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

/**
 * `spaceOf`, and for an admin the space named must exist: a space that does not is NotFound for every
 * operation, reads included (they answered an empty list before, as if the space were empty).
 */
export async function spaceIn(ctx: GraphQLContext, actor: Actor, spaceIdArg: unknown): Promise<string> {
  const spaceId = spaceOf(actor, spaceIdArg);
  if (!actor.spaceId && !(await ctx.loaders.space.load(spaceId))) throw new NotFoundError('Space', spaceId);
  return spaceId;
}
