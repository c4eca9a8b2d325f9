/**
 * A lost database stays the typed `Unavailable` however it was wrapped (docs/limits.md#faults):
 * the pgvector and LanceDB adapters wrap a failed search in a VectorIndexError whose `cause` is the
 * store's StoreUnavailableError. Before, the masking only knew the bare error and answered
 * "Unexpected error.".
 */
import { GraphQLError } from 'graphql';
import { describe, expect, it } from 'vitest';
import { errorMasker } from '../../src/graphql/masking.js';
import { StoreUnavailableError, unavailableIn } from '../../src/store/sql-client.js';
import { VectorIndexError } from '../../src/ports/vector-index.js';
import type { Logger } from '../../src/ports/logger.js';

function recordingLog() {
  const lines: { level: string; msg?: string }[] = [];
  const log: Logger = {
    info: (_o, msg) => lines.push({ level: 'info', msg }),
    warn: (_o, msg) => lines.push({ level: 'warn', msg }),
    error: (_o, msg) => lines.push({ level: 'error', msg }),
    debug: () => {},
    child: () => log,
  };
  return { log, lines };
}

const lost = () => new StoreUnavailableError('the database connection was lost or refused; retry', new Error('terminating connection due to administrator command'));

describe('unavailableIn', () => {
  it('finds the store error bare, wrapped once, or wrapped in a GraphQL error', () => {
    const store = lost();
    expect(unavailableIn(store)).toBe(store);
    const wrapped = new VectorIndexError('pgvector', 'search failed', store);
    expect(unavailableIn(wrapped)).toBe(store);
    expect(unavailableIn(new GraphQLError('x', { originalError: new Error('outer', { cause: wrapped }) }))).toBe(store);
  });

  it('answers null for other errors, non-errors and a cause chain that loops', () => {
    expect(unavailableIn(new VectorIndexError('pgvector', 'search failed', new Error('syntax error')))).toBeNull();
    expect(unavailableIn(undefined)).toBeNull();
    expect(unavailableIn('a string')).toBeNull();
    const a = new Error('a');
    const b = new Error('b', { cause: a });
    (a as { cause?: unknown }).cause = b;
    expect(unavailableIn(a)).toBeNull();
  });

  it('stops after a bounded number of links', () => {
    let e: Error = lost();
    for (let i = 0; i < 50; i++) e = new Error(`wrap ${i}`, { cause: e });
    expect(unavailableIn(e)).toBeNull();
  });
});

describe('errorMasker', () => {
  it('answers a StoreUnavailableError wrapped by a vector adapter as UNAVAILABLE, logged at warn', () => {
    const { log, lines } = recordingLog();
    const thrown = new GraphQLError('pgvector: search failed', { originalError: new VectorIndexError('pgvector', 'search failed', lost()), path: ['remember'] });
    const masked = errorMasker(log)(thrown, 'Unexpected error.') as GraphQLError;
    expect(masked.message).toBe('the database connection was lost or refused; retry');
    expect(masked.extensions.code).toBe('UNAVAILABLE');
    expect(masked.path).toEqual(['remember']);
    expect(lines).toEqual([{ level: 'warn', msg: 'database unavailable' }]);
  });

  it('still masks any other wrapped failure as "Unexpected error.", logged at error', () => {
    const { log, lines } = recordingLog();
    const thrown = new GraphQLError('pgvector: search failed', { originalError: new VectorIndexError('pgvector', 'search failed', new Error('boom')) });
    expect(errorMasker(log)(thrown, 'Unexpected error.').message).toBe('Unexpected error.');
    expect(lines.map((l) => l.level)).toEqual(['error']);
  });
});
