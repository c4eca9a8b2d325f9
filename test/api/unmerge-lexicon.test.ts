/**
 * Consolidation and unmerge rebuild a memory's lexical index exactly as the write
 * path built it: every wording with its source message and the message before it,
 * so a memory is still found by the words of the message it was said in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { actors, type SpaceTokens } from '../helpers/memory.js';

let t: TestApp;
let s: SpaceTokens;
let a: ReturnType<typeof actors>;
const ids: Record<string, string> = {};

/** Term frequencies of a memory's lexicon row (what BM25 reads), by word key. */
async function lexicon(memoryId: string): Promise<Record<string, number>> {
  const r = await t.app.engram.db.query<{ lexeme: string; n: number }>(
    `select x.lexeme, coalesce(array_length(x.positions, 1), 1)::int as n
     from memory_lexicon l, unnest(l.doc) as x where l.memory_id = $1 order by x.lexeme`,
    [memoryId],
  );
  return Object.fromEntries(r.rows.map((x) => [x.lexeme, Number(x.n)]));
}

/** Document frequencies (migration 13) equal the postings' counts per (space, kind, term); a row for no term no memory holds. */
async function expectDfOfPostings(): Promise<void> {
  const r = await t.app.engram.db.query<{ space_id: string; kind: string; term: string; postings: number | null; df: number | null }>(
    `select space_id, kind, term, p.n::int as postings, d.df from
       (select space_id, kind, term, count(*) as n from memory_terms group by space_id, kind, term) p
       full join lexicon_df d using (space_id, kind, term)
     where p.n is distinct from d.df`,
  );
  expect(r.rows).toEqual([]);
  const n = await t.app.engram.db.query<{ n: number }>(`select count(*)::int as n from lexicon_df`);
  expect(Number(n.rows[0].n)).toBeGreaterThan(0);
}

const mutate = (q: string, vars: Record<string, unknown> = {}) => t.gql(s.operator, q, vars);
const setMuted = (memoryIds: string[], muted: boolean) =>
  mutate(`mutation($ids: [ID!]!) { ${muted ? 'muteMemories' : 'unmuteMemories'}(ids: $ids) { ... on BulkResult { changed } } }`, { ids: memoryIds });

async function recalled(conversationId: string, q: string): Promise<string[]> {
  const r = await a.recall(conversationId, q, 10);
  return r.statements.map((h: any) => h.memory.id);
}

beforeAll(async () => {
  t = await createTestApp();
  s = await t.space({ name: 'lexicon' });
  a = actors(t.gql, s);
  // A: said after a question carrying "Quetzalcoatl", in a message whose other sentence carries "marzipan".
  const c1 = await a.open();
  await a.say(c1, 'Quetzalcoatl here, your assistant: how do you get to work?', { role: 'ASSISTANT' });
  await a.say(c1, 'I take the 7:15 train to work. The carriage always smells of marzipan.');
  const first = await a.remember({ conversationId: c1, quote: 'I take the 7:15 train to work.' });
  expect(first.outcome).toBe('CREATED');
  ids.a = first.memory.id;
  // B: the same fact, stored while A was muted (so not recognised), in a message that names "Thaddeus".
  await setMuted([ids.a], true);
  const c2 = await a.open();
  await a.say(c2, 'i take the 7:15 train to work. My neighbour Thaddeus cycles instead.');
  const second = await a.remember({ conversationId: c2, quote: 'i take the 7:15 train to work.' });
  expect(second.outcome).toBe('CREATED');
  ids.b = second.memory.id;
  await setMuted([ids.a], false);
  ids.conv = c2;
});

afterAll(async () => {
  await t?.close();
});

describe('the lexicon across consolidate and unmerge', () => {
  it('keeps the message context: found by the words of the messages it was said in, before and after unmerge', async () => {
    const asWritten = { a: await lexicon(ids.a), b: await lexicon(ids.b) };
    expect(asWritten.a).toMatchObject({ quetzalcoatl: 1, marzipan: 1 });
    expect(asWritten.b).toMatchObject({ thaddeus: 1 });

    const r = await mutate(`mutation { consolidate(dryRun: false) { __typename ... on ConsolidationResult { merged clusters { reference { id } members { id status } } } } }`);
    expect(r.data.consolidate.merged).toBe(1);
    expect(r.data.consolidate.clusters[0].reference.id).toBe(ids.a);

    // Merged: the reference answers for both wordings, with both messages' words.
    expect(await lexicon(ids.a)).toMatchObject({ quetzalcoatl: 1, marzipan: 1, thaddeus: 1 });
    await expectDfOfPostings();
    expect(await recalled(ids.conv, 'Quetzalcoatl')).toContain(ids.a);
    expect(await recalled(ids.conv, 'Thaddeus')).toContain(ids.a);

    const u = await mutate(`mutation($id: ID!) { unmerge(memoryId: $id) { __typename ... on Memory { status } } }`, { id: ids.b });
    expect(u.data.unmerge).toEqual({ __typename: 'Memory', status: 'ACTIVE' });

    // Unmerged: each lexicon is exactly what the write path made.
    expect(await lexicon(ids.a)).toEqual(asWritten.a);
    expect(await lexicon(ids.b)).toEqual(asWritten.b);
    await expectDfOfPostings();
    expect(await recalled(ids.conv, 'marzipan')).toContain(ids.a);
    expect(await recalled(ids.conv, 'Quetzalcoatl')).toContain(ids.a);
    expect(await recalled(ids.conv, 'Thaddeus')).toContain(ids.b);
  });

  it('forgetting a merged memory takes its words off the reference that stays', async () => {
    const asWritten = await lexicon(ids.a);
    const r = await mutate(`mutation { consolidate(dryRun: false) { ... on ConsolidationResult { merged } } }`);
    expect(r.data.consolidate.merged).toBe(1);
    expect(await lexicon(ids.a)).toMatchObject({ thaddeus: 1 });
    const f = await mutate(`mutation($ids: [ID!]!) { forget(ids: $ids, confirm: true) { ... on BulkResult { changed } } }`, { ids: [ids.b] });
    expect(f.data.forget).toEqual({ changed: 1 });
    expect(await lexicon(ids.a)).toEqual(asWritten);
    await expectDfOfPostings();
    expect(await recalled(ids.conv, 'Thaddeus')).not.toContain(ids.a);
    expect(await recalled(ids.conv, 'marzipan')).toContain(ids.a);
  });
});
