/**
 * A request whose parameters cannot be read is the client's error (docs/limits.md#request-parsing):
 * malformed `variables` or `extensions` JSON in a query string or a form body is answered 400
 * naming the parameter (it was 500 "Unexpected error." with a stack logged at error), and bytes
 * that are not UTF-8 are refused, not stored as U+FFFD. Nothing is logged at error.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
let errors: ReturnType<typeof vi.spyOn>;
beforeAll(async () => {
  t = await createTestApp();
  errors = vi.spyOn(t.app.engram.deps.log, 'error');
});
afterAll(async () => {
  await t?.close();
});

const URL_BASE = 'http://engram.test/graphql';

async function send(init: RequestInit & { query?: string }): Promise<{ status: number; body: any }> {
  const { query, ...rest } = init;
  const res = await t.app.yoga.fetch(`${URL_BASE}${query ?? ''}`, { ...rest, headers: { accept: 'application/json', ...(rest.headers as Record<string, string> | undefined) } });
  return { status: res.status, body: await res.json() };
}

const form = (body: string | Uint8Array) => ({ method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: body as BodyInit });
const json = (body: string | Uint8Array) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: body as BodyInit });

describe('request parameters that cannot be read', () => {
  it('malformed variables or extensions JSON in a GET or a form body: 400 naming the parameter, nothing logged at error', async () => {
    const cases: Array<[string, RequestInit & { query?: string }, string]> = [
      ['GET variables={bad', { query: '?query=%7B__typename%7D&variables=%7Bbad' }, 'variables'],
      ['GET variables=nope', { query: '?query=%7B__typename%7D&variables=nope' }, 'variables'],
      ['GET extensions={bad', { query: '?query=%7B__typename%7D&extensions=%7Bbad' }, 'extensions'],
      ['form variables={bad', form('query=%7B__typename%7D&variables=%7Bbad'), 'variables'],
      ['form extensions=nope', form('query=%7B__typename%7D&extensions=nope'), 'extensions'],
    ];
    for (const [what, init, field] of cases) {
      const r = await send(init);
      expect([what, r.status], JSON.stringify(r.body)).toEqual([what, 400]);
      expect(r.body.errors?.[0], what).toMatchObject({ message: `${field} is not valid JSON`, extensions: { code: 'BAD_REQUEST', field } });
    }
    expect(errors).not.toHaveBeenCalled();
  });

  it('a multipart body (the schema takes no uploads), readable or not: 400 BAD_REQUEST, nothing logged at error', async () => {
    const bodies = [
      '--x\r\nContent-Disposition: form-data; name="operations"\r\n\r\n{bad\r\n--x--',
      '--x\r\nContent-Disposition: form-data; name="operations"\r\n\r\n{"query":"{ __typename }"}\r\n--x--',
    ];
    for (const body of bodies) {
      const r = await send({ method: 'POST', headers: { 'content-type': 'multipart/form-data; boundary=x' }, body });
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      expect(r.body.errors?.[0]).toMatchObject({ message: expect.stringMatching(/multipart/), extensions: { code: 'BAD_REQUEST' } });
    }
    expect(errors).not.toHaveBeenCalled();
  });

  it('a request without a query (absent, null, empty, or a persisted-query extension alone): 400 naming `query`, as every other unreadable parameter', async () => {
    const cases: Array<[string, RequestInit & { query?: string }]> = [
      ['JSON {}', json('{}')],
      ['JSON query null', json('{"query":null}')],
      ['JSON query ""', json('{"query":""}')],
      ['JSON persisted-query extension alone', json('{"extensions":{"persistedQuery":{"version":1,"sha256Hash":"abc"}}}')],
      ['GET without parameters', {}],
      ['GET query=', { query: '?query=' }],
      ['form without query', form('variables=%7B%7D')],
    ];
    for (const [what, init] of cases) {
      const r = await send(init);
      expect([what, r.status], JSON.stringify(r.body)).toEqual([what, 400]);
      expect(r.body.errors?.[0], what).toMatchObject({ extensions: { code: 'BAD_REQUEST', field: 'query' } });
    }
    // A browser asking for the page still gets GraphiQL, and a query of the wrong type is still Yoga's 400.
    const page = await t.app.yoga.fetch(URL_BASE, { headers: { accept: 'text/html' } });
    expect([page.status, page.headers.get('content-type')]).toEqual([200, expect.stringContaining('text/html')]);
    expect((await send(json('{"query":5}'))).status).toBe(400);
    expect(errors).not.toHaveBeenCalled();
  });

  it("a variable's value refused by GraphQL (wrong type, not given): 400 BAD_USER_INPUT naming the variable", async () => {
    const query = 'query($n: Int!) { memories(first: $n) { __typename } }';
    for (const variables of [{ n: 'many' }, {}]) {
      const r = await send({ ...json(JSON.stringify({ query, variables })), headers: { 'content-type': 'application/json', authorization: `Bearer ${t.adminToken}` } });
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      expect(r.body.errors?.[0]).toMatchObject({ message: expect.stringMatching(/^Variable "\$n"/), extensions: { code: 'BAD_USER_INPUT', field: 'n' } });
    }
    expect(errors).not.toHaveBeenCalled();
  });

  it('well-formed GET and form requests are read as before (+ is a space, a bare % is kept)', async () => {
    const s = await t.space({ name: 'form' });
    const c = (await t.gql(s.chat, 'mutation { openConversation { ... on Conversation { id } } }')).data.openConversation.id;
    const record = encodeURIComponent('mutation($c: ID!, $t: String!) { recordMessage(conversationId: $c, role: USER, text: $t) { ... on Message { text } } }').replace(/%20/g, '+');
    const vars = encodeURIComponent(JSON.stringify({ c, t: 'I am 100% sure: 1 + 1 is 2. Café.' }));
    const posted = await send({ ...form(`query=${record}&variables=${vars}`), headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Bearer ${s.chat}` } });
    expect(posted, JSON.stringify(posted.body)).toMatchObject({ status: 200, body: { data: { recordMessage: { text: 'I am 100% sure: 1 + 1 is 2. Café.' } } } });
    for (const init of [{ query: '?query={__typename}&variables={"n":"50%"}' }, { query: '?query=%7B+__typename+%7D&extensions=%7B%7D' }]) {
      const r = await send(init);
      expect(r, JSON.stringify(r.body)).toMatchObject({ status: 200, body: { data: { __typename: 'Query' } } });
    }
    // A JSON body that is not JSON is still answered 400.
    expect((await send(json('{"query":'))).status).toBe(400);
  });

  it('bytes that are not UTF-8, in a JSON or form body or percent-encoded in a query string: 400, nothing stored', async () => {
    const s = await t.space({ name: 'utf-8' });
    const c = (await t.gql(s.chat, 'mutation { openConversation { ... on Conversation { id } } }')).data.openConversation.id;
    const record = 'mutation($c: ID!, $t: String!) { recordMessage(conversationId: $c, role: USER, text: $t) { __typename } }';
    const enc = new TextEncoder();
    // The JSON of `body`, with the bytes FF FE where `text` says "I like ".
    const withBadBytes = (prefix: string, body: unknown) => {
      const [head, tail] = JSON.stringify(body).split('I like ');
      return new Uint8Array([...enc.encode(`${prefix}${head}I like `), 0xff, 0xfe, ...enc.encode(tail)]);
    };
    const auth = { authorization: `Bearer ${s.chat}` };
    const vars = { c, t: 'I like green tea.' };
    const cases: Array<[string, RequestInit & { query?: string }]> = [
      ['JSON body', { ...json(withBadBytes('', { query: record, variables: vars })), headers: { 'content-type': 'application/json', ...auth } }],
      ['form body', { ...form(withBadBytes(`query=${encodeURIComponent(record)}&variables=`, vars)), headers: { 'content-type': 'application/x-www-form-urlencoded', ...auth } }],
      ['percent-encoded in a form', { ...form(`query=${encodeURIComponent(record)}&variables=${encodeURIComponent(JSON.stringify(vars)).replace('green', '%FF%FEgreen')}`), headers: { 'content-type': 'application/x-www-form-urlencoded', ...auth } }],
      ['percent-encoded in a query string', { query: `?query=${encodeURIComponent('{ __typename }')}&operationName=%FF`, headers: auth }],
    ];
    for (const [what, init] of cases) {
      const r = await send(init);
      expect([what, r.status], JSON.stringify(r.body)).toEqual([what, 400]);
      expect(r.body.errors?.[0]?.message, what).toMatch(/not valid UTF-8/);
    }
    const messages = await t.gql(s.operator, `query($c: ID!) { conversation(id: $c) { ... on Conversation { messages { text } } } }`, { c });
    expect(messages.data.conversation.messages).toEqual([]);
    expect(errors).not.toHaveBeenCalled();
  });
});
