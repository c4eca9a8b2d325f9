import { GraphQLError } from 'graphql';
import { builder } from '../builder.js';
import { authorize } from '../authz.js';
import { DomainError, NotFoundError } from '../../memory/errors.js';
import type { GraphQLContext } from '../context.js';
import { NodeRef, nodeTypes } from './node-interface.js';

/**
 * `node(id:)`: any memory, conversation or space of the caller's space (admin: any). An id
 * of another space answers exactly like an id that does not exist: NOT_FOUND.
 */
async function findNode(ctx: GraphQLContext, id: string): Promise<object> {
  const actor = authorize(ctx, 'node');
  const mine = (spaceId: string) => actor.spaceId === null || actor.spaceId === spaceId;
  const m = await ctx.loaders.memory.load(id);
  if (m) {
    if (!mine(m.spaceId)) throw new NotFoundError('Node', id);
    nodeTypes.set(m, 'Memory');
    return m;
  }
  const c = await ctx.loaders.conversation.load(id);
  if (c) {
    if (!mine(c.spaceId)) throw new NotFoundError('Node', id);
    nodeTypes.set(c, 'Conversation');
    return c;
  }
  const s = await ctx.loaders.space.load(id);
  if (s && mine(s.id)) {
    nodeTypes.set(s, 'Space');
    return s;
  }
  throw new NotFoundError('Node', id);
}

/** Domain errors keep their message and code (the interface type has no error union). */
function asGraphQLError(e: unknown): unknown {
  return e instanceof DomainError ? new GraphQLError(e.message, { extensions: { code: e.code } }) : e;
}

builder.queryFields((t) => ({
  node: t.field({
    type: NodeRef, nullable: true,
    description: 'A memory, conversation or space by its id. Another space\'s id is NOT_FOUND, like an unknown one.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_r, a, ctx) => {
      try {
        return (await findNode(ctx, String(a.id))) as { id: string };
      } catch (e) {
        throw asGraphQLError(e);
      }
    },
  }),
}));
