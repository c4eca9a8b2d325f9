import { builder } from '../builder.js';

/** The type each value handed out by `node(id:)` was found as (resolveType reads it). */
export const nodeTypes = new WeakMap<object, 'Memory' | 'Conversation' | 'Space'>();

/**
 * Global object identification (docs/graphql-surface.md): Memory, Conversation and Space
 * implement Node. Their ids are server-made UUIDs, unique across the three types, so an
 * id is already global and stays what every client and runner uses today.
 */
export const NodeRef = builder.interfaceRef<{ id: string }>('Node').implement({
  description: 'An object that can be fetched again by its id alone: `node(id:)`.',
  fields: (t) => ({ id: t.exposeID('id') }),
  resolveType: (v) => nodeTypes.get(v as object) ?? ('name' in (v as object) ? 'Space' : 'quote' in (v as object) ? 'Memory' : 'Conversation'),
});
