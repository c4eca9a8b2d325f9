/**
 * A refused quote changes nothing: every table of the database has the same
 * number of rows before and after a refused remember through GraphQL (no
 * memory, no mention, no vector, no lexicon row, no event, no outbox row).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { actors, type SpaceTokens } from '../helpers/memory.js';

let t: TestApp;
let s: SpaceTokens;
let a: ReturnType<typeof actors>;

beforeAll(async () => {
  t = await createTestApp();
  s = await t.space({ name: 'person' });
  a = actors(t.gql, s);
});
afterAll(async () => {
  await t?.close();
});

/** Row counts of every table of the schema the app migrated, by name. */
async function everyTable(): Promise<Record<string, number>> {
  const db = t.app.engram.db;
  const tables = (await db.query<{ name: string }>(
    `select table_name as name from information_schema.tables
     where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`,
  )).rows.map((r) => r.name);
  const out: Record<string, number> = {};
  for (const name of tables) {
    out[name] = Number((await db.query<{ n: number }>(`select count(*)::int as n from "${name.replace(/"/g, '""')}"`)).rows[0].n);
  }
  return out;
}

describe('a refused remember writes nothing', () => {
  it('leaves the row count of every table unchanged, for every kind of refusal', async () => {
    const c = await a.open();
    await a.say(c, 'My favorite number is not 1729.');
    await a.say(c, 'Cats sleep up to sixteen hours a day.', { role: 'ASSISTANT' });
    // Something on file already, so that a refusal has a space with content to (not) touch.
    expect((await a.remember({ conversationId: c, quote: 'My favorite number is not 1729.' })).outcome).toBe('CREATED');

    const before = await everyTable();
    expect(Object.keys(before)).toEqual(expect.arrayContaining(['memories', 'mentions', 'memory_events', 'memory_vectors']));
    const refusals: [string, string][] = [
      ['1729', 'FragmentRefused'],
      ['I was raised in Duluth.', 'QuoteNotFound'],
      ['Cats sleep up to sixteen hours a day.', 'AssistantWordsRefused'],
      ['   ', 'EmptyQuote'],
    ];
    for (const [quote, typename] of refusals) {
      const r = await a.remember({ conversationId: c, quote });
      expect(r.__typename, quote).toBe(typename);
      expect(await everyTable(), `after refusing ${JSON.stringify(quote)}`).toEqual(before);
    }
  });
});
