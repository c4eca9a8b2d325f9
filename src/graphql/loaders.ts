import DataLoader from 'dataloader';
import { GraphQLError } from 'graphql';
import type { Conversation, MemoryEvent, MemoryHead, MemoryRecord, Mention, Message, Space } from '../ports/memory-store.js';
import type { MemoryDeps } from '../memory/deps.js';
import { InvalidInputError } from '../memory/errors.js';
import { LimitsSchema } from '../config.js';
import { MESSAGES_PAGE, MESSAGES_PAGE_BYTES } from '../store/sql-store-base.js';

/** Items a list inside an object gives when not told (`first`: `Conversation.messages`, `Memory.mentions`, `Memory.events`); at most FIRST_MAX (guard.ts). */
export const LIST_FIRST_DEFAULT = 100;

/** Memories a correction chain is read whole up to (`Memory.correctionChain`), a memory's own predecessors up to (`supersedes`), and steps followed forward to its newest (`currentVersion`, `explanation`): past it, LIMIT_EXCEEDED. */
export const CHAIN_MAX = 1_000;

/** Marks a memory handed out in a list that counted its quote already (`handOutMemories`). */
const QUOTE_COUNTED = Symbol('quote counted');

/** Whether this memory's quote was counted by the list that handed it out (its `quote` field then counts nothing more). */
export const quoteCounted = (m: MemoryHead): boolean => (m as MemoryHead & { [QUOTE_COUNTED]?: true })[QUOTE_COUNTED] === true;

/** A page of a conversation's messages as `Conversation.messages` asks for it. */
export interface MessagesAsked { conversationId: string; first: number; after: string | null }
/** A page of a memory's list (`Memory.mentions`, `Memory.events`). */
export interface PageAsked { memoryId: string; first: number; after: string | null }

/** A list field's `first` and `after` as its loader's key asks for them (`first` defaulted); null for `first: 0` (nothing to read). */
export function pageArgs(a: { first?: number | null; after?: string | number | null }): { first: number; after: string | null } | null {
  const first = a.first ?? LIST_FIRST_DEFAULT;
  return first === 0 ? null : { first, after: a.after == null ? null : String(a.after) };
}

const pageKey = (k: PageAsked) => `${k.memoryId}\u0000${k.first}\u0000${k.after ?? ''}`;

/** Keys asking for the same page size after the same cursor, read together (one statement each group). */
function byPage(keys: readonly PageAsked[]): PageAsked[][] {
  const groups = new Map<string, PageAsked[]>();
  for (const k of keys) {
    const g = `${k.first}\u0000${k.after ?? ''}`;
    const group = groups.get(g);
    if (group) group.push(k);
    else groups.set(g, [k]);
  }
  return [...groups.values()];
}

/** DataLoaders, created per request: one query per batch, results in key order. */
export interface Loaders {
  memory: DataLoader<string, MemoryRecord | null>;
  mentions: DataLoader<PageAsked, Mention[], string>;
  events: DataLoader<PageAsked, MemoryEvent[], string>;
  chain: DataLoader<string, MemoryRecord[]>;
  /** The memories each memory replaced (superseded or marked erroneous in its favour), oldest first: its own, not its chain's. */
  predecessors: DataLoader<string, MemoryRecord[]>;
  /**
   * The newest memory of each memory's correction chain, following what replaced it forward
   * (itself when nothing did), without reading the chain whole: `currentVersion` and
   * `explanation` answer for a chain past CHAIN_MAX too. LIMIT_EXCEEDED (`chain`) only when
   * the walk forward passes CHAIN_MAX steps.
   */
  current: DataLoader<string, MemoryHead | null>;
  /**
   * The message words (`context`, `basis`) of memories read without them (recall's hits, the
   * newest of a chain), counted in the words read: weighed before they are read, in the order
   * asked, past the budget LIMIT_EXCEEDED for the rest.
   */
  texts: DataLoader<string, { context: string | null; basis: string | null } | null>;
  conversation: DataLoader<string, Conversation | null>;
  messages: DataLoader<MessagesAsked, Message[], string>;
  space: DataLoader<string, Space | null>;
  /**
   * Counts a list's words as they go into the answer (each time a field gives them: a page read
   * once and asked for by many fields, aliases or objects that share it, is answered many times);
   * past the request's budget, the field asking gets LIMIT_EXCEEDED instead.
   */
  handOut<T>(items: T[], chars: (x: T) => number): T[];
  /**
   * `handOut` of a list of memories (a correction chain) by their quotes: the memories come back
   * as copies marked counted, so that their own `quote` fields do not count the same words again.
   */
  handOutMemories(items: MemoryRecord[]): MemoryRecord[];
  /** `handOut` of one text a field may answer null for (a memory's context, basis). */
  handOutText<T extends string | null>(text: T): T;
  /**
   * A text a field must answer (a memory's quote, attribution, explanation): counted, never refused
   * (its memory would go with it); the lists and nullable texts after it are.
   */
  countText(text: string): string;
  /** Before a list of records is read: LIMIT_EXCEEDED if the request's words are already spent (its aliases read nothing more). */
  beforeRead(): void;
  /**
   * A list's page weighed before it is read (each record's texts in bytes): the ids that fit in the
   * words left, counted as read, in order; `cut` when some did not. LIMIT_EXCEEDED when not even
   * the first fits.
   */
  weighPage(items: readonly { id: string; bytes: number }[]): { ids: string[]; cut: boolean };
  /** The records of ids read through `memory` (one statement a batch), in order, those gone left out; a failed read throws. */
  records(ids: readonly string[]): Promise<MemoryRecord[]>;
}

/**
 * `readChars`: characters of words the request may read in all, messages' texts and mentions'
 * quotes (docs/limits.md); past it the field asking is answered LIMIT_EXCEEDED (`limit: readChars`),
 * before more is read. The same budget bounds what the answer hands out (`handOut`), counted apart:
 * what is read once may be answered many times.
 */
export function createLoaders(deps: MemoryDeps, readChars = LimitsSchema.parse({}).readChars): Loaders {
  const s = deps.store;
  let read = 0;
  let handedOut = 0;
  const overBudget = () => new GraphQLError(
    `this request would read more than ${readChars.toLocaleString('en')} characters of words: ask for fewer (first, after)`,
    { extensions: { code: 'LIMIT_EXCEEDED', limit: 'readChars' } },
  );
  /** Past the budget once `chars` more are answered: LIMIT_EXCEEDED. */
  const spend = (chars: number) => {
    handedOut += chars;
    if (handedOut > readChars) throw overBudget();
  };
  const chainTooLong = () => new GraphQLError(
    `this correction chain has more than ${CHAIN_MAX.toLocaleString('en')} memories: it is not read whole`,
    { extensions: { code: 'LIMIT_EXCEEDED', limit: 'chain' } },
  );
  const tooManyReplaced = () => new GraphQLError(
    `this memory replaced more than ${CHAIN_MAX.toLocaleString('en')} memories: they are not read`,
    { extensions: { code: 'LIMIT_EXCEEDED', limit: 'chain' } },
  );
  /** One conversation's page, read in statements bounded as the quote check's are (MESSAGES_PAGE, MESSAGES_PAGE_BYTES). */
  const messagesOf = async (k: MessagesAsked): Promise<Message[]> => {
    const out: Message[] = [];
    for (let after = k.after; out.length < k.first;) {
      if (read > readChars) throw overBudget();
      const page = await s.messagePage(k.conversationId, after, Math.min(MESSAGES_PAGE, k.first - out.length), MESSAGES_PAGE_BYTES);
      if (!page.afterFound) throw new InvalidInputError('after', `not a message of conversation ${k.conversationId}`);
      for (const m of page.messages) read += m.text.length;
      if (read > readChars) throw overBudget();
      out.push(...page.messages);
      if (!page.more) break;
      after = page.messages[page.messages.length - 1]!.id;
    }
    return out;
  };
  const memory = new DataLoader<string, MemoryRecord | null>((ids) => s.getMemories(ids));
  /** The records of ids through `memory`, in order, those gone left out; a read that failed (the database lost, say) fails the caller: never a list quietly short. */
  const records = async (ids: readonly string[]): Promise<MemoryRecord[]> => {
    const found = await memory.loadMany(ids);
    const failed = found.find((m): m is Error => m instanceof Error);
    if (failed) throw failed;
    return found.filter((m): m is MemoryRecord => m !== null);
  };
  /**
   * Lists of members (a correction chain, a memory's predecessors) weighed before their records
   * are read (ids and quote sizes), each record read once a batch (the memory loader) and counted
   * in the words read once; a list the store would not give whole (null) is `tooLong`.
   */
  const membersRead = async (lists: ({ id: string; chars: number }[] | null)[], tooLong: () => GraphQLError): Promise<(MemoryRecord[] | Error)[]> => {
    const counted = new Set<string>();
    const weighed = lists.map((c): { id: string }[] | Error => {
      if (c === null) return tooLong();
      const fresh = c.filter((m) => !counted.has(m.id));
      const chars = fresh.reduce((n, m) => n + m.chars, 0);
      if (read + chars > readChars) return overBudget();
      read += chars;
      for (const m of fresh) counted.add(m.id);
      return c;
    });
    const by = new Map((await records([...new Set(weighed.flatMap((c) => (c instanceof Error ? [] : c.map((m) => m.id))))])).map((m) => [m.id, m]));
    return weighed.map((c) => (c instanceof Error ? c : c.flatMap((m) => by.get(m.id) ?? [])));
  };
  return {
    memory,
    mentions: new DataLoader(async (keys) => {
      const found = new Map<PageAsked, Mention[] | Error>();
      for (const group of byPage(keys)) {
        if (read > readChars) {
          for (const k of group) found.set(k, overBudget());
          continue;
        }
        const pages = await s.mentionPages(group.map((k) => k.memoryId), group[0]!.first, group[0]!.after);
        group.forEach((k, i) => {
          const page = pages[i];
          if (!page) return found.set(k, new InvalidInputError('after', `not a wording of memory ${k.memoryId}`));
          for (const m of page) read += m.quote.length;
          found.set(k, read > readChars ? overBudget() : page);
        });
      }
      return keys.map((k) => found.get(k)!);
    }, { cacheKeyFn: pageKey }),
    events: new DataLoader(async (keys) => {
      const found = new Map<PageAsked, MemoryEvent[] | Error>();
      for (const group of byPage(keys)) {
        const after = group[0]!.after;
        if (after !== null && !/^\d{1,15}$/.test(after)) {
          for (const k of group) found.set(k, new InvalidInputError('after', 'not an event id'));
          continue;
        }
        const pages = await s.eventPages(group.map((k) => k.memoryId), group[0]!.first, after === null ? null : Number(after));
        group.forEach((k, i) => found.set(k, pages[i]!));
      }
      return keys.map((k) => found.get(k)!);
    }, { cacheKeyFn: pageKey }),
    chain: new DataLoader(async (ids) => membersRead(await s.chainMembers(ids, CHAIN_MAX), chainTooLong)),
    predecessors: new DataLoader(async (ids) => membersRead(await s.predecessorMembers(ids, CHAIN_MAX), tooManyReplaced)),
    current: new DataLoader(async (ids) => (await s.currentVersions(ids, CHAIN_MAX)).map((m): MemoryHead | null | Error => {
      if (m === null) return null;
      // (still replaced by another: the walk stopped at its bound, not at the chain's end)
      if ((m.supersededBy ?? m.correctedBy) !== null) return chainTooLong();
      read += m.quote.length;
      return read > readChars ? overBudget() : m;
    })),
    texts: new DataLoader(async (ids) => {
      if (read > readChars) return ids.map(() => overBudget());
      return (await s.memoryTexts(ids, readChars - read)).map((t): { context: string | null; basis: string | null } | null | Error => {
        if (t === undefined) return overBudget();
        if (t) read += (t.context?.length ?? 0) + (t.basis?.length ?? 0);
        return t;
      });
    }),
    conversation: new DataLoader((ids) => s.getConversations(ids)),
    // (one conversation at a time: each read is bounded, and the request's budget is checked between them)
    messages: new DataLoader(async (keys) => {
      const out: (Message[] | Error)[] = [];
      for (const k of keys) out.push(await messagesOf(k).catch((e: Error) => e));
      return out;
    }, { cacheKeyFn: (k) => `${k.conversationId}\u0000${k.first}\u0000${k.after ?? ''}` }),
    space: new DataLoader((ids) => s.getSpaces(ids)),
    handOut(items, chars) {
      spend(items.reduce((n, x) => n + chars(x), 0));
      return items;
    },
    handOutMemories(items) {
      spend(items.reduce((n, x) => n + x.quote.length, 0));
      return items.map((m) => ({ ...m, [QUOTE_COUNTED]: true }));
    },
    handOutText(text) {
      spend(text?.length ?? 0);
      return text;
    },
    countText(text) {
      handedOut += text.length;
      return text;
    },
    beforeRead() {
      if (handedOut > readChars || read > readChars) throw overBudget();
    },
    weighPage(items) {
      if (handedOut > readChars) throw overBudget();
      const ids: string[] = [];
      for (const x of items) {
        if (read + x.bytes > readChars) break;
        read += x.bytes;
        ids.push(x.id);
      }
      if (ids.length === 0 && items.length > 0) throw overBudget();
      return { ids, cut: ids.length < items.length };
    },
    records,
  };
}
