import type { MemoryDeps } from '../../src/memory/deps.js';
import { remember, type RememberInput } from '../../src/memory/remember.js';
import type { Wall } from '../../src/eval/wall.js';

/**
 * Each sentence typed by the person in a conversation of its own inside `wall`, then kept by the
 * assistant as a FACT (with `hints`, e.g. no entities or themes: a caller that sends only the quote).
 * Returns the memory each sentence went to (a restatement: the memory it reinforced).
 */
export async function keepSaid(deps: MemoryDeps, wall: Wall, says: string[], hints: Pick<RememberInput, 'entities' | 'themes'> = {}): Promise<string[]> {
  const ids: string[] = [];
  for (const s of says) {
    const conv = await wall.say(`c-${s}`, 'USER', s);
    ids.push((await remember(deps, wall.assistant, { conversationId: conv.id, quote: s, type: 'FACT', ...hints })).memory.id);
  }
  return ids;
}
