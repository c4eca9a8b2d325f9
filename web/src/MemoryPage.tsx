import { useEffect, useState } from 'preact/hooks';
import {
  ForgetMemoriesMutation, MarkErroneousMutation, MemoryQuery, MuteMemoriesMutation, UnmergeMutation, UnmuteMemoriesMutation,
  type MemoryDetail,
} from './operations.js';
import { useChanges } from './live.js';
import { useSession } from './session.js';
import { memoryHref } from './route.js';
import { lower, when } from './format.js';
import { Confirm } from './Confirm.js';

/** A memory that is not there (unknown, out of this space, or an address that names none). */
export function MemoryMissing({ message }: { message: string }) {
  return <section class="page"><a href="#/">← Memories</a><p class="error" role="alert" data-testid="memory-missing">{message}</p></section>;
}

type Linked = { id: string; quote: string; status: string };

/**
 * One memory: every wording it was said in (tier, score, date, conversation), its correction
 * chain both ways, the explanation ("why did you think that?"), and what may be done to it.
 */
export function MemoryPage({ id }: { id: string }) {
  const { client, spaceId, notify } = useSession();
  const [m, setM] = useState<MemoryDetail | null>(null);
  const [missing, setMissing] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirmForget, setConfirmForget] = useState(false);

  async function load() {
    const r = await client.query(MemoryQuery, { id }).toPromise();
    const p = r.data?.memory;
    if (p?.__typename === 'Memory') { setM(p); setMissing(null); }
    else { setM(null); setMissing(p && 'message' in p ? p.message : r.error?.message ?? 'Not found'); }
  }
  useEffect(() => { void load(); }, [id]);
  useChanges((c) => {
    const ids = new Set([id, ...(m?.correctionChain?.map((x) => x.id) ?? [])]);
    if ((c.memoryId && ids.has(c.memoryId)) || (c.relatedId && ids.has(c.relatedId))) void load();
  }, () => void load());

  async function act(what: 'mute' | 'unmute' | 'unmerge' | 'erroneous' | 'forget') {
    if (!m) return;
    setBusy(true);
    try {
      let msg = '';
      if (what === 'mute' || what === 'unmute' || what === 'forget') {
        const ids = [m.id];
        const p = what === 'mute' ? (await client.mutation(MuteMemoriesMutation, { ids, spaceId }).toPromise()).data?.muteMemories
          : what === 'unmute' ? (await client.mutation(UnmuteMemoriesMutation, { ids, spaceId }).toPromise()).data?.unmuteMemories
            : (await client.mutation(ForgetMemoriesMutation, { ids, spaceId }).toPromise()).data?.forgetMemories;
        msg = p?.__typename === 'BulkResult' ? (p.changed ? { mute: 'Muted.', unmute: 'Unmuted.', forget: 'Forgotten for good.' }[what] : 'Nothing changed.')
          : p && 'message' in p ? p.message : 'The request failed.';
        if (what === 'forget' && p?.__typename === 'BulkResult') { notify(msg); window.location.hash = '#/'; return; }
      } else if (what === 'unmerge') {
        const p = (await client.mutation(UnmergeMutation, { id: m.id }).toPromise()).data?.unmerge;
        msg = p?.__typename === 'Memory' ? 'The merge was undone: it is a memory of its own again.' : p && 'message' in p ? p.message : 'failed';
      } else {
        const by = m.currentVersion && m.currentVersion.id !== m.id ? m.currentVersion.id : null;
        const p = (await client.mutation(MarkErroneousMutation, { id: m.id, correctedBy: by }).toPromise()).data?.markErroneous;
        msg = p?.__typename === 'Memory' ? 'Marked erroneous: it is kept, never recalled as true.' : p && 'message' in p ? p.message : 'failed';
      }
      notify(msg);
      await load();
    } finally {
      setBusy(false);
      setConfirmForget(false);
    }
  }

  if (missing) return <MemoryMissing message={missing} />;
  if (!m) return <section class="page"><p class="muted">Loading…</p></section>;
  const link = (x: Linked) => <a href={memoryHref(x.id)}>“{x.quote}”</a>;
  const inference = m.kind === 'INFERENCE';
  // (null when the request's words read ran out: ENGRAM_MAX_READ_CHARS; the page asks for the first 500, the most a page gives)
  const wordings = m.mentions ?? [];

  return (
    <section class="page" data-testid="memory-page">
      <a href={inference ? '#/inferences' : '#/'}>← {inference ? 'Inferences' : 'Memories'}</a>
      <h1 class="quote-big" data-testid="memory-quote">“{m.quote}”</h1>
      <p class="meta">
        <span class={`status s-${m.status.toLowerCase()}`} data-testid="memory-status">{lower(m.status)}</span>
        {' '}{lower(m.type)} · {inference ? 'the assistant\'s inference' : 'the person\'s own words'} · said {m.mentionCount}
        {m.mentionCount === 1 ? ' time' : ' times'} · last {when(m.lastMentionedAt)}
        {m.resolution && <> · {lower(m.resolution)}</>}
      </p>
      <p class="attribution">{m.attribution}</p>
      {m.context && m.context !== m.quote && <p class="muted">From the message: “{m.context}”</p>}
      {(m.entities.length > 0 || m.themes.length > 0) && <p class="tags">{[...m.entities, ...m.themes].map((t) => <span class="tag" key={t}>{t}</span>)}</p>}

      <div class="actions">
        {m.status === 'ACTIVE' && <button type="button" onClick={() => void act('mute')} disabled={busy}>Mute</button>}
        {m.status === 'MUTED' && <button type="button" onClick={() => void act('unmute')} disabled={busy}>Unmute</button>}
        {m.status === 'MERGED' && <button type="button" onClick={() => void act('unmerge')} disabled={busy} data-testid="unmerge">Undo merge</button>}
        {m.status !== 'ERRONEOUS' && <button type="button" onClick={() => void act('erroneous')} disabled={busy} data-testid="mark-erroneous">Mark erroneous</button>}
        <button type="button" class="destructive-outline" onClick={() => setConfirmForget(true)} disabled={busy} data-testid="forget">Forget…</button>
      </div>

      <h2>Why did you think that?</h2>
      <p class="explanation" data-testid="explanation">{m.explanation}</p>
      {m.basis && <p class="muted">Basis: {m.basis}</p>}

      <h2>Corrections</h2>
      {m.correctionChain === null ? <p class="muted">Too many corrections to read in one request.</p> : m.correctionChain.length > 1 ? (
        <ol class="chain" data-testid="chain">
          {m.correctionChain.map((x) => (
            <li key={x.id} class={x.id === m.id ? 'this' : ''}>
              {x.id === m.id ? <strong>“{x.quote}”</strong> : link(x)}{' '}
              <span class={`status s-${x.status.toLowerCase()}`}>{lower(x.status)}</span> <span class="muted">{when(x.createdAt)}</span>
            </li>
          ))}
        </ol>
      ) : <p class="muted">Never corrected.</p>}
      {m.supersededBy && <p>Replaced by {link(m.supersededBy)}.</p>}
      {m.correctedBy && <p>Corrected by {link(m.correctedBy)}.</p>}
      {m.supersedes && m.supersedes.length > 0 && <p>Replaces {m.supersedes.map((x, i) => <>{i ? ', ' : ''}{link(x)}</>)}.</p>}
      {m.mergedInto && <p>Merged into {link(m.mergedInto)}: its wordings count there.</p>}

      <h2>{m.mentions === null ? 'Wordings' : wordings.length === 500 ? `The first ${wordings.length} wordings` : `Every wording (${wordings.length})`}</h2>
      {m.mentions === null && <p class="muted">Too many words to read in one request: said {m.mentionCount} times.</p>}
      <table class="rows wordings" data-testid="wordings">
        <thead><tr><th>Wording</th><th>Tier</th><th class="num">Score</th><th>Said</th><th>Conversation</th></tr></thead>
        <tbody>
          {wordings.map((w) => (
            <tr key={w.id}>
              <td class="quote">“{w.quote}”</td>
              <td><span class="tier">{lower(w.tier)}</span></td>
              <td class="num">{w.score == null ? '—' : w.score.toFixed(3)}</td>
              <td>{when(w.saidAt)}</td>
              <td class="mono" title={w.conversationId ?? ''}>{w.conversationId ? shortId(w.conversationId) : '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>

      {confirmForget && (
        <Confirm title="Forget 1 memory for good?" busy={busy} confirmLabel="Forget 1 for good"
          onConfirm={() => void act('forget')} onCancel={() => setConfirmForget(false)}>
          <p><strong>“{m.quote}” will be deleted permanently</strong>, with {m.mentions === null ? 'every wording' : <>its {wordings.length}
            {wordings.length === 1 ? ' wording' : ' wordings'}</>} and the sentences they came from. This cannot be undone.</p>
        </Confirm>
      )}
    </section>
  );
}

/** Ids are opaque: shown shortened, never parsed. */
function shortId(id: string): string {
  return id.length > 14 ? `${id.slice(0, 6)}…${id.slice(-6)}` : id;
}
