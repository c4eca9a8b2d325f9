/**
 * Issue 3, only the person's words: every refusal through GraphQL, with the typed
 * error it returns and nothing written; what is accepted comes back as a dated quote.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { actors, contentCounts, type SpaceTokens } from '../helpers/memory.js';

let t: TestApp;
let s: SpaceTokens;
let other: SpaceTokens;
let a: ReturnType<typeof actors>;
let b: ReturnType<typeof actors>;

beforeAll(async () => {
  t = await createTestApp();
  s = await t.space({ name: 'person' });
  other = await t.space({ name: 'someone else' });
  a = actors(t.gql, s);
  b = actors(t.gql, other);
});
afterAll(async () => {
  await t?.close();
});

/** Runs a refused remember and checks that nothing was written anywhere in the space. */
async function refused(conversationId: string, quote: string): Promise<any> {
  const before = await contentCounts(t.app.engram.db, s.id);
  const r = await a.remember({ conversationId, quote, type: 'FACT' });
  expect(await contentCounts(t.app.engram.db, s.id)).toEqual(before);
  return r;
}

describe('refusals', () => {
  it('a fragment: "1729" out of "My favorite number is not 1729."', async () => {
    const c = await a.open();
    await a.say(c, 'My favorite number is not 1729.');
    const r = await refused(c, '1729');
    expect(r).toMatchObject({ __typename: 'FragmentRefused', reason: 'FRAGMENT', code: 'QUOTE_FRAGMENT' });
    expect(r.detail.length).toBeGreaterThan(0);
  });

  it('a fragment that drops who said it: "the launch is on Friday"', async () => {
    const c = await a.open();
    await a.say(c, "My colleague Dana says the launch is on Friday, but I think she's wrong.");
    for (const q of ['the launch is on Friday', 'the launch is on Friday.', 'The launch is on Friday.']) {
      const r = await refused(c, q);
      expect(['FragmentRefused', 'QuoteNotFound']).toContain(r.__typename);
    }
    expect((await refused(c, 'the launch is on Friday')).__typename).toBe('FragmentRefused');
    // the whole sentence is accepted
    const ok = await a.remember({ conversationId: c, quote: "My colleague Dana says the launch is on Friday, but I think she's wrong." });
    expect(ok.outcome).toBe('CREATED');
  });

  it('a paraphrase', async () => {
    const c = await a.open();
    await a.say(c, 'I grew up in Duluth.');
    const r = await refused(c, 'I was raised in Duluth.');
    expect(r).toMatchObject({ __typename: 'QuoteNotFound', reason: 'NOT_FOUND' });
  });

  it('a sentence found only in an ASSISTANT message', async () => {
    const c = await a.open();
    await a.say(c, 'What do you know about cats?');
    await a.say(c, 'Cats sleep up to sixteen hours a day.', { role: 'ASSISTANT' });
    const r = await refused(c, 'Cats sleep up to sixteen hours a day.');
    expect(r).toMatchObject({ __typename: 'AssistantWordsRefused', reason: 'ASSISTANT_WORDS' });
  });

  it('a sentence the person typed in another conversation', async () => {
    const c1 = await a.open();
    const c2 = await a.open();
    await a.say(c1, 'My sister lives in Oslo.');
    await a.say(c2, 'Hello again.');
    const r = await refused(c2, 'My sister lives in Oslo.');
    expect(r).toMatchObject({ __typename: 'QuoteNotFound', reason: 'NOT_FOUND' });
  });

  it('an empty quote', async () => {
    const c = await a.open();
    await a.say(c, 'I like tea.');
    expect((await refused(c, '   ')).__typename).toBe('EmptyQuote');
  });

  it('a conversation id of another space reads exactly like one that does not exist', async () => {
    const theirs = await b.open();
    await b.say(theirs, 'I live in Porto.');
    const foreign = await refused(theirs, 'I live in Porto.');
    const missing = await refused('00000000-0000-4000-8000-000000000000', 'I live in Porto.');
    expect(foreign).toMatchObject({ __typename: 'NotFound', what: 'Conversation', missingId: theirs });
    expect(missing).toMatchObject({ __typename: 'NotFound', what: 'Conversation' });
    // same shape, same wording apart from the id itself
    expect(foreign.message.replace(theirs, 'ID')).toBe(missing.message.replace(missing.missingId, 'ID'));
    expect(Object.keys(foreign).sort()).toEqual(Object.keys(missing).sort());
    expect((await contentCounts(t.app.engram.db, other.id)).memories).toBe(0);
  });

  it('no refusal leaves an event: bad input changes nothing', async () => {
    const r = await t.gql(s.operator, `query { spaceEvents(first: 1000) { ... on SpaceEventsSuccess { data { kind rule memoryId detail } } } }`);
    const events = r.data.spaceEvents.data;
    expect(events.filter((e: any) => e.kind === 'REFUSED')).toEqual([]);
    // Only the one accepted remember of this block wrote anything.
    expect(events.map((e: any) => e.kind)).toEqual(['CREATED']);
  });
});

describe('accepted quotes and their attribution', () => {
  it('is a dated quote: On 2026-09-21 you wrote: "I grew up in Duluth."', async () => {
    const c = await a.open();
    await a.say(c, 'Hi! I grew up in Duluth. Now I live in Lisbon.', { at: '2026-09-21T09:30:00Z' });
    const r = await a.remember({ conversationId: c, quote: 'I grew up in Duluth.', entities: ['Duluth'] });
    expect(r.outcome).toBe('CREATED');
    expect(r.memory.attribution).toBe('On 2026-09-21 you wrote: "I grew up in Duluth."');
    expect(r.memory.saidAt).toBe('2026-09-21T09:30:00.000Z');
    expect(r.memory.context).toBe('Hi! I grew up in Duluth. Now I live in Lisbon.');
    const recall = await a.recall(c, 'Where did I grow up?');
    expect(recall.statements[0]).toMatchObject({ attribution: 'On 2026-09-21 you wrote: "I grew up in Duluth."', memory: { id: r.memory.id } });
  });

  it('keeps of a long message the part around the quote: its context and its lexicon entry', async () => {
    const c = await a.open();
    const filler = (tag: string) => Array.from({ length: 1_000 }, (_, i) => `Note ${tag}${i} is filed.`).join(' ');
    await a.say(c, `${filler('early')} I keep bees on the roof of the garage. ${filler('late')} Zanzibarish words end it.`);
    const r = await a.remember({ conversationId: c, quote: 'I keep bees on the roof of the garage.' });
    expect(r.outcome, JSON.stringify(r)).toBe('CREATED');
    expect(r.memory.context).toContain('Note early999 is filed. I keep bees on the roof of the garage. Note late0 is filed.');
    expect(r.memory.context.length).toBeLessThanOrEqual('I keep bees on the roof of the garage.'.length + 2_000);
    // a word far from the quote in the message is not the memory's: recall does not find it by it
    const far = await a.recall(c, 'zanzibarish');
    expect(far.statements.map((h: { memory: { id: string } }) => h.memory.id)).not.toContain(r.memory.id);
    expect((await a.recall(c, 'Where are the bees?')).statements[0].memory.id).toBe(r.memory.id);
  });

  it('accepts a quote differing only in spacing and quote marks, and stores the person\'s own text', async () => {
    const c = await a.open();
    await a.say(c, 'I don\u2019t eat   meat.');
    const r = await a.remember({ conversationId: c, quote: "I don't eat meat." });
    expect(r.outcome).toBe('CREATED');
    expect(r.memory.quote).toBe('I don\u2019t eat   meat.');
  });

  it('accepts consecutive sentences of one message', async () => {
    const c = await a.open();
    await a.say(c, 'I have two kids. Their names are Ada and Tom. I love sailing.');
    const r = await a.remember({ conversationId: c, quote: 'I have two kids. Their names are Ada and Tom.' });
    expect(r.outcome).toBe('CREATED');
    const skip = await a.remember({ conversationId: c, quote: 'I have two kids. I love sailing.' });
    expect(skip.__typename).toBe('FragmentRefused');
  });
});
