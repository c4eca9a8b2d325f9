/**
 * A lost database reached through the vector engine (docs/limits.md#faults): pgvector wraps the
 * store's StoreUnavailableError in a VectorIndexError. The field still answers the typed
 * `Unavailable` of its payload (retry), not "Unexpected error.".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { actors } from '../helpers/memory.js';
import { VectorIndexError } from '../../src/ports/vector-index.js';
import { StoreUnavailableError } from '../../src/store/sql-client.js';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => t?.close());

describe('a store failure wrapped by the vector engine', () => {
  it('answers remember with the typed Unavailable (the probe: pg_terminate_backend during remember)', async () => {
    const sp = actors(t.gql, await t.space({ name: 'wrapped' }));
    const c = await sp.open();
    await sp.say(c, 'My sister lives in Porto.');
    const index = t.app.engram.deps.index;
    const search = index.search;
    index.search = async () => {
      throw new VectorIndexError(index.name, 'search failed', new StoreUnavailableError('the database connection was lost or refused; retry'));
    };
    let r: any;
    try {
      r = await sp.remember({ conversationId: c, quote: 'My sister lives in Porto.' });
    } finally {
      index.search = search;
    }
    expect(r).toMatchObject({ __typename: 'Unavailable', code: 'UNAVAILABLE', message: 'the database connection was lost or refused; retry' });
    expect(await t.app.metrics.text()).toMatch(/^engram_refused_total\{code="UNAVAILABLE"\} 1$/m);
    // Nothing was written: the same remember, once the store answers, creates the memory.
    expect((await sp.remember({ conversationId: c, quote: 'My sister lives in Porto.' })).outcome).toBe('CREATED');
  });
});
