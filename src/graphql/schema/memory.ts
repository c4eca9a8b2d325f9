import { useCases } from '../lazy-use-cases.js';
import { ensureLexicon } from '../../core/lexicon.js';
import { builder } from '../builder.js';
import { attribution } from '../../core/quote-check.js';
import { isWhole, type MemoryEvent, type MemoryHead, type MemoryRecord, type Mention } from '../../ports/memory-store.js';
import {
  EmbeddingStatusEnum, MemoryKindEnum, MemoryStatusEnum, MemoryTypeEnum, MentionTierEnum, ResolutionEnum, ReviewEnum,
} from './enums.js';
import { ConversationRef } from './space.js';
import { NodeRef } from './node-interface.js';
import type DataLoader from 'dataloader';
import { CHAIN_MAX, LIST_FIRST_DEFAULT, pageArgs, quoteCounted, type Loaders, type PageAsked } from '../loaders.js';
import { FIRST_MAX } from '../guard.js';

/** A wording's or memory's quote length: what it counts in the request's words answered. */
const quoteLength = (x: { quote: string }): number => x.quote.length;

/** A memory's page of a list (`first` and `after` checked by the schema's guard). */
function pageOf<V>(loader: DataLoader<PageAsked, V[], string>, memoryId: string, a: { first?: number | null; after?: string | number | null }): Promise<V[]> | V[] {
  const page = pageArgs(a);
  return page ? loader.load({ memoryId, ...page }) : [];
}

export const MentionRef = builder.objectRef<Mention>('Mention').implement({
  description: 'One wording a memory was said in: its own quote, time, tier and score.',
  fields: (t) => ({
    id: t.exposeID('id'),
    quote: t.exposeString('quote'),
    saidAt: t.expose('saidAt', { type: 'DateTime' }),
    attribution: t.string({ resolve: (m) => attribution(m.saidAt, m.quote) }),
    tier: t.field({ type: MentionTierEnum, resolve: (m) => m.tier }),
    score: t.float({ nullable: true, resolve: (m) => m.score }),
    conversationId: t.exposeID('conversationId', { nullable: true, description: 'The conversation this wording was said in (null once that conversation is gone).' }),
  }),
});

export const MemoryEventRef = builder.objectRef<MemoryEvent>('MemoryEvent').implement({
  description: 'An entry of the append-only audit log. Never holds a memory\'s text.',
  fields: (t) => ({
    id: t.id({ resolve: (e) => String(e.id) }),
    kind: t.exposeString('kind'),
    memoryId: t.exposeID('memoryId', { nullable: true }),
    relatedId: t.exposeID('relatedId', { nullable: true }),
    actor: t.exposeString('actor'),
    tier: t.exposeString('tier', { nullable: true }),
    score: t.float({ nullable: true, resolve: (e) => e.score }),
    rule: t.exposeString('rule', { nullable: true }),
    detail: t.field({ type: 'JSON', nullable: true, resolve: (e) => e.detail }),
    at: t.expose('at', { type: 'DateTime' }),
  }),
});

/** A memory as read whole, or without its message's words (recall's hits, recognition's candidates): `context` and `basis` read when asked. */
export const MemoryRef = builder.objectRef<MemoryHead>('Memory');

MemoryRef.implement({
  interfaces: [NodeRef],
  description: "A memory: the person's own words (STATEMENT) or the assistant's conclusion (INFERENCE).",
  fields: (t) => ({
    id: t.exposeID('id'),
    kind: t.field({ type: MemoryKindEnum, resolve: (m) => m.kind }),
    type: t.field({ type: MemoryTypeEnum, resolve: (m) => m.type }),
    // (the texts below count in the request's words answered: src/graphql/loaders.ts, countText and handOutText)
    quote: t.string({ description: 'Exactly what the person typed (or, for an inference, what the assistant concluded).', resolve: (m, _a, ctx) => (quoteCounted(m) ? m.quote : ctx.loaders.countText(m.quote)) }),
    saidAt: t.expose('saidAt', { type: 'DateTime' }),
    attribution: t.string({
      description: 'The dated quote: On 2026-09-21 you wrote: "I grew up in Duluth."',
      resolve: (m, _a, ctx) => ctx.loaders.countText(m.kind === 'INFERENCE' ? `Inferred by the assistant on ${m.saidAt.toISOString().slice(0, 10)}: ${m.quote}` : attribution(m.saidAt, m.quote)),
    }),
    context: t.string({ nullable: true, description: 'The message the quote came from, when it held more: the whole of it, or of a long one the quote with up to 1,000 characters on each side (the whole message stays in its conversation).', resolve: async (m, _a, ctx) => ctx.loaders.handOutText((await textsOf(m, ctx.loaders)).context) }),
    basis: t.string({ nullable: true, resolve: async (m, _a, ctx) => ctx.loaders.handOutText((await textsOf(m, ctx.loaders)).basis) }),
    status: t.field({ type: MemoryStatusEnum, resolve: (m) => m.status }),
    current: t.boolean({ description: 'ACTIVE: not muted, retracted, superseded, erroneous or merged.', resolve: (m) => m.status === 'ACTIVE' }),
    mentionCount: t.exposeInt('mentionCount'),
    recallCount: t.exposeInt('recallCount'),
    lastMentionedAt: t.expose('lastMentionedAt', { type: 'DateTime' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    importance: t.float({ nullable: true, resolve: (m) => m.importance }),
    valence: t.float({ nullable: true, resolve: (m) => m.valence }),
    entities: t.exposeStringList('entities', { description: 'Entities the caller gave (union over every wording).' }),
    themes: t.exposeStringList('themes', { description: 'Themes the caller gave (union over every wording).' }),
    derivedEntities: t.stringList({
      description: 'Entities the server read from the quote itself (names, things, dates, quantities): kept apart from the caller\'s, used alike by recognition.',
      resolve: async (m) => (await useCases()).deriveEntities(m.quote),
    }),
    derivedThemes: t.stringList({
      description: 'Themes the server read from the quote itself: the WordNet lexicographer files of its nouns (act, food, person, animal...). Used by recall for a question about a kind of thing never named; never by recognition.',
      resolve: async (m) => {
        await ensureLexicon().catch(() => undefined);
        return (await useCases()).deriveThemes(m.quote);
      },
    }),
    tags: t.exposeStringList('tags'),
    embeddingStatus: t.field({ type: EmbeddingStatusEnum, resolve: (m) => m.embeddingStatus }),
    review: t.field({ type: ReviewEnum, nullable: true, resolve: (m) => m.review }),
    startsAt: t.expose('startsAt', { type: 'DateTime', nullable: true }),
    endsAt: t.expose('endsAt', { type: 'DateTime', nullable: true }),
    dueAt: t.expose('dueAt', { type: 'DateTime', nullable: true }),
    allDay: t.exposeBoolean('allDay'),
    resolution: t.field({ type: ResolutionEnum, nullable: true, resolve: (m) => m.resolution }),
    resolvedAt: t.expose('resolvedAt', { type: 'DateTime', nullable: true }),
    mentions: t.field({
      type: [MentionRef], nullable: true,
      description: `The wordings, oldest first (those of memories merged into it too): at most \`first\` (0-${FIRST_MAX.mentions}), after the mention \`after\` `
        + '(its id; absent: from the first). Fewer than `first`: there are no more. Counted in the request\'s words read and answered (ENGRAM_MAX_READ_CHARS), each time a field answers them: past them, null and LIMIT_EXCEEDED.',
      args: { first: t.arg.int({ defaultValue: LIST_FIRST_DEFAULT }), after: t.arg.id() },
      resolve: async (m, a, ctx) => ctx.loaders.handOut(await pageOf(ctx.loaders.mentions, m.id, a), quoteLength),
    }),
    events: t.field({
      type: [MemoryEventRef], nullable: true,
      description: `What happened to it, oldest first: at most \`first\` (0-${FIRST_MAX.events}), after the event \`after\` (its id; absent: from the first).`,
      args: { first: t.arg.int({ defaultValue: LIST_FIRST_DEFAULT }), after: t.arg.id() },
      resolve: (m, a, ctx) => pageOf(ctx.loaders.events, m.id, a),
    }),
    conversation: t.field({
      type: ConversationRef, nullable: true,
      resolve: (m, _a, ctx) => (m.conversationId ? ctx.loaders.conversation.load(m.conversationId) : null),
    }),
    supersededBy: t.field({
      type: MemoryRef, nullable: true, description: 'The correction that replaced this memory.',
      resolve: (m, _a, ctx) => (m.supersededBy ? ctx.loaders.memory.load(m.supersededBy) : null),
    }),
    correctedBy: t.field({
      type: MemoryRef, nullable: true, description: 'For an ERRONEOUS memory: the memory that corrects it.',
      resolve: (m, _a, ctx) => (m.correctedBy ? ctx.loaders.memory.load(m.correctedBy) : null),
    }),
    supersedes: t.field({
      type: [MemoryRef], nullable: true,
      description: 'The memories this one replaced (superseded or marked erroneous in its favour), oldest first. Null with LIMIT_EXCEEDED past the '
        + `request's words (ENGRAM_MAX_READ_CHARS, quotes counted each time a field answers them) or past ${CHAIN_MAX} of them (however long the chain behind them).`,
      resolve: async (m, _a, ctx) => ctx.loaders.handOutMemories(await ctx.loaders.predecessors.load(m.id)),
    }),
    correctionChain: t.field({
      type: [MemoryRef], nullable: true,
      description: 'Every memory of this correction chain, oldest to newest, with statuses and dates. Null with LIMIT_EXCEEDED past the '
        + `request's words (ENGRAM_MAX_READ_CHARS, quotes counted each time a field answers them) or in a chain of more than ${CHAIN_MAX} memories.`,
      resolve: async (m, _a, ctx) => ctx.loaders.handOutMemories(await ctx.loaders.chain.load(m.id)),
    }),
    currentVersion: t.field({
      type: MemoryRef, nullable: true,
      description: 'The newest memory of the chain (itself when nothing replaced it); null when the chain ends in a replaced memory: '
        + 'its correction was forgotten for good, or it was marked erroneous with none named. Nothing is current then. '
        + `Null with LIMIT_EXCEEDED (limit: chain) more than ${CHAIN_MAX} corrections along.`,
      resolve: async (m, _a, ctx) => {
        const last = (await ctx.loaders.current.load(m.id)) ?? m;
        return last.status === 'SUPERSEDED' || last.status === 'ERRONEOUS' ? null : last;
      },
    }),
    explanation: t.string({
      description: 'Why the assistant believed this, and what replaced it ("why did you think it was Lisbon?").',
      // (a non-null text: past a limit it says what it could not read instead of taking its memory with it)
      resolve: async (m, _a, ctx) => ctx.loaders.countText(explain(m, await ctx.loaders.current.load(m.id).then((x) => x ?? m, unlessLimit))),
    }),
  }),
});

/** A memory's message words: its own when read whole, else read (the `texts` loader: counted in the words read; LIMIT_EXCEEDED past them). */
async function textsOf(m: MemoryHead, loaders: Loaders): Promise<{ context: string | null; basis: string | null }> {
  return isWhole(m) ? m : (await loaders.texts.load(m.id)) ?? { context: null, basis: null };
}

/** null for a LIMIT_EXCEEDED (the request's words spent, or a chain too long to follow); any other error stays one. */
function unlessLimit(e: unknown): null {
  if ((e as { extensions?: { code?: unknown } }).extensions?.code === 'LIMIT_EXCEEDED') return null;
  throw e;
}

/** `replaced`: the newest memory of m's chain (m itself when nothing replaced it; null when it could not be read within the request's limits). */
function explain(m: MemoryHead, replaced: MemoryHead | null): string {
  const said = attribution(m.saidAt, m.quote);
  const when = m.statusChangedAt ? ` on ${m.statusChangedAt.toISOString().slice(0, 10)}` : '';
  if (replaced === null && (m.status === 'SUPERSEDED' || m.status === 'ERRONEOUS')) {
    return `${said} It was ${m.status === 'SUPERSEDED' ? 'superseded' : 'marked erroneous'}${when}; what replaced it is past this request's limits `
      + '(too many corrections after it, or too many words asked for): ask for its currentVersion on its own.';
  }
  replaced ??= m;
  switch (m.status) {
    case 'SUPERSEDED':
      if (replaced.id === m.id || replaced.status === 'SUPERSEDED' || replaced.status === 'ERRONEOUS') {
        return `${said} It was superseded${when} by a correction that was since forgotten for good: nothing replaces it, and it is not current.`;
      }
      return `${said} It was superseded${when} by a correction. ${attribution(replaced.saidAt, replaced.quote)}`;
    case 'ERRONEOUS':
      return `${said} It was marked erroneous${when}.${replaced.id !== m.id && replaced.status !== 'SUPERSEDED' && replaced.status !== 'ERRONEOUS'
        ? ` What replaced it: ${attribution(replaced.saidAt, replaced.quote)}` : ' Nothing current replaces it (none was named, or it was forgotten for good).'}`;
    default:
      return `${said} Status: ${m.status}.`;
  }
}
