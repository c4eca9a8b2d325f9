import { Provider } from '@urql/preact';
import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';
import { initialToken, storeToken, takeTokenFromFragment } from './auth.js';
import { createApi, type Api } from './client.js';
import { createHub, LiveContext } from './live.js';
import { MemoryEventsSubscription, SpacesQuery, ViewerQuery } from './operations.js';
import { SessionContext, type Session } from './session.js';
import { useRoute } from './route.js';
import { SignIn } from './SignIn.js';
import { MemoryList } from './MemoryList.js';
import { CleanupSheet } from './CleanupSheet.js';
import { MemoryMissing, MemoryPage } from './MemoryPage.js';
import { Inferences } from './Inferences.js';

export function App() {
  const [initial] = useState(initialToken);
  const [token, setToken] = useState<string | null>(initial.token);
  const [refused, setRefused] = useState<string | null>(initial.error);
  // Each sign-in starts the signed-in page afresh: nothing of another token's viewer or lists.
  const [signIns, setSignIns] = useState(0);
  const api = useMemo(() => (token ? createApi(token) : null), [token]);
  useEffect(() => () => api?.dispose(), [api]);

  const signIn = (t: string) => { storeToken(t); setRefused(null); setToken(t); setSignIns((n) => n + 1); };
  const signOut = (why: string | null = null) => { storeToken(null); setRefused(why); setToken(null); };

  // A `#token=` link followed in a tab that is already open (no reload): read once and out of
  // the address bar, as at load; it replaces the tab's token, or signs the tab out with why.
  useEffect(() => {
    const on = () => {
      const taken = takeTokenFromFragment();
      if (!taken) return;
      if ('error' in taken) signOut(taken.error);
      else signIn(taken.token);
    };
    window.addEventListener('hashchange', on);
    return () => window.removeEventListener('hashchange', on);
  }, []);

  if (!api) return <SignIn onToken={signIn} error={refused} />;
  return (
    <Provider value={api.client} key={signIns}>
      <Signed api={api} onSignOut={signOut} />
    </Provider>
  );
}

type Viewer = { role: string; space: { id: string; name: string; memoryCount: number } | null };

function Signed({ api, onSignOut }: { api: Api; onSignOut: (why?: string | null) => void }) {
  const [viewer, setViewer] = useState<Viewer | null>(null);
  const [spaces, setSpaces] = useState<{ id: string; name: string }[]>([]);
  const [adminSpace, setAdminSpace] = useState<string | null>(null);
  const [toast, setToast] = useState<string | null>(null);
  const [live, setLive] = useState(false);
  const route = useRoute();
  const hub = useMemo(() => createHub(), []);

  useEffect(() => {
    let alive = true;
    void api.client.query(ViewerQuery, {}).toPromise().then((r) => {
      if (!alive) return;
      const v = r.data?.viewer;
      if (v?.__typename === 'Viewer' && (v.role === 'operator' || v.role === 'admin')) setViewer(v);
      else onSignOut(v?.__typename === 'Viewer'
        ? `A ${v.role} token cannot look after memories: sign in with an operator token.`
        : 'This token was refused (unknown or revoked).');
    });
    return () => { alive = false; };
  }, [api]);

  // An admin token belongs to no space: it chooses one.
  useEffect(() => {
    if (viewer?.role !== 'admin') return;
    void api.client.query(SpacesQuery, {}).toPromise().then((r) => {
      const s = r.data?.spaces;
      if (s?.__typename === 'SpacesSuccess') setSpaces(s.data);
    });
  }, [viewer]);

  const spaceId = viewer?.space ? null : adminSpace;
  const ready = viewer !== null && (viewer.space !== null || adminSpace !== null);

  useEffect(() => {
    if (!ready) return;
    const sub = api.client.subscription(MemoryEventsSubscription, { spaceId }).subscribe((r) => {
      if (r.data?.memoryEvents) hub.emit(r.data.memoryEvents);
    });
    const offOpen = api.ws.on('connected', () => setLive(true));
    const offClose = api.ws.on('closed', () => setLive(false));
    const offResync = api.onReconnect(() => hub.resync());
    return () => { sub.unsubscribe(); offOpen(); offClose(); offResync(); setLive(false); };
  }, [ready, spaceId]);

  const notify = useCallback((m: string) => {
    setToast(m);
    window.setTimeout(() => setToast((t) => (t === m ? null : t)), 4000);
  }, []);
  const session: Session | null = useMemo(
    () => (viewer ? { client: api.client, spaceId, role: viewer.role, notify } : null), [viewer, spaceId]);

  if (!viewer || !session) return <main class="center"><p class="muted">Signing in…</p></main>;
  const nav = (name: string, href: string, on: boolean) => <a href={href} class={on ? 'on' : ''}>{name}</a>;
  return (
    <SessionContext.Provider value={session}>
      <LiveContext.Provider value={hub}>
        <header class="top">
          <strong class="brand">Engram</strong>
          <span class="space" data-testid="space-name">
            {viewer.space ? viewer.space.name : (
              <select aria-label="Space" value={adminSpace ?? ''} onChange={(e) => setAdminSpace((e.target as HTMLSelectElement).value || null)}>
                <option value="">Choose a space…</option>
                {spaces.map((s) => <option value={s.id} key={s.id}>{s.name}</option>)}
              </select>
            )}
          </span>
          <nav>
            {nav('Memories', '#/', route.name === 'list' || route.name === 'cleanup')}
            {nav('Inferences', '#/inferences', route.name === 'inferences')}
            <a href="/graphql" target="_blank" rel="noopener">GraphiQL</a>
          </nav>
          <span class={live ? 'live on' : 'live'} data-testid="live" title={live ? 'Live: changes appear as they happen' : 'Connecting…'}>
            {live ? 'live' : 'offline'}
          </span>
          <button type="button" class="link" onClick={() => onSignOut(null)}>Sign out</button>
        </header>
        {!ready ? <main class="center"><p class="muted">Choose a space to look after.</p></main> : (
          <main>
            {(route.name === 'list' || route.name === 'cleanup') && <MemoryList key={spaceId ?? 'own'} />}
            {route.name === 'cleanup' && <CleanupSheet />}
            {route.name === 'memory' && <MemoryPage id={route.id} key={route.id} />}
            {route.name === 'missing' && <MemoryMissing message="Memory not found: its address is malformed." />}
            {route.name === 'inferences' && <Inferences />}
          </main>
        )}
        {toast && <div class="toast" role="status">{toast}</div>}
      </LiveContext.Provider>
    </SessionContext.Provider>
  );
}
