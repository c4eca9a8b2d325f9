import { describe, expect, it } from 'vitest';
import { chooseReference, clusterSteps, findClusters, type ClusterItem, type Neighbour } from '../../src/core/consolidation.js';
import { normalizeText } from '../../src/core/normalize.js';

const T = { close: 0.875, related: 0.8, topic: 0.65, recallFloor: 0.4 };
let seq = 0;
function mem(id: string, text: string, o: Partial<ClusterItem> = {}): ClusterItem {
  seq++;
  return {
    id, text, normalized: normalizeText(text), type: 'FACT', entities: [], themes: [], messageId: null, mentionCount: 1,
    saidAt: new Date(Date.UTC(2026, 0, 1, 0, seq)), seq, ...o,
  };
}
/** Symmetric neighbour lists from pair scores. */
function nb(pairs: [string, string, number][]): Map<string, Neighbour[]> {
  const out = new Map<string, Neighbour[]>();
  for (const [a, b, s] of pairs) {
    out.set(a, [...(out.get(a) ?? []), { id: b, score: s }]);
    out.set(b, [...(out.get(b) ?? []), { id: a, score: s }]);
  }
  return out;
}

describe('findClusters (recognition rules, applied after the fact)', () => {
  it('groups exact, close and related duplicates, with tier and score per link', () => {
    const a = mem('a', "I'm allergic to peanuts.", { entities: ['peanuts'] });
    const b = mem('b', 'I have a peanut allergy.', { entities: ['peanuts'], mentionCount: 3 });
    const c = mem('c', "i'm allergic to peanuts");
    const other = mem('o', 'I live in Lisbon.');
    const clusters = findClusters([a, b, c, other], nb([['a', 'b', 0.84], ['a', 'o', 0.2]]), T);
    expect(clusters).toHaveLength(1);
    expect(clusters[0].referenceId).toBe('b'); // most mentions
    expect(clusters[0].memberIds).toEqual(['b', 'a', 'c']);
    const tiers = Object.fromEntries(clusters[0].links.map((l) => [[l.from, l.to].sort().join('-'), l.tier]));
    expect(tiers).toEqual({ 'a-b': 'RELATED', 'a-c': 'EXACT' });
  });

  it('never merges the same words said of two occasions (src/core/occasions.ts); at the same time, it does', () => {
    const w = (iso: string) => ({ startsAt: new Date(iso), endsAt: null, dueAt: null, allDay: false });
    const text = 'I have a dentist appointment on Tuesday.';
    const first = mem('t1', text, { type: 'APPOINTMENT', window: w('2026-01-06T15:00:00Z'), saidAt: new Date('2026-01-02T09:00:00Z') });
    const later = mem('t2', text, { type: 'APPOINTMENT', window: w('2026-01-20T15:00:00Z'), saidAt: new Date('2026-01-16T09:00:00Z') });
    const moved = mem('t3', text, { type: 'APPOINTMENT', window: w('2026-01-22T15:00:00Z'), saidAt: new Date('2026-01-17T09:00:00Z') });
    expect(findClusters([first, later, moved], new Map(), T, 'Europe/London')).toEqual([]);
    const same = mem('t4', text, { type: 'APPOINTMENT', window: w('2026-01-20T15:00:00Z'), saidAt: new Date('2026-01-18T09:00:00Z') });
    expect(findClusters([later, same], new Map(), T).map((c) => c.memberIds)).toEqual([['t2', 't4']]);
  });

  it('never merges a correction, different types, or a different value', () => {
    const items = [
      mem('d', 'My favorite color is blue.'),
      mem('e', 'Actually, my favorite color is orange, not blue.'),
      mem('f', 'Dentist appointment on Friday.', { type: 'APPOINTMENT', entities: ['dentist'] }),
      mem('g', 'Dentist appointment on Friday!', { type: 'TASK', entities: ['dentist'] }),
      mem('h', 'I have a meeting with Ana on Monday.', { type: 'APPOINTMENT' }),
      mem('i', 'I have a meeting with Ana on Thursday.', { type: 'APPOINTMENT' }),
    ];
    const clusters = findClusters(items, nb([['d', 'e', 0.95], ['f', 'g', 0.97], ['h', 'i', 0.995]]), T);
    // f and g normalise identically: recognition's EXACT tier ignores type, as on the write path.
    expect(clusters.map((c) => c.memberIds.sort())).toEqual([['f', 'g']]);
  });

  it('does not join two groups when a member of one corrects a member of the other', () => {
    const x = mem('x', 'I have two kids.');
    const y = mem('y', 'I have three kids now.');
    const z = mem('z', 'i have two kids');
    const clusters = findClusters([x, y, z], nb([['x', 'y', 0.93], ['y', 'z', 0.93]]), T);
    expect(clusters.map((c) => c.memberIds.sort())).toEqual([['x', 'z']]);
  });

  it('chooses the most complete reference: mentions, then quote length, then entities and themes, then the oldest', () => {
    const base = { mentionCount: 1 };
    const p = mem('p', 'I like tea.', base);
    const q = mem('q', 'I like tea a lot.', base);
    expect(chooseReference([p, q]).id).toBe('q');
    expect(chooseReference([p, { ...q, mentionCount: 0 }]).id).toBe('p');
    const r = mem('r', 'I like tea.', { entities: ['tea'] });
    expect(chooseReference([p, r]).id).toBe('r');
    const s = mem('s', 'I like tea.');
    expect(chooseReference([s, p]).id).toBe('p');
  });
});

describe('clusterSteps', () => {
  it('finds the clusters a memory at a time (a caller lets other work run between), as findClusters does at once', () => {
    const items = [mem('s1', 'I have a peanut allergy.'), mem('s2', "I'm allergic to peanuts."), mem('s3', 'I live in Lisbon.')];
    const pairs = nb([['s1', 's2', 0.97], ['s1', 's3', 0.1]]);
    const steps = clusterSteps(items, pairs, T);
    let yields = 0;
    let r = steps.next();
    for (; !r.done; r = steps.next()) yields++;
    expect(yields).toBe(items.length);
    expect(r.value).toEqual(findClusters(items, pairs, T));
    expect(r.value.map((c) => [...c.memberIds].sort())).toEqual([['s1', 's2']]);
  });
});
