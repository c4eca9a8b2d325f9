import { useEffect, useRef, useState } from 'preact/hooks';
import { CleanUpMutation } from './operations.js';
import { useChanges } from './live.js';
import { useSession } from './session.js';
import { lower, TYPES, type MemoryType } from './format.js';

type Scope = 'PAST_OR_RESOLVED' | 'EVERYTHING';
interface Counts { total: number; counts: { type: string; count: number }[] }

const DEFAULT: MemoryType[] = ['APPOINTMENT', 'REMINDER', 'TASK', 'EVENT'];

/**
 * The cleanup sheet (docs/cleanup.md): categories and a scope; the dry run's counts per
 * category come first, and only then is the red button enabled; after it, the real counts.
 */
export function CleanupSheet() {
  const { client, spaceId, notify } = useSession();
  const [categories, setCategories] = useState<Set<MemoryType>>(new Set(DEFAULT));
  const [scope, setScope] = useState<Scope>('PAST_OR_RESOLVED');
  const [dry, setDry] = useState<{ key: string; result: Counts } | null>(null);
  const [done, setDone] = useState<Counts | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const seq = useRef(0);
  const chosen = TYPES.filter((t) => categories.has(t));
  const key = `${scope}:${chosen.join(',')}`;

  /** The dry run for the current choice: again whenever the space changes, so the counts stay true. */
  function count() {
    if (!chosen.length) { setDry(null); return; }
    const mine = ++seq.current;
    void client.mutation(CleanUpMutation, { categories: chosen, scope, dryRun: true, spaceId }).toPromise().then((r) => {
      if (mine !== seq.current) return;
      const p = r.data?.cleanUp;
      if (p?.__typename === 'CleanUpResult') setDry({ key, result: p });
      else setError(p && 'message' in p ? p.message : r.error?.message ?? 'the dry run failed');
    });
  }
  useEffect(() => {
    setDone(null);
    setError(null);
    count();
  }, [key]);
  // A change elsewhere (another tab, the assistant) may change what the sweep would take.
  useChanges(() => { if (!done && !busy) count(); }, () => { if (!done && !busy) count(); });

  async function confirm() {
    setBusy(true);
    seq.current++; // a dry run still on its way must not replace the real counts
    try {
      const r = await client.mutation(CleanUpMutation, { categories: chosen, scope, confirm: true, spaceId }).toPromise();
      const p = r.data?.cleanUp;
      if (p?.__typename === 'CleanUpResult') {
        setDone(p);
        setDry(null);
        seq.current++;
        notify(`Deleted ${p.total} ${p.total === 1 ? 'memory' : 'memories'} for good.`);
      } else setError(p && 'message' in p ? p.message : r.error?.message ?? 'the sweep failed');
    } finally {
      setBusy(false);
    }
  }

  const toggle = (t: MemoryType) => {
    const next = new Set(categories);
    if (next.has(t)) next.delete(t); else next.add(t);
    setCategories(next);
  };
  const ready = dry !== null && dry.key === key;
  const countOf = (c: Counts, t: string) => c.counts.find((x) => x.type === t)?.count ?? 0;

  return (
    <div class="overlay" onClick={(e) => { if (e.target === e.currentTarget) window.location.hash = '#/'; }}>
      <aside class="sheet" role="dialog" aria-modal="true" aria-labelledby="cleanup-title" data-testid="cleanup-sheet">
        <h2 id="cleanup-title">Clean up</h2>
        <p class="muted">Deletes for good the memories of the chosen categories that the scope selects —
          the person's words and the assistant's inferences alike. A dry run counts them first.</p>
        <fieldset>
          <legend>Categories</legend>
          <div class="cats">
            {TYPES.map((t) => (
              <label key={t}><input type="checkbox" checked={categories.has(t)} onChange={() => toggle(t)} data-testid={`cat-${t}`} /> {lower(t)}</label>
            ))}
          </div>
        </fieldset>
        <fieldset>
          <legend>Which of them</legend>
          <label><input type="radio" name="scope" checked={scope === 'PAST_OR_RESOLVED'} onChange={() => setScope('PAST_OR_RESOLVED')} data-testid="scope-past" />
            {' '}Past or resolved <span class="muted">— done, cancelled, no longer active, or whose time has gone</span></label>
          <label><input type="radio" name="scope" checked={scope === 'EVERYTHING'} onChange={() => setScope('EVERYTHING')} data-testid="scope-everything" />
            {' '}Everything <span class="muted">— upcoming and undated ones too</span></label>
        </fieldset>

        {error && <p class="error" role="alert">{error}</p>}
        {done ? (
          <div class="counts done" data-testid="cleanup-done">
            <h3>Deleted</h3>
            <table>
              <tbody>{done.counts.filter((c) => c.count > 0).map((c) => (
                <tr key={c.type}><td>{lower(c.type)}</td><td class="num" data-testid={`done-${c.type}`}>{c.count}</td></tr>))}</tbody>
              <tfoot><tr><th>Total</th><th class="num" data-testid="done-total">{done.total}</th></tr></tfoot>
            </table>
          </div>
        ) : (
          <div class="counts" data-testid="cleanup-dry">
            <h3>Would delete {ready ? '' : '…'}</h3>
            {ready && (
              <table>
                <tbody>{chosen.map((t) => (
                  <tr key={t}><td>{lower(t)}</td><td class="num" data-testid={`dry-${t}`}>{countOf(dry.result, t)}</td></tr>))}</tbody>
                <tfoot><tr><th>Total</th><th class="num" data-testid="dry-total">{dry.result.total}</th></tr></tfoot>
              </table>
            )}
          </div>
        )}
        <div class="buttons">
          <a class="button" href="#/">{done ? 'Close' : 'Cancel'}</a>
          {!done && (
            <button type="button" class="destructive" disabled={!ready || busy || dry.result.total === 0} onClick={() => void confirm()} data-testid="cleanup-confirm">
              {ready ? `Delete ${dry.result.total} for good` : 'Counting…'}
            </button>
          )}
        </div>
      </aside>
    </div>
  );
}
