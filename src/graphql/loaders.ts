import DataLoader from 'dataloader';
import type { Conversation, MemoryEvent, MemoryRecord, Mention, Message, Space } from '../ports/memory-store.js';
import type { MemoryDeps } from '../memory/deps.js';

/** DataLoaders, created per request: one query per batch, results in key order. */
export interface Loaders {
  memory: DataLoader<string, MemoryRecord | null>;
  mentions: DataLoader<string, Mention[]>;
  events: DataLoader<string, MemoryEvent[]>;
  chain: DataLoader<string, MemoryRecord[]>;
  conversation: DataLoader<string, Conversation | null>;
  messages: DataLoader<string, Message[]>;
  space: DataLoader<string, Space | null>;
}

export function createLoaders(deps: MemoryDeps): Loaders {
  const s = deps.store;
  const memory = new DataLoader<string, MemoryRecord | null>((ids) => s.getMemories(ids));
  return {
    memory,
    mentions: new DataLoader((ids) => s.mentionsOf(ids)),
    events: new DataLoader((ids) => s.eventsOf(ids)),
    chain: new DataLoader(async (ids) => {
      const chains = await s.chains(ids);
      for (const c of chains) for (const m of c) memory.prime(m.id, m);
      return chains;
    }),
    conversation: new DataLoader((ids) => s.getConversations(ids)),
    messages: new DataLoader((ids) => s.messagesByConversation(ids)),
    space: new DataLoader((ids) => s.getSpaces(ids)),
  };
}
