import { describe, expect, it } from 'vitest';
import { deriveEntities, DERIVE_MAX_CHARS } from '../../src/core/derive.js';
import { sharedSlot } from '../../src/core/conflicts.js';
import { pairsWithoutHints, scenariosWithoutHints } from '../../src/eval/run.js';

describe('derived entities', () => {
  it('names as written, things as lemmas, dates and quantities', () => {
    expect(deriveEntities('My brother Owen lives in Bristol.')).toEqual(expect.arrayContaining(['Owen', 'Bristol', 'brother']));
    expect(deriveEntities("I'm allergic to peanuts.")).toContain('peanut');
    expect(deriveEntities("I'm a Liverpool fan.")).not.toContain("I'm");
    expect(deriveEntities('My dentist appointment is on May 4 at 10am.')).toEqual(expect.arrayContaining(['dentist', 'appointment', 'may 4', '10am']));
  });
  it('reads a bounded prefix of a long text', () => {
    const long = 'Owen lives in Leeds. '.repeat(1000) + 'Zanzibar is far.';
    expect(long.length).toBeGreaterThan(DERIVE_MAX_CHARS);
    expect(deriveEntities(long)).not.toContain('Zanzibar');
  });
});

describe('shared single-valued slot', () => {
  it('finds the slot two wordings give a value for', () => {
    expect(sharedSlot('I work at Acme Corp.', 'I just started a new job at Globex.')).toBe('employer');
    expect(sharedSlot("I'm single.", 'I got engaged to Alex last weekend.')).toBe('relationship');
    expect(sharedSlot('I speak French.', 'I speak Spanish.')).toBeNull();
  });
  it('reads "I am" as it reads "I\'m"', () => {
    expect(sharedSlot('I work at Aldi now.', 'I am employed at Tesco.')).toBe('employer');
    expect(sharedSlot("I'm working for the council.", 'I am now working for a charity.')).toBe('employer');
    expect(sharedSlot('I live in Leeds.', 'I am now based in York.')).toBe('home');
    expect(sharedSlot("I'm 80 kg.", 'I am 76 kg now.')).toBe('weight');
  });
});

describe('--no-hints', () => {
  it('drops entities and themes from every memory sent', () => {
    const [p] = pairsWithoutHints([{ id: 'x', label: 'same', old: { text: 'a', type: 'FACT', entities: ['A'], themes: ['t'] }, new: { text: 'b', type: 'FACT', entities: ['B'] } }]);
    expect(p).toEqual({ id: 'x', label: 'same', old: { text: 'a', type: 'FACT' }, new: { text: 'b', type: 'FACT' } });
    const [c] = scenariosWithoutHints([{ id: 'c', steps: [{ user: 'u', keep: [{ quote: 'q', type: 'FACT', entities: ['E'], themes: ['T'], expect: 'created' }] }, { ask: 'x?' }] }]);
    expect(c.steps).toEqual([{ user: 'u', keep: [{ quote: 'q', type: 'FACT', expect: 'created' }] }, { ask: 'x?' }]);
  });
});
