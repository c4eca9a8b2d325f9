import { GraphQLError } from 'graphql';
import type { GraphQLParams, Plugin } from 'graphql-yoga';

/**
 * Yoga's request parsers, strict (docs/limits.md#request-parsing): what the client sent that
 * cannot be read is answered 400 BAD_REQUEST naming the parameter, logged at info as any client
 * error. Yoga's own GET and form parsers ran `JSON.parse` on `variables` and `extensions` bare:
 * `?variables={bad` was a SyntaxError, answered 500 "Unexpected error." and logged at error with
 * its stack. Bytes that are not UTF-8 (in a body, or percent-encoded in a query string or form)
 * are refused too: decoding them used to put U+FFFD into what was stored.
 * Registered after Yoga's parsers, so these replace them for the same requests; Yoga's
 * body-size limit still wraps whichever parser runs.
 */

type Params = GraphQLParams;

export function strictRequestParsing(): Plugin {
  return {
    onRequestParse({ request, setRequestParser }) {
      const type = (request.headers.get('content-type') ?? '').split(',')[0]!.split(';')[0]!.trim().toLowerCase();
      if (request.method === 'GET') {
        setRequestParser((r) => withQuery(fromSearchParams(r.url.includes('?') ? r.url.slice(r.url.indexOf('?') + 1) : '', 'query string')));
      } else if (request.method !== 'POST') {
        return;
      } else if (type === 'application/json' || type === 'application/graphql+json') {
        setRequestParser(async (r) => withQuery(jsonBody(await bodyText(r))));
      } else if (type === 'application/x-www-form-urlencoded') {
        setRequestParser(async (r) => withQuery(fromSearchParams(await bodyText(r), 'form body')));
      } else if (type === 'application/graphql') {
        setRequestParser(async (r) => ({ query: await bodyText(r) }));
      } else if (type === 'multipart/form-data') {
        // The schema takes no uploads; Yoga's multipart parser answered a body it could not read with 200 and no code.
        setRequestParser(() => { throw badRequest('multipart bodies (file uploads) are not accepted: send the operation as application/json'); });
      }
    },
  };
}

export function badRequest(message: string, field?: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'BAD_REQUEST', ...(field ? { field } : {}), http: { status: 400 } } });
}

/**
 * A request without a query (absent, null or empty; the schema serves no persisted queries, so an
 * extension alone names nothing) is refused 400 naming `query`, as a query of the wrong type is.
 * Yoga answered it 200 "Must provide query string.", unlike every other unreadable parameter.
 * (An array body is Yoga's: "Batching is not supported.", 400.)
 */
function withQuery(params: Params | Params[]): Params | Params[] {
  if (!Array.isArray(params) && (params.query === undefined || params.query === null || params.query === '')) {
    throw badRequest('the request has no query: send the operation as "query"', 'query');
  }
  return params;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The body as text; a body that is not UTF-8 is refused (not decoded with U+FFFD in its place). */
async function bodyText(request: Request): Promise<string> {
  const bytes = new Uint8Array(await request.arrayBuffer());
  try {
    return utf8.decode(bytes);
  } catch {
    throw badRequest('the request body is not valid UTF-8');
  }
}

function jsonBody(text: string): Params {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw badRequest('POST body sent invalid JSON.');
  }
  if (body === null || typeof body !== 'object') throw badRequest(`POST body is expected to be object but received ${body === null ? 'null' : typeof body}`);
  return body as Params;
}

/** GraphQL parameters from `a=b&c=d` text (a query string or a form body), as Yoga reads them, but strictly. */
function fromSearchParams(text: string, where: string): Params {
  const values = new Map<string, string>();
  for (const pair of text.split('&')) {
    if (!pair) continue;
    const at = pair.indexOf('=');
    const name = formDecode(at < 0 ? pair : pair.slice(0, at), where);
    // The first value of a name, as URLSearchParams.get.
    if (!values.has(name)) values.set(name, formDecode(at < 0 ? '' : pair.slice(at + 1), where));
  }
  // Yoga then checks that each is an object (useCheckGraphQLQueryParams: 400 otherwise).
  const json = (name: 'variables' | 'extensions'): Record<string, unknown> | undefined => {
    const v = values.get(name);
    if (!v) return undefined;
    try {
      return JSON.parse(v) as Record<string, unknown>;
    } catch {
      throw badRequest(`${name} is not valid JSON`, name);
    }
  };
  return {
    query: values.get('query') || undefined,
    operationName: values.get('operationName') || undefined,
    variables: json('variables'),
    extensions: json('extensions'),
  };
}

/**
 * application/x-www-form-urlencoded decoding (WHATWG URL: `+` is a space, a `%` not followed by two
 * hex digits is kept as it is), except that percent-encoded bytes that are not UTF-8 are refused.
 */
function formDecode(s: string, where: string): string {
  s = s.replace(/\+/g, ' ');
  if (!s.includes('%')) return s;
  const bytes = new TextEncoder().encode(s);
  const out = new Uint8Array(bytes.length);
  let n = 0;
  for (let i = 0; i < bytes.length; i++) {
    const hex = bytes[i] === 0x25 && i + 2 < bytes.length ? String.fromCharCode(bytes[i + 1]!, bytes[i + 2]!) : '';
    if (/^[0-9a-fA-F]{2}$/.test(hex)) {
      out[n++] = parseInt(hex, 16);
      i += 2;
    } else {
      out[n++] = bytes[i]!;
    }
  }
  try {
    return utf8.decode(out.subarray(0, n));
  } catch {
    throw badRequest(`the ${where} is not valid UTF-8 (percent-encoded bytes)`);
  }
}
