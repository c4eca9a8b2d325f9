import { builder } from '../builder.js';
import type { Conversation, Message, Space } from '../../ports/memory-store.js';
import { MessageRoleEnum } from './enums.js';
import { NodeRef } from './node-interface.js';

export const SpaceRef = builder.objectRef<Space>('Space').implement({
  interfaces: [NodeRef],
  description: 'A memory space: one person\'s memories behind one wall.',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    sealed: t.exposeBoolean('sealed', { description: 'A sealed space (evaluations, test harnesses) can be dropped as a whole.' }),
    timeZone: t.exposeString('timeZone'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    memoryCount: t.int({
      description: 'Current statements (ACTIVE).',
      resolve: async (s, _a, ctx) => (await ctx.deps.store.countByStatus(s.id, 'STATEMENT')).ACTIVE ?? 0,
    }),
  }),
});

export const MessageRef = builder.objectRef<Message>('Message').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    role: t.field({ type: MessageRoleEnum, resolve: (m) => m.role }),
    text: t.exposeString('text'),
    at: t.expose('at', { type: 'DateTime' }),
  }),
});

export const ConversationRef = builder.objectRef<Conversation>('Conversation').implement({
  interfaces: [NodeRef],
  description: 'A conversation, walled into one space for its whole life.',
  fields: (t) => ({
    id: t.exposeID('id'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    messages: t.field({ type: [MessageRef], resolve: (c, _a, ctx) => ctx.loaders.messages.load(c.id) }),
  }),
});
