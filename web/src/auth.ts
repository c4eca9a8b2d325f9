/**
 * Sign-in: a token pasted once, kept in this tab's session storage (gone when the tab
 * closes); or, for automation, `/#token=<secret>`, read once and removed from the address
 * bar (and from history) before anything else runs.
 */
const KEY = 'engram.token';

export function takeTokenFromFragment(loc: Location = window.location, hist: History = window.history): string | null {
  const m = /^#token=([^&]+)/.exec(loc.hash);
  if (!m) return null;
  const token = decodeURIComponent(m[1]);
  hist.replaceState(null, '', loc.pathname + loc.search + '#/');
  return token;
}

export function storedToken(): string | null {
  try { return sessionStorage.getItem(KEY); } catch { return null; }
}

export function storeToken(token: string | null): void {
  try {
    if (token) sessionStorage.setItem(KEY, token);
    else sessionStorage.removeItem(KEY);
  } catch { /* storage refused: the token lives only in memory for this page */ }
}

/** The token of this tab, the fragment's first (and stored, so a reload keeps it). */
export function initialToken(): string | null {
  const fromFragment = takeTokenFromFragment();
  if (fromFragment) storeToken(fromFragment.trim());
  return storedToken();
}
