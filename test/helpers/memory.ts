/**
 * GraphQL building blocks shared by the API and end-to-end suites: the chat side
 * opens conversations and records what the person typed, the assistant keeps
 * sentences, the operator reads and changes statuses. Every call goes through
 * the real schema; these helpers only save typing.
 */
import type { Embedder, RecognitionThresholds } from '../../src/ports/embedder.js';
import { EmbeddingError } from '../../src/ports/embedder.js';
import type { Queryable } from '../../src/store/sql-client.js';

export type Gql = <T = any>(token: string | null, query: string, variables?: Record<string, unknown>) => Promise<{ data: T; errors?: any[] }>;

/** Every typed error (valid on any payload union). */
export const ERROR_FIELDS = `... on Error { __typename code message } ... on NotFound { what missingId: id } ... on InvalidInput { field }`;
/** Quote refusals (only on payloads that can return them: remember, correct). */
export const QUOTE_FIELDS = `... on QuoteRefusal { reason detail }`;

export const MEMORY_FIELDS = `id kind type quote status current mentionCount recallCount saidAt attribution context derivedEntities derivedThemes
  entities themes tags importance valence embeddingStatus review lastMentionedAt`;

export const REMEMBER = `mutation($input: RememberInput!) {
  remember(input: $input) {
    __typename
    ... on RememberOutcome { outcome tier score rule memory { ${MEMORY_FIELDS} } superseded { id status } }
    ${ERROR_FIELDS} ${QUOTE_FIELDS}
  }
}`;

export const MEMORY = `query($id: ID!) {
  memory(id: $id) {
    __typename
    ... on Memory {
      ${MEMORY_FIELDS}
      mentions { quote tier score saidAt attribution }
      events { kind actor tier score rule relatedId detail at }
      supersededBy { id status quote }
      correctedBy { id status quote }
      supersedes { id status quote }
      correctionChain { id status quote saidAt }
      currentVersion { id quote }
      explanation
    }
    ${ERROR_FIELDS}
  }
}`;

export const MEMORIES = `query($spaceId: ID, $filter: MemoryFilter, $orderBy: MemoryOrder, $first: Int, $after: String) {
  memories(spaceId: $spaceId, filter: $filter, orderBy: $orderBy, first: $first, after: $after) {
    __typename
    ... on MemoryConnection { nodes { ${MEMORY_FIELDS} } edges { cursor node { id } } pageInfo { hasNextPage endCursor } }
    ${ERROR_FIELDS}
  }
}`;

export const RECALL = `query($c: ID!, $q: String!, $first: Int) {
  recall(conversationId: $c, query: $q, first: $first) {
    __typename
    ... on RecallResult {
      nothingOnFile
      statements { score attribution memory { id quote status kind } }
      inferences { score attribution memory { id quote status kind } }
    }
    ${ERROR_FIELDS}
  }
}`;

export const PROFILE = `query($first: Int) {
  profile(first: $first) { __typename ... on ProfileSuccess { data { id quote status } } ${ERROR_FIELDS} }
}`;

/** The chat / assistant / operator side of one space, through GraphQL. */
export interface SpaceTokens { id: string; chat: string; assistant: string; operator: string }

export function actors(gql: Gql, s: SpaceTokens) {
  const ok = <T>(r: { data: any; errors?: any[] }, field: string): T => {
    if (r.errors?.length) throw new Error(`${field}: ${JSON.stringify(r.errors)}`);
    return r.data[field] as T;
  };
  return {
    /** Opens a conversation with the chat token. */
    async open(): Promise<string> {
      const r = await gql(s.chat, `mutation { openConversation { __typename ... on Conversation { id } ${ERROR_FIELDS} } }`);
      const c = ok<any>(r, 'openConversation');
      if (c.__typename !== 'Conversation') throw new Error(`openConversation: ${JSON.stringify(c)}`);
      return c.id;
    },
    /** The chat side records a message (USER by default). */
    async say(conversationId: string, text: string, opts: { role?: 'USER' | 'ASSISTANT'; at?: string } = {}): Promise<string> {
      const r = await gql(s.chat, `mutation($c: ID!, $r: MessageRole!, $t: String!, $at: DateTime) {
        recordMessage(conversationId: $c, role: $r, text: $t, at: $at) { __typename ... on Message { id } ${ERROR_FIELDS} } }`,
      { c: conversationId, r: opts.role ?? 'USER', t: text, at: opts.at ?? null });
      const m = ok<any>(r, 'recordMessage');
      if (m.__typename !== 'Message') throw new Error(`recordMessage: ${JSON.stringify(m)}`);
      return m.id;
    },
    /** The assistant keeps a quote; returns the union payload as is. */
    async remember(input: Record<string, unknown>): Promise<any> {
      return ok<any>(await gql(s.assistant, REMEMBER, { input: { type: 'FACT', ...input } }), 'remember');
    },
    /** Records `text` as a USER message in a new conversation, then keeps it whole. */
    async state(text: string, input: Record<string, unknown> = {}, at?: string): Promise<any> {
      const c = await this.open();
      await this.say(c, text, { at });
      return this.remember({ conversationId: c, quote: text, ...input });
    },
    async memory(id: string, token = s.operator): Promise<any> {
      return ok<any>(await gql(token, MEMORY, { id }), 'memory');
    },
    async list(vars: Record<string, unknown> = {}, token = s.operator): Promise<any> {
      return ok<any>(await gql(token, MEMORIES, vars), 'memories');
    },
    async recall(conversationId: string, q: string, first = 5): Promise<any> {
      return ok<any>(await gql(s.assistant, RECALL, { c: conversationId, q, first }), 'recall');
    },
    async profile(first = 50): Promise<any> {
      return ok<any>(await gql(s.operator, PROFILE, { first }), 'profile');
    },
    /** A status mutation (mute / unmute / retract) by the operator. */
    async status(action: 'mute' | 'unmute' | 'retract', memoryId: string): Promise<any> {
      return ok<any>(await gql(s.operator, `mutation($id: ID!) { ${action}(memoryId: $id) { __typename ... on Memory { id status } ${ERROR_FIELDS} } }`, { id: memoryId }), action);
    },
  };
}

/** Rows of the content tables of one space (what "nothing written" is checked against). */
export async function contentCounts(db: Queryable, spaceId: string): Promise<{ memories: number; mentions: number; vectors: number }> {
  const r = await db.query<{ memories: number; mentions: number; vectors: number }>(
    `select (select count(*)::int from memories where space_id = $1) as memories,
            (select count(*)::int from mentions where space_id = $1) as mentions,
            (select count(*)::int from memory_vectors where space_id = $1) as vectors`,
    [spaceId],
  );
  const x = r.rows[0];
  return { memories: Number(x.memories), mentions: Number(x.mentions), vectors: Number(x.vectors) };
}

/**
 * The real embedder, wrapped so that a test can make it fail on demand (the
 * embedding-failure path). Everything else is the real model.
 */
export class FailSwitchEmbedder implements Embedder {
  failing = false;
  constructor(private readonly inner: Embedder) {}
  get id(): string { return this.inner.id; }
  get dimensions(): number { return this.inner.dimensions; }
  get thresholds(): RecognitionThresholds { return this.inner.thresholds; }
  init(): Promise<void> { return this.inner.init(); }
  async embed(texts: string[]): Promise<Float32Array[]> {
    if (this.failing) throw new EmbeddingError('embedder switched off by the test');
    return this.inner.embed(texts);
  }
  /** The wrapped embedder is shared by the test process: never closed here. */
  async close(): Promise<void> {}
}
