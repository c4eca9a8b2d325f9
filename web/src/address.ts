/**
 * What the page reads from its address, with no DOM: unit-tested in node
 * (test/unit/web-address.test.ts). A broken %-escape (`%`, `%E0%A4%A`) makes
 * decodeURIComponent throw `URI malformed`: it is caught here, never let out to blank the page.
 */

/**
 * Hash routes (the server serves one page at `/`): #/ , #/memory/<id>, #/inferences, #/cleanup.
 * A memory address whose id cannot be decoded names no memory: `missing`, shown as a memory
 * that was not found. Any other unknown address is the list.
 */
export type Route =
  | { name: 'list' }
  | { name: 'memory'; id: string }
  | { name: 'missing' }
  | { name: 'inferences' }
  | { name: 'cleanup' };

export function parseRoute(hash: string): Route {
  const m = /^#\/memory\/(.+)$/.exec(hash);
  if (m) {
    try { return { name: 'memory', id: decodeURIComponent(m[1]) }; } catch { return { name: 'missing' }; }
  }
  if (hash === '#/inferences') return { name: 'inferences' };
  if (hash === '#/cleanup') return { name: 'cleanup' };
  return { name: 'list' };
}

export const memoryHref = (id: string) => `#/memory/${encodeURIComponent(id)}`;

/** What `#token=` gave: a token, or why none could be read (never the token's text). */
export type FragmentToken = { token: string } | { error: string };

export const MALFORMED_TOKEN_LINK = 'The sign-in link was malformed (its token could not be read): paste the token instead.';

export const isTokenFragment = (hash: string) => hash.startsWith('#token=');

/** The token of a `#token=<secret>` fragment (null: no such fragment). */
export function parseTokenFragment(hash: string): FragmentToken | null {
  if (!isTokenFragment(hash)) return null;
  const raw = /^#token=([^&]*)/.exec(hash)![1];
  let token: string;
  try { token = decodeURIComponent(raw).trim(); } catch { return { error: MALFORMED_TOKEN_LINK }; }
  return token ? { token } : { error: MALFORMED_TOKEN_LINK };
}
