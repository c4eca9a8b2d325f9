/**
 * Issue 3: the authorisation matrix. Every root field of Query / Mutation /
 * Subscription, read from the built schema, must have a row in PERMISSIONS
 * (src/graphql/authz.ts) and a case here; each is called by every role (and
 * without a token) and the answer must match PERMISSIONS: allowed, or refused
 * with the typed `Forbidden` error. Then every space-bound role that may call an
 * operation tries it on the ids of another space and gets NotFound.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSchema } from '../../src/graphql/schema/index.js';
import { PERMISSIONS } from '../../src/graphql/authz.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { actors, ERROR_FIELDS, type SpaceTokens } from '../helpers/memory.js';


type RoleName = 'admin' | 'operator' | 'chat' | 'assistant' | 'none';
const ROLES: RoleName[] = ['admin', 'operator', 'chat', 'assistant', 'none'];

/** The ids one space offers to a call. */
interface Fixture {
  spaceId: string;
  conversationId: string;
  memoryId: string;
  otherMemoryId: string;
  inferenceId: string;
  sealedSpaceId: string;
}

interface Case {
  /** The whole operation; the field under test is aliased `r`. */
  doc: string;
  vars?: (f: Fixture) => Record<string, unknown>;
  /**
   * When true, a space-bound role allowed to call it is also tried with the ids
   * of another space and must get NotFound (or a bulk NOT_FOUND).
   */
  cross?: boolean;
}

const E = `__typename ${ERROR_FIELDS}`;
const BULK = `__typename ... on BulkResult { changed results { outcome } } ${ERROR_FIELDS}`;

/** One case per root field. A field of the schema without a case fails the test. */
const CASES: Record<string, Case> = {
  // ---- queries
  viewer: { doc: `query { r: viewer { ${E} } }` },
  spaces: { doc: `query { r: spaces { ${E} } }` },
  space: { doc: `query($s: ID) { r: space(id: $s) { ${E} } }`, vars: (f) => ({ s: f.spaceId }), cross: true },
  memory: { doc: `query($m: ID!) { r: memory(id: $m) { ${E} } }`, vars: (f) => ({ m: f.memoryId }), cross: true },
  memories: { doc: `query($s: ID) { r: memories(spaceId: $s, first: 5) { ${E} } }`, vars: (f) => ({ s: f.spaceId }), cross: true },
  profile: { doc: `query($s: ID) { r: profile(spaceId: $s) { ${E} } }`, vars: (f) => ({ s: f.spaceId }), cross: true },
  inferences: { doc: `query($s: ID) { r: inferences(spaceId: $s) { ${E} } }`, vars: (f) => ({ s: f.spaceId }), cross: true },
  conversation: { doc: `query($c: ID!) { r: conversation(id: $c) { ${E} } }`, vars: (f) => ({ c: f.conversationId }), cross: true },
  recall: { doc: `query($c: ID!) { r: recall(conversationId: $c, query: "bicycle") { ${E} } }`, vars: (f) => ({ c: f.conversationId }), cross: true },
  recallSpace: { doc: `query($s: ID) { r: recallSpace(spaceId: $s, query: "bicycle") { ${E} } }`, vars: (f) => ({ s: f.spaceId }), cross: true },
  spaceEvents: { doc: `query($s: ID) { r: spaceEvents(spaceId: $s) { ${E} } }`, vars: (f) => ({ s: f.spaceId }), cross: true },
  node: { doc: `query($m: ID!) { r: node(id: $m) { __typename id } }`, vars: (f) => ({ m: f.memoryId }), cross: true },
  // ---- mutations
  createSpace: { doc: `mutation { r: createSpace(name: "matrix", sealed: true) { ${E} } }` },
  dropSpace: { doc: `mutation($s: ID!) { r: dropSpace(id: $s) { ${E} } }`, vars: (f) => ({ s: f.sealedSpaceId }) },
  createToken: { doc: `mutation($s: ID) { r: createToken(role: assistant, spaceId: $s) { ${E} } }`, vars: (f) => ({ s: f.spaceId }) },
  revokeToken: { doc: `mutation { r: revokeToken(id: "no-such-token") { ${E} } }` },
  openConversation: { doc: `mutation($s: ID) { r: openConversation(spaceId: $s) { ${E} } }`, vars: (f) => ({ s: f.spaceId }), cross: true },
  recordMessage: {
    doc: `mutation($c: ID!) { r: recordMessage(conversationId: $c, role: USER, text: "I ride a red bicycle.") { ${E} } }`,
    vars: (f) => ({ c: f.conversationId }), cross: true,
  },
  remember: {
    doc: `mutation($c: ID!) { r: remember(input: { conversationId: $c, quote: "I ride a red bicycle.", type: FACT }) { ${E} } }`,
    vars: (f) => ({ c: f.conversationId }), cross: true,
  },
  infer: { doc: `mutation($c: ID!) { r: infer(conversationId: $c, text: "Likes cycling.", type: PREFERENCE) { ${E} } }`, vars: (f) => ({ c: f.conversationId }), cross: true },
  correct: {
    doc: `mutation($m: ID!, $c: ID!) { r: correct(memoryId: $m, conversationId: $c, quote: "I ride a red bicycle.") { ${E} } }`,
    vars: (f) => ({ m: f.otherMemoryId, c: f.conversationId }), cross: true,
  },
  mute: { doc: `mutation($m: ID!) { r: mute(memoryId: $m) { ${E} } }`, vars: (f) => ({ m: f.memoryId }), cross: true },
  unmute: { doc: `mutation($m: ID!) { r: unmute(memoryId: $m) { ${E} } }`, vars: (f) => ({ m: f.memoryId }), cross: true },
  retract: { doc: `mutation($m: ID!) { r: retract(memoryId: $m) { ${E} } }`, vars: (f) => ({ m: f.otherMemoryId }), cross: true },
  muteMemories: { doc: `mutation($m: ID!, $s: ID) { r: muteMemories(ids: [$m], spaceId: $s) { ${BULK} } }`, vars: (f) => ({ m: f.memoryId, s: f.spaceId }), cross: true },
  unmuteMemories: { doc: `mutation($m: ID!, $s: ID) { r: unmuteMemories(ids: [$m], spaceId: $s) { ${BULK} } }`, vars: (f) => ({ m: f.memoryId, s: f.spaceId }), cross: true },
  markErroneous: { doc: `mutation($m: ID!, $s: ID) { r: markErroneous(memoryId: $m, spaceId: $s) { ${E} } }`, vars: (f) => ({ m: f.memoryId, s: f.spaceId }), cross: true },
  forget: { doc: `mutation($m: ID!, $s: ID) { r: forget(ids: [$m], spaceId: $s) { ${BULK} } }`, vars: (f) => ({ m: f.memoryId, s: f.spaceId }), cross: true },
  forgetMemories: { doc: `mutation($m: ID!, $s: ID) { r: forgetMemories(ids: [$m], spaceId: $s) { ${BULK} } }`, vars: (f) => ({ m: f.memoryId, s: f.spaceId }), cross: true },
  reviewInference: {
    doc: `mutation($i: ID!, $s: ID) { r: reviewInference(id: $i, decision: ACCEPTED, spaceId: $s) { ${E} } }`,
    vars: (f) => ({ i: f.inferenceId, s: f.spaceId }), cross: true,
  },
  reembed: { doc: `mutation($s: ID) { r: reembed(spaceId: $s) { ${E} } }`, vars: (f) => ({ s: f.spaceId }), cross: true },
  // ---- tidying
  duplicateClusters: { doc: `query($s: ID) { r: duplicateClusters(spaceId: $s) { ${E} } }`, vars: (f) => ({ s: f.spaceId }), cross: true },
  cleanUp: {
    doc: `mutation($s: ID) { r: cleanUp(spaceId: $s, categories: [TASK], scope: PAST_OR_RESOLVED, dryRun: true) { ${E} } }`,
    vars: (f) => ({ s: f.spaceId }), cross: true,
  },
  consolidate: { doc: `mutation($s: ID) { r: consolidate(spaceId: $s, dryRun: true) { ${E} } }`, vars: (f) => ({ s: f.spaceId }), cross: true },
  unmerge: { doc: `mutation($m: ID!) { r: unmerge(memoryId: $m) { ${E} } }`, vars: (f) => ({ m: f.memoryId }), cross: true },
  resolveMemory: { doc: `mutation($m: ID!) { r: resolveMemory(memoryId: $m, resolution: DONE) { ${E} } }`, vars: (f) => ({ m: f.otherMemoryId }), cross: true },
  reopenMemory: { doc: `mutation($m: ID!) { r: reopenMemory(memoryId: $m) { ${E} } }`, vars: (f) => ({ m: f.otherMemoryId }), cross: true },
  setSpaceTimeZone: { doc: `mutation($s: ID) { r: setSpaceTimeZone(spaceId: $s, timeZone: "UTC") { ${E} } }`, vars: (f) => ({ s: f.spaceId }), cross: true },
  // ---- subscriptions (read over SSE: the first event, or an open stream)
  // `after: "0"` replays the space's log: an accepted subscription answers with its first event
  // instead of an open, silent stream, so the verdict never depends on how long one waits.
  memoryEvents: { doc: `subscription($s: ID) { r: memoryEvents(spaceId: $s, after: "0") { kind } }`, vars: (f) => ({ s: f.spaceId }), cross: true },
};

let t: TestApp;
let A: SpaceTokens;
let B: SpaceTokens;
let fa: Fixture;
let fb: Fixture;
let revoked: string;

async function fixture(s: SpaceTokens, sealedSpaceId: string): Promise<Fixture> {
  const a = actors(t.gql, s);
  const c = await a.open();
  await a.say(c, 'I ride a red bicycle. My neighbour is called Rosa.');
  const m1 = await a.remember({ conversationId: c, quote: 'My neighbour is called Rosa.' });
  await a.say(c, 'I collect stamps.');
  const m2 = await a.remember({ conversationId: c, quote: 'I collect stamps.' });
  const inf = await t.gql(s.assistant, `mutation($c: ID!) { infer(conversationId: $c, text: "Enjoys hobbies.", type: FACT) { ... on Memory { id } } }`, { c });
  return { spaceId: s.id, conversationId: c, memoryId: m1.memory.id, otherMemoryId: m2.memory.id, inferenceId: inf.data.infer.id, sealedSpaceId };
}

function tokenOf(role: RoleName, s: SpaceTokens): string | null {
  if (role === 'none') return null;
  if (role === 'admin') return t.adminToken;
  return s[role];
}

function rootFields(): Array<{ op: 'query' | 'mutation' | 'subscription'; name: string }> {
  const schema = buildSchema();
  const out: Array<{ op: 'query' | 'mutation' | 'subscription'; name: string }> = [];
  for (const [op, type] of [['query', schema.getQueryType()], ['mutation', schema.getMutationType()], ['subscription', schema.getSubscriptionType()]] as const) {
    for (const name of Object.keys(type?.getFields() ?? {})) out.push({ op, name });
  }
  return out;
}

/** Runs one case; a subscription is read over SSE (first event) through yoga.fetch. */
async function call(token: string | null, doc: string, vars: Record<string, unknown>): Promise<{ data: any; errors?: any[] }> {
  if (!doc.trimStart().startsWith('subscription')) return t.gql(token, doc, vars);
  const ctrl = new AbortController();
  const res = await t.app.yoga.fetch('http://engram.test/graphql', {
    method: 'POST', signal: ctrl.signal,
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query: doc, variables: vars }),
  });
  const reader = res.body!.getReader();
  let text = '';
  // Every case answers with a first event or an error (see memoryEvents above); the bound only
  // keeps a broken server from hanging the suite.
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline && !/\ndata: .*\n/.test(`\n${text}`)) {
    const chunk = await Promise.race([reader.read(), new Promise<null>((r) => setTimeout(() => r(null), 1_000))]);
    if (chunk?.done) break;
    if (chunk) text += new TextDecoder().decode(chunk.value);
  }
  ctrl.abort();
  const line = `\n${text}`.match(/\ndata: (.*)\n/);
  // An open stream with no event yet is an accepted subscription.
  return line ? JSON.parse(line[1]) : { data: { r: { __typename: 'Subscribed' } } };
}

const refused = (r: { data: any; errors?: any[] }) =>
  r.data?.r?.__typename === 'Forbidden' || (r.errors ?? []).some((e: any) => e.extensions?.code === 'FORBIDDEN');

beforeAll(async () => {
  t = await createTestApp();
  A = await t.space({ name: 'A' });
  B = await t.space({ name: 'B' });
  const sealedA = await t.space({ name: 'sealed A', sealed: true });
  const sealedB = await t.space({ name: 'sealed B', sealed: true });
  fa = await fixture(A, sealedA.id);
  fb = await fixture(B, sealedB.id);
  const tok = await t.gql(t.adminToken, `mutation($s: ID) { createToken(role: operator, spaceId: $s) { ... on CreatedToken { id secret } } }`, { s: A.id });
  revoked = tok.data.createToken.secret;
  await t.gql(t.adminToken, `mutation($id: ID!) { revokeToken(id: $id) { __typename } }`, { id: tok.data.createToken.id });
});
afterAll(async () => {
  await t?.close();
});

describe('authorisation matrix', () => {
  it('every root field has a row in PERMISSIONS and a case in this matrix, and nothing else does', () => {
    const fields = rootFields().map((f) => f.name);
    expect(fields.length).toBeGreaterThan(20);
    expect(fields.filter((f) => !(f in PERMISSIONS)), 'fields without a PERMISSIONS row').toEqual([]);
    expect(fields.filter((f) => !(f in CASES)), 'fields without a case in authz-matrix.test.ts').toEqual([]);
    expect(Object.keys(PERMISSIONS).filter((f) => !fields.includes(f)), 'PERMISSIONS rows for no field').toEqual([]);
    expect(Object.keys(CASES).filter((f) => !fields.includes(f)), 'cases for no field').toEqual([]);
    for (const f of rootFields()) {
      const doc = CASES[f.name]?.doc.trimStart() ?? '';
      expect(doc.startsWith(f.op), `${f.name} case is a ${f.op}`).toBe(true);
    }
  });

  it('each operation × role is allowed or refused (Forbidden) exactly as PERMISSIONS says', async () => {
    const mismatches: string[] = [];
    for (const { name } of rootFields()) {
      const c = CASES[name];
      if (!c) continue; // reported by the test above
      for (const role of ROLES) {
        const r = await call(tokenOf(role, A), c.doc, c.vars?.(fa) ?? {});
        const expected = role !== 'none' && (PERMISSIONS[name] ?? []).includes(role);
        const gotRefused = refused(r);
        if (expected && (gotRefused || r.errors?.length || !r.data?.r)) {
          mismatches.push(`${name} × ${role}: expected allowed, got ${JSON.stringify(r.errors ?? r.data?.r)}`);
        } else if (!expected && !gotRefused) {
          mismatches.push(`${name} × ${role}: expected Forbidden, got ${JSON.stringify(r.errors ?? r.data?.r)}`);
        }
      }
      // a revoked token is no token at all
      const r = await call(revoked, c.doc, c.vars?.(fa) ?? {});
      if (!refused(r)) mismatches.push(`${name} × revoked operator token: expected Forbidden, got ${JSON.stringify(r.data?.r)}`);
    }
    expect(mismatches).toEqual([]);
  });

  it('a token of space A on the ids of space B gets NotFound, like an id that does not exist', async () => {
    const leaks: string[] = [];
    let tried = 0;
    for (const { name } of rootFields()) {
      const c = CASES[name];
      if (!c?.cross) continue;
      for (const role of ['operator', 'chat', 'assistant'] as const) {
        if (!(PERMISSIONS[name] ?? []).includes(role)) continue;
        tried++;
        const r = await call(A[role], c.doc, c.vars!(fb));
        const out = r.data?.r;
        const notFound = out?.__typename === 'NotFound' || (r.errors ?? []).some((e: any) => e.extensions?.code === 'NOT_FOUND')
          || (out?.__typename === 'BulkResult' && out.changed === 0 && out.results.every((x: any) => x.outcome === 'NOT_FOUND'));
        if (!notFound) leaks.push(`${name} × ${role} on space B: ${JSON.stringify(r.errors ?? out)}`);
      }
    }
    expect(tried).toBeGreaterThan(20);
    expect(leaks).toEqual([]);
    // space B is as it was
    const b = actors(t.gql, B);
    const m = await b.memory(fb.memoryId);
    expect(m).toMatchObject({ status: 'ACTIVE', mentionCount: 1 });
    expect(m.events.map((e: any) => e.kind)).toEqual(['CREATED']);
  });
});
