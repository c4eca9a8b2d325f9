/**
 * The erasure a forget owes outlives the process (src/store/migration-erasure.ts, ERASURE_OWED_SQL):
 * recorded in the forget's transaction, cleared by the erasure that went through, and run at the
 * next start when the process stopped between the two (a probe's concern: kill -9 after a forget
 * answered left the words on disk until some later forget).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { actors } from '../helpers/memory.js';
import type { SqlStore } from '../../src/store/sql-store.js';

let t: TestApp;
let store: SqlStore;
beforeAll(async () => {
  t = await createTestApp();
  store = t.app.engram.deps.store as SqlStore;
});
afterAll(async () => t?.close());

const owed = async () => (await store.db.query<{ n: number }>(`select count(*)::int as n from erasure_owed`)).rows[0]!.n;
const FORGET = `mutation($ids: [ID!]!) { forgetMemories(ids: $ids, confirm: true) { __typename ... on BulkResult { changed } } }`;

describe('an erasure owed', () => {
  it('is recorded by the forget (seen by its erasure) and cleared by the erasure that went through', async () => {
    const s = await t.space({ name: 'owed' });
    const kept = await actors(t.gql, s).state('My locker code is 4471.');
    let seenByErasure = -1;
    const own = store.eraseResidue.bind(store);
    store.eraseResidue = async () => { seenByErasure = await owed(); return own(); };
    try {
      expect((await t.gql(s.operator, FORGET, { ids: [kept.memory.id] })).data.forgetMemories.changed).toBe(1);
    } finally {
      store.eraseResidue = own;
    }
    expect(seenByErasure).toBe(1);
    expect(await owed()).toBe(0);
  });

  it('left owed by a process that stopped is run at the next start, and cleared', async () => {
    await store.db.query(`insert into erasure_owed (id) values (1)`);
    let ran = 0;
    const own = store.eraseResidue.bind(store);
    store.eraseResidue = async () => { ran++; return own(); };
    try {
      await store.resumeOwedErasure();
    } finally {
      store.eraseResidue = own;
    }
    expect(ran).toBe(1);
    expect(await owed()).toBe(0);
    // nothing owed: nothing run
    await store.resumeOwedErasure();
    expect(ran).toBe(1);
  });
});
