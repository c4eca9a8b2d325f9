/**
 * An admin naming a space that does not exist gets NotFound from every operation that takes a
 * spaceId, reads included (src/graphql/authz.ts, `spaceIn`): some reads answered an empty list,
 * as if the space were empty, while other operations said NotFound (found by an adversarial probe).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { ERROR_FIELDS } from '../helpers/memory.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const SP = '$s: ID!';
const ops: Record<string, string> = {
  memories: `query(${SP}) { r: memories(spaceId: $s) { __typename ${ERROR_FIELDS} } }`,
  profile: `query(${SP}) { r: profile(spaceId: $s) { __typename ${ERROR_FIELDS} } }`,
  inferences: `query(${SP}) { r: inferences(spaceId: $s) { __typename ${ERROR_FIELDS} } }`,
  recallSpace: `query(${SP}) { r: recallSpace(spaceId: $s, query: "coffee") { __typename ${ERROR_FIELDS} } }`,
  spaceEvents: `query(${SP}) { r: spaceEvents(spaceId: $s) { __typename ${ERROR_FIELDS} } }`,
  duplicateClusters: `query(${SP}) { r: duplicateClusters(spaceId: $s) { __typename ${ERROR_FIELDS} } }`,
  muteMemories: `mutation(${SP}) { r: muteMemories(spaceId: $s, ids: ["x"]) { __typename ${ERROR_FIELDS} } }`,
  forgetMemories: `mutation(${SP}) { r: forgetMemories(spaceId: $s, ids: ["x"], confirm: true) { __typename ${ERROR_FIELDS} } }`,
  openConversation: `mutation(${SP}) { r: openConversation(spaceId: $s) { __typename ${ERROR_FIELDS} } }`,
  consolidate: `mutation(${SP}) { r: consolidate(spaceId: $s, dryRun: true) { __typename ${ERROR_FIELDS} } }`,
};

describe('an admin naming a space that does not exist', () => {
  it('gets NotFound from every operation, reads included; a space that exists answers', async () => {
    const got: Record<string, string> = {};
    for (const [name, doc] of Object.entries(ops)) {
      const r = await t.gql(t.adminToken, doc, { s: 'no-such-space' });
      got[name] = r.errors ? `errors: ${JSON.stringify(r.errors)}` : r.data.r.__typename;
    }
    expect(got).toEqual(Object.fromEntries(Object.keys(ops).map((k) => [k, 'NotFound'])));
    const s = await t.space({ name: 'here' });
    const here = await t.gql(t.adminToken, ops.memories!, { s: s.id });
    expect(here.data.r.__typename).not.toBe('NotFound');
  });
});
