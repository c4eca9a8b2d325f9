/**
 * A forget for good lets go of what the recognition rules hold of its words in this process
 * (docs/erasure.md, "Every process"): their readings of its sentences and of its words
 * (src/core/memo.ts) and the lexicon's recent lookups (src/core/readings.ts). Each is checked
 * held before the forget, so the test fails if the rules stop reading, not only if they stop
 * letting go.
 */
import { describe, expect, it, vi } from 'vitest';
import { testAppOn } from '../helpers/app.js';
import { testDatabases } from '../helpers/db.js';
import { keepSaid } from '../helpers/wall.js';
import { Wall } from '../../src/eval/wall.js';
import { forget } from '../../src/memory/statuses.js';
import { remember } from '../../src/memory/remember.js';
import { readingsHoldText } from '../../src/core/readings.js';

for (const target of testDatabases()) {
  describe(`a forget lets go of the rules' readings (${target.name})`, () => {
    const app = testAppOn(target);

    it('no sentence, word or lookup of the forgotten memory is held after the forget; the rest is read afresh', async () => {
      const deps = app.t.app.engram.deps;
      const wall = await Wall.open(deps, 'readings let go');
      const quote = 'My neighbour Quillonby keeps bees on the roof.';
      const [gone] = await keepSaid(deps, wall, [quote]);
      // a later statement of the space meets it as a candidate: the rules read it again
      const [other] = await keepSaid(deps, wall, ['My neighbour keeps hornets on the roof.']);
      expect(other).not.toBe(gone);
      expect(readingsHoldText(quote)).toBe(true);
      expect(readingsHoldText('quillonby')).toBe(true);

      await forget(deps, wall.operator, wall.spaceId, [gone!], true);
      expect(readingsHoldText(quote)).toBe(false);
      expect(readingsHoldText('quillonby')).toBe(false);

      // the rules still decide afterwards, reading what they meet afresh
      const [again] = await keepSaid(deps, wall, ['My neighbour keeps hornets on the roof.']);
      expect(again).toBe(other);
    }, 60_000);

    it('a remember that read the forgotten memory as a candidate before the forget keeps none of its readings after it ends', async () => {
      const deps = app.t.app.engram.deps;
      const wall = await Wall.open(deps, 'readings let go mid-remember');
      const [gone] = await keepSaid(deps, wall, ['My neighbour Thrushcombe keeps bees on the roof.']);
      // the next remember stops once it has the candidates' records, the forgotten one among them (once)
      let stopped = false;
      let release = () => {};
      const gate = new Promise<void>((r) => { release = r; });
      let reached = () => {};
      const atGate = new Promise<void>((r) => { reached = r; });
      // (recognition reads its neighbours without their message words: getMemoryHeads)
      const getMemoryHeads = deps.store.getMemoryHeads.bind(deps.store);
      const paused = vi.spyOn(deps.store, 'getMemoryHeads').mockImplementation(async (ids, ...rest) => {
        const records = await getMemoryHeads(ids, ...rest);
        if (!stopped && ids.includes(gone!)) { stopped = true; reached(); await gate; }
        return records;
      });
      try {
        const said = 'My neighbour keeps hornets on the roof.';
        const conv = await wall.say('c-mid', 'USER', said);
        const pending = remember(deps, wall.assistant, { conversationId: conv.id, quote: said, type: 'FACT' });
        await atGate;
        await forget(deps, wall.operator, wall.spaceId, [gone!], true);
        expect(readingsHoldText('thrushcombe')).toBe(false);
        release();
        // its rules read the record they had (and recognition, seeing the forget, decides again without it)
        const kept = await pending;
        expect(kept.memory.id).not.toBe(gone);
      } finally {
        paused.mockRestore();
      }
      expect(readingsHoldText('thrushcombe')).toBe(false);
      expect(readingsHoldText('My neighbour Thrushcombe keeps bees on the roof.')).toBe(false);
    }, 60_000);
  });
}
