/**
 * A remember or a correction checked against the transcript before a forget commits, and written
 * after it: the forget redacted the message the quote was found in (docs/erasure.md), so keeping
 * the quote then would bring the forgotten words back, in a memory whose message no longer holds
 * them. Found by racing the two over HTTP (6 of 8 rounds on a server, two instances). The use case
 * is held right after its transcript read, through gates, never through time.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { testAppOn, type TestApp } from '../helpers/app.js';
import { testDatabases } from '../helpers/db.js';
import { openConversation, recordMessage, TRANSCRIPT_WINDOW } from '../../src/memory/conversations.js';
import { remember } from '../../src/memory/remember.js';
import { correct } from '../../src/memory/correct.js';
import { forget } from '../../src/memory/statuses.js';
import { createSpace } from '../../src/memory/spaces.js';
import { NotFoundError, QuoteRefusedError } from '../../src/memory/errors.js';
import type { Actor, MemoryDeps } from '../../src/memory/deps.js';
import { overriding } from '../helpers/override.js';

function gate() {
  let open!: () => void;
  let reached!: () => void;
  const opened = new Promise<void>((r) => { open = r; });
  const arrived = new Promise<void>((r) => { reached = r; });
  return { open, arrived, pass: async () => { reached(); await opened; } };
}

/** `deps` whose store holds the first call of `method` once it has answered, until the gate opens. */
function heldAfter(deps: MemoryDeps, method: 'conversationTranscript', g: ReturnType<typeof gate>): MemoryDeps {
  let first = true;
  const original = (deps.store as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[method]!;
  const store = overriding(deps.store, {
    [method]: async (...a: unknown[]) => {
      const answer = await original.apply(deps.store, a);
      if (first) {
        first = false;
        await g.pass();
      }
      return answer;
    },
  });
  return { ...deps, store } as MemoryDeps;
}

for (const target of testDatabases()) {
  describe(`a quote checked before a forget, kept after it (${target.name})`, () => {
    const app = testAppOn(target);
    let t: TestApp;
    beforeAll(() => { t = app.t; });
    const deps = () => t.app.engram.deps;
    async function said(...texts: string[]) {
      const space = await createSpace(deps(), { name: 'forget race' });
      const c = await openConversation(deps(), space.id);
      for (const text of texts) await recordMessage(deps(), { role: 'chat', tokenId: null, spaceId: space.id } as Actor, { conversationId: c.id, role: 'USER', text });
      return {
        spaceId: space.id, conversationId: c.id,
        assistant: { role: 'assistant', tokenId: null, spaceId: space.id } as Actor,
        operator: { role: 'operator', tokenId: null, spaceId: space.id } as Actor,
      };
    }
    const held = async (sql: string, spaceId: string) => Number((await t.app.engram.db.query<{ n: number }>(sql, [spaceId])).rows[0].n);

    it('a restatement held after its transcript read while the memory is forgotten is refused: the words stay gone', async () => {
      const quote = 'My locker code word is Xyloquartz.';
      const x = await said(`${quote} I like tea.`, `I said it before. ${quote}`);
      const first = await remember(deps(), x.assistant, { conversationId: x.conversationId, quote, type: 'FACT' });
      const g = gate();
      const waiting = remember(heldAfter(deps(), 'conversationTranscript', g), x.assistant, { conversationId: x.conversationId, quote, type: 'FACT' });
      const outcome = waiting.then(() => 'kept', (e: unknown) => e);
      await g.arrived;
      await forget(deps(), x.operator, x.spaceId, [first.memory.id], true);
      g.open();
      expect(await outcome).toBeInstanceOf(QuoteRefusedError);
      expect(await held(`select count(*)::int as n from memories where space_id = $1 and quote like '%Xyloquartz%'`, x.spaceId)).toBe(0);
      expect(await held(`select count(*)::int as n from mentions where space_id = $1 and quote like '%Xyloquartz%'`, x.spaceId)).toBe(0);
      expect(await held(`select count(*)::int as n from messages where space_id = $1 and text like '%Xyloquartz%'`, x.spaceId)).toBe(0);
    });

    it('an explicit correction held after its transcript read while its wording is forgotten is refused', async () => {
      const wording = 'My dog is called Pipperwick.';
      const x = await said('I drink coffee every morning.', `${wording} I like tea.`);
      const old = await remember(deps(), x.assistant, { conversationId: x.conversationId, quote: 'I drink coffee every morning.', type: 'FACT' });
      const holder = await remember(deps(), x.assistant, { conversationId: x.conversationId, quote: wording, type: 'FACT' });
      expect(holder.outcome).toBe('CREATED');
      const g = gate();
      const waiting = correct(heldAfter(deps(), 'conversationTranscript', g), x.assistant, { memoryId: old.memory.id, conversationId: x.conversationId, quote: wording });
      const outcome = waiting.then(() => 'kept', (e: unknown) => e);
      await g.arrived;
      await forget(deps(), x.operator, x.spaceId, [holder.memory.id], true);
      g.open();
      expect(await outcome).toBeInstanceOf(QuoteRefusedError);
      expect(await held(`select count(*)::int as n from memories where space_id = $1 and quote like '%Pipperwick%'`, x.spaceId)).toBe(0);
      // the memory it would have corrected is left as it was
      expect(await held(`select count(*)::int as n from memory_state where space_id = $1 and status = 'ACTIVE'`, x.spaceId)).toBe(1);
    });

    it('a correction held before its lock while the memory it corrects is forgotten: NotFound, as it is a moment later', async () => {
      const x = await said('I drink coffee every morning.', 'I drink green tea every morning now.');
      const old = await remember(deps(), x.assistant, { conversationId: x.conversationId, quote: 'I drink coffee every morning.', type: 'FACT' });
      const g = gate();
      // held once its quote is embedded: its reads are done, the space's lock is next
      const embedder = overriding(deps().embedder, { embed: async (texts: string[]) => { const v = await deps().embedder.embed(texts); await g.pass(); return v; } });
      const waiting = correct({ ...deps(), embedder }, x.assistant, { memoryId: old.memory.id, conversationId: x.conversationId, quote: 'I drink green tea every morning now.' });
      const outcome = waiting.then(() => 'kept', (e: unknown) => e);
      await g.arrived;
      await forget(deps(), x.operator, x.spaceId, [old.memory.id], true);
      g.open();
      expect(await outcome).toBeInstanceOf(NotFoundError);
      expect(await held(`select count(*)::int as n from memories where space_id = $1`, x.spaceId)).toBe(0);
    });

    it('a correction reads the last messages, and under the lock the message its quote was found in, not the whole conversation', async () => {
      // more messages than the first read takes (TRANSCRIPT_WINDOW): the quote is in the latest
      const x = await said('I drink coffee every morning.', ...Array.from({ length: TRANSCRIPT_WINDOW + 6 }, (_, i) => `Filler line number ${i}.`), 'I drink green tea every morning now.');
      const old = await remember(deps(), x.assistant, { conversationId: x.conversationId, quote: 'I drink coffee every morning.', type: 'FACT' });
      const calls: string[] = [];
      const watched = (name: 'listMessages' | 'messageText') => async (...a: unknown[]) => {
        calls.push(name);
        return (deps().store[name] as (...b: unknown[]) => Promise<unknown>).apply(deps().store, a);
      };
      const store = overriding(deps().store, { listMessages: watched('listMessages'), messageText: watched('messageText') });
      const r = await correct({ ...deps(), store }, x.assistant, { memoryId: old.memory.id, conversationId: x.conversationId, quote: 'I drink green tea every morning now.' });
      expect(r.superseded.status).toBe('SUPERSEDED');
      expect(calls).toEqual(['messageText']);
    });
  });
}
