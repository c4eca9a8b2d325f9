/**
 * Issue 4, forget for good, through GraphQL on both databases (PGlite always,
 * the PostgreSQL server when DATABASE_URL is set): without confirm nothing is
 * removed; with confirm, a search of every text, jsonb, array and tsvector column
 * of every table finds nothing of the forgotten text, and the FORGOTTEN event
 * holds who and when but none of the words.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { testDatabases } from '../helpers/db.js';
import { actors, contentCounts, ERROR_FIELDS } from '../helpers/memory.js';
import type { Queryable, SqlClient } from '../../src/store/sql-client.js';

/** Every (table, column) of the schema whose text a search can read, with the cast that reads it. */
async function searchableColumns(db: Queryable): Promise<Array<{ table: string; column: string; type: string }>> {
  const r = await db.query<{ table_name: string; column_name: string; data_type: string; udt_name: string }>(
    `select c.table_name, c.column_name, c.data_type, c.udt_name
       from information_schema.columns c
       join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
      where c.table_schema = current_schema() and t.table_type = 'BASE TABLE'
        and (c.data_type in ('text', 'character varying', 'character', 'json', 'jsonb', 'tsvector', 'ARRAY', 'USER-DEFINED'))
      order by 1, 2`,
  );
  return r.rows.map((x) => ({ table: x.table_name, column: x.column_name, type: x.data_type === 'USER-DEFINED' ? x.udt_name : x.data_type }));
}

/** Where `needle` (lower-cased) still appears: table.column list. */
async function findEverywhere(db: Queryable, needles: string[]): Promise<string[]> {
  const hits: string[] = [];
  for (const c of await searchableColumns(db)) {
    if (c.type === 'vector') continue; // numbers only; checked by memory id below
    for (const n of needles) {
      const r = await db.query<{ n: number }>(
        `select count(*)::int as n from "${c.table}" where lower("${c.column}"::text) like '%' || $1 || '%'`,
        [n.toLowerCase()],
      );
      if (Number(r.rows[0].n) > 0) hits.push(`${c.table}.${c.column} ~ ${n}`);
    }
  }
  return hits;
}

for (const target of testDatabases()) {
  describe(`forget for good (${target.name})`, () => {
    let t: TestApp;
    let db: SqlClient | undefined;

    beforeAll(async () => {
      db = target.name === 'pg' ? await target.open() : undefined;
      t = await createTestApp({ db });
    });
    afterAll(async () => {
      await t?.close();
      await db?.close();
    });

    it('the search covers every table, including the lexicon tsvector and jsonb events', async () => {
      const cols = (await searchableColumns(t.app.engram.db)).map((c) => `${c.table}.${c.column}`);
      for (const must of ['memories.quote', 'memories.normalized', 'memories.context', 'mentions.quote', 'messages.text',
        'memory_lexicon.doc', 'memory_events.detail', 'memory_state.entities', 'memory_state.tags']) {
        expect(cols).toContain(must);
      }
    });

    it('needs confirm; then leaves nothing of the text anywhere, and an event without content', async () => {
      const s = await t.space({ name: 'forget' });
      const a = actors(t.gql, s);
      const db0 = t.app.engram.db;
      // a word nobody else will ever write, so that other suites sharing the server cannot hide a leak;
      // it ends in "x" so that no suffix rule of the word keys shortens it in the lexicon (a random
      // ending like "…ge" did, and the lexicon search missed it)
      const secret = `zq${randomBytes(5).toString('hex').replace(/\d/g, (d) => 'ghijklmnop'[Number(d)])}x`;
      const text = `My childhood nickname was ${secret}.`;
      const first = await a.state(text, { entities: [secret], tags: [`tag-${secret}`], themes: ['childhood'] });
      expect(first.outcome).toBe('CREATED');
      const second = await a.state(`my childhood nickname was ${secret}`, { entities: [secret] });
      expect(second).toMatchObject({ outcome: 'REINFORCED', memory: { id: first.memory.id } });
      const keep = await a.state('I have a cat called Pixel.');
      const id = first.memory.id as string;
      // it is findable before
      const c = await a.open();
      expect((await a.recall(c, `Was my nickname ${secret}?`)).statements.map((h: any) => h.memory.id)).toContain(id);
      const seen = await findEverywhere(db0, [secret]);
      for (const where of ['memories.quote', 'memories.normalized', 'mentions.quote', 'messages.text', 'memory_lexicon.doc', 'memory_state.entities', 'memory_state.tags']) {
        expect(seen, 'the search finds the text where it is').toContain(`${where} ~ ${secret}`);
      }

      const q = `mutation($ids: [ID!]!, $c: Boolean) { forget(ids: $ids, confirm: $c) {
        __typename ... on BulkResult { changed results { id outcome } } ... on ConfirmationRequired { action } ${ERROR_FIELDS} } }`;
      const before = await contentCounts(db0, s.id);
      const refused = (await t.gql(s.operator, q, { ids: [id] })).data.forget;
      expect(refused.__typename).toBe('ConfirmationRequired');
      const refused2 = (await t.gql(s.operator, q, { ids: [id], c: false })).data.forget;
      expect(refused2.__typename).toBe('ConfirmationRequired');
      expect(await contentCounts(db0, s.id)).toEqual(before);
      expect((await a.memory(id)).status).toBe('ACTIVE');

      const done = (await t.gql(s.operator, q, { ids: [id, 'no-such-memory'], c: true })).data.forget;
      expect(done).toEqual({ __typename: 'BulkResult', changed: 1, results: [{ id, outcome: 'DONE' }, { id: 'no-such-memory', outcome: 'NOT_FOUND' }] });

      expect(await findEverywhere(db0, [secret, 'childhood nickname'])).toEqual([]);
      for (const table of ['memories', 'memory_state', 'mentions', 'memory_vectors', 'memory_lexicon']) {
        const col = table === 'memories' ? 'id' : 'memory_id';
        const n = await db0.query<{ n: number }>(`select count(*)::int as n from ${table} where ${col} = $1`, [id]);
        expect(Number(n.rows[0].n), table).toBe(0);
      }
      expect((await t.app.engram.store.getVectors([id])).size).toBe(0);

      // gone from every read path
      expect((await a.memory(id)).__typename).toBe('NotFound');
      expect((await a.recall(c, `Was my nickname ${secret}?`)).statements.map((h: any) => h.memory.id)).not.toContain(id);
      expect((await a.list({ filter: { statuses: ['ACTIVE', 'MUTED', 'RETRACTED', 'SUPERSEDED', 'ERRONEOUS', 'MERGED'] } })).nodes.map((m: any) => m.id)).toEqual([keep.memory.id]);

      // the event says who and when, nothing of what
      const ev = await t.gql(s.operator, `query { spaceEvents(first: 1000) { ... on SpaceEventsSuccess { data { kind memoryId actor at detail rule tier } } } }`);
      const forgotten = ev.data.spaceEvents.data.filter((e: any) => e.kind === 'FORGOTTEN');
      expect(forgotten).toHaveLength(1);
      expect(forgotten[0].memoryId).toBe(id);
      expect(forgotten[0].actor).toMatch(/^operator:/);
      expect(new Date(forgotten[0].at).getTime()).toBeGreaterThan(Date.now() - 120_000);
      expect(JSON.stringify(ev.data).toLowerCase()).not.toContain(secret);
      expect(JSON.stringify(ev.data).toLowerCase()).not.toContain('nickname');

      // the other memory is untouched
      expect(await a.memory(keep.memory.id)).toMatchObject({ status: 'ACTIVE', quote: 'I have a cat called Pixel.' });
    });

    it('leaves no trace in the memories that stay: a sentence of the same message, the message after', async () => {
      const s = await t.space({ name: 'forget neighbours' });
      const a = actors(t.gql, s);
      const db0 = t.app.engram.db;
      const secret = `zq${randomBytes(5).toString('hex').replace(/\d/g, (d) => 'ghijklmnop'[Number(d)])}x`;
      const c = await a.open();
      await a.say(c, `I moved to Porto last year. My bank password is ${secret}.`);
      const porto = await a.remember({ conversationId: c, quote: 'I moved to Porto last year.' });
      const secretOne = await a.remember({ conversationId: c, quote: `My bank password is ${secret}.` });
      await a.say(c, 'Thanks for reminding me. I also take the tram to work.');
      const tram = await a.remember({ conversationId: c, quote: 'I also take the tram to work.' });
      for (const r of [porto, secretOne, tram]) expect(r.outcome, JSON.stringify(r)).toBe('CREATED');
      // before: the secret is in the Porto memory's context and in both neighbours' lexicon
      expect((await a.memory(porto.memory.id)).context).toContain(secret);
      const before = await findEverywhere(db0, [secret]);
      expect(before).toContain(`memories.context ~ ${secret}`);
      expect(before).toContain(`memory_terms.term ~ ${secret}`);

      const done = (await t.gql(s.operator, `mutation($ids: [ID!]!) { forget(ids: $ids, confirm: true) { ... on BulkResult { changed } } }`,
        { ids: [secretOne.memory.id] })).data.forget;
      expect(done).toEqual({ changed: 1 });
      expect(await findEverywhere(db0, [secret])).toEqual([]);
      // what stays keeps its own words and what else its message said
      expect(await a.memory(porto.memory.id)).toMatchObject({ status: 'ACTIVE', quote: 'I moved to Porto last year.', context: null });
      expect(await a.memory(tram.memory.id)).toMatchObject({ status: 'ACTIVE', context: 'Thanks for reminding me. I also take the tram to work.' });
      const hits = await a.recall(c, 'Which city did I move to?');
      expect(hits.statements.map((h: any) => h.memory.id)).toContain(porto.memory.id);
      expect((await a.recall(c, 'How do I get to work?')).statements.map((h: any) => h.memory.id)).toContain(tram.memory.id);
    });
  });
}
