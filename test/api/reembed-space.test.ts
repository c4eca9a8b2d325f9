/**
 * `reembed(spaceId:)` of a space that does not exist: NotFound, as for every other mutation that
 * names a space (and as an operator already got for an id behind its wall). For an admin it
 * answered a ReembedResult of nothing done, and `engram reembed --space <typo>` exited 0,
 * "reembedded: 0 filled": a typo in the id read as "nothing to do".
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { reembedMissing } from '../../src/memory/reembed.js';
import { NotFoundError } from '../../src/memory/errors.js';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => { await t?.close(); });

const REEMBED = `mutation($s: ID) { reembed(spaceId: $s) { __typename ... on NotFound { what id } ... on ReembedResult { filled failed } } }`;

describe('reembed of a space that does not exist', () => {
  it('is NotFound for an admin, as for an operator; a space that exists still runs', async () => {
    const sp = await t.space();
    expect((await t.gql(t.adminToken, REEMBED, { s: 'no-such-space' })).data.reembed).toEqual({ __typename: 'NotFound', what: 'Space', id: 'no-such-space' });
    expect((await t.gql(sp.operator, REEMBED, { s: 'no-such-space' })).data.reembed).toMatchObject({ __typename: 'NotFound' });
    expect((await t.gql(t.adminToken, REEMBED, { s: sp.id })).data.reembed).toEqual({ __typename: 'ReembedResult', filled: 0, failed: 0 });
  });

  it('is NotFound for the CLI command too (the same use case)', async () => {
    await expect(reembedMissing(t.app.engram.deps, 'no-such-space')).rejects.toBeInstanceOf(NotFoundError);
  });
});
