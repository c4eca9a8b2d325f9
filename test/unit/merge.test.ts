/** src/core/merge.ts: the merge rules of reinforcement. */
import { describe, expect, it } from 'vitest';
import { mergeInto, union, type Mergeable } from '../../src/core/merge.js';

const d = (day: number) => new Date(Date.UTC(2026, 0, day));
const m = (o: Partial<Mergeable>): Mergeable => ({ importance: null, valence: null, entities: [], themes: [], tags: [], lastMentionedAt: d(1), ...o });

describe('mergeInto', () => {
  it('importance = max of the two; a missing one does not erase the other', () => {
    expect(mergeInto(m({ importance: 0.3 }), m({ importance: 0.8, lastMentionedAt: d(2) })).importance).toBe(0.8);
    expect(mergeInto(m({ importance: 0.9 }), m({ importance: 0.2, lastMentionedAt: d(2) })).importance).toBe(0.9);
    expect(mergeInto(m({ importance: 0.4 }), m({ importance: null, lastMentionedAt: d(2) })).importance).toBe(0.4);
    expect(mergeInto(m({ importance: null }), m({ importance: 0.6, lastMentionedAt: d(2) })).importance).toBe(0.6);
    expect(mergeInto(m({}), m({ lastMentionedAt: d(2) })).importance).toBeNull();
  });

  it('entities, themes and tags = union, first spelling kept, case-insensitive', () => {
    const r = mergeInto(
      m({ entities: ['Owen', 'Bristol'], themes: ['family'], tags: ['a'] }),
      m({ entities: ['owen', 'Lab'], themes: ['Family', 'work'], tags: ['b', 'A'], lastMentionedAt: d(2) }),
    );
    expect(r.entities).toEqual(['Owen', 'Bristol', 'Lab']);
    expect(r.themes).toEqual(['family', 'work']);
    expect(r.tags).toEqual(['a', 'b']);
  });

  it('last-mentioned = the most recent, whichever side it is on', () => {
    expect(mergeInto(m({ lastMentionedAt: d(1) }), m({ lastMentionedAt: d(5) })).lastMentionedAt).toEqual(d(5));
    expect(mergeInto(m({ lastMentionedAt: d(9) }), m({ lastMentionedAt: d(5) })).lastMentionedAt).toEqual(d(9));
  });

  it('valence comes from the newer statement (and falls back to the other when it has none)', () => {
    expect(mergeInto(m({ valence: -0.5, lastMentionedAt: d(1) }), m({ valence: 0.7, lastMentionedAt: d(2) })).valence).toBe(0.7);
    // the incoming statement is older (said earlier, arrived late): the stored valence is the newer one
    expect(mergeInto(m({ valence: -0.5, lastMentionedAt: d(9) }), m({ valence: 0.7, lastMentionedAt: d(2) })).valence).toBe(-0.5);
    expect(mergeInto(m({ valence: -0.5, lastMentionedAt: d(1) }), m({ valence: null, lastMentionedAt: d(2) })).valence).toBe(-0.5);
  });

  it('leaves the recall count alone (it is not part of the merge) and does not mutate its inputs', () => {
    const old = { ...m({ entities: ['Owen'] }), recallCount: 7 };
    const r = mergeInto(old, m({ entities: ['Bristol'], lastMentionedAt: d(3) }));
    expect(r).not.toHaveProperty('recallCount');
    expect(old.recallCount).toBe(7);
    expect(old.entities).toEqual(['Owen']);
  });
});

describe('union', () => {
  it('drops blanks and trims', () => {
    expect(union([' a ', ''], ['A', 'b', '  '])).toEqual(['a', 'b']);
  });
});
