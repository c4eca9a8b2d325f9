/**
 * The event log holds no words (docs/erasure.md, "Every copy": forget leaves it intact because it
 * never held any). A recognised correction's CORRECTED event carried the rules' detail as its
 * `reason`, the old and the new value quoted (`home: name: "Zorgtown" -> "Plimbury"`): after the
 * old memory was forgotten for good, its words were still served by `spaceEvents` and by
 * `memoryEvents(after:)`, and stored in memory_events.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { testAppOn, type TestApp } from '../helpers/app.js';
import { testDatabases } from '../helpers/db.js';
import { openConversation, recordMessage } from '../../src/memory/conversations.js';
import { remember } from '../../src/memory/remember.js';
import { forget } from '../../src/memory/statuses.js';
import { createSpace } from '../../src/memory/spaces.js';
import type { Actor } from '../../src/memory/deps.js';

for (const target of testDatabases()) {
  describe(`a recognised correction's events (${target.name})`, () => {
    const app = testAppOn(target);
    let t: TestApp;
    beforeAll(() => { t = app.t; });
    const deps = () => t.app.engram.deps;

    it('hold neither value: forgetting the old memory leaves none of its words in the event log', async () => {
      const space = await createSpace(deps(), { name: 'event words' });
      const c = await openConversation(deps(), space.id);
      const chat = { role: 'chat', tokenId: null, spaceId: space.id } as Actor;
      const assistant = { role: 'assistant', tokenId: null, spaceId: space.id } as Actor;
      for (const text of ['I live in Zorgtown.', 'I live in Plimbury.']) await recordMessage(deps(), chat, { conversationId: c.id, role: 'USER', text });
      const old = await remember(deps(), assistant, { conversationId: c.id, quote: 'I live in Zorgtown.', type: 'FACT' });
      const now = await remember(deps(), assistant, { conversationId: c.id, quote: 'I live in Plimbury.', type: 'FACT' });
      expect(now).toMatchObject({ outcome: 'CORRECTED', rule: 'new-value' });
      const events = await deps().store.spaceEvents(space.id, 0, 100);
      const corrected = events.find((e) => e.kind === 'CORRECTED')!;
      // why it was a correction, in words of the rules, not the person's
      expect(corrected).toMatchObject({ rule: 'new-value', relatedId: old.memory.id });
      expect(JSON.stringify(events)).not.toMatch(/Zorgtown|Plimbury/i);
      await forget(deps(), { role: 'operator', tokenId: null, spaceId: space.id } as Actor, space.id, [old.memory.id], true);
      const rows = await t.app.engram.db.query<{ detail: unknown }>(`select detail from memory_events where space_id = $1`, [space.id]);
      expect(JSON.stringify(rows.rows)).not.toMatch(/Zorgtown/i);
    });
  });
}
