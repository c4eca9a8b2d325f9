/**
 * How the Qdrant client's failures read for Engram: transient ("not now": the outbox
 * retries without counting) or a refusal, and which ones say the collection is gone.
 * The 1.18 client throws, besides the HTTP error (`ApiError`, with `status` and the
 * body in `data`): `QdrantClientTimeoutError` (its own AbortSignal fired; no status),
 * `QdrantClientResourceExhaustedError` (a 429 with Retry-After; no status), and
 * fetch's `TypeError: fetch failed` (cause: the socket error).
 */
import { VectorIndexError } from '../../src/ports/vector-index.js';

const TRANSIENT_NAMES = new Set(['QdrantClientTimeoutError', 'QdrantClientResourceExhaustedError', 'TimeoutError', 'AbortError']);

interface ErrorLike { name?: unknown; status?: unknown; message?: unknown; cause?: unknown; data?: { status?: { error?: unknown } } }

export function httpStatus(e: unknown): number | null {
  const s = (e as ErrorLike | null)?.status;
  return typeof s === 'number' ? s : null;
}

/** Whether the client's error says "try again later" rather than "this request is refused". */
export function isTransientQdrantError(e: unknown): boolean {
  let x: unknown = e;
  for (let depth = 0; x && depth < 4; depth++) {
    const o = x as ErrorLike;
    if (typeof o.name === 'string' && TRANSIENT_NAMES.has(o.name)) return true;
    const status = httpStatus(o);
    if (status !== null) return status === 408 || status === 429 || status >= 500;
    if (typeof o.message === 'string' && /fetch failed|socket hang up|ECONNREFUSED|ECONNRESET/i.test(o.message)) return true;
    x = o.cause;
  }
  return false;
}

/** A 404 from a collection-scoped call: the collection is gone (points are only ever addressed by filter). */
export function isMissingCollection(e: unknown): boolean {
  return httpStatus(e) === 404;
}

/** A 409 from creating a collection: another process created it first. */
export function isConflict(e: unknown): boolean {
  return httpStatus(e) === 409;
}

/** One line: status, message and Qdrant's own `status.error` from the body. */
export function describeQdrantError(e: unknown): string {
  if (e && typeof e === 'object') {
    const x = e as ErrorLike;
    const detail = typeof x.data?.status?.error === 'string' ? x.data.status.error : undefined;
    const retry = (x as { retry_after?: unknown }).retry_after;
    return [x.status, x.name !== 'Error' ? x.name : undefined, x.message, detail, retry !== undefined ? `retry after ${String(retry)} s` : undefined]
      .filter((p) => p !== undefined && p !== '').join(' ').slice(0, 300);
  }
  return String(e).slice(0, 300);
}

export function wrapQdrantError(engine: string, what: string, e: unknown): VectorIndexError {
  if (e instanceof VectorIndexError) return e;
  return new VectorIndexError(engine, `${what} failed: ${describeQdrantError(e)}`, e, { transient: isTransientQdrantError(e) });
}

/**
 * A write sent with `wait: true` is applied only when Qdrant answers `completed`;
 * `acknowledged` (queued, not applied) or `wait_timeout` (still being applied when the
 * server's wait ran out) mean the change may not be searchable yet: a transient
 * failure, so the outbox keeps the row and sends it again (every write is idempotent).
 */
export function checkUpdate(engine: string, what: string, result: { status?: unknown } | null | undefined): void {
  const status = result?.status;
  if (status !== 'completed') {
    throw new VectorIndexError(engine, `${what}: Qdrant answered ${JSON.stringify(status ?? null)}, not "completed" (not applied yet; retried)`,
      undefined, { transient: true });
  }
}
