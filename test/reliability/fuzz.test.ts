/**
 * Input fuzz (issue 12): 2,400 generated requests, each carrying at least one value the
 * service must refuse (NUL characters, strings past their bound, negative or huge `first`,
 * forged cursors, 5e-324, year 0000, wrong types, unknown enums, deep nesting, many
 * aliases, malformed JSON, random syntax). Every answer: no 5xx, no "Unexpected error.",
 * no success payload; and every table has the same row count afterwards (nothing written).
 * Seeded: a failure names the request that caused it and reproduces.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { rng } from '../../src/core/random.js';

let t: TestApp;
let s: { id: string; chat: string; assistant: string; operator: string };
let conversation: string;
let memoryId: string;

beforeAll(async () => {
  t = await createTestApp();
  s = await t.space({ name: 'fuzz' });
  conversation = (await t.gql(s.chat, 'mutation { openConversation { ... on Conversation { id } } }')).data.openConversation.id;
  await t.gql(s.chat, 'mutation($c: ID!) { recordMessage(conversationId: $c, role: USER, text: "My cat is called Miso.") { __typename } }', { c: conversation });
  const r = await t.gql(s.assistant, 'mutation($c: ID!) { remember(input: { conversationId: $c, quote: "My cat is called Miso.", type: FACT }) { ... on RememberOutcome { memory { id } } } }', { c: conversation });
  memoryId = r.data.remember.memory.id;
});
afterAll(async () => t?.close());

async function everyTable(): Promise<Record<string, number>> {
  const db = t.app.engram.db;
  const tables = (await db.query<{ name: string }>(
    `select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE' order by 1`,
  )).rows.map((r) => r.name);
  const out: Record<string, number> = {};
  for (const name of tables) out[name] = Number((await db.query<{ n: number }>(`select count(*)::int as n from "${name}"`)).rows[0]!.n);
  return out;
}

type Token = 'chat' | 'assistant' | 'operator' | 'admin';
interface Op { token: Token; query: string; vars: () => Record<string, unknown>; strings: string[]; field: string }

const SUCCESS = new Set(['RememberOutcome', 'Message', 'RecallResult', 'MemoryConnection', 'CreatedToken', 'Correction', 'Memory', 'Space', 'Conversation']);

const OPS: Op[] = [
  { token: 'assistant', field: 'remember', strings: ['quote', 'conversationId'],
    query: 'mutation($conversationId: ID!, $quote: String!, $importance: Float, $startsAt: DateTime, $type: MemoryType!) { remember(input: { conversationId: $conversationId, quote: $quote, type: $type, importance: $importance, startsAt: $startsAt }) { __typename } }',
    vars: () => ({ conversationId: conversation, quote: 'My cat is called Miso.', type: 'FACT' }) },
  { token: 'chat', field: 'recordMessage', strings: ['text', 'c'],
    query: 'mutation($c: ID!, $text: String!, $at: DateTime) { recordMessage(conversationId: $c, role: USER, text: $text, at: $at) { __typename } }',
    vars: () => ({ c: conversation, text: 'I like tea.' }) },
  { token: 'assistant', field: 'recall', strings: ['q', 'c'],
    query: 'query($c: ID!, $q: String!, $first: Int) { recall(conversationId: $c, query: $q, first: $first) { __typename } }',
    vars: () => ({ c: conversation, q: 'What is my cat called?' }) },
  { token: 'operator', field: 'memories', strings: ['after'],
    query: 'query($first: Int, $after: String) { memories(first: $first, after: $after) { __typename } }',
    vars: () => ({ first: 5 }) },
  { token: 'admin', field: 'createToken', strings: ['label', 'spaceId'],
    query: 'mutation($role: Role!, $spaceId: ID, $label: String) { createToken(role: $role, spaceId: $spaceId, label: $label) { __typename } }',
    vars: () => ({ role: 'chat', spaceId: s.id, label: 'fuzz' }) },
  { token: 'assistant', field: 'correct', strings: ['quote', 'm'],
    query: 'mutation($m: ID!, $c: ID!, $quote: String!) { correct(memoryId: $m, conversationId: $c, quote: $quote) { __typename } }',
    vars: () => ({ m: memoryId, c: conversation, quote: 'My cat is called Miso.' }) },
  { token: 'admin', field: 'createSpace', strings: ['name', 'timeZone'],
    query: 'mutation($name: String!, $timeZone: String) { createSpace(name: $name, timeZone: $timeZone) { __typename } }',
    vars: () => ({ name: 'fuzzed space' }) },
];

const WRONG_TYPES: unknown[] = [42, true, { a: 1 }, [1, 2], -1.5];

/** One corruption that makes the request invalid, applied to a fresh copy of the op's valid variables. */
function corrupt(op: Op, r: () => number): { body: string; what: string } {
  const vars = op.vars();
  const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const str = pick(op.strings);
  const kind = Math.floor(r() * 12);
  let query = op.query;
  switch (kind) {
    case 0: vars[str] = `${String(vars[str] ?? 'x')}\u0000${'\u0001\u001f'.repeat(Math.floor(r() * 3))}`; break;
    case 1: vars[str] = 'y'.repeat(100_001 + Math.floor(r() * 50_000)); break;
    case 2: vars[str] = 'z'.repeat(1_000_001); break; // past the body limit: 413
    case 3:
      if (op.field === 'recall' || op.field === 'memories') vars.first = pick([-1, -2147483648, 100_000, 2147483647]);
      else vars[str] = pick(WRONG_TYPES);
      break;
    case 4:
      if (op.field === 'memories') vars.after = pick([Buffer.from(`o:${'9'.repeat(30)}`).toString('base64url'), 'not a cursor', Buffer.from('o:-5').toString('base64url')]);
      else if (op.field === 'remember') vars.importance = pick([5e-324, -5e-324, 1e308, -1, 2]);
      else vars[str] = `\u0000`;
      break;
    case 5:
      if (op.field === 'remember') vars.startsAt = pick(['0000-01-01T00:00:00Z', '10000-01-01T00:00:00Z', 'yesterday', '']);
      else if (op.field === 'recordMessage') vars.at = pick(['0000-06-15T00:00:00Z', 'soon', 12]);
      else vars[str] = pick(WRONG_TYPES);
      break;
    case 6: vars[str] = pick(WRONG_TYPES); break;
    case 7:
      if (op.field === 'createToken') vars.role = pick(['root', 'ADMIN', '', 7]);
      else if (op.field === 'remember') vars.type = pick(['OPINION', 'fact', 0]);
      else query = query.replace('__typename', '__typename nope');
      break;
    case 8: {
      let sel = 'id';
      for (let i = 0; i < 11 + Math.floor(r() * 40); i++) sel = `correctionChain { ${sel} }`;
      query = `query { memory(id: "${memoryId}") { ... on Memory { ${sel} } } }`;
      break;
    }
    case 9: {
      const n = 16 + Math.floor(r() * 300);
      query = `query { ${Array.from({ length: n }, (_, i) => `a${i}: viewer { __typename }`).join(' ')} }`;
      break;
    }
    case 10: return { body: pick(['{"query": "{ viewer', '{', 'null', '[]', '{"query": 5}', '\u0000\u0000', '{"query":"{ viewer { __typename } }","variables":"x"}']), what: 'malformed JSON' };
    default: {
      const junk = Array.from({ length: 5 + Math.floor(r() * 60) }, () => String.fromCharCode(32 + Math.floor(r() * 95))).join('');
      query = `query { ${junk}`;
    }
  }
  return { body: JSON.stringify({ query, variables: vars }), what: `corruption ${kind} of ${str}` };
}

describe('input fuzz', () => {
  it('2,400 invalid requests: no 5xx, no "Unexpected error.", no success, nothing written', async () => {
    const before = await everyTable();
    const r = rng(12);
    const tokens: Record<Token, string> = { chat: s.chat, assistant: s.assistant, operator: s.operator, admin: t.adminToken };
    const problems: string[] = [];
    const statuses: Record<number, number> = {};
    for (let i = 0; i < 2400; i++) {
      const op = OPS[i % OPS.length]!;
      const { body, what } = corrupt(op, r);
      const res = await t.app.yoga.fetch('http://engram.test/graphql', {
        method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens[op.token]}` }, body,
      });
      const text = await res.text();
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      const label = `#${i} ${op.field} ${what}: ${res.status} ${text.slice(0, 200)}`;
      if (res.status >= 500) problems.push(`5xx ${label}`);
      if (text.includes('Unexpected error')) problems.push(`unexpected ${label}`);
      let json: any = null;
      try { json = JSON.parse(text); } catch { /* a 413 or 400 may carry no JSON */ }
      const typename = json?.data?.[op.field]?.__typename;
      if (typename && SUCCESS.has(typename)) problems.push(`accepted ${label}`);
    }
    expect(problems).toEqual([]);
    expect(await everyTable()).toEqual(before);
    expect(Object.keys(statuses).every((k) => Number(k) < 500)).toBe(true);
  }, 600_000);
});
