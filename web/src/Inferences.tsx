import { useEffect, useState } from 'preact/hooks';
import { InferencesQuery, ReviewInferenceMutation, type Row } from './operations.js';
import { useChanges } from './live.js';
import { useSession } from './session.js';
import { memoryHref } from './route.js';
import { lower, when } from './format.js';

type Inference = Row & { basis: string | null; explanation: string };
type Review = 'PENDING' | 'ACCEPTED' | 'DISMISSED';

/** The assistant's own conclusions, reviewed apart: never mixed with the person's words. */
export function Inferences() {
  const { client, spaceId, notify } = useSession();
  const [review, setReview] = useState<Review | 'ALL'>('PENDING');
  const [rows, setRows] = useState<Inference[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function load() {
    const r = await client.query(InferencesQuery, { review: review === 'ALL' ? null : review, spaceId }).toPromise();
    const p = r.data?.inferences;
    if (p?.__typename === 'InferencesSuccess') { setRows(p.data); setError(null); }
    else setError(p && 'message' in p ? p.message : r.error?.message ?? 'loading failed');
  }
  useEffect(() => { void load(); }, [review, spaceId]);
  useChanges((c) => {
    if (c.memory?.kind === 'INFERENCE' || c.gone || (rows ?? []).some((x) => x.id === c.memoryId)) void load();
  }, () => void load());

  async function decide(id: string, decision: 'ACCEPTED' | 'DISMISSED') {
    const p = (await client.mutation(ReviewInferenceMutation, { id, decision, spaceId }).toPromise()).data?.reviewInference;
    notify(p?.__typename === 'Memory' ? (decision === 'ACCEPTED' ? 'Accepted.' : 'Dismissed.') : p && 'message' in p ? p.message : 'failed');
    await load();
  }

  return (
    <section class="list" data-testid="inferences">
      <div class="toolbar">
        <h2 class="inline">The assistant's inferences</h2>
        <label>Review <select aria-label="Review" value={review} onChange={(e) => setReview((e.target as HTMLSelectElement).value as Review | 'ALL')}>
          <option value="PENDING">To review</option><option value="ACCEPTED">Accepted</option>
          <option value="DISMISSED">Dismissed</option><option value="ALL">All</option>
        </select></label>
      </div>
      <p class="muted">Conclusions the assistant drew, not things the person said: they are never recalled as the person's words.</p>
      {error && <p class="error" role="alert">{error}</p>}
      <table class="rows">
        <thead><tr><th>The assistant concluded</th><th>Basis</th><th>Type</th><th>When</th><th>Review</th><th /></tr></thead>
        <tbody>
          {(rows ?? []).map((r) => (
            <tr key={r.id} data-testid="inference-row">
              <td class="quote"><a href={memoryHref(r.id)}>{r.quote}</a></td>
              <td class="muted">{r.basis ?? '—'}</td>
              <td>{lower(r.type)}</td>
              <td>{when(r.createdAt)}</td>
              <td>{r.review ? lower(r.review) : '—'}</td>
              <td class="buttons-inline">
                {r.review !== 'ACCEPTED' && <button type="button" onClick={() => void decide(r.id, 'ACCEPTED')}>Accept</button>}
                {r.review !== 'DISMISSED' && <button type="button" onClick={() => void decide(r.id, 'DISMISSED')}>Dismiss</button>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {rows && rows.length === 0 && <p class="empty muted">Nothing to review.</p>}
    </section>
  );
}
