import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { lexicalText } from '../../src/memory/lexical.js';

type Sp = Awaited<ReturnType<TestApp['space']>>;
let t: TestApp;

/**
 * `n` memories in a space, written through the store: every third reinforced (a
 * second mention), every fifth correcting the one before (a correction chain), all
 * in two conversations with messages.
 */
async function fill(sp: Sp, n: number): Promise<void> {
  const { store } = t.app.engram;
  const convs = [randomUUID(), randomUUID()];
  for (const id of convs) {
    await store.createConversation({ id, spaceId: sp.id });
    await store.addMessage({ id: randomUUID(), conversationId: id, spaceId: sp.id, role: 'USER', text: 'hello', at: new Date() });
  }
  await store.transaction(async (tx) => {
    let prev: string | null = null;
    for (let i = 0; i < n; i++) {
      const id = randomUUID();
      const quote = `Memory ${i} of the list view.`;
      await store.insertMemory(tx, {
        id, spaceId: sp.id, kind: 'STATEMENT', type: 'FACT', quote, normalized: quote.toLowerCase(), conversationId: convs[i % 2],
        messageId: null, context: null, basis: null, saidAt: new Date(Date.UTC(2026, 0, 1, 0, i)), importance: null, valence: null,
        entities: [], themes: [], tags: [], embeddingStatus: 'OK', review: null, lexicalText: lexicalText([quote]),
      });
      if (i % 3 === 0) {
        await store.reinforce(tx, {
          memoryId: id, lastMentionedAt: new Date(Date.UTC(2026, 0, 2, 0, i)), importance: null, valence: null, entities: [], themes: [], tags: [],
          lexicalText: lexicalText([quote]),
          mention: { id: randomUUID(), quote: `${quote} Again.`, conversationId: null, messageId: null, saidAt: new Date(Date.UTC(2026, 0, 2, 0, i)), tier: 'CLOSE', score: 0.9 },
        }, sp.id);
      }
      if (i % 5 === 4 && prev) await store.setStatus(tx, sp.id, [prev], 'SUPERSEDED', { supersededBy: id });
      prev = id;
    }
  });
}

const LIST = `query($first: Int) {
  memories(first: $first, orderBy: CREATED, filter: { statuses: [ACTIVE, SUPERSEDED] }) {
    __typename
    ... on MemoryConnection {
      nodes {
        id quote status mentionCount
        mentions { id quote tier score }
        correctionChain { id status quote }
        supersedes { id }
        supersededBy { id }
        currentVersion { id }
        explanation
        conversation { id messages { id text } }
        events { kind }
        mergedInto { id }
      }
    }
  }
}`;

async function listStatements(sp: Sp): Promise<{ statements: number; nodes: any[] }> {
  const db = t.app.engram.db;
  const before = db.statementCount;
  const r = await t.gql(sp.operator, LIST, { first: 500 });
  const statements = db.statementCount - before;
  expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
  return { statements, nodes: r.data.memories.nodes };
}

let small: Sp;
let large: Sp;

beforeAll(async () => {
  // The list asks for every relation of 500 memories at once, far over the default cost limit now
  // that `first: $first` weighs as the 500 it runs with (src/graphql/list-sizes.ts): the limit is
  // raised here, the statements counted as before.
  t = await createTestApp({ env: { ENGRAM_MAX_COST: '10000000' } });
  small = await t.space({ name: 'ten' });
  large = await t.space({ name: 'hundred' });
  await fill(small, 10);
  await fill(large, 100);
});

afterAll(async () => {
  await t?.close();
});

describe('list view without N+1', () => {
  it('lists 100 memories with mentions and correction chains in as many SQL statements as 10', async () => {
    const a = await listStatements(small);
    const b = await listStatements(large);
    expect(a.nodes).toHaveLength(10);
    expect(b.nodes).toHaveLength(100);
    // The data is really there: second mentions and chains.
    expect(b.nodes[0].mentions).toHaveLength(2);
    expect(b.nodes[3].status).toBe('SUPERSEDED');
    expect(b.nodes[3].supersededBy.id).toBe(b.nodes[4].id);
    expect(b.nodes[4].correctionChain.map((m: any) => m.id)).toEqual([b.nodes[3].id, b.nodes[4].id]);
    expect(b.nodes[3].currentVersion.id).toBe(b.nodes[4].id);
    expect(b.statements).toBe(a.statements);
    expect(b.statements).toBeLessThanOrEqual(12);
  });
});
