import { builder } from '../builder.js';
import type { Conversation, Message, Space } from '../../ports/memory-store.js';
import { MessageRoleEnum } from './enums.js';
import { NodeRef } from './node-interface.js';
import { FIRST_MAX } from '../guard.js';
import { LIST_FIRST_DEFAULT, pageArgs } from '../loaders.js';

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
    messages: t.field({
      type: [MessageRef], nullable: true,
      description: `The messages in the order recorded: at most \`first\` (0-${FIRST_MAX.messages}), after the message \`after\` (its id; `
        + 'absent: from the first). Fewer than `first`: the conversation ends there. A request reads, and answers, at most '
        + 'ENGRAM_MAX_READ_CHARS characters of words in all, each time a field answers them (docs/limits.md): past it, null and '
        + 'LIMIT_EXCEEDED (the other fields answered).',
      args: { first: t.arg.int({ defaultValue: LIST_FIRST_DEFAULT }), after: t.arg.id() },
      // (`first` and `after` are checked by the schema's guard, src/graphql/guard.ts: FIRST_MAX.messages)
      resolve: async (c, a, ctx) => {
        const asked = pageArgs(a);
        return asked ? ctx.loaders.handOut(await ctx.loaders.messages.load({ conversationId: c.id, ...asked }), (m) => m.text.length) : [];
      },
    }),
  }),
});
