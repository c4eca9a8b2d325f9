import { StoreUnavailableError } from './sql-client.js';

/**
 * How node-postgres / PostgreSQL failures are read (SQLSTATE classes, appendix A of
 * the PostgreSQL manual): which mean "the database cannot answer now" and which may
 * be retried because the statement was rolled back as a whole.
 */

/**
 * Class 08 (connection exception), 57P01-57P05 (operator intervention), 53300 (too many
 * connections), 53200 / 58000 / 58030 (out of memory, system and I/O errors), and what a new
 * connection is refused with: 55000 (the database is not accepting connections: `ALTER DATABASE …
 * ALLOW_CONNECTIONS false`), 3D000 (it does not exist, or no longer), 28000 / 28P01 (the role may
 * not log in, or its password changed). Each is the database not answering this instance now.
 */
const UNAVAILABLE_STATES = /^(08...|57P0[1-5]|53300|53200|58000|58030|55000|3D000|28000|28P01)$/;
/** 57014: canceled by statement_timeout (or a cancel request). */
const CANCELED = '57014';
/** 40001 serialization_failure, 40P01 deadlock_detected: the statement/transaction was rolled back whole. */
const RETRYABLE = new Set(['40001', '40P01']);

const DRIVER_LOST = /Connection terminated|connection error|not queryable|ECONNRESET|ECONNREFUSED|EPIPE|ETIMEDOUT|timeout exceeded when trying to connect|Client was closed|Cannot use a pool after calling end/i;

function sqlState(e: unknown): string | undefined {
  const code = (e as { code?: unknown })?.code;
  return typeof code === 'string' ? code : undefined;
}

export function isRetryable(e: unknown): boolean {
  const s = sqlState(e);
  return s !== undefined && RETRYABLE.has(s);
}

/** The error to raise for a failed statement: a StoreUnavailableError for lost/refused/timed-out, else the original. */
export function classify(e: unknown): unknown {
  if (e instanceof StoreUnavailableError) return e;
  const s = sqlState(e);
  if (s === CANCELED) return new StoreUnavailableError('the database did not answer within the statement timeout', e);
  if ((s && UNAVAILABLE_STATES.test(s)) || (e instanceof Error && DRIVER_LOST.test(e.message))) {
    return new StoreUnavailableError('the database connection was lost or refused; retry', e);
  }
  return e;
}

/**
 * A statement the database refused because of the values it was given (class 22, data
 * exception; class 23, integrity constraint), read as the input field it names: the
 * column of a not-null/check failure, or the column of a foreign key
 * ("tokens_space_id_fkey" -> spaceId). Null for anything else.
 */
export function inputFault(e: unknown): { field: string; message: string } | null {
  const s = sqlState(e);
  if (!s || !/^2[23]/.test(s)) return null;
  const err = e as { column?: string; constraint?: string; detail?: string; message?: string };
  let column = err.column ?? (err.detail ? /^Key \(([a-z_]+)\)/.exec(err.detail)?.[1] : undefined);
  if (!column && err.constraint) column = /^[a-z]+?_(.+)_(fkey|check|key)$/.exec(err.constraint)?.[1];
  const field = column ? column.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase()) : 'input';
  const message = s === '23503' ? 'refers to something that does not exist'
    : s.startsWith('23') ? 'conflicts with what is stored'
      : 'is out of range or malformed for the store';
  return { field, message };
}
