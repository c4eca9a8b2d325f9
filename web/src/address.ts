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

export const NOT_A_TOKEN = 'That is not a token: a token is one word of visible ASCII characters (no spaces, no accents). Paste it again.';

export const isTokenFragment = (hash: string) => hash.startsWith('#token=');

/**
 * Why a text cannot be a token (null: it can be sent). A token travels in an HTTP header
 * (`authorization: Bearer <token>`) and in graphql-ws's connection parameters; a character no
 * header can carry ('€', a space, a control character) would make fetch throw or be refused by
 * the server without a word, so the page says so itself and sends nothing. Tokens Engram makes
 * are visible ASCII (U+0021–U+007E).
 */
export function tokenShapeError(token: string): string | null {
  return /^[\x21-\x7e]+$/.test(token) ? null : NOT_A_TOKEN;
}

/** The token of a `#token=<secret>` fragment (null: no such fragment). */
export function parseTokenFragment(hash: string): FragmentToken | null {
  if (!isTokenFragment(hash)) return null;
  const raw = /^#token=([^&]*)/.exec(hash)![1];
  let token: string;
  try { token = decodeURIComponent(raw).trim(); } catch { return { error: MALFORMED_TOKEN_LINK }; }
  if (!token) return { error: MALFORMED_TOKEN_LINK };
  const shape = tokenShapeError(token);
  return shape ? { error: shape } : { token };
}
