// How the outbox reads an engine's failures: transient ("not now") or a refusal of the row.

/** Failed attempts after which a row is parked, unless configured otherwise. */
export const DEFAULT_OUTBOX_MAX_ATTEMPTS = 10;

/** Network-level codes and HTTP statuses that say the engine could not be reached, not that it refused the row. */
const TRANSIENT_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'ETIMEDOUT', 'EAI_AGAIN', 'ENOTFOUND', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_SOCKET', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CLOSED',
]);

/** Error names that say the request was cut short (an AbortSignal's timeout or abort), not refused. */
const TRANSIENT_NAMES = new Set(['TimeoutError', 'AbortError']);

/**
 * Whether an engine failure says "unreachable" or "not now" (connection refused or
 * reset, a timeout, HTTP 408 / 429 / 5xx, an adapter's `transient` flag: a rate limit,
 * a write the engine has not applied yet) rather than "this row is refused". Transient
 * failures never count towards parking a row: an outage must not dead-letter
 * the rows that happen to be at the head of the queue.
 */
export function isTransientEngineError(e: unknown): boolean {
  let x: unknown = e;
  for (let depth = 0; x && depth < 6; depth++) {
    const o = x as { code?: unknown; status?: unknown; statusCode?: unknown; message?: unknown; cause?: unknown; transient?: unknown; name?: unknown };
    if (o.transient === true) return true;
    if (typeof o.name === 'string' && TRANSIENT_NAMES.has(o.name)) return true;
    if (typeof o.code === 'string' && TRANSIENT_CODES.has(o.code)) return true;
    const status = typeof o.status === 'number' ? o.status : typeof o.statusCode === 'number' ? o.statusCode : null;
    if (status !== null && (status === 408 || status === 429 || status >= 500)) return true;
    if (typeof o.message === 'string' && /fetch failed|socket hang up|timed? ?out/i.test(o.message)) return true;
    x = o.cause;
  }
  return false;
}

/** An error and its causes, one line (VectorIndexError wraps the driver's error: the cause says why). */
export function describeEngineError(e: unknown): string {
  const parts: string[] = [];
  let x: unknown = e;
  for (let depth = 0; x && depth < 6; depth++) {
    const msg = x instanceof Error ? String(x) : typeof x === 'object' ? String((x as { message?: unknown }).message ?? JSON.stringify(x)) : String(x);
    if (!parts.some((p) => p.includes(msg))) parts.push(msg);
    x = (x as { cause?: unknown }).cause;
  }
  return parts.join(': ').slice(0, 500);
}
