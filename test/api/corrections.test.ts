/**
 * Issue 4, never lose a correction, through GraphQL: corrections detected in the
 * write path, explicit corrections, markErroneous and the "why did you think it
 * was Lisbon?" explanation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { actors, contentCounts, ERROR_FIELDS, MEMORY_FIELDS, QUOTE_FIELDS } from '../helpers/memory.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

async function fresh(name: string) {
  const s = await t.space({ name });
  return { s, a: actors(t.gql, s) };
}

const CORRECT = `mutation($m: ID!, $c: ID!, $q: String!) { correct(memoryId: $m, conversationId: $c, quote: $q) {
  __typename ... on Correction { memory { ${MEMORY_FIELDS} } superseded { id status } } ${ERROR_FIELDS} ${QUOTE_FIELDS} } }`;
const MARK = `mutation($m: ID!, $by: ID) { markErroneous(memoryId: $m, correctedBy: $by) {
  __typename ... on Memory { id status correctedBy { id quote } } ${ERROR_FIELDS} } }`;

describe('corrections detected when remembering', () => {
  it('blue, then "Actually, my favorite color is orange, not blue." leaves one active memory and a chain of two', async () => {
    const { a } = await fresh('colors');
    const blue = await a.state('My favorite color is blue.', { type: 'PREFERENCE', themes: ['color'] }, '2026-05-01T10:00:00Z');
    expect(blue.outcome).toBe('CREATED');
    const orange = await a.state('Actually, my favorite color is orange, not blue.', { type: 'PREFERENCE', themes: ['color'] }, '2026-05-02T10:00:00Z');
    expect(orange.outcome).toBe('CORRECTED');
    expect(orange.superseded).toEqual({ id: blue.memory.id, status: 'SUPERSEDED' });
    expect(orange.rule).toBeTruthy();

    const active = await a.list({ first: 10 });
    expect(active.nodes.map((m: any) => m.quote)).toEqual(['Actually, my favorite color is orange, not blue.']);

    const o = await a.memory(orange.memory.id);
    expect(o.correctionChain.map((m: any) => [m.quote, m.status])).toEqual([
      ['My favorite color is blue.', 'SUPERSEDED'],
      ['Actually, my favorite color is orange, not blue.', 'ACTIVE'],
    ]);
    expect(o.supersedes.map((m: any) => m.id)).toEqual([blue.memory.id]);
    expect(o.currentVersion.id).toBe(orange.memory.id);
    const b = await a.memory(blue.memory.id);
    expect(b).toMatchObject({ status: 'SUPERSEDED', current: false, supersededBy: { id: orange.memory.id }, currentVersion: { id: orange.memory.id } });
    expect(b.correctionChain.map((m: any) => m.id)).toEqual([blue.memory.id, orange.memory.id]);
    // the rule that fired and the score are on the events
    const corrected = o.events.find((e: any) => e.kind === 'CORRECTED');
    expect(corrected).toMatchObject({ relatedId: blue.memory.id, rule: orange.rule });
    expect(b.events.map((e: any) => e.kind)).toEqual(['CREATED', 'SUPERSEDED']);
    // the superseded memory is still stored, with its own words
    expect(b.mentions.map((m: any) => m.quote)).toEqual(['My favorite color is blue.']);
  });

  it('"My anniversary is June 3. Actually, scratch that, it is June 13." leaves June 13 current, recalled first', async () => {
    const { a } = await fresh('anniversary');
    const c = await a.open();
    await a.say(c, 'My anniversary is June 3. Actually, scratch that, it is June 13.');
    const first = await a.remember({ conversationId: c, quote: 'My anniversary is June 3.', type: 'FACT' });
    expect(first.outcome).toBe('CREATED');
    const second = await a.remember({ conversationId: c, quote: 'Actually, scratch that, it is June 13.', type: 'FACT' });
    expect(second.outcome).toBe('CORRECTED');
    expect(second.superseded).toEqual({ id: first.memory.id, status: 'SUPERSEDED' });
    expect(second.memory.context).toBe('My anniversary is June 3. Actually, scratch that, it is June 13.');

    const june3 = await a.memory(first.memory.id);
    expect(june3.status).toBe('SUPERSEDED');
    const r = await a.recall(c, 'When is my anniversary?');
    expect(r.statements.length).toBeGreaterThan(0);
    expect(r.statements[0].memory).toMatchObject({ id: second.memory.id, status: 'ACTIVE' });
    expect(r.statements.map((h: any) => h.memory.id)).not.toContain(first.memory.id);
  });

  it('"I speak French." then "I speak Spanish." leaves both active', async () => {
    const { a } = await fresh('languages');
    const fr = await a.state('I speak French.', { themes: ['languages'] });
    const es = await a.state('I speak Spanish.', { themes: ['languages'] });
    expect(fr.outcome).toBe('CREATED');
    expect(es.outcome).toBe('CREATED');
    const list = await a.list({ first: 10 });
    expect(list.nodes.map((m: any) => m.quote).sort()).toEqual(['I speak French.', 'I speak Spanish.']);
    expect(list.nodes.every((m: any) => m.status === 'ACTIVE')).toBe(true);
  });

  it('a flipped polarity is never reinforced: it supersedes', async () => {
    const { a } = await fresh('jazz');
    const like = await a.state('I like jazz.', { type: 'PREFERENCE' });
    const dont = await a.state("I don't like jazz.", { type: 'PREFERENCE' });
    expect(dont.outcome).toBe('CORRECTED');
    expect(dont.superseded.id).toBe(like.memory.id);
  });
});

describe('explicit corrections', () => {
  it('correct(memoryId, conversationId, quote) supersedes the memory; the quote check applies', async () => {
    const { s, a } = await fresh('explicit');
    const lisbon = await a.state('I live in Lisbon.', { entities: ['Lisbon'] }, '2026-02-01T08:00:00Z');
    const c = await a.open();
    await a.say(c, 'I moved last month. My home is in Porto now.', { at: '2026-03-01T08:00:00Z' });

    // refused quotes write nothing and leave the memory current
    const before = await contentCounts(t.app.engram.db, s.id);
    const paraphrase = (await t.gql(s.assistant, CORRECT, { m: lisbon.memory.id, c, q: 'I now live in Porto.' })).data.correct;
    expect(paraphrase.__typename).toBe('QuoteNotFound');
    const fragment = (await t.gql(s.assistant, CORRECT, { m: lisbon.memory.id, c, q: 'Porto' })).data.correct;
    expect(fragment.__typename).toBe('FragmentRefused');
    await a.say(c, 'You said you live in Porto now.', { role: 'ASSISTANT' });
    const theirs = (await t.gql(s.assistant, CORRECT, { m: lisbon.memory.id, c, q: 'You said you live in Porto now.' })).data.correct;
    expect(theirs.__typename).toBe('AssistantWordsRefused');
    expect(await contentCounts(t.app.engram.db, s.id)).toEqual(before);
    expect((await a.memory(lisbon.memory.id)).status).toBe('ACTIVE');

    const ok = (await t.gql(s.assistant, CORRECT, { m: lisbon.memory.id, c, q: 'My home is in Porto now.' })).data.correct;
    expect(ok.__typename).toBe('Correction');
    expect(ok.superseded).toEqual({ id: lisbon.memory.id, status: 'SUPERSEDED' });
    expect(ok.memory).toMatchObject({ quote: 'My home is in Porto now.', status: 'ACTIVE', attribution: 'On 2026-03-01 you wrote: "My home is in Porto now."' });
    const old = await a.memory(lisbon.memory.id);
    expect(old.supersededBy.id).toBe(ok.memory.id);
    expect(old.events.at(-1)).toMatchObject({ kind: 'SUPERSEDED', rule: 'explicit', relatedId: ok.memory.id });

    // a memory no longer current cannot be corrected again
    const again = (await t.gql(s.assistant, CORRECT, { m: lisbon.memory.id, c, q: 'My home is in Porto now.' })).data.correct;
    expect(again.__typename).toBe('InvalidState');
  });

  it('markErroneous: ERRONEOUS, linked, still stored; explanation answers "why did you think it was Lisbon?"', async () => {
    const { s, a } = await fresh('erroneous');
    const lisbon = await a.state('My sister lives in Lisbon.', { entities: ['Lisbon'] }, '2026-01-10T12:00:00Z');
    const madrid = await a.state('My sister has lived in Madrid for years.', { entities: ['Madrid'] }, '2026-04-02T12:00:00Z');
    const r = (await t.gql(s.operator, MARK, { m: lisbon.memory.id, by: madrid.memory.id })).data.markErroneous;
    expect(r).toMatchObject({ __typename: 'Memory', status: 'ERRONEOUS', correctedBy: { id: madrid.memory.id } });

    const m = await a.memory(lisbon.memory.id);
    expect(m).toMatchObject({ status: 'ERRONEOUS', current: false, quote: 'My sister lives in Lisbon.', correctedBy: { id: madrid.memory.id } });
    expect(m.mentions).toHaveLength(1);
    expect(m.explanation).toContain('On 2026-01-10 you wrote: "My sister lives in Lisbon."');
    expect(m.explanation).toMatch(/erroneous/i);
    expect(m.explanation).toContain('My sister has lived in Madrid for years.');
    expect(m.currentVersion.id).toBe(madrid.memory.id);
    expect(m.events.at(-1)).toMatchObject({ kind: 'MARKED_ERRONEOUS', relatedId: madrid.memory.id });
    expect(m.events.at(-1).actor).toMatch(/^operator:/);
    const md = await a.memory(madrid.memory.id);
    expect(md.supersedes.map((x: any) => x.id)).toEqual([lisbon.memory.id]);
    expect(md.correctionChain.map((x: any) => x.id)).toEqual([lisbon.memory.id, madrid.memory.id]);

    // only the newest stays listed and recalled
    expect((await a.list()).nodes.map((x: any) => x.id)).toEqual([madrid.memory.id]);
    const c = await a.open();
    const rec = await a.recall(c, 'Where does my sister live?');
    expect(rec.statements.map((h: any) => h.memory.id)).not.toContain(lisbon.memory.id);

    // a memory cannot correct itself; an unknown correctedBy is NotFound
    const self = (await t.gql(s.operator, MARK, { m: madrid.memory.id, by: madrid.memory.id })).data.markErroneous;
    expect(self.__typename).toBe('InvalidInput');
    const unknown = (await t.gql(s.operator, MARK, { m: madrid.memory.id, by: 'nope' })).data.markErroneous;
    expect(unknown.__typename).toBe('NotFound');
    expect((await a.memory(madrid.memory.id)).status).toBe('ACTIVE');
  });
});
