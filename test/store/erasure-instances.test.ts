/**
 * Erasures across instances on one PostgreSQL server (docs/erasure.md, "Every process";
 * migration 23, src/store/pg-erasures.ts). Each instance holds BM25's postings, the vector mirror
 * and its embedder's recent texts in its process: another instance's forget takes the words out of
 * them once its delete commits; a rolled-back delete notifies nothing; a listener that lost its
 * connection lets go of everything when it is back. Held postings score as the statement does,
 * whatever another instance writes. Every wait is bounded (30 s) and polls what it waits for.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, testEmbedder, type TestApp } from '../helpers/app.js';
import { overriding } from '../helpers/override.js';
import { assertTestDatabase } from '../helpers/db.js';
import { keepSaid } from '../helpers/wall.js';
import { PgClient } from '../../src/store/pg-client.js';
import { PgErasureListener, parseErasure, type LetGo } from '../../src/store/pg-erasures.js';
import { forget } from '../../src/memory/statuses.js';
import { recall } from '../../src/memory/recall.js';
import { Wall } from '../../src/eval/wall.js';
import { lexicalKeys } from '../../src/memory/lexical.js';
import type { Embedder } from '../../src/ports/embedder.js';
import type { PgvectorIndex } from '../../adapters/pgvector/pgvector-index.js';
import type { Logger } from '../../src/ports/logger.js';

const url = process.env.DATABASE_URL;
const quiet = { debug() {}, info() {}, warn() {}, error() {} } as unknown as Logger;
const STATUSES = ['ACTIVE', 'SUPERSEDED', 'ERRONEOUS'] as const;
const BOUND = { timeout: 30_000, interval: 50 };

/** The shared embedder, with its own count of `letGo` (the shared one is let go by every instance's forget). */
class Counted implements Embedder {
  letGoes = 0;
  constructor(private readonly inner: Embedder) {}
  get id() { return this.inner.id; }
  get dimensions() { return this.inner.dimensions; }
  get thresholds() { return this.inner.thresholds; }
  init() { return this.inner.init(); }
  embed(texts: string[]) { return this.inner.embed(texts); }
  letGo() { this.letGoes++; }
  async close() {}
}

describe.skipIf(!url)('erasures across instances (pg)', () => {
  let a: TestApp;
  let b: TestApp;
  let embedderA: Counted;
  const dbs: PgClient[] = [];
  const sqlA: string[] = [];
  beforeAll(async () => {
    assertTestDatabase(url!);
    for (let i = 0; i < 2; i++) dbs.push(new PgClient(url!, 4));
    const watched = overriding(dbs[0]!, { query: (text: string, params?: unknown[]) => { sqlA.push(text); return dbs[0]!.query(text, params); } });
    embedderA = new Counted(testEmbedder());
    a = await createTestApp({ db: watched, embedder: embedderA });
    b = await createTestApp({ db: dbs[1] });
  }, 120_000);
  afterAll(async () => {
    await a?.close();
    await b?.close();
    for (const d of dbs) await d.close();
  });

  const heldIn = (t: TestApp, spaceId: string) =>
    (t.app.engram.store as unknown as { postings: { heldIn(s: string): number } | null }).postings?.heldIn(spaceId) ?? 0;
  const keysOf = (q: string) => [...new Set(lexicalKeys(q))];
  /** A's search of `q` from its held postings, and the statement's (no versions given: it scores in SQL). */
  async function onA(spaceId: string, q: string, k = 10) {
    const store = a.app.engram.store;
    const s = (await store.lexicalStats(spaceId, keysOf(q), ['STATEMENT'])).get('STATEMENT')!;
    const before = sqlA.length;
    const held = await store.lexicalSearch(spaceId, keysOf(q), k, 'STATEMENT', [...STATUSES], s);
    const scoredInSql = sqlA.slice(before).some((x) => x.includes('with top as'));
    const statement = await store.lexicalSearch(spaceId, keysOf(q), k, 'STATEMENT', [...STATUSES], { ...s, ver: undefined });
    return { held, statement, scoredInSql };
  }

  const sentences = ['red', 'green', 'blue', 'yellow'].flatMap((c) =>
    ['kites', 'boats', 'lamps'].map((x) => `My ${c} ${x} are old and well kept.`));

  it('an instance holds postings once erasures reach it, read after answers, scores as the statement, and reads again what another instance wrote', async () => {
    const wall = await Wall.open(a.app.engram.deps, 'held on a server');
    await keepSaid(a.app.engram.deps, wall, sentences);
    const q = 'Where are my silver kites?';
    // the space's first search: the statement scores, and the space's postings are read after the answer
    const first = await onA(wall.spaceId, q);
    expect(first.scoredInSql).toBe(true);
    await a.app.engram.store.settled();
    expect(heldIn(a, wall.spaceId)).toBeGreaterThan(0);
    const second = await onA(wall.spaceId, q);
    expect(second.scoredInSql).toBe(false);
    expect(second.held).toEqual(first.statement);
    // B writes a memory holding the query's words: A's held terms are older than its statistics now,
    // so A's next search is the statement's (with B's memory), and the terms are read again after it
    const [fresh] = await keepSaid(b.app.engram.deps, wall, ['My silver kites fly well.']);
    const after = await onA(wall.spaceId, q);
    expect(after.scoredInSql).toBe(true);
    expect(after.held[0]!.memoryId).toBe(fresh);
    await a.app.engram.store.settled();
    const again = await onA(wall.spaceId, q);
    expect(again.scoredInSql).toBe(false);
    expect(again.held).toEqual(after.statement);
  });

  it('a space more than twice as large as when its postings were read whole is read whole again after an answer that lacked terms', async () => {
    const wall = await Wall.open(a.app.engram.deps, 'grown on a server');
    await keepSaid(a.app.engram.deps, wall, sentences.slice(0, 4));
    const postingsOf = async () => Number((await dbs[1]!.query<{ n: number }>(
      `select count(*)::int as n from memory_terms where space_id = $1 and kind = 'STATEMENT'`, [wall.spaceId])).rows[0]!.n);
    await onA(wall.spaceId, 'Where are my red kites?');
    await a.app.engram.store.settled();
    expect(heldIn(a, wall.spaceId)).toBe(await postingsOf());
    // B writes: the space grows from 4 memories to 10, words A never read among them
    await keepSaid(b.app.engram.deps, wall, [
      'I keep my violin in the attic.', 'Our cellar floods every spring.', 'My cousin Tomasz repairs clocks.',
      'The orchard behind the barn has plums.', 'I learned to sail in Gdynia.', 'My neighbour breeds quails.',
    ]);
    // A's search lacks a term (violin): scored by the statement, and after it the space is read whole, not that term alone
    const r = await onA(wall.spaceId, 'Where do I keep my violin?');
    expect(r.scoredInSql).toBe(true);
    await a.app.engram.store.settled();
    expect(heldIn(a, wall.spaceId)).toBe(await postingsOf());
    const again = await onA(wall.spaceId, 'Who breeds quails in the orchard?');
    expect(again.scoredInSql).toBe(false);
    expect(again.held).toEqual(again.statement);
  });

  it("another instance's forget takes the words out of this one: postings, the vector mirror, the embedder's texts", async () => {
    const wall = await Wall.open(a.app.engram.deps, 'forgotten elsewhere');
    const [kept, gone] = await keepSaid(a.app.engram.deps, wall, ['My blue boats are moored in Brest.', 'I have a tattoo of a quokka on my ankle.']);
    // A recalls: it reads the space's postings and vectors into its process
    const r = await recall(a.app.engram.deps, wall.spaceId, 'What tattoo do I have?', 5);
    expect(r.statements.map((h) => h.memory.id)).toContain(gone);
    await a.app.engram.store.settled(); // the space's postings, read after the answer
    const indexA = a.app.engram.deps.index as PgvectorIndex;
    expect(heldIn(a, wall.spaceId)).toBeGreaterThan(0);
    expect(indexA.mirrorHolds(gone!)).toBe(true);
    const letGoes = embedderA.letGoes;
    // B forgets one memory for good; A hears it once B's transaction commits
    await forget(b.app.engram.deps, wall.operator, wall.spaceId, [gone!], true);
    await vi.waitFor(() => {
      expect(indexA.mirrorHolds(gone!)).toBe(false);
      expect(heldIn(a, wall.spaceId)).toBe(0);
      expect(embedderA.letGoes).toBeGreaterThan(letGoes);
    }, BOUND);
    // the memory that stays is still held by the mirror, and A answers as before without the forgotten one
    expect(indexA.mirrorHolds(kept!)).toBe(true);
    const again = await recall(a.app.engram.deps, wall.spaceId, 'What tattoo do I have?', 5);
    expect(again.statements.map((h) => h.memory.id)).not.toContain(gone);
  });

  it('the listener hears committed deletes, a hundred ids a notification, never a rolled-back one; after a lost connection, everything goes', async () => {
    const heard: Parameters<LetGo>[] = [];
    const listener = new PgErasureListener(`${url}${url!.includes('?') ? '&' : '?'}application_name=engram_erasure_test`,
      (spaceId, ids) => { heard.push([spaceId, ids]); }, quiet);
    await listener.start();
    try {
      const wall = await Wall.open(a.app.engram.deps, 'listened');
      const db = dbs[1]!;
      const ids = Array.from({ length: 150 }, (_, i) => `erasure-test-${wall.spaceId}-${String(i).padStart(3, '0')}`);
      const insert = (tx: { query: PgClient['query'] }, which: string[]) => tx.query(
        `insert into memories (id, space_id, kind, type, quote, normalized, said_at)
         select x, $2, 'STATEMENT', 'FACT', x, x, now() from unnest($1::text[]) x`, [which, wall.spaceId]);
      await insert(db, ids);
      // memories are deleted only by forget for good (its flag: migration 5's guard)
      const erase = (which: string[], then?: () => never) => db.transaction(async (tx) => {
        await tx.query(`select set_config('engram.forget', 'on', true)`);
        await tx.query(`delete from memories where id = any($1::text[])`, [which]);
        then?.();
      });
      // a delete that rolls back notifies nothing
      await expect(erase([ids[0]!], () => { throw new Error('roll back'); })).rejects.toThrow('roll back');
      await erase(ids);
      await vi.waitFor(() => expect(heard.flatMap(([, x]) => x ?? []).length).toBe(150), BOUND);
      expect(heard.every(([s]) => s === wall.spaceId)).toBe(true);
      expect(heard.map(([, x]) => x!.length).sort((x, y) => x - y)).toEqual([50, 100]);
      expect(new Set(heard.flatMap(([, x]) => x!))).toEqual(new Set(ids));
      // the connection is cut: on reconnecting, the listener lets go of everything (null, null)
      heard.length = 0;
      await db.query(`select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'engram_erasure_test'`);
      await vi.waitFor(() => expect(heard).toContainEqual([null, null]), BOUND);
    } finally {
      await listener.stop();
    }
  });

  it('reads a notification it cannot trust as "everything"', () => {
    expect(parseErasure('{"s":"sp","ids":["a","b"]}')).toEqual({ spaceId: 'sp', ids: ['a', 'b'] });
    expect(parseErasure('{"s":"sp","ids":null}')).toEqual({ spaceId: 'sp', ids: null });
    expect(parseErasure('{"s":null,"ids":null}')).toEqual({ spaceId: null, ids: null });
    expect(parseErasure('{"s":"sp","ids":[1]}')).toEqual({ spaceId: 'sp', ids: null });
    expect(parseErasure('not json')).toEqual({ spaceId: null, ids: null });
  });
});
