/**
 * The list of memories a page holds, and how a `memoryEvents` change applies to it
 * (docs/live-updates.md): pure functions, no DOM, no GraphQL client (test/unit/web-list-state.test.ts).
 *
 * Rule: after a change, a memory is in the list exactly when it matches the view's filter
 * (kind, statuses, types) — inserted where the order puts it, updated in place, or removed.
 * A memory whose place lies past the loaded part of a list with more pages is left for
 * "load more" to bring, so the loaded part stays a true prefix of the server's order.
 */

export interface RowLike {
  id: string;
  kind: string;
  type: string;
  status: string;
  mentionCount: number;
  lastMentionedAt: string;
  createdAt: string;
}

export type Order = 'RECENT' | 'STRENGTH' | 'CREATED';

export interface View {
  kind: string;
  statuses: readonly string[];
  /** Empty: every type. */
  types: readonly string[];
  order: Order;
}

export interface ListState<R extends RowLike> {
  rows: R[];
  hasNextPage: boolean;
}

export interface ChangeLike<R extends RowLike> {
  kind: string;
  memoryId?: string | null;
  relatedId?: string | null;
  gone: boolean;
  memory?: R | null;
  related?: R | null;
}

export function matches(view: View, r: RowLike): boolean {
  return r.kind === view.kind && view.statuses.includes(r.status) && (view.types.length === 0 || view.types.includes(r.type));
}

/** Negative when a comes before b in the view's order (the server's: ties by newest). */
export function compare(order: Order, a: RowLike, b: RowLike): number {
  const t = (s: string) => Date.parse(s);
  if (order === 'STRENGTH') {
    if (a.mentionCount !== b.mentionCount) return b.mentionCount - a.mentionCount;
    return t(b.lastMentionedAt) - t(a.lastMentionedAt);
  }
  if (order === 'CREATED') return t(b.createdAt) - t(a.createdAt);
  return t(b.lastMentionedAt) - t(a.lastMentionedAt);
}

function upsert<R extends RowLike>(state: ListState<R>, view: View, r: R): ListState<R> {
  const rows = state.rows.filter((x) => x.id !== r.id);
  if (!matches(view, r)) return rows.length === state.rows.length ? state : { ...state, rows };
  let at = rows.findIndex((x) => compare(view.order, r, x) < 0);
  if (at < 0) {
    // Its place is after every loaded row: at the end only when the list is complete.
    if (state.hasNextPage) return { ...state, rows };
    at = rows.length;
  }
  rows.splice(at, 0, r);
  return { ...state, rows };
}

function remove<R extends RowLike>(state: ListState<R>, id: string | null | undefined): ListState<R> {
  if (!id || !state.rows.some((x) => x.id === id)) return state;
  return { ...state, rows: state.rows.filter((x) => x.id !== id) };
}

export function applyChange<R extends RowLike>(state: ListState<R>, view: View, change: ChangeLike<R>): ListState<R> {
  let next = state;
  if (change.gone || !change.memory) next = remove(next, change.memoryId);
  else next = upsert(next, view, change.memory);
  // The other memory of the change (the correction, the merge reference whose count grew, ...).
  if (change.related) next = upsert(next, view, change.related);
  return next;
}

/** Appends a loaded page, keeping ids unique (a row an event already inserted is replaced). */
export function appendPage<R extends RowLike>(state: ListState<R>, page: R[], hasNextPage: boolean): ListState<R> {
  const ids = new Set(page.map((r) => r.id));
  return { rows: [...state.rows.filter((r) => !ids.has(r.id)), ...page], hasNextPage };
}

/** Shift-click: every id between the anchor and the clicked row (inclusive), in list order. */
export function rangeIds(rows: readonly { id: string }[], anchor: string | null, clicked: string): string[] {
  const b = rows.findIndex((r) => r.id === clicked);
  const a = anchor ? rows.findIndex((r) => r.id === anchor) : -1;
  if (b < 0) return [];
  if (a < 0) return [clicked];
  const [lo, hi] = a < b ? [a, b] : [b, a];
  return rows.slice(lo, hi + 1).map((r) => r.id);
}
