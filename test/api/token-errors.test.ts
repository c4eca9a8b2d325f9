/**
 * Refusals say what is wrong (docs/roles.md): no token, a raw token without `Bearer `,
 * a malformed, unknown or revoked token, and a role that may not do something — in words.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => t?.close());

async function ask(authorization: string | null, query = `{ memories { ... on MemoryConnection { nodes { id } } ... on Error { __typename message } } }`) {
  const res = await t.app.yoga.fetch('http://engram.test/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(authorization !== null ? { authorization } : {}) },
    body: JSON.stringify({ query }),
  });
  return (await res.json()) as any;
}

describe('token errors', () => {
  it('answers each kind of bad token as what it is', async () => {
    const sp = await t.space({ name: 'tokens' });
    const msg = async (h: string | null) => (await ask(h)).data.memories.message as string;
    expect(await msg(null)).toBe('a bearer token is required');
    expect(await msg(sp.operator)).toMatch(/must be sent as "Authorization: Bearer <token>"/);
    expect(await msg(`Token ${sp.operator}`)).toMatch(/must read "Bearer <token>"/);
    expect(await msg('Bearer not-a-token')).toMatch(/malformed/);
    expect(await msg(`Bearer egm_${'A'.repeat(32)}`)).toMatch(/not valid \(unknown token\)/);
    expect((await ask(`Bearer ${sp.operator}`)).data.memories.nodes).toEqual([]);

    const made = await t.gql(t.adminToken, `mutation($s: ID) { createToken(role: operator, spaceId: $s) { ... on CreatedToken { id secret } } }`, { s: sp.id });
    const { id, secret } = made.data.createToken;
    expect((await ask(`Bearer ${secret}`)).data.memories.nodes).toEqual([]);
    await t.gql(t.adminToken, `mutation($id: ID!) { revokeToken(id: $id) { __typename } }`, { id });
    expect(await msg(`Bearer ${secret}`)).toBe('the bearer token was revoked');
  });

  it('names the refused operation in plain English', async () => {
    const sp = await t.space({ name: 'roles' });
    expect((await ask(`Bearer ${sp.assistant}`)).data.memories.message).toBe('the assistant role cannot list memories');
    const r = await ask(`Bearer ${sp.chat}`, `mutation { createSpace(name: "x") { ... on Error { message } } }`);
    expect(r.data.createSpace.message).toBe('the chat role cannot create spaces');
  });
});
