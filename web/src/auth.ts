/**
 * Sign-in: a token pasted once, kept in this tab's session storage (gone when the tab
 * closes); or, for automation, `/#token=<secret>`, read once and removed from the address
 * bar (and from history) before anything else runs, before it is even decoded.
 */
import { isTokenFragment, parseTokenFragment, type FragmentToken } from './address.js';

const KEY = 'engram.token';

export function takeTokenFromFragment(loc: Location = window.location, hist: History = window.history): FragmentToken | null {
  const hash = loc.hash;
  if (!isTokenFragment(hash)) return null;
  // Out of the address bar first: the secret must not stay there, whatever its decoding does.
  hist.replaceState(null, '', loc.pathname + loc.search + '#/');
  return parseTokenFragment(hash);
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

/**
 * The token of this tab, the fragment's first (and stored, so a reload keeps it). A fragment
 * that cannot be read signs the tab out, with the reason for the sign-in screen: it meant to
 * replace the tab's token, and nothing of it is kept.
 */
export function initialToken(): { token: string | null; error: string | null } {
  const fromFragment = takeTokenFromFragment();
  if (fromFragment && 'error' in fromFragment) {
    storeToken(null);
    return { token: null, error: fromFragment.error };
  }
  if (fromFragment) storeToken(fromFragment.token);
  return { token: storedToken(), error: null };
}
