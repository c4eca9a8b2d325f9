/**
 * A remember checks its quote against the conversation's last messages first
 * (`checkQuoteIn`, `TRANSCRIPT_WINDOW`), and must answer exactly as a check of the whole
 * transcript does: a quote of an older message is still the person's words; a quote of the
 * first message read keeps the message before it (read from before the window) as context; a
 * backdated message does not let a later-read copy of the same sentence win; a refusal is the
 * whole transcript's.
 */
import { describe, expect, it, vi } from 'vitest';
import { testAppOn } from '../helpers/app.js';
import { testDatabases } from '../helpers/db.js';
import { openConversation, recordMessage, TRANSCRIPT_WINDOW, TRANSCRIPT_WINDOW_BYTES } from '../../src/memory/conversations.js';
import { remember } from '../../src/memory/remember.js';
import { createSpace } from '../../src/memory/spaces.js';
import { lexicalKeys } from '../../src/memory/lexical.js';
import type { Actor } from '../../src/memory/deps.js';
import { MESSAGES_PAGE, MESSAGES_PAGE_BYTES } from '../../src/store/sql-store-base.js';

const WORDS = ['amber', 'birch', 'cobalt', 'dune', 'ember', 'fjord', 'garnet', 'heron', 'indigo', 'juniper'];
/** A sentence of its own for message i: two of the words above, by its digits. */
const said = (i: number) => `Note ${WORDS[i % 10]} ${WORDS[Math.floor(i / 10) % 10]} number ${i} stands.`;

for (const target of testDatabases()) {
  describe(`the quote checked against the last messages first (${target.name})`, () => {
    const app = testAppOn(target);
    const deps = () => app.deps;
    const t0 = Date.parse('2026-01-01T00:00:00Z');

    /** A conversation of n user messages a minute apart (after `extra`), each said(i). */
    async function conversation(n: number) {
      const space = await createSpace(deps(), { name: 'transcript window' });
      const chat: Actor = { role: 'chat', tokenId: null, spaceId: space.id };
      const c = await openConversation(deps(), space.id);
      const ids: string[] = [];
      for (let i = 0; i < n; i++) {
        ids.push((await recordMessage(deps(), chat, { conversationId: c.id, role: 'USER', text: said(i), at: new Date(t0 + i * 60_000) })).id);
      }
      return { spaceId: space.id, chat, conversationId: c.id, ids };
    }

    it('answers as the whole transcript does, past the window and at its edge', async () => {
      const n = TRANSCRIPT_WINDOW + 40;
      const { spaceId, chat, conversationId, ids } = await conversation(n);
      // the latest message, one far before the window, and the first message read
      for (const i of [n - 1, 5, n - TRANSCRIPT_WINDOW]) {
        const r = await remember(deps(), chat, { conversationId, quote: said(i), type: 'FACT' });
        expect(r.outcome).toBe('CREATED');
        const m = await deps().store.getMemories([r.memory.id], spaceId);
        expect(m[0]!.messageId).toBe(ids[i]);
      }
      // the first message read keeps the message before it (from before the window) in its lexicon
      const edge = n - TRANSCRIPT_WINDOW;
      const stats = await deps().store.lexicalStats(spaceId, [], ['STATEMENT'], { keys: lexicalKeys(`number ${edge - 1}`), statuses: { STATEMENT: ['ACTIVE'], INFERENCE: ['ACTIVE'] } });
      expect(stats.get('STATEMENT')!.heard.has(lexicalKeys(String(edge - 1))[0]!)).toBe(true);
      // a refusal is the whole transcript's: a fragment of a message before the window is named as one
      await expect(remember(deps(), chat, { conversationId, quote: `Note ${WORDS[7]} ${WORDS[0]} number 7`, type: 'FACT' }))
        .rejects.toThrow(/part of a sentence/);
    });

    it('reads at most TRANSCRIPT_WINDOW_BYTES of the last messages first (the latest always), and answers as the whole transcript does', async () => {
      const space = await createSpace(deps(), { name: 'transcript bytes' });
      const chat: Actor = { role: 'chat', tokenId: null, spaceId: space.id };
      const c = await openConversation(deps(), space.id);
      // 15 messages of ~100,000 characters: ten fit in the first read's bytes
      const long = (i: number) => `${said(i)} ${'Filler words go here. '.repeat(4_540)}`.slice(0, 99_990);
      for (let i = 0; i < 15; i++) await recordMessage(deps(), chat, { conversationId: c.id, role: 'USER', text: long(i), at: new Date(t0 + i * 60_000) });
      const first = (await deps().store.conversationTranscript(c.id, TRANSCRIPT_WINDOW, TRANSCRIPT_WINDOW_BYTES))!;
      expect(first.messages.length).toBe(Math.ceil(TRANSCRIPT_WINDOW_BYTES / 99_990));
      expect(first.messages.at(-1)!.text).toBe(long(14));
      expect(first.earlier.any).toBe(true);
      // one message over the bytes alone is still read
      expect((await deps().store.conversationTranscript(c.id, TRANSCRIPT_WINDOW, 10))!.messages.map((m) => m.text)).toEqual([long(14)]);
      // a quote of a message left out of the first read, and one of the latest: both the person's words
      for (const i of [2, 14]) {
        const r = await remember(deps(), chat, { conversationId: c.id, quote: said(i), type: 'FACT' });
        expect(r.outcome).toBe('CREATED');
      }
    });

    it('lets no backdated message change which copy of a sentence is the person\'s latest', async () => {
      const n = TRANSCRIPT_WINDOW + 10;
      const { spaceId, chat, conversationId, ids } = await conversation(n);
      const same = 'I drink my tea without sugar.';
      // said first long ago by order of writing but dated last (an import, a clock), then again in the window
      const dated = await recordMessage(deps(), chat, { conversationId, role: 'USER', text: same, at: new Date(t0 + 10 * 86_400_000) });
      for (let i = 0; i < TRANSCRIPT_WINDOW; i++) {
        await recordMessage(deps(), chat, { conversationId, role: 'USER', text: `Filler ${i} here.`, at: new Date(t0 + (n + i) * 60_000) });
      }
      const inWindow = await recordMessage(deps(), chat, { conversationId, role: 'USER', text: same, at: new Date(t0 + 5 * 86_400_000) });
      const r = await remember(deps(), chat, { conversationId, quote: same, type: 'FACT' });
      const [m] = await deps().store.getMemories([r.memory.id], spaceId);
      // the check reads the latest first by date: the dated copy, before the window
      expect(m!.messageId).toBe(dated.id);
      expect(m!.messageId).not.toBe(inWindow.id);
      expect(ids).toHaveLength(n);
    });

    it('reads a whole conversation in pages bounded in messages and in bytes, every message once and in order', async () => {
      const space = await createSpace(deps(), { name: 'transcript pages' });
      const chat: Actor = { role: 'chat', tokenId: null, spaceId: space.id };
      const c = await openConversation(deps(), space.id);
      // short messages, messages of 100,000 characters (one byte each, and 'é': two), and runs of both
      const size = (i: number) => (i % 7 === 3 ? 100_000 : i % 11 === 5 ? 60_000 : 40);
      const text = (i: number) => `${said(i)} ${(i % 2 ? 'é' : 'x').repeat(size(i))}`.slice(0, size(i));
      const n = 2 * MESSAGES_PAGE + 9;
      for (let i = 0; i < n; i++) await recordMessage(deps(), chat, { conversationId: c.id, role: 'USER', text: text(i), at: new Date(t0 + i * 60_000) });
      const query = app.db.query.bind(app.db);
      const pages: number[][] = [];
      const spy = vi.spyOn(app.db, 'query').mockImplementation(async (sql: string, params?: unknown[]) => {
        const r = await query(sql, params);
        if (/from messages where conversation_id/.test(sql)) pages.push((r.rows as { text: string }[]).map((m) => Buffer.byteLength(m.text)));
        return r;
      });
      let read;
      try {
        read = await deps().store.listMessages(c.id);
      } finally {
        spy.mockRestore();
      }
      expect(read.map((m) => m.text)).toEqual(Array.from({ length: n }, (_, i) => text(i)));
      // every page within both bounds (a message over the bytes alone in its page), none empty but for none at all
      for (const page of pages) {
        expect(page.length).toBeGreaterThan(0);
        expect(page.length).toBeLessThanOrEqual(MESSAGES_PAGE);
        if (page.length > 1) expect(page.reduce((a, b) => a + b, 0) - page.at(-1)!).toBeLessThan(MESSAGES_PAGE_BYTES);
      }
      expect(pages.flat()).toHaveLength(n);
      // the byte bound did stop pages: more statements than the message count alone asks for
      expect(pages.length).toBeGreaterThan(Math.ceil(n / MESSAGES_PAGE));
      // and a conversation of exactly one page's count ends after one more (empty) statement
      const d = await openConversation(deps(), space.id);
      for (let i = 0; i < MESSAGES_PAGE; i++) await recordMessage(deps(), chat, { conversationId: d.id, role: 'USER', text: said(i) });
      expect((await deps().store.listMessages(d.id)).map((m) => m.text)).toEqual(Array.from({ length: MESSAGES_PAGE }, (_, i) => said(i)));
    });
  });
}
