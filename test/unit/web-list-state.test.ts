import { describe, expect, it } from 'vitest';
import { appendPage, applyChange, rangeIds, type ListState, type RowLike, type View } from '../../web/src/list-state.js';

const at = (min: number) => new Date(Date.UTC(2026, 0, 1, 0, min)).toISOString();
const r = (id: string, o: Partial<RowLike> = {}): RowLike => ({
  id, kind: 'STATEMENT', type: 'FACT', status: 'ACTIVE', mentionCount: 1, lastMentionedAt: at(0), createdAt: at(0), ...o,
});
const active: View = { kind: 'STATEMENT', statuses: ['ACTIVE'], types: [], order: 'RECENT' };
const ids = (s: ListState<RowLike>) => s.rows.map((x) => x.id);

describe('the list kept by memoryEvents (web/src/list-state.ts)', () => {
  const base: ListState<RowLike> = { rows: [r('c', { lastMentionedAt: at(3) }), r('b', { lastMentionedAt: at(2) }), r('a', { lastMentionedAt: at(1) })], hasNextPage: false };

  it('CREATED inserts where the order puts it; REINFORCED updates the count and moves it', () => {
    const s1 = applyChange(base, active, { kind: 'CREATED', memoryId: 'd', gone: false, memory: r('d', { lastMentionedAt: at(4) }) });
    expect(ids(s1)).toEqual(['d', 'c', 'b', 'a']);
    const s2 = applyChange(s1, active, { kind: 'REINFORCED', memoryId: 'a', gone: false, memory: r('a', { mentionCount: 2, lastMentionedAt: at(5) }) });
    expect(ids(s2)).toEqual(['a', 'd', 'c', 'b']);
    expect(s2.rows[0].mentionCount).toBe(2);
  });

  it('a mute or a supersession removes it from the active view and shows it in a view of that status', () => {
    const muted = { kind: 'MUTED', memoryId: 'b', gone: false, memory: r('b', { status: 'MUTED', lastMentionedAt: at(2) }) };
    expect(ids(applyChange(base, active, muted))).toEqual(['c', 'a']);
    const mutedView: View = { ...active, statuses: ['MUTED'] };
    expect(ids(applyChange({ rows: [], hasNextPage: false }, mutedView, muted))).toEqual(['b']);
    const corrected = {
      kind: 'SUPERSEDED', memoryId: 'a', relatedId: 'e', gone: false,
      memory: r('a', { status: 'SUPERSEDED', lastMentionedAt: at(1) }), related: r('e', { lastMentionedAt: at(6) }),
    };
    expect(ids(applyChange(base, active, corrected))).toEqual(['e', 'c', 'b']);
  });

  it('FORGOTTEN and CLEANED (gone, no memory) remove the id; unknown ids change nothing', () => {
    expect(ids(applyChange(base, active, { kind: 'FORGOTTEN', memoryId: 'c', gone: true, memory: null }))).toEqual(['b', 'a']);
    expect(applyChange(base, active, { kind: 'CLEANED', memoryId: 'zz', gone: true, memory: null })).toBe(base);
  });

  it('type filter and kind: an inference or another type never enters the list', () => {
    const facts: View = { ...active, types: ['FACT'] };
    expect(ids(applyChange(base, facts, { kind: 'CREATED', memoryId: 't', gone: false, memory: r('t', { type: 'TASK', lastMentionedAt: at(9) }) }))).toEqual(['c', 'b', 'a']);
    expect(ids(applyChange(base, active, { kind: 'CREATED', memoryId: 'i', gone: false, memory: r('i', { kind: 'INFERENCE', lastMentionedAt: at(9) }) }))).toEqual(['c', 'b', 'a']);
  });

  it('a memory whose place is past the loaded rows waits for "load more"', () => {
    const partial = { ...base, hasNextPage: true };
    expect(ids(applyChange(partial, active, { kind: 'UNMUTED', memoryId: 'old', gone: false, memory: r('old', { lastMentionedAt: at(0) }) }))).toEqual(['c', 'b', 'a']);
    expect(ids(applyChange(base, active, { kind: 'UNMUTED', memoryId: 'old', gone: false, memory: r('old', { lastMentionedAt: at(0) }) }))).toEqual(['c', 'b', 'a', 'old']);
    // A loaded page replaces a row an event inserted before it came.
    expect(ids(appendPage(base, [r('a'), r('z')], false))).toEqual(['c', 'b', 'a', 'z']);
  });

  it('STRENGTH order: most mentioned first, then most recent', () => {
    const strong: View = { ...active, order: 'STRENGTH' };
    const s = applyChange(base, strong, { kind: 'REINFORCED', memoryId: 'a', gone: false, memory: r('a', { mentionCount: 3, lastMentionedAt: at(1) }) });
    expect(ids(s)).toEqual(['a', 'c', 'b']);
  });

  it('shift-click selects the range between the anchor and the clicked row, either way', () => {
    const rows = [{ id: '1' }, { id: '2' }, { id: '3' }, { id: '4' }];
    expect(rangeIds(rows, '1', '3')).toEqual(['1', '2', '3']);
    expect(rangeIds(rows, '4', '2')).toEqual(['2', '3', '4']);
    expect(rangeIds(rows, null, '2')).toEqual(['2']);
  });
});
