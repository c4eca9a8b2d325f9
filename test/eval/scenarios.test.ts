import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { evalScenarios, StepClock, type ScenarioCase } from '../../src/eval/scenarios.js';

const cases: ScenarioCase[] = [
  {
    id: 'tiny',
    steps: [
      { conversation: 'c1', user: 'My dog\'s name is Biscuit.', keep: [
        { quote: 'dog', type: 'FACT', expect: 'rejected' },
        { quote: 'My dog\'s name is Biscuit.', type: 'FACT', entities: ['Biscuit'], themes: ['pets'], expect: 'created' },
      ] },
      { conversation: 'c2', user: 'My dog\'s name is Biscuit.', keep: [{ quote: 'My dog\'s name is Biscuit.', type: 'FACT', expect: 'reinforced' }] },
      { state: { active: 1, mentions: { 'My dog\'s name is Biscuit.': 2 } } },
      { conversation: 'ask', ask: 'What is my dog called?', expect: { top_contains: 'biscuit', not_current_quote: 'I have a cat.' } },
      { operator: 'retract', quote: 'My dog\'s name is Biscuit.' },
      { conversation: 'ask2', ask: 'What is my dog called?', expect: { none: true } },
    ],
  },
  {
    id: 'wrong-on-purpose',
    steps: [
      { conversation: 'c1', user: 'I live in Leeds.', keep: [{ quote: 'I live in Leeds.', type: 'FACT', expect: 'reinforced' }] },
      { state: { active: 2 } },
      { conversation: 'ask', ask: 'Where do I live?', expect: { top_contains: 'Paris', none: true } },
    ],
  },
];

describe('eval scenarios runner', () => {
  let t: TestApp;
  beforeAll(async () => { t = await createTestApp(); });
  afterAll(async () => { await t?.close(); });

  it('checks expectations against the real use cases, repeatably, in sealed spaces', async () => {
    const deps = t.app.engram.deps;
    const r = await evalScenarios(deps, cases, 2);
    expect(r.cases[0]).toEqual({ id: 'tiny', passed: true, failures: [] });
    const bad = r.cases[1]!;
    expect(bad.passed).toBe(false);
    expect(bad.failures.some((f) => /expected reinforced, got created/.test(f))).toBe(true);
    expect(bad.failures.some((f) => /active expected 2, found 1/.test(f))).toBe(true);
    expect(bad.failures.some((f) => /top_contains "Paris": top was "I live in Leeds\."/.test(f))).toBe(true);
    expect(bad.failures.some((f) => /none: 1 statement/.test(f))).toBe(true);
    expect(r).toMatchObject({ passed: 1, failed: 1, repeats: 2, identical: true });
    // Two asks expect nothing (first run counted); the deliberately wrong one got an answer.
    expect(r.nothingExpected).toEqual({ asked: 2, answered: 1, answeredAsks: ['wrong-on-purpose: Where do I live?'] });
    expect(r.operatorSpace.before).toBe(r.operatorSpace.after);
    // every wall was dropped
    expect((await deps.store.listSpaces()).filter((s) => s.name.startsWith('eval:scenario:'))).toEqual([]);
  });

  it('marks a memory erroneous when its corrected_by quote is on file, and without a link when it is not', async () => {
    const deps = t.app.engram.deps;
    const marked = (by: string): ScenarioCase => ({
      id: `erroneous-${by.includes('Wednesday') ? 'unlinked' : 'linked'}`,
      steps: [
        { conversation: 'c1', user: 'Our bin day is Tuesday. Recycling goes out on Thursdays.', keep: [
          { quote: 'Our bin day is Tuesday.', type: 'FACT', expect: 'created' },
          { quote: 'Recycling goes out on Thursdays.', type: 'FACT', expect: 'created' },
        ] },
        { operator: 'mark_erroneous', quote: 'Our bin day is Tuesday.', corrected_by: by },
        { state: { active: 1, erroneous: 1 } },
        { conversation: 'ask', ask: 'Which day is bin day?', expect: { not_current_quote: 'Our bin day is Tuesday.' } },
      ],
    });
    const r = await evalScenarios(deps, [marked('Our bin day is Wednesday.'), marked('Recycling goes out on Thursdays.')]);
    expect(r.cases.map((c) => c.passed)).toEqual([true, true]);
    expect(r.cases[0]!.notes).toEqual(['step 2: mark_erroneous: no memory holds the corrected_by quote "Our bin day is Wednesday.": marked without a link']);
    expect(r.cases[1]!.notes).toBeUndefined();
  });

  it('steps a deterministic clock: `at` when given, a minute later otherwise', () => {
    const c = new StepClock();
    const a = c.step();
    const b = c.step();
    expect(b.getTime() - a.getTime()).toBe(60_000);
    expect(c.step('2027-01-01T00:00:00Z').toISOString()).toBe('2027-01-01T00:00:00.000Z');
    c.step('2020-01-01T00:00:00Z');
    expect(c.now().toISOString()).toBe('2027-01-01T00:00:00.000Z');
  });
});
