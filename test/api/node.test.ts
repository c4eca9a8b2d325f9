/** Global object identification: node(id:) over Memory, Conversation and Space, walled like every field. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => t?.close());

const NODE = `query($id: ID!) { node(id: $id) { __typename id ... on Memory { quote status } ... on Space { name } ... on Conversation { id } } }`;

describe('node(id:)', () => {
  it("returns any memory, conversation or space of the caller's space, and NotFound for another space's", async () => {
    const a = await t.space({ name: 'node A' });
    const b = await t.space({ name: 'node B' });
    const conv = async (sp: typeof a) => (await t.gql(sp.chat, `mutation { openConversation { ... on Conversation { id } } }`)).data.openConversation.id as string;
    const ca = await conv(a);
    const text = 'My grandmother was born in Riga.';
    await t.gql(a.chat, `mutation($c: ID!, $x: String!) { recordMessage(conversationId: $c, role: USER, text: $x) { __typename } }`, { c: ca, x: text });
    const r = await t.gql(a.assistant, `mutation($i: RememberInput!) { remember(input: $i) { ... on RememberOutcome { memory { id } } } }`,
      { i: { conversationId: ca, quote: text, type: 'FACT' } });
    const memoryId = r.data.remember.memory.id;
    const cb = await conv(b);

    const node = (token: string, id: string) => t.gql(token, NODE, { id });
    expect((await node(a.operator, memoryId)).data.node).toMatchObject({ __typename: 'Memory', id: memoryId, quote: text, status: 'ACTIVE' });
    expect((await node(a.operator, ca)).data.node).toEqual({ __typename: 'Conversation', id: ca });
    expect((await node(a.operator, a.id)).data.node).toEqual({ __typename: 'Space', id: a.id, name: 'node A' });
    expect((await node(t.adminToken, cb)).data.node).toEqual({ __typename: 'Conversation', id: cb });

    const unknown = await node(a.operator, '00000000-0000-0000-0000-000000000000');
    for (const id of [cb, b.id]) {
      const other = await node(a.operator, id);
      expect(other.data.node).toBeNull();
      expect(other.errors?.[0].extensions.code).toBe('NOT_FOUND');
      // Exactly like an id that does not exist, apart from the id itself.
      expect(other.errors?.[0].message.replace(id, 'X')).toBe(unknown.errors?.[0].message.replace('00000000-0000-0000-0000-000000000000', 'X'));
    }
    const fromB = await node(b.operator, memoryId);
    expect(fromB.data.node).toBeNull();
    expect(fromB.errors?.[0].extensions.code).toBe('NOT_FOUND');
    const assistant = await node(a.assistant, memoryId);
    expect(assistant.errors?.[0].message).toBe('the assistant role cannot fetch objects by id');
  });
});
