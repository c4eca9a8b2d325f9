/**
 * `deciding` (src/core/recognition.ts): the decision one candidate at a time, so that the use case
 * lets the event loop run between candidates (`inTurns`, src/memory/turns.ts). It pauses before
 * each candidate after the first, and whatever the pauses, its decision is `decide`'s.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decide, deciding, type Thresholds } from '../../src/core/recognition.js';
import { inTurns } from '../../src/memory/turns.js';
import { useWordNet } from '../helpers/lexicon.js';
import { candidate, incoming } from '../helpers/statements.js';

const T: Thresholds = { close: 0.875, related: 0.75, topic: 0.65, recallFloor: 0.5 };

interface Side { text: string; type: 'FACT'; entities: string[]; themes: string[] }
const pairs = readFileSync(new URL('../../eval/second-pairs.jsonl', import.meta.url), 'utf8')
  .split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as { id: string; old: Side; new: Side });

/** Each pair's new statement against its own old one and three other pairs' old ones, at scores that reach the rules. */
function cases() {
  return pairs.map((p, i) => {
    const others = [1, 2, 3].map((k) => pairs[(i + k * 37) % pairs.length]!.old);
    const cands = [p.old, ...others].map((o, k) => candidate(o.text, [0.9, 0.8, 0.7, 0.6][k]!, { type: o.type, entities: o.entities, themes: o.themes }));
    return { id: p.id, inc: incoming(p.new.text, { type: p.new.type, entities: p.new.entities, themes: p.new.themes }), cands };
  });
}

describe('deciding', () => {
  it('pauses once before each candidate after the first', () => {
    const steps = deciding(incoming('My sister lives in Leeds.'), [candidate('My sister lives in York.', 0.8), candidate('I have a dog.', 0.6), candidate('My dog is called Rex.', 0.55)], T);
    let pauses = 0;
    while (!steps.next().done) pauses++;
    expect(pauses).toBe(2);
    expect([...deciding(incoming('My sister lives in Leeds.'), [], T)]).toEqual([]);
  });

  it("gives decide's decision on every pair of the second set, against four candidates, paused at every step", async () => {
    await useWordNet();
    const differ: string[] = [];
    let decisions = 0;
    for (const c of cases()) {
      const sync = decide(c.inc, c.cands, T);
      let turnsTaken = 0;
      const paused = await inTurns('rules', deciding(c.inc, c.cands, T), () => { turnsTaken++; return new Promise<void>((r) => setImmediate(r)); });
      expect(turnsTaken).toBe(c.cands.length - 1);
      if (JSON.stringify(paused) !== JSON.stringify(sync)) differ.push(c.id);
      if (sync.action !== 'create') decisions++;
    }
    expect(differ).toEqual([]);
    // (the cases decide something: a reinforcement or a correction, not only new memories)
    expect(decisions).toBeGreaterThan(pairs.length / 3);
  });
});

describe('inTurns', () => {
  it('lets other work run between steps when a turn is due, and only then', async () => {
    const order: string[] = [];
    function* work(): Generator<void, string, void> {
      order.push('step 1');
      yield;
      order.push('step 2');
      yield;
      order.push('step 3');
      return 'done';
    }
    setImmediate(() => order.push('other work'));
    expect(await inTurns('test', work(), () => undefined)).toBe('done');
    expect(order).toEqual(['step 1', 'step 2', 'step 3']);
    await new Promise<void>((r) => setImmediate(r));
    expect(order).toEqual(['step 1', 'step 2', 'step 3', 'other work']);
    order.length = 0;
    setImmediate(() => order.push('other work'));
    let due = 0;
    const result = await inTurns('test', work(), () => (++due === 1 ? new Promise<void>((r) => setImmediate(r)) : undefined));
    expect(result).toBe('done');
    expect(order).toEqual(['step 1', 'other work', 'step 2', 'step 3']);
  });
});
