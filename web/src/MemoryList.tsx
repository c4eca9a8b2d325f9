import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { appendPage, applyChange, rangeIds, type ListState, type Order, type View } from './list-state.js';
import {
  ForgetMemoriesMutation, MemoriesQuery, MuteMemoriesMutation, SearchQuery, UnmuteMemoriesMutation, type Change, type Row,
} from './operations.js';
import { useChanges } from './live.js';
import { useSession } from './session.js';
import { memoryHref } from './route.js';
import { lower, STATUSES, TYPES, when, type MemoryStatus, type MemoryType } from './format.js';
import { Confirm } from './Confirm.js';

const PAGE = 30;

/**
 * The space's memories: a cursor-paginated list (more pages load on scroll), newest or
 * strongest first, filtered by type and status, or the answers of `recallSpace` to a search;
 * kept current by `memoryEvents`. Rows are selected by click, shift-click (a range) or
 * "all on the page", then muted, unmuted or forgotten in one request.
 */
export function MemoryList() {
  const { client, spaceId, notify } = useSession();
  const [order, setOrder] = useState<Order>('RECENT');
  const [status, setStatus] = useState<MemoryStatus | 'ALL'>('ACTIVE');
  const [type, setType] = useState<MemoryType | 'ALL'>('ALL');
  const [query, setQuery] = useState('');
  const [search, setSearch] = useState('');
  const [list, setList] = useState<ListState<Row>>({ rows: [], hasNextPage: false });
  const [cursor, setCursor] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [inferenceHits, setInferenceHits] = useState(0);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [anchor, setAnchor] = useState<string | null>(null);
  const [confirmForget, setConfirmForget] = useState(false);
  const [busy, setBusy] = useState(false);
  const generation = useRef(0);
  const pending = useRef<Change[] | null>(null);
  const sentinel = useRef<HTMLDivElement>(null);

  const view: View = useMemo(() => ({
    kind: 'STATEMENT',
    statuses: status === 'ALL' ? STATUSES : [status],
    types: type === 'ALL' ? [] : [type],
    order,
  }), [status, type, order]);

  /** Loads the first page (or the search's answers); changes arriving meanwhile are replayed after. */
  async function reload() {
    const gen = ++generation.current;
    pending.current = [];
    setLoading(true);
    setError(null);
    try {
      if (search) {
        const r = await client.query(SearchQuery, { query: search, first: 50, spaceId }).toPromise();
        if (gen !== generation.current) return;
        const p = r.data?.recallSpace;
        if (p?.__typename !== 'RecallResult') throw new Error(p && 'message' in p ? p.message : r.error?.message ?? 'search failed');
        setList({ rows: p.statements.map((h) => h.memory), hasNextPage: false });
        setInferenceHits(p.inferences.length);
        setCursor(null);
      } else {
        const r = await client.query(MemoriesQuery, {
          first: PAGE, filter: { kind: 'STATEMENT', statuses: [...view.statuses] as MemoryStatus[], types: view.types.length ? [...view.types] as MemoryType[] : null },
          orderBy: order, spaceId,
        }).toPromise();
        if (gen !== generation.current) return;
        const p = r.data?.memories;
        if (p?.__typename !== 'MemoryConnection') throw new Error(p && 'message' in p ? p.message : r.error?.message ?? 'loading failed');
        let state: ListState<Row> = { rows: p.edges.map((e) => e.node), hasNextPage: p.pageInfo.hasNextPage };
        for (const c of pending.current ?? []) state = applyChange(state, view, c);
        setList(state);
        setCursor(p.pageInfo.endCursor ?? null);
        setInferenceHits(0);
      }
    } catch (e) {
      setError((e as Error).message);
    } finally {
      if (gen === generation.current) { pending.current = null; setLoading(false); }
    }
  }

  async function loadMore() {
    if (loading || !list.hasNextPage || !cursor || search) return;
    const gen = generation.current;
    setLoading(true);
    try {
      const r = await client.query(MemoriesQuery, {
        first: PAGE, after: cursor,
        filter: { kind: 'STATEMENT', statuses: [...view.statuses] as MemoryStatus[], types: view.types.length ? [...view.types] as MemoryType[] : null },
        orderBy: order, spaceId,
      }).toPromise();
      if (gen !== generation.current) return;
      const p = r.data?.memories;
      if (p?.__typename !== 'MemoryConnection') throw new Error(p && 'message' in p ? p.message : 'loading failed');
      setList((s) => appendPage(s, p.edges.map((e) => e.node), p.pageInfo.hasNextPage));
      setCursor(p.pageInfo.endCursor ?? null);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      if (gen === generation.current) setLoading(false);
    }
  }

  useEffect(() => { void reload(); }, [view, search, spaceId]);

  useChanges((c) => {
    if (pending.current) pending.current.push(c);
    if (search) {
      // A search's answers are not a filter the client can apply: keep the shown rows current, add none.
      setList((s) => {
        const has = (id?: string | null) => !!id && s.rows.some((r) => r.id === id);
        if (!has(c.memoryId) && !has(c.relatedId)) return s;
        const rows = s.rows.flatMap((r) => {
          const now = r.id === c.memoryId ? (c.gone ? null : c.memory ?? r) : r.id === c.relatedId ? c.related ?? r : r;
          return now && view.statuses.includes(now.status) ? [now] : [];
        });
        return { ...s, rows };
      });
    } else {
      setList((s) => applyChange(s, view, c));
    }
  }, () => { void reload(); });

  // Load more when the end of the list scrolls into view.
  useEffect(() => {
    const el = sentinel.current;
    if (!el) return;
    const io = new IntersectionObserver((entries) => { if (entries.some((e) => e.isIntersecting)) void loadMore(); }, { rootMargin: '300px' });
    io.observe(el);
    return () => io.disconnect();
  });

  // A selection only holds rows still shown.
  useEffect(() => {
    const ids = new Set(list.rows.map((r) => r.id));
    if ([...selected].some((id) => !ids.has(id))) setSelected(new Set([...selected].filter((id) => ids.has(id))));
  }, [list.rows]);

  function clickRow(id: string, shift: boolean) {
    const next = new Set(selected);
    if (shift && anchor) {
      const on = !selected.has(id) || selected.has(anchor);
      for (const r of rangeIds(list.rows, anchor, id)) if (on) next.add(r); else next.delete(r);
    } else if (next.has(id)) next.delete(id);
    else next.add(id);
    setSelected(next);
    setAnchor(id);
  }
  const allOnPage = list.rows.length > 0 && list.rows.every((r) => selected.has(r.id));
  const toggleAll = () => setSelected(allOnPage ? new Set() : new Set(list.rows.map((r) => r.id)));

  async function bulk(action: 'mute' | 'unmute' | 'forget') {
    const ids = [...selected];
    if (!ids.length) return;
    setBusy(true);
    try {
      const r = action === 'mute' ? (await client.mutation(MuteMemoriesMutation, { ids, spaceId }).toPromise()).data?.muteMemories
        : action === 'unmute' ? (await client.mutation(UnmuteMemoriesMutation, { ids, spaceId }).toPromise()).data?.unmuteMemories
          : (await client.mutation(ForgetMemoriesMutation, { ids, spaceId }).toPromise()).data?.forgetMemories;
      if (r?.__typename === 'BulkResult') {
        const verb = action === 'mute' ? 'Muted' : action === 'unmute' ? 'Unmuted' : 'Forgot';
        const other = r.results.length - r.changed;
        notify(`${verb} ${r.changed} ${r.changed === 1 ? 'memory' : 'memories'}${action === 'forget' ? ' for good' : ''}${other ? ` (${other} unchanged)` : ''}.`);
        setSelected(new Set());
      } else {
        notify(r && 'message' in r ? r.message : 'The request failed.');
      }
    } finally {
      setBusy(false);
      setConfirmForget(false);
    }
  }

  const n = selected.size;
  return (
    <section class="list">
      <div class="toolbar">
        <form class="search" role="search" onSubmit={(e) => { e.preventDefault(); setSearch(query.trim()); }}>
          <input type="search" placeholder="Search what was said…" aria-label="Search" value={query}
            onInput={(e) => { const v = (e.target as HTMLInputElement).value; setQuery(v); if (!v.trim()) setSearch(''); }} />
          <button type="submit">Search</button>
        </form>
        <label>Order <select aria-label="Order" value={order} disabled={!!search} onChange={(e) => setOrder((e.target as HTMLSelectElement).value as Order)}>
          <option value="RECENT">Newest</option>
          <option value="STRENGTH">Strongest</option>
          <option value="CREATED">First kept</option>
        </select></label>
        <label>Type <select aria-label="Type" value={type} onChange={(e) => setType((e.target as HTMLSelectElement).value as MemoryType | 'ALL')}>
          <option value="ALL">All types</option>
          {TYPES.map((t) => <option value={t} key={t}>{lower(t)}</option>)}
        </select></label>
        <label>Status <select aria-label="Status" value={status} onChange={(e) => setStatus((e.target as HTMLSelectElement).value as MemoryStatus | 'ALL')}>
          {STATUSES.map((s) => <option value={s} key={s}>{lower(s)}</option>)}
          <option value="ALL">Any status</option>
        </select></label>
        <a class="button" href="#/cleanup" data-testid="open-cleanup">Clean up…</a>
      </div>

      <div class={n ? 'selection on' : 'selection'} aria-live="polite">
        {n ? <>
          <strong data-testid="selected-count">{n} selected</strong>
          <button type="button" onClick={() => void bulk('mute')} disabled={busy} data-testid="bulk-mute">Mute</button>
          <button type="button" onClick={() => void bulk('unmute')} disabled={busy} data-testid="bulk-unmute">Unmute</button>
          <button type="button" class="destructive-outline" onClick={() => setConfirmForget(true)} disabled={busy} data-testid="bulk-forget">Forget…</button>
          <button type="button" class="link" onClick={() => setSelected(new Set())}>Clear</button>
        </> : <span class="muted">{search ? `Answers to “${search}”` : `${list.rows.length}${list.hasNextPage ? '+' : ''} shown`}
          {inferenceHits > 0 && <> · {inferenceHits} inference{inferenceHits > 1 ? 's' : ''} matched too (<a href="#/inferences">review them apart</a>)</>}</span>}
      </div>

      {error && <p class="error" role="alert">{error}</p>}
      <table class="rows">
        <thead>
          <tr>
            <th class="pick"><input type="checkbox" aria-label="Select all on this page" checked={allOnPage} onChange={toggleAll} data-testid="select-all" /></th>
            <th>What was said</th><th>Type</th><th class="num">Mentions</th><th>Last mentioned</th><th>Status</th>
          </tr>
        </thead>
        <tbody>
          {list.rows.map((r) => (
            <tr key={r.id} data-testid="memory-row" data-id={r.id} class={selected.has(r.id) ? 'picked' : ''}
              onClick={(e) => { if ((e.target as HTMLElement).closest('a')) return; e.preventDefault(); clickRow(r.id, e.shiftKey); }}>
              <td class="pick"><input type="checkbox" checked={selected.has(r.id)} aria-label="Select" tabIndex={-1} readOnly /></td>
              <td class="quote"><a href={memoryHref(r.id)} data-testid="quote">{r.quote}</a></td>
              <td>{lower(r.type)}</td>
              <td class="num" data-testid="count">{r.mentionCount}</td>
              <td>{when(r.lastMentionedAt)}</td>
              <td><span class={`status s-${r.status.toLowerCase()}`} data-testid="status">{lower(r.status)}</span></td>
            </tr>
          ))}
        </tbody>
      </table>
      {!loading && list.rows.length === 0 && !error && <p class="empty muted" data-testid="empty">{search ? 'Nothing on file answers that.' : 'Nothing here yet.'}</p>}
      <div ref={sentinel} class="sentinel">{loading ? 'Loading…' : list.hasNextPage ? '' : list.rows.length ? 'End of the list.' : ''}</div>

      {confirmForget && (
        <Confirm title={`Forget ${n} ${n === 1 ? 'memory' : 'memories'} for good?`} busy={busy}
          confirmLabel={`Forget ${n} for good`} onConfirm={() => void bulk('forget')} onCancel={() => setConfirmForget(false)}>
          <p><strong>{n} {n === 1 ? 'memory' : 'memories'} will be deleted permanently</strong>: the words, every wording,
            the sentences they came from and their search entries. Only an event without content is kept.
            This cannot be undone.</p>
          <p class="muted">To keep them but stop using them, mute them instead.</p>
        </Confirm>
      )}
    </section>
  );
}
