import type { MemoryDeps, Actor } from '../memory/deps.js';
import { createSpace, dropSealedSpace } from '../memory/spaces.js';
import { openConversation, recordMessage } from '../memory/conversations.js';
import type { Conversation } from '../ports/memory-store.js';

/**
 * A sealed space for one evaluation case, with the three actors of the real
 * API: the chat side records messages, the assistant keeps and asks, the
 * operator acts. Each actor is walled into this space, exactly like a token.
 */
export class Wall {
  readonly chat: Actor;
  readonly assistant: Actor;
  readonly operator: Actor;
  private conversations = new Map<string, Conversation>();

  private constructor(readonly deps: MemoryDeps, readonly spaceId: string) {
    this.chat = { role: 'chat', tokenId: null, spaceId };
    this.assistant = { role: 'assistant', tokenId: null, spaceId };
    this.operator = { role: 'operator', tokenId: null, spaceId };
  }

  static async open(deps: MemoryDeps, name: string, timeZone = 'UTC'): Promise<Wall> {
    const space = await createSpace(deps, { name: `eval:${name}`, sealed: true, timeZone });
    return new Wall(deps, space.id);
  }

  /** The conversation named `key` inside this wall, opened on first use. */
  async conversation(key: string): Promise<Conversation> {
    let c = this.conversations.get(key);
    if (!c) {
      c = await openConversation(this.deps, this.spaceId);
      this.conversations.set(key, c);
    }
    return c;
  }

  async say(key: string, role: 'USER' | 'ASSISTANT', text: string, at?: Date): Promise<Conversation> {
    const c = await this.conversation(key);
    await recordMessage(this.deps, this.chat, { conversationId: c.id, role, text, at });
    return c;
  }

  async drop(): Promise<void> {
    await dropSealedSpace(this.deps, this.spaceId, true);
  }
}

/** Memories in every space that is not sealed: an evaluation must leave this unchanged. */
export async function personalMemoryCount(deps: MemoryDeps): Promise<number> {
  let n = 0;
  for (const s of await deps.store.listSpaces()) if (!s.sealed) n += await deps.store.countMemories(s.id);
  return n;
}
