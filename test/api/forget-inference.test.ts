/**
 * Forget for good takes the inferences drawn from the forgotten words with them (docs/erasure.md,
 * "Every copy"): an inference whose basis quotes a forgotten wording kept the sentence in
 * `memories.basis` (readable, on disk), and its own text says what the words said.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { testAppOn, type TestApp } from '../helpers/app.js';
import { testDatabases } from '../helpers/db.js';
import { openConversation, recordMessage } from '../../src/memory/conversations.js';
import { remember } from '../../src/memory/remember.js';
import { infer } from '../../src/memory/inferences.js';
import { forget } from '../../src/memory/statuses.js';
import { createSpace } from '../../src/memory/spaces.js';
import type { Actor } from '../../src/memory/deps.js';

for (const target of testDatabases()) {
  describe(`forgetting a memory an inference was drawn from (${target.name})`, () => {
    const app = testAppOn(target);
    let t: TestApp;
    beforeAll(() => { t = app.t; });
    const deps = () => t.app.engram.deps;

    it('the inference whose basis quotes it goes too; one drawn from other words stays', async () => {
      const space = await createSpace(deps(), { name: 'inference basis' });
      const c = await openConversation(deps(), space.id);
      const chat = { role: 'chat', tokenId: null, spaceId: space.id } as Actor;
      const assistant = { role: 'assistant', tokenId: null, spaceId: space.id } as Actor;
      for (const text of ['I keep a pet axolotl named Brimbleton.', 'I cycle to work on Tuesdays.']) {
        await recordMessage(deps(), chat, { conversationId: c.id, role: 'USER', text });
      }
      const pet = await remember(deps(), assistant, { conversationId: c.id, quote: 'I keep a pet axolotl named Brimbleton.', type: 'FACT' });
      const bike = await remember(deps(), assistant, { conversationId: c.id, quote: 'I cycle to work on Tuesdays.', type: 'FACT' });
      const drawn = await infer(deps(), assistant, { conversationId: c.id, text: 'They may like amphibians.', type: 'FACT', basis: 'I keep a pet axolotl named Brimbleton.' });
      const other = await infer(deps(), assistant, { conversationId: c.id, text: 'They may own a bicycle.', type: 'FACT', basis: 'I cycle to work on Tuesdays.' });

      const r = await forget(deps(), { role: 'operator', tokenId: null, spaceId: space.id } as Actor, space.id, [pet.memory.id], true);
      expect(r.results).toEqual([{ id: pet.memory.id, outcome: 'DONE' }]);
      expect(r.changed).toBe(2);
      const left = await deps().store.getMemories([pet.memory.id, drawn.id, other.id, bike.memory.id], space.id);
      expect(left.map((m) => m?.id ?? null)).toEqual([null, null, other.id, bike.memory.id]);
      const rows = await t.app.engram.db.query<{ basis: string | null; quote: string }>(`select basis, quote from memories where space_id = $1`, [space.id]);
      expect(JSON.stringify(rows.rows)).not.toMatch(/Brimbleton|amphibian/i);
      expect(JSON.stringify(rows.rows)).toContain('I cycle to work on Tuesdays.');
    });
  });
}
