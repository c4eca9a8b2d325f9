/**
 * The embedded store's postings held in the process (src/store/postings-cache.ts, migration 17):
 * BM25 summed from them gives the statement's hits and scores to the last bit, ties included; a
 * term written since (a new memory, a new wording) is read again; a forget lets go of the space's
 * postings at once; statistics older than the postings make the statement score instead.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { overriding } from '../helpers/override.js';
import { PgliteClient } from '../../src/store/pglite-client.js';
import { changeStatus, forget } from '../../src/memory/statuses.js';
import { Wall } from '../../src/eval/wall.js';
import { keepSaid } from '../helpers/wall.js';
import { lexicalKeys } from '../../src/memory/lexical.js';
import { bm25Window, PostingsCache, rint, type TermPostings } from '../../src/store/postings-cache.js';
import type { Actor } from '../../src/memory/deps.js';
import type { LexicalStats } from '../../src/ports/memory-store.js';
import type { SqlStore } from '../../src/store/sql-store.js';

const admin: Actor = { role: 'admin', tokenId: null, spaceId: null };
const STATUSES = ['ACTIVE', 'SUPERSEDED', 'ERRONEOUS'] as const;

describe('postings held in the process (PGlite)', () => {
  let t: TestApp;
  const deps = () => t.app.engram.deps;
  const app = () => t.app.engram;
  const sql: string[] = [];
  beforeAll(async () => {
    const db = await PgliteClient.open(':memory:');
    const watched = overriding(db, { query: (text: string, params?: unknown[]) => { sql.push(text); return db.query(text, params); } });
    t = await createTestApp({ db: watched });
  });
  afterAll(async () => {
    await t?.close();
  });

  const colours = ['red', 'green', 'blue', 'yellow', 'purple', 'orange', 'black', 'white'];
  const things = ['apples', 'kites', 'boats', 'lamps', 'chairs', 'shoes'];
  // Equal lengths and words in many sentences: equal BM25 scores, whose order is the memory ids'.
  const sentences = colours.flatMap((c, i) => things.map((x, j) => (i + j) % 3 === 0 ? `I keep ${c} ${x} at home.` : `My ${c} ${x} are old and ${colours[(i + j) % 8]}.`));

  /** A space (a Wall: sealed) where the person said `texts`, each kept. */
  async function spaceWith(texts: string[]) {
    const wall = await Wall.open(deps(), 'postings held');
    return { spaceId: wall.spaceId, wall, ids: await keepSaid(deps(), wall, texts) };
  }
  /** Postings the store holds in the process for the space. */
  const heldIn = (spaceId: string) => (deps().store as unknown as { postings: { heldIn(s: string): number } }).postings.heldIn(spaceId);

  const keysOf = (q: string) => [...new Set(lexicalKeys(q))];
  const stats = async (spaceId: string, keys: string[]) => (await deps().store.lexicalStats(spaceId, keys, ['STATEMENT'])).get('STATEMENT')!;
  /** The same search, held (the statistics' versions given) and by the statement (none given). */
  async function both(spaceId: string, q: string, k: number, given?: LexicalStats) {
    const keys = keysOf(q);
    const s = given ?? await stats(spaceId, keys);
    const before = sql.length;
    const held = await deps().store.lexicalSearch(spaceId, keys, k, 'STATEMENT', [...STATUSES], s);
    const heldSql = sql.slice(before);
    const statement = await deps().store.lexicalSearch(spaceId, keys, k, 'STATEMENT', [...STATUSES], { ...s, ver: undefined });
    return { held, statement, scoredInSql: heldSql.some((x) => x.includes('with top as')), heldSql };
  }

  it('gives the statement\'s hits, order and scores exactly, ties by memory id; a second search reads only statuses', async () => {
    const { spaceId } = await spaceWith(sentences);
    for (const q of ['Where are my red apples?', 'old green boats and yellow kites', 'What do I keep at home?', 'purple shoes']) {
      for (const k of [1, 5, 40]) {
        const r = await both(spaceId, q, k);
        expect(r.held.length).toBeGreaterThan(0);
        expect(r.held).toEqual(r.statement);
        expect(r.scoredInSql).toBe(false);
      }
    }
    // ties exist in this space, and were ordered by id in both
    const all = (await both(spaceId, 'apples', 40)).held;
    const tied = all.filter((h, i) => i > 0 && h.rank === all[i - 1]!.rank);
    expect(tied.length).toBeGreaterThan(3);
    const again = await both(spaceId, 'apples', 40);
    expect(again.heldSql).toHaveLength(1);
    expect(again.heldSql[0]).toContain('from memory_state where memory_id = any');
  });

  it('reads a term again once a memory holding it is written or reworded, and equals the statement after', async () => {
    const { spaceId, wall } = await spaceWith(sentences.slice(0, 12));
    const q = 'Where are my silver kites?';
    expect((await both(spaceId, q, 10)).held.some((h) => h.rank > 0)).toBe(true);
    const [fresh] = await keepSaid(deps(), wall, ['My silver kites fly well.']);
    const r = await both(spaceId, q, 10);
    expect(r.heldSql.some((x) => x.includes('from lexicon_df d join memory_terms p'))).toBe(true);
    expect(r.held[0]!.memoryId).toBe(fresh);
    expect(r.held).toEqual(r.statement);
    // a restatement adds its wording to the memory's lexicon: its length, so every one of its terms, changed
    const [again] = await keepSaid(deps(), wall, ['Silver kites: mine fly really well.']);
    expect(again).toBe(fresh);
    const after = await both(spaceId, q, 10);
    expect(after.heldSql.some((x) => x.includes('from lexicon_df d join memory_terms p'))).toBe(true);
    expect(after.held).toEqual(after.statement);
    expect(after.held[0]!.rank).not.toBe(r.held[0]!.rank);
  });

  it('statistics read before a write: terms held as of them answer as of them; others make the statement score', async () => {
    // held before the write (the space searched once: every term read)
    const a = await spaceWith(sentences.slice(0, 12));
    const q = 'my teal lamps';
    const old = await stats(a.spaceId, keysOf(q));
    const before = await both(a.spaceId, q, 10, old);
    const [fresh] = await keepSaid(deps(), a.wall, ['My teal lamps glow.']);
    const r = await both(a.spaceId, q, 10, old);
    expect(r.scoredInSql).toBe(false);
    expect(r.held).toEqual(before.held);
    // statistics read now: the new memory first, held and statement alike
    const now = await both(a.spaceId, q, 10);
    expect(now.held[0]!.memoryId).toBe(fresh);
    expect(now.held).toEqual(now.statement);
    // not held before the write (a space never searched): read now, newer than the statistics, so the statement scores
    const b = await spaceWith(sentences.slice(0, 12));
    const oldB = await stats(b.spaceId, keysOf(q));
    await keepSaid(deps(), b.wall, ['My teal lamps glow.']);
    const s2 = await both(b.spaceId, q, 10, oldB);
    expect(s2.scoredInSql).toBe(true);
    expect(s2.held).toEqual(s2.statement);
  });

  it('a space\'s first search reads every term\'s postings; after a write, only the terms written are read again', async () => {
    const { spaceId, wall } = await spaceWith(sentences.slice(0, 12));
    const held = () => heldIn(spaceId);
    const [{ n }] = (await app().db.query<{ n: number }>(`select count(*)::int as n from memory_terms where space_id = $1`, [spaceId])).rows;
    await both(spaceId, 'red kites', 5);
    expect(held()).toBe(n);
    await keepSaid(deps(), wall, ['My red kites are new.']);
    const r = await both(spaceId, 'red kites', 5);
    const reads = r.heldSql.filter((x) => x.includes('join memory_terms p'));
    expect(reads).toHaveLength(1);
    expect(reads[0]).toContain('d.term = any(');
    expect(r.held).toEqual(r.statement);
  });

  it('the warm-up reads the postings of the spaces past its size, and only those: their first search reads none', async () => {
    const { spaceId } = await spaceWith(sentences);
    const small = await spaceWith(sentences.slice(0, 6));
    const store = deps().store as SqlStore;
    // (as after a restart: nothing of either held)
    store.letGoOf(spaceId);
    store.letGoOf(small.spaceId);
    expect(heldIn(spaceId)).toBe(0);
    expect(await store.warmPostings(() => true, 10)).toBe(0);
    expect(heldIn(spaceId)).toBe(0);
    expect(await store.warmPostings(() => false, 10)).toBeGreaterThanOrEqual(1);
    const [{ n }] = (await app().db.query<{ n: number }>(`select count(*)::int as n from memory_terms where space_id = $1`, [spaceId])).rows;
    expect(heldIn(spaceId)).toBe(n);
    expect(heldIn(small.spaceId)).toBe(0);
    const r = await both(spaceId, 'red kites and old boats', 5);
    expect(r.heldSql.filter((x) => x.includes('join memory_terms p'))).toEqual([]);
    expect(r.scoredInSql).toBe(false);
    expect(r.held).toEqual(r.statement);
  });

  it('memories without a wanted status among the best: read further into the window, as the statement filters', async () => {
    const { spaceId } = await spaceWith(sentences);
    const q = 'my old apples kites and boats';
    const first = await both(spaceId, q, 10);
    // the best twelve muted: the first batch of statuses (k and an eighth) holds too few wanted ones
    const best = (await both(spaceId, q, 40)).held.slice(0, 12).map((h) => h.memoryId);
    await changeStatus(deps(), admin, spaceId, 'mute', best);
    const r = await both(spaceId, q, 10);
    expect(r.heldSql.filter((x) => x.includes('array_agg(status) as statuses'))).toHaveLength(2);
    expect(r.held.map((h) => h.memoryId)).not.toContain(best[0]);
    expect(r.held).toEqual(r.statement);
    expect(r.held).not.toEqual(first.held);
  });

  it('a forget for good lets go of the space\'s postings at once; the next search reads them again without the memory', async () => {
    const { spaceId, ids } = await spaceWith(sentences.slice(0, 12));
    const held = () => heldIn(spaceId);
    const first = await both(spaceId, 'red apples', 10);
    expect(held()).toBeGreaterThan(0);
    const gone = first.held[0]!.memoryId;
    expect(ids).toContain(gone);
    await forget(deps(), admin, spaceId, [gone], true);
    expect(held()).toBe(0);
    const r = await both(spaceId, 'red apples', 10);
    expect(r.held.map((h) => h.memoryId)).not.toContain(gone);
    expect(r.held).toEqual(r.statement);
  });

  it('a sealed space dropped lets go of its postings too', async () => {
    const { spaceId, wall } = await spaceWith(sentences.slice(0, 6));
    const held = () => heldIn(spaceId);
    await both(spaceId, 'red apples', 5);
    expect(held()).toBeGreaterThan(0);
    await wall.drop();
    expect(held()).toBe(0);
  });
});

describe('bm25Window and rint', () => {
  it('rounds ties to even, as PostgreSQL\'s round(float8)', () => {
    expect([0.5, 1.5, 2.5, 3.5, 2.4999999999999996, 7.51].map(rint)).toEqual([0, 2, 2, 4, 2, 8]);
  });

  it('sums each memory\'s shares, best first, equal scores by id', () => {
    const p = (ids: string[], tf: number[], len: number[]): TermPostings => ({ ver: '1', ids, tf: Int32Array.from(tf), len: Int32Array.from(len) });
    const w = bm25Window([p(['b', 'a', 'c'], [1, 1, 2], [4, 4, 4]), p(['c', 'd'], [1, 1], [4, 9])], [1.5, 0.5], 5, 3);
    expect(w.map((x) => x.memoryId)).toEqual(['c', 'a', 'b']);
    expect(w[1]!.score).toBe(w[2]!.score);
  });

  it('held in the cache (numbered per space) or not, gives the window a full sort of every memory gives', () => {
    // A reference written the plain way: every memory's exact sum, all sorted (score desc, id bytewise).
    const reference = (ps: TermPostings[], idf: number[], avgdl: number, window: number) => {
      const sums = new Map<string, number>();
      ps.forEach((p, t) => p.ids.forEach((id, j) => {
        const tf = p.tf[j]!;
        sums.set(id, (sums.get(id) ?? 0) + rint(1e12 * idf[t]! * tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * p.len[j]! / avgdl))));
      }));
      return [...sums].map(([memoryId, x]) => ({ memoryId, score: x / 1e12 }))
        .sort((a, b) => b.score - a.score || (a.memoryId < b.memoryId ? -1 : a.memoryId > b.memoryId ? 1 : 0)).slice(0, window);
    };
    let seed = 7;
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const cache = new PostingsCache();
    for (let round = 0; round < 20; round++) {
      // few distinct lengths and frequencies: many exact ties, which the ids must order
      const memories = Array.from({ length: 50 + Math.floor(random() * 500) }, (_, i) => `m${String(Math.floor(random() * 1e6)).padStart(7, '0')}-${i}`);
      const terms = 1 + Math.floor(random() * 6);
      const make = () => Array.from({ length: terms }, () => {
        const ids = memories.filter(() => random() < 0.3);
        return { ver: '1', ids, tf: Int32Array.from(ids, () => 1 + Math.floor(random() * 2)), len: Int32Array.from(ids, () => 4 + Math.floor(random() * 3)) } as TermPostings;
      });
      const plain = make();
      const idf = plain.map(() => 0.1 + random() * 3);
      const avgdl = 4 + random() * 3;
      const space = `s${round}`;
      const held = plain.map((p) => ({ ...p, ids: [...p.ids] }));
      held.forEach((p, t) => cache.put(space, 'STATEMENT', `t${t}`, p, cache.generation(space)));
      expect(held.every((p) => p.nums && p.numbering === held[0]!.numbering)).toBe(true);
      for (const window of [1, 7, 32, 10_000]) {
        const want = reference(plain, idf, avgdl, window);
        expect(bm25Window(plain, idf, avgdl, window)).toEqual(want);
        expect(bm25Window(held, idf, avgdl, window)).toEqual(want);
      }
    }
  });
});
