/**
 * Issue 3: walls (an id from another space behaves exactly like an id that does
 * not exist), sealed spaces dropped as a whole, and inferences kept apart.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { actors, contentCounts, ERROR_FIELDS, QUOTE_FIELDS, type SpaceTokens } from '../helpers/memory.js';

let t: TestApp;
let s: SpaceTokens;
let a: ReturnType<typeof actors>;

beforeAll(async () => {
  t = await createTestApp();
  s = await t.space({ name: 'mine' });
  a = actors(t.gql, s);
});
afterAll(async () => {
  await t?.close();
});

/** Drops the id itself from an answer so that two answers can be compared. */
const shape = (x: unknown, id: string, missing: string) =>
  JSON.parse(JSON.stringify(x).split(id).join('<ID>').split(missing).join('<ID>'));

describe('walls', () => {
  it('an id from another space behaves exactly like a non-existent id', async () => {
    const theirs = await t.space({ name: 'theirs' });
    const b = actors(t.gql, theirs);
    const foreign = (await b.state('My locker number is 42.')).memory.id as string;
    const mineConv = await a.open();
    await a.say(mineConv, 'My locker number is 42.');
    const mine = (await a.remember({ conversationId: mineConv, quote: 'My locker number is 42.' })).memory.id;
    const missing = 'f0000000-0000-4000-8000-00000000dead';
    const before = await contentCounts(t.app.engram.db, theirs.id);
    const stateBefore = (await t.app.engram.store.getMemories([foreign]))[0];

    const ops: Array<[string, string, Record<string, unknown>, string]> = [
      ['memory', `query($id: ID!) { r: memory(id: $id) { __typename ${ERROR_FIELDS} } }`, {}, s.operator],
      ['mute', `mutation($id: ID!) { r: mute(memoryId: $id) { __typename ${ERROR_FIELDS} } }`, {}, s.operator],
      ['unmute', `mutation($id: ID!) { r: unmute(memoryId: $id) { __typename ${ERROR_FIELDS} } }`, {}, s.operator],
      ['retract', `mutation($id: ID!) { r: retract(memoryId: $id) { __typename ${ERROR_FIELDS} } }`, {}, s.operator],
      ['markErroneous', `mutation($id: ID!) { r: markErroneous(memoryId: $id) { __typename ${ERROR_FIELDS} } }`, {}, s.operator],
      ['markErroneous correctedBy', `mutation($id: ID!, $m: ID!) { r: markErroneous(memoryId: $m, correctedBy: $id) { __typename ${ERROR_FIELDS} } }`, { m: mine }, s.operator],
      ['forget', `mutation($id: ID!) { r: forget(ids: [$id], confirm: true) { __typename ... on BulkResult { changed results { outcome } } ${ERROR_FIELDS} } }`, {}, s.operator],
      ['muteMemories', `mutation($id: ID!) { r: muteMemories(ids: [$id]) { __typename ... on BulkResult { changed results { outcome } } ${ERROR_FIELDS} } }`, {}, s.operator],
      ['correct', `mutation($id: ID!, $c: ID!) { r: correct(memoryId: $id, conversationId: $c, quote: "My locker number is 42.") { __typename ${ERROR_FIELDS} ${QUOTE_FIELDS} } }`, { c: mineConv }, s.assistant],
      ['reviewInference', `mutation($id: ID!) { r: reviewInference(id: $id, decision: ACCEPTED) { __typename ${ERROR_FIELDS} } }`, {}, s.operator],
      ['recall', `query($id: ID!) { r: recall(conversationId: $id, query: "locker") { __typename ${ERROR_FIELDS} } }`, {}, s.assistant],
      ['conversation', `query($id: ID!) { r: conversation(id: $id) { __typename ${ERROR_FIELDS} } }`, {}, s.operator],
      ['space', `query($id: ID!) { r: space(id: $id) { __typename ${ERROR_FIELDS} } }`, {}, s.operator],
      ['memories', `query($id: ID!) { r: memories(spaceId: $id) { __typename ${ERROR_FIELDS} } }`, {}, s.operator],
      ['recordMessage', `mutation($id: ID!) { r: recordMessage(conversationId: $id, role: USER, text: "hi") { __typename ${ERROR_FIELDS} } }`, {}, s.chat],
      ['infer', `mutation($id: ID!) { r: infer(conversationId: $id, text: "x", type: FACT) { __typename ${ERROR_FIELDS} } }`, {}, s.assistant],
    ];
    const theirConv = (await t.app.engram.store.getMemories([foreign]))[0]!.conversationId!;
    const idFor: Record<string, string> = {
      recall: theirConv, conversation: theirConv, recordMessage: theirConv, infer: theirConv, space: theirs.id, memories: theirs.id,
    };
    for (const [name, q, extra, token] of ops) {
      const id = idFor[name] ?? foreign;
      const r1 = await t.gql(token, q, { ...extra, id });
      const r2 = await t.gql(token, q, { ...extra, id: missing });
      expect(r1.errors, name).toBeUndefined();
      const out = r1.data.r;
      if (out.__typename === 'BulkResult') expect(out, name).toEqual({ __typename: 'BulkResult', changed: 0, results: [{ outcome: 'NOT_FOUND' }] });
      else expect(out.__typename, name).toBe('NotFound');
      expect(shape(out, id, missing), name).toEqual(shape(r2.data.r, id, missing));
    }
    // and nothing of theirs changed
    expect(await contentCounts(t.app.engram.db, theirs.id)).toEqual(before);
    const stateAfter = (await t.app.engram.store.getMemories([foreign]))[0];
    expect(stateAfter).toEqual(stateBefore);
    // recall through my own conversation never reaches their memory
    const r = await a.recall(mineConv, 'What is my locker number?');
    expect(r.statements.map((h: any) => h.memory.id)).toEqual([mine]);
  });

  it('a sealed space is dropped as a whole, only with confirm, and only if sealed', async () => {
    const sealed = await t.space({ name: 'harness', sealed: true });
    const h = actors(t.gql, sealed);
    await h.state('My favorite fruit is mango.');
    await h.state('I work nights.');
    const mineBefore = await contentCounts(t.app.engram.db, s.id);
    const drop = `mutation($id: ID!, $c: Boolean) { dropSpace(id: $id, confirm: $c) { __typename ... on DropSpaceSuccess { data } ${ERROR_FIELDS} } }`;

    const noConfirm = await t.gql(t.adminToken, drop, { id: sealed.id });
    expect(noConfirm.data.dropSpace.__typename).toBe('ConfirmationRequired');
    expect((await contentCounts(t.app.engram.db, sealed.id)).memories).toBe(2);

    const notSealed = await t.gql(t.adminToken, drop, { id: s.id, c: true });
    expect(notSealed.data.dropSpace.__typename).toBe('InvalidState');
    expect(await contentCounts(t.app.engram.db, s.id)).toEqual(mineBefore);

    const byOperator = await t.gql(sealed.operator, drop, { id: sealed.id, c: true });
    expect(byOperator.data.dropSpace.__typename).toBe('Forbidden');

    const ok = await t.gql(t.adminToken, drop, { id: sealed.id, c: true });
    expect(ok.data.dropSpace).toEqual({ __typename: 'DropSpaceSuccess', data: true });
    const db = t.app.engram.db;
    for (const table of ['memories', 'mentions', 'memory_vectors', 'memory_state', 'memory_lexicon', 'memory_events', 'messages', 'conversations', 'tokens']) {
      const n = await db.query<{ n: number }>(`select count(*)::int as n from ${table} where space_id = $1`, [sealed.id]);
      expect(Number(n.rows[0].n), table).toBe(0);
    }
    expect((await db.query(`select 1 from spaces where id = $1`, [sealed.id])).rows).toHaveLength(0);
    expect(await contentCounts(db, s.id)).toEqual(mineBefore);
    // its tokens are gone with it
    const after = await t.gql(sealed.operator, `query { viewer { __typename ${ERROR_FIELDS} } }`);
    expect(after.data.viewer.__typename).toBe('Forbidden');
    const again = await t.gql(t.adminToken, drop, { id: sealed.id, c: true });
    expect(again.data.dropSpace.__typename).toBe('NotFound');
  });
});

describe('inferences', () => {
  it('are stored apart, never recalled as statements, never reinforce or are reinforced by a statement, and are reviewed', async () => {
    const c = await a.open();
    await a.say(c, 'I have been up since four again.');
    const text = 'The person is probably a night owl.';
    const infer = `mutation($c: ID!, $t: String!, $b: String) { infer(conversationId: $c, text: $t, type: FACT, basis: $b) {
      __typename ... on Memory { id kind status review quote basis attribution } ${ERROR_FIELDS} } }`;
    const i1 = (await t.gql(s.assistant, infer, { c, t: text, b: 'said they are up at four' })).data.infer;
    expect(i1).toMatchObject({ __typename: 'Memory', kind: 'INFERENCE', review: 'PENDING', basis: 'said they are up at four' });
    expect(i1.attribution).toMatch(/^Inferred by the assistant on \d{4}-\d\d-\d\d: /);
    expect(i1.attribution).not.toMatch(/you wrote/);

    // the person later says the same words: a statement of its own, not merged with the inference
    await a.say(c, text);
    const st = await a.remember({ conversationId: c, quote: text });
    expect(st.outcome).toBe('CREATED');
    expect(st.memory.kind).toBe('STATEMENT');
    expect(st.memory.id).not.toBe(i1.id);
    // the assistant infers the same again: a new inference, the statement untouched
    const i2 = (await t.gql(s.assistant, infer, { c, t: text })).data.infer;
    expect(i2.kind).toBe('INFERENCE');
    expect(i2.id).not.toBe(st.memory.id);
    const stNow = await a.memory(st.memory.id);
    expect(stNow.mentionCount).toBe(1);
    expect(stNow.mentions).toHaveLength(1);
    const i1Now = await a.memory(i1.id);
    expect(i1Now.mentionCount).toBe(1);

    // lists of statements never hold an inference
    const list = await a.list({ first: 100 });
    expect(list.nodes.some((m: any) => m.kind === 'INFERENCE')).toBe(false);
    const profile = await a.profile();
    expect(profile.data.some((m: any) => m.id === i1.id || m.id === i2.id)).toBe(false);
    // recall: statements never hold an inference; inferences are their own labelled list
    const r = await a.recall(c, 'Is the person a night owl?');
    expect(r.statements.every((h: any) => h.memory.kind === 'STATEMENT')).toBe(true);
    expect(r.statements.map((h: any) => h.memory.id)).not.toContain(i1.id);
    expect(r.inferences.map((h: any) => h.memory.id)).toContain(i1.id);

    // the operator reviews them
    const listQ = `query($r: Review) { inferences(review: $r) { __typename ... on InferencesSuccess { data { id review kind } } } }`;
    const pending = (await t.gql(s.operator, listQ, { r: 'PENDING' })).data.inferences.data.map((m: any) => m.id);
    expect(pending).toEqual(expect.arrayContaining([i1.id, i2.id]));
    expect((await t.gql(s.assistant, listQ, {})).data.inferences.__typename).toBe('Forbidden');
    const review = `mutation($id: ID!, $d: ReviewDecision!) { reviewInference(id: $id, decision: $d) { __typename ... on Memory { id review kind status } ${ERROR_FIELDS} } }`;
    expect((await t.gql(s.operator, review, { id: i1.id, d: 'ACCEPTED' })).data.reviewInference).toMatchObject({ review: 'ACCEPTED', kind: 'INFERENCE' });
    expect((await t.gql(s.operator, review, { id: i2.id, d: 'DISMISSED' })).data.reviewInference).toMatchObject({ review: 'DISMISSED', kind: 'INFERENCE' });
    // a statement is not an inference to review
    expect((await t.gql(s.operator, review, { id: st.memory.id, d: 'ACCEPTED' })).data.reviewInference.__typename).toBe('NotFound');
    const accepted = (await t.gql(s.operator, listQ, { r: 'ACCEPTED' })).data.inferences.data.map((m: any) => m.id);
    expect(accepted).toEqual([i1.id]);
    // accepted or not, still never a statement
    const r2 = await a.recall(c, 'Is the person a night owl?');
    expect(r2.statements.map((h: any) => h.memory.id)).not.toContain(i1.id);
    expect(r2.inferences.map((h: any) => h.memory.id)).not.toContain(i2.id);
    const events = (await a.memory(i1.id)).events.map((e: any) => e.kind);
    expect(events).toEqual(['INFERRED', 'INFERENCE_ACCEPTED']);
  });
});
