import type { MemoryKind, MemoryStatus, MemoryType, Tier } from '../core/types.js';
import type { SweepItem } from '../core/cleanup-selection.js';

/** Opaque transaction handle handed out by the store and passed back to it (and to a transactional vector index). */
export type Tx = unknown;

export interface Space {
  id: string;
  name: string;
  sealed: boolean;
  timeZone: string;
  createdAt: Date;
}

export interface Conversation {
  id: string;
  spaceId: string;
  createdAt: Date;
}

export type MessageRole = 'USER' | 'ASSISTANT';

export interface Message {
  id: string;
  conversationId: string;
  spaceId: string;
  role: MessageRole;
  text: string;
  at: Date;
}

export type EmbeddingStatus = 'OK' | 'MISSING';
export type Review = 'PENDING' | 'ACCEPTED' | 'DISMISSED';
export type Resolution = 'DONE' | 'CANCELLED';

/** A memory as stored: immutable content plus its current state. */
export interface MemoryRecord {
  id: string;
  seq: number;
  spaceId: string;
  kind: MemoryKind;
  type: MemoryType;
  quote: string;
  normalized: string;
  conversationId: string | null;
  messageId: string | null;
  context: string | null;
  basis: string | null;
  saidAt: Date;
  createdAt: Date;
  startsAt: Date | null;
  endsAt: Date | null;
  dueAt: Date | null;
  allDay: boolean;
  status: MemoryStatus;
  mentionCount: number;
  recallCount: number;
  lastMentionedAt: Date;
  importance: number | null;
  valence: number | null;
  entities: string[];
  themes: string[];
  tags: string[];
  supersededBy: string | null;
  correctedBy: string | null;
  mergedInto: string | null;
  embeddingStatus: EmbeddingStatus;
  review: Review | null;
  resolution: Resolution | null;
  resolvedAt: Date | null;
  statusChangedAt: Date | null;
}

/**
 * A memory without its message's words (`context`, `basis`: up to 100,000 characters each), as
 * recognition and recall read their candidates: neither rule reads them, and a space of long
 * messages made every candidate carry its whole message. A field that answers them reads them
 * (`memoryTexts`).
 */
export type MemoryHead = Omit<MemoryRecord, 'context' | 'basis'>;

/** A sentence of one message as it was kept: the memory holding that wording (any status), the wording's tier (`ORIGINAL`: the memory's first) and score. */
export interface KeptWording { memoryId: string; tier: 'ORIGINAL' | Tier; score: number | null }

/** Whether a memory was read whole (with `context` and `basis`). */
export const isWhole = (m: MemoryHead): m is MemoryRecord => 'context' in m;

export interface NewMemory {
  id: string;
  spaceId: string;
  kind: MemoryKind;
  type: MemoryType;
  quote: string;
  normalized: string;
  conversationId: string | null;
  messageId: string | null;
  context: string | null;
  basis: string | null;
  saidAt: Date;
  startsAt?: Date | null;
  endsAt?: Date | null;
  dueAt?: Date | null;
  allDay?: boolean;
  importance: number | null;
  valence: number | null;
  entities: string[];
  themes: string[];
  tags: string[];
  embeddingStatus: EmbeddingStatus;
  review: Review | null;
  /** Space-separated word keys for the lexical index. */
  lexicalText: string;
  /** The system-of-record copy of the vector, written in the same statement (see `VectorIndexCapabilities.storeVectors`). */
  vector?: { embedder: string; vector: Float32Array } | null;
  /** Events written in the same statement, in order (their memoryId as given). */
  events?: NewEvent[];
}

export interface Mention {
  id: string;
  memoryId: string;
  quote: string;
  conversationId: string | null;
  messageId: string | null;
  saidAt: Date;
  tier: Tier | 'ORIGINAL';
  score: number | null;
  createdAt: Date;
}

export interface MemoryEvent {
  id: number;
  spaceId: string;
  memoryId: string | null;
  kind: string;
  actor: string;
  tier: string | null;
  score: number | null;
  rule: string | null;
  relatedId: string | null;
  detail: Record<string, unknown> | null;
  at: Date;
}

export type NewEvent = Omit<MemoryEvent, 'id' | 'at'> & { at?: Date };

/** What reinforcement writes onto the existing memory (merge rules already applied). */
export interface Reinforcement {
  memoryId: string;
  lastMentionedAt: Date;
  importance: number | null;
  valence: number | null;
  entities: string[];
  themes: string[];
  tags: string[];
  /** Word keys the new wording adds to the memory's lexical index. */
  lexicalText: string;
  mention: Omit<Mention, 'createdAt' | 'memoryId'>;
  /** Events written by the same statement, returned as written. */
  events?: NewEvent[];
}

export interface ListFilter {
  kind?: MemoryKind;
  statuses?: MemoryStatus[];
  types?: MemoryType[];
}

export type ListOrder = 'RECENT' | 'STRENGTH' | 'CREATED';

export interface TokenRecord {
  id: string;
  role: 'admin' | 'operator' | 'chat' | 'assistant';
  spaceId: string | null;
  label: string | null;
}

export interface LexicalHit {
  memoryId: string;
  rank: number;
}

/** What BM25 needs to know of a (space, kind) before scoring, and whether the space holds that kind at all. */
export interface LexicalStats {
  /** Some memory of this kind exists in the space (any status). */
  present: boolean;
  docs: number;
  totalLen: number;
  /** Documents holding each query term (terms of no document are absent). */
  df: Map<string, number>;
  /** Of the `heard` keys asked for, those some memory of this kind with one of the kind's statuses holds. */
  heard: Set<string>;
  /** Each query term's version where the store keeps one: it changes whenever any of the term's postings does. */
  ver?: Map<string, string>;
}

/** A conversation and the last of its messages, in order (`MemoryStore.conversationTranscript`). */
/** A page of a conversation's messages (`MemoryStore.messagePage`). */
export interface MessagePage { messages: Message[]; more: boolean; afterFound: boolean }

export interface ConversationTranscript {
  conversation: Conversation;
  messages: Message[];
  /** The conversation's space's last event id, read in the same statement (one snapshot) as the messages. */
  lastEventId: number;
  /** Messages before `messages`: any, and one dated after the oldest of them. */
  earlier: { any: boolean; datedLater: boolean };
}

/** `lexicalStats`' heard keys: word keys, and per kind the statuses a memory holding one must have. */
export interface HeardQuery {
  keys: readonly string[];
  statuses: Partial<Record<MemoryKind, MemoryStatus[]>>;
}

/**
 * The system of record as the use cases see it. Methods taking `tx` run inside the
 * caller's transaction (from `transaction` / `withSpaceLock`).
 */
export interface MemoryStore {
  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  withSpaceLock<T>(spaceId: string, fn: (tx: Tx) => Promise<T>): Promise<T>;
  readonly statementCount: number;

  createSpace(s: { id: string; name: string; sealed: boolean; timeZone: string }, tx?: Tx): Promise<Space>;
  getSpaces(ids: readonly string[]): Promise<(Space | null)[]>;
  listSpaces(): Promise<Space[]>;
  setSpaceTimeZone(id: string, timeZone: string): Promise<void>;
  dropSpace(id: string, tx: Tx): Promise<void>;
  countMemories(spaceId: string, kind?: MemoryKind | null): Promise<number>;
  countByStatus(spaceId: string, kind: MemoryKind): Promise<Record<string, number>>;

  insertToken(t: { id: string; hash: string; role: string; spaceId: string | null; label: string | null }): Promise<void>;
  findToken(hash: string): Promise<TokenRecord | null>;
  /** Whether a token with this hash existed and was revoked (so a refusal can say so). */
  isRevokedToken(hash: string): Promise<boolean>;
  countTokens(): Promise<number>;
  revokeToken(id: string): Promise<boolean>;

  createConversation(c: { id: string; spaceId: string }): Promise<Conversation>;
  getConversations(ids: readonly string[]): Promise<(Conversation | null)[]>;
  addMessage(m: Message): Promise<Message>;
  listMessages(conversationId: string, tx?: Tx): Promise<Message[]>;
  /** The text of one message of a conversation, or null if the conversation holds no such message. */
  messageText(conversationId: string, messageId: string, tx?: Tx): Promise<string | null>;
  /**
   * A conversation and its last `last` messages in order, read in one statement (null: no such
   * conversation), and of the messages before them (`earlier`) whether there are any and whether one
   * is dated (`at`) after the oldest of the last ones. The last messages stop where their text
   * passes `bytes` (the latest is always read): the rest are `earlier`. A whole conversation is read
   * by `listMessages` (in pages).
   */
  conversationTranscript(conversationId: string, last: number, bytes: number): Promise<ConversationTranscript | null>;
  /**
   * A page of a conversation's messages in the order recorded: at most `count`, after the message
   * `after` (null: from the first), and as many as fit in `bytes` of text (the first always). `more`:
   * whether messages may follow the page; `afterFound`: whether `after` is a message of this
   * conversation (when not, the page is empty).
   */
  messagePage(conversationId: string, after: string | null, count: number, bytes: number, tx?: Tx): Promise<MessagePage>;

  /** Writes a new memory (its state, original mention and lexicon entry) and returns it as written. */
  /** One statement: the memory, its state, original mention and lexicon entry, and the vector and events when given. */
  insertMemory(tx: Tx, m: NewMemory): Promise<MemoryRecord & { events?: MemoryEvent[] }>;
  /**
   * True where the store runs one statement at a time and nothing beside it (PGlite): a statement
   * alone is then atomic and serialised with every other writer, without a lock or a transaction.
   */
  readonly oneStatementAtATime?: boolean;
  /**
   * With `oneStatementAtATime`: `insertMemory` as a statement of its own that writes only if the
   * space's last event id is still `seen` (null, nothing written, if it moved): the space's lock,
   * its check of the id and the write in one statement (docs/concurrency.md).
   */
  insertMemoryIfUnchanged?(seen: number, m: NewMemory): Promise<(MemoryRecord & { events?: MemoryEvent[] }) | null>;
  /** With `oneStatementAtATime`: `reinforce`, checked as `insertMemoryIfUnchanged` is. */
  reinforceIfUnchanged?(seen: number, r: Reinforcement, spaceId: string): Promise<(MemoryRecord & { events?: MemoryEvent[] }) | null>;
  putVector(tx: Tx, v: { memoryId: string; spaceId: string; kind: MemoryKind; embedder: string; vector: Float32Array }): Promise<void>;
  getVectors(ids: readonly string[], tx?: Tx): Promise<Map<string, Float32Array>>;
  findActiveByNormalized(tx: Tx | undefined, spaceId: string, kind: MemoryKind, normalized: string): Promise<MemoryHead[]>;
  /**
   * Where recognition starts: `findActiveByNormalized`'s answer, and the wording `retryOf` (a sentence
   * of one message) already kept in the space, whatever its memory's status (a retry), in one statement.
   */
  recognitionStart(spaceId: string, kind: MemoryKind, normalized: string, retryOf?: { messageId: string; quote: string }): Promise<{
    exact: MemoryHead[]; kept?: KeptWording | null;
  }>;
  /** The active statements kept from one message, oldest first, without their message's words (a message of 100,000 characters is each one's context). */
  activeOfMessage(tx: Tx | undefined, spaceId: string, messageId: string): Promise<MemoryHead[]>;
  getMemories(ids: readonly string[], spaceId?: string | null, tx?: Tx): Promise<(MemoryRecord | null)[]>;
  /** `getMemories` without the memories' message words (`MemoryHead`). */
  getMemoryHeads(ids: readonly string[], spaceId?: string | null, tx?: Tx): Promise<(MemoryHead | null)[]>;
  /**
   * The message words (`context`, `basis`) of memories, in the order asked, while their sizes in
   * all (bytes, read from the values' headers) stay within `maxBytes`; null for a memory gone,
   * undefined for one past `maxBytes` (its words not read).
   */
  memoryTexts(ids: readonly string[], maxBytes: number): Promise<({ context: string | null; basis: string | null } | null | undefined)[]>;
  /** The order messages were recorded in (their `seq`), by id; messages gone are left out. */
  messageOrder(tx: Tx | undefined, ids: readonly string[]): Promise<Map<string, number>>;
  /** The wording a sentence of one message was kept as in the space (`recognitionStart`'s `kept`), or null. */
  keptWording(tx: Tx | undefined, spaceId: string, messageId: string, quote: string): Promise<KeptWording | null>;
  /** Adds a mention to a memory (counters, lists, lexicon) and returns it as updated. */
  reinforce(tx: Tx, r: Reinforcement, spaceId: string): Promise<MemoryRecord & { events?: MemoryEvent[] }>;
  setStatus(
    tx: Tx | undefined, spaceId: string, ids: readonly string[], status: MemoryStatus,
    opts?: { from?: MemoryStatus[]; supersededBy?: string | null; correctedBy?: string | null; mergedInto?: string | null },
  ): Promise<string[]>;
  /** A status change of many memories and one event per changed memory, in one statement. */
  setStatusLogged(
    tx: Tx, spaceId: string, ids: readonly string[], status: MemoryStatus, from: MemoryStatus[], event: { kind: string; actor: string },
  ): Promise<{ changed: string[]; events: MemoryEvent[] }>;
  setReview(spaceId: string, id: string, review: 'ACCEPTED' | 'DISMISSED'): Promise<boolean>;
  setEmbeddingStatus(tx: Tx, id: string, status: EmbeddingStatus): Promise<void>;
  missingEmbeddings(spaceId: string | null, limit: number): Promise<MemoryRecord[]>;
  /**
   * Adds one to each memory's recall count, after the answer: issued at once, not waited for
   * (unless many are pending), a failure logged and never thrown. A read that follows may see the
   * count a moment later; `settled` waits for every such write.
   */
  incrementRecall(ids: readonly string[]): Promise<void>;
  /** Resolves once every write issued after its answer (`incrementRecall`) is done: the container waits for it before closing. */
  settled(): Promise<void>;
  listMemories(spaceId: string, filter: ListFilter, order: ListOrder, first: number, offset: number): Promise<{ items: MemoryRecord[]; hasNext: boolean }>;
  /** `listMemories`' page as ids, each with the bytes of its texts (quote, normalized, context, basis), read from the values' headers. */
  listMemorySizes(spaceId: string, filter: ListFilter, order: ListOrder, first: number, offset: number): Promise<{ items: { id: string; bytes: number }[]; hasNext: boolean }>;
  /**
   * Each memory's correction chain (every memory linked to it, either way), oldest first, as its
   * members with each quote's length (bytes: at least its characters), not their records; null for
   * a chain of more than `max` memories.
   */
  chainMembers(ids: readonly string[], max: number): Promise<({ id: string; chars: number }[] | null)[]>;
  /**
   * The memories each id replaced (whose supersededBy or correctedBy names it), oldest first, as
   * `chainMembers` gives them (ids and quote lengths); null for more than `max` of them.
   */
  predecessorMembers(ids: readonly string[], max: number): Promise<({ id: string; chars: number }[] | null)[]>;
  /**
   * The newest memory of each id's correction chain (itself when nothing replaced it), following
   * what replaced each forward at most `steps` times (100 when not told): a memory reached at the
   * bound still names what replaced it.
   */
  currentVersions(ids: readonly string[], steps?: number): Promise<(MemoryHead | null)[]>;
  mentionsOf(memoryIds: readonly string[], tx?: Tx): Promise<Mention[][]>;
  eventsOf(memoryIds: readonly string[]): Promise<MemoryEvent[][]>;
  /**
   * `mentionsOf` a page at a time: of each memory, the first `first` wordings in order after the
   * mention `after` (null: from the first); null for a memory `after` is not a wording of.
   */
  mentionPages(memoryIds: readonly string[], first: number, after: string | null): Promise<(Mention[] | null)[]>;
  /** `eventsOf` a page at a time: of each memory, the first `first` events after the event `after` (null: from the first). */
  eventPages(memoryIds: readonly string[], first: number, after: number | null): Promise<MemoryEvent[][]>;
  spaceEvents(spaceId: string, afterId: number, limit: number): Promise<MemoryEvent[]>;
  /**
   * The id of the space's last event (0: none). Every writer of a space records its events under
   * the space's lock, so an unchanged id means nothing was written in the space (remember's check).
   */
  lastEventId(spaceId: string, tx?: Tx): Promise<number>;
  addEvents(tx: Tx | undefined, events: NewEvent[]): Promise<MemoryEvent[]>;
  /** `stats`: this kind's `lexicalStats`, read already (saves a statement). */
  lexicalSearch(spaceId: string, keys: string[], k: number, kind: MemoryKind, statuses: MemoryStatus[], stats?: LexicalStats): Promise<LexicalHit[]>;
  /**
   * BM25's statistics of the query's terms for each kind, which kinds the space holds, and which
   * of the `heard` keys some memory of the kind (with one of its statuses) holds in its lexicon: one statement.
   */
  lexicalStats(spaceId: string, keys: string[], kinds: MemoryKind[], heard?: HeardQuery): Promise<Map<MemoryKind, LexicalStats>>;
  /** Forget for good: removes the memories and applies the rewrites (redacted messages, scrubbed contexts), which may only remove words. */
  forget(tx: Tx, spaceId: string, ids: readonly string[], rewrites?: ForgetRewrites): Promise<string[]>;
  /**
   * After a forget, sweep or drop has committed: rewrites the files that still hold the
   * old row versions (docs/erasure.md). Never throws; what could not run is logged.
   */
  eraseResidue(): Promise<void>;
  /**
   * What a forget redacts (docs/erasure.md, "Every copy"): every wording of the memories (their
   * mentions' quotes), and the messages of the space that may hold one: the messages they were
   * said in, and every message holding literally all the pieces of one wording (`piecesOf`, per
   * wording; `pieces[i]` are wording i's). Found by set-based statements, not a message at a time.
   */
  forgottenMessages(tx: Tx, spaceId: string, ids: readonly string[], piecesOf: (wording: string) => string[]): Promise<{
    wordings: string[]; pieces: string[][]; messages: { id: string; text: string }[];
  }>;
  /**
   * Before memories `ids` are forgotten: every memory that stays and was replaced by one of them
   * (superseded by it, or marked erroneous in its favour) is linked instead to the first memory
   * that replaced that one and stays, or to none (docs/erasure.md, "A correction forgotten").
   * Statuses do not change. Returns the memories relinked.
   */
  relinkPastForgotten(tx: Tx, spaceId: string, ids: readonly string[]): Promise<string[]>;
  /** Surviving memories a forget touches: said in a message that is rewritten (`messageIds`), or right after one. */
  forgetNeighbours(tx: Tx, spaceId: string, ids: readonly string[], messageIds: readonly string[]): Promise<{
    siblings: { id: string; quote: string; context: string }[]; followers: string[];
  }>;

  // ---- tidy: cleanup sweeps, resolution, consolidation (docs/cleanup.md, docs/consolidation.md)
  /** Every memory of a space (both kinds, every status) with what a cleanup sweep looks at. */
  sweepItems(tx: Tx | undefined, spaceId: string): Promise<SweepItem[]>;
  /** Sets or clears the resolution of one memory of the space; false when it is not there. */
  setResolution(tx: Tx | undefined, spaceId: string, id: string, resolution: Resolution | null, at: Date | null): Promise<boolean>;
  /** Active statements of a space, oldest first. */
  activeStatements(tx: Tx | undefined, spaceId: string): Promise<MemoryRecord[]>;
  /** Marks memories MERGED into their reference (only ACTIVE ones, references ACTIVE) and adds their counts onto it. */
  mergeMemories(tx: Tx, spaceId: string, merges: readonly MergeRequest[]): Promise<AppliedMerge[]>;
  /** Reverses the open merge of a MERGED memory: ACTIVE again, its count taken back off the reference. */
  unmergeMemory(tx: Tx, spaceId: string, memoryId: string): Promise<AppliedMerge | null>;
  /** Rewrites the lexical index of memories (reinforcement and merges add wordings). */
  setLexicon(tx: Tx, items: readonly { memoryId: string; text: string }[]): Promise<void>;
  /** The memories merged into `ids`, directly or through other merged memories. */
  mergedDescendants(tx: Tx | undefined, spaceId: string, ids: readonly string[]): Promise<string[]>;
  /** The space's inferences that give a basis, with it (a forget looks for its words there). */
  inferenceBases(tx: Tx, spaceId: string): Promise<{ id: string; basis: string }[]>;
  /** Before forgetting `ids`: takes their open merges' counts back off references that survive. */
  /** Takes merged counts back off references that stay; returns those references. */
  releaseMerges(tx: Tx, spaceId: string, ids: readonly string[]): Promise<string[]>;
}

export interface MergeRequest {
  memoryId: string;
  intoId: string;
  tier: string | null;
  score: number | null;
}

export interface AppliedMerge {
  memoryId: string;
  intoId: string;
  /** Mentions added onto the reference (what unmerge takes back). */
  added: number;
  tier: string | null;
  score: number | null;
}

/** What a forget rewrites besides deleting: each message without its forgotten sentences (null: deleted), each surviving context. */
export interface ForgetRewrites {
  messages: { id: string; text: string | null }[];
  contexts: { id: string; context: string | null }[];
}
