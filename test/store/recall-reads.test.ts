/**
 * The store reads recall makes, on both databases: `lexicalStats` (BM25's statistics, the kinds a
 * space holds, and which of the question's named keys each kind has heard, with that kind's
 * statuses), `currentVersions` (the newest memory of each chain, the same record `getMemoryHeads`
 * reads, without its message words) and `incrementRecall`, written after recall's answer (a failure logged, never the answer's).
 */
import { describe, expect, it, vi } from 'vitest';
import { testAppOn } from '../helpers/app.js';
import { testDatabases } from '../helpers/db.js';
import { storeClient } from '../helpers/override.js';
import { openConversation, recordMessage } from '../../src/memory/conversations.js';
import { remember } from '../../src/memory/remember.js';
import { changeStatus } from '../../src/memory/statuses.js';
import { createSpace } from '../../src/memory/spaces.js';
import { recall } from '../../src/memory/recall.js';
import { lexicalKeys } from '../../src/memory/lexical.js';
import type { Actor } from '../../src/memory/deps.js';

const admin: Actor = { role: 'admin', tokenId: null, spaceId: null };

for (const target of testDatabases()) {
  describe(`recall's store reads (${target.name})`, () => {
    const app = testAppOn(target);
    const deps = () => app.deps;

    async function spaceWith(sentences: string[]) {
      const space = await createSpace(deps(), { name: 'recall reads' });
      const chat: Actor = { role: 'chat', tokenId: null, spaceId: space.id };
      const ids: string[] = [];
      // one conversation each: a memory's lexicon also holds the message before it
      for (const s of sentences) {
        const c = await openConversation(deps(), space.id);
        await recordMessage(deps(), chat, { conversationId: c.id, role: 'USER', text: s });
        ids.push((await remember(deps(), chat, { conversationId: c.id, quote: s, type: 'FACT' })).memory.id);
      }
      return { spaceId: space.id, ids };
    }

    it('lexicalStats: df per term, the kinds held, and the heard keys with each kind\'s statuses', async () => {
      const { spaceId, ids } = await spaceWith(['My sister Ana lives in Lisbon.', 'I play the cello on Sundays.', 'My dog Biscuit is afraid of thunder.']);
      await changeStatus(deps(), admin, spaceId, 'mute', [ids[1]]);
      await app.db.query(`update memory_state set status = 'SUPERSEDED' where memory_id = $1`, [ids[2]]);
      const [lisbon, cello, thunder, zebra] = ['lisbon', 'cello', 'thunder', 'zebra'].map((w) => lexicalKeys(w)[0]);
      const stats = await deps().store.lexicalStats(spaceId, [lisbon, cello, zebra], ['STATEMENT', 'INFERENCE'], {
        keys: [lisbon, cello, thunder, zebra], statuses: { STATEMENT: ['ACTIVE', 'SUPERSEDED'], INFERENCE: ['ACTIVE'] },
      });
      const s = stats.get('STATEMENT')!;
      expect(s.present).toBe(true);
      expect(s.docs).toBe(3);
      // df counts every status (a muted memory's words still weigh); heard only those with the kind's statuses
      expect([...s.df].sort()).toEqual([[cello, 1], [lisbon, 1]]);
      expect([...s.heard].sort()).toEqual([lisbon, thunder].sort());
      const i = stats.get('INFERENCE')!;
      expect({ present: i.present, docs: i.docs, df: i.df.size, heard: i.heard.size }).toEqual({ present: false, docs: 0, df: 0, heard: 0 });
      const none = (await deps().store.lexicalStats(spaceId, [lisbon], ['STATEMENT'])).get('STATEMENT')!;
      expect(none.heard.size).toBe(0);
    });

    it('currentVersions: the newest of each chain, the very record getMemoryHeads reads (no message words); incrementRecall adds one', async () => {
      const { spaceId, ids } = await spaceWith(['I live in Manchester.', 'I moved to Leeds last month.', 'I am allergic to peanuts.']);
      await app.db.query(`update memory_state set status = 'SUPERSEDED', superseded_by = $2 where memory_id = $1`, [ids[0], ids[1]]);
      await deps().store.incrementRecall([ids[1], ids[2], ids[2]]);
      await deps().store.settled();
      const want = await deps().store.getMemoryHeads([ids[1], ids[2]], spaceId);
      expect(want.map((m) => m?.recallCount)).toEqual([1, 1]);
      const got = await deps().store.currentVersions([ids[0], ids[2], 'no-such-id', ids[1]]);
      expect(got).toEqual([want[0], want[1], null, want[0]]);
      expect(await deps().store.currentVersions([])).toEqual([]);
      // at most `steps` steps: none, the memory itself, still naming what replaced it; one, the end
      const [itself] = await deps().store.currentVersions([ids[0]], 0);
      expect(itself).toMatchObject({ id: ids[0], supersededBy: ids[1] });
      expect(await deps().store.currentVersions([ids[0]], 1)).toEqual([want[0]]);
    });

    it('recall counts what it returned once its answer is out, and a counter that cannot be written fails nothing', async () => {
      const { spaceId, ids } = await spaceWith(['My sister Ana lives in Lisbon.', 'I play the cello on Sundays.']);
      const got = await recall(deps(), spaceId, 'Where does my sister live?', 5);
      expect(got.statements.map((h) => h.memory.id)).toContain(ids[0]);
      await deps().store.settled();
      const [ana, cello] = await deps().store.getMemories(ids, spaceId);
      expect(ana?.recallCount).toBe(got.statements.some((h) => h.memory.id === ids[0]) ? 1 : 0);
      expect(cello?.recallCount).toBe(got.statements.some((h) => h.memory.id === ids[1]) ? 1 : 0);

      // the counters' statement fails: the answer is the same, the failure a warning, the count unchanged
      const { db, query } = storeClient(deps().store);
      const failing = vi.spyOn(db, 'query').mockImplementation((sql: string, params?: unknown[]) =>
        (/set recall_count/.test(sql) ? Promise.reject(new Error('connection lost')) : query(sql, params)));
      const warn = vi.spyOn(deps().log, 'warn');
      try {
        const again = await recall(deps(), spaceId, 'Where does my sister live?', 5);
        expect(again.statements.map((h) => h.memory.id)).toEqual(got.statements.map((h) => h.memory.id));
        await deps().store.settled();
        expect(warn.mock.calls.some(([, msg]) => msg === 'recall counters not written')).toBe(true);
      } finally {
        failing.mockRestore();
        warn.mockRestore();
      }
      expect((await deps().store.getMemories([ids[0]], spaceId))[0]?.recallCount).toBe(ana?.recallCount);
    });

    it('the counts of recalls close together are one write, each recall counted, and it comes by itself', async () => {
      const { spaceId, ids } = await spaceWith(['My sister Ana lives in Lisbon.', 'I play the cello on Sundays.']);
      const { db, query } = storeClient(deps().store);
      const writes: unknown[][] = [];
      const spy = vi.spyOn(db, 'query').mockImplementation((sql: string, params?: unknown[]) => {
        if (/set recall_count/.test(sql)) writes.push(params ?? []);
        return query(sql, params);
      });
      try {
        await deps().store.incrementRecall([ids[0]]);
        await deps().store.incrementRecall([ids[0], ids[1]]);
        await deps().store.incrementRecall([ids[1], ids[1]]);
        expect(writes).toEqual([]);
        // nobody asks for them: they are written after a short delay all the same
        await vi.waitFor(() => expect(writes).toHaveLength(1), { timeout: 10_000, interval: 20 });
        await deps().store.settled();
      } finally {
        spy.mockRestore();
      }
      const [ana, cello] = await deps().store.getMemories(ids, spaceId);
      expect([ana?.recallCount, cello?.recallCount]).toEqual([2, 2]);
      // settled writes what waits at once (a closing store loses no count)
      await deps().store.incrementRecall([ids[1]]);
      await deps().store.settled();
      expect((await deps().store.getMemories([ids[1]], spaceId))[0]?.recallCount).toBe(3);
    });

    it('a slow database gathers no counter writes without end: past 64 pending, a recall waits for its own', async () => {
      const { db, query } = storeClient(deps().store);
      let release = () => {};
      const gate = new Promise<void>((r) => { release = r; });
      let issued = 0;
      const held = vi.spyOn(db, 'query').mockImplementation(async (sql: string, params?: unknown[]) => {
        if (/set recall_count/.test(sql)) { issued++; await gate; }
        return query(sql, params);
      });
      try {
        // a thousand ids (none of them a memory) make a write at once, each held by the database: 64 pending
        const thousand = (k: number) => Array.from({ length: 1_000 }, (_, i) => `no-such-${k}-${i}`);
        for (let k = 0; k < 64; k++) await deps().store.incrementRecall(thousand(k));
        // and a 65th the timer issues by itself, which nobody waits for
        await deps().store.incrementRecall(['no-such-timed']);
        await vi.waitFor(() => expect(issued).toBe(65), { timeout: 10_000, interval: 20 });
        let returned = false;
        const past = deps().store.incrementRecall(['no-such-one']).then(() => { returned = true; });
        await new Promise((r) => setTimeout(r, 300));
        expect(returned).toBe(false);
        release();
        await past;
        await deps().store.settled();
      } finally {
        release();
        held.mockRestore();
      }
    });

    it('settled waits for a counter write still running', async () => {
      const { spaceId, ids } = await spaceWith(['I am allergic to peanuts.']);
      const { db, query } = storeClient(deps().store);
      let release = () => {};
      const gate = new Promise<void>((r) => { release = r; });
      const slow = vi.spyOn(db, 'query').mockImplementation(async (sql: string, params?: unknown[]) => {
        if (/set recall_count/.test(sql)) await gate;
        return query(sql, params);
      });
      try {
        await deps().store.incrementRecall([ids[0]]);
        let done = false;
        const settled = deps().store.settled().then(() => { done = true; });
        await new Promise((r) => setTimeout(r, 20));
        expect(done).toBe(false);
        release();
        await settled;
      } finally {
        slow.mockRestore();
      }
      expect((await deps().store.getMemories([ids[0]], spaceId))[0]?.recallCount).toBe(1);
    });
  });
}
