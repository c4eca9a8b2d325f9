/**
 * remember under concurrency (docs/concurrency.md): recognition (the vector search, the
 * candidates' records, the rules) runs before the space's lock; under the lock only a check
 * that nothing was written in the space since, and the write. A write in between makes the
 * remember recognise again under the lock, so a restatement is never written twice. On the
 * PostgreSQL server, two spaces' remembers do not wait for each other. Ordering is asserted
 * through gates and recorded steps, never through time.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { testAppOn, type TestApp } from '../helpers/app.js';
import { testDatabases } from '../helpers/db.js';
import { openConversation, recordMessage } from '../../src/memory/conversations.js';
import { remember } from '../../src/memory/remember.js';
import { createSpace } from '../../src/memory/spaces.js';
import type { Actor, MemoryDeps } from '../../src/memory/deps.js';
import type { Tx } from '../../src/ports/memory-store.js';
import type { VectorIndex } from '../../src/ports/vector-index.js';
import { overriding } from '../helpers/override.js';

/** The store's writes checked by the last event id (PGlite), and the step each records. */
const UNLOCKED_WRITES: Record<string, string> = { insertMemoryIfUnchanged: 'write if unchanged', reinforceIfUnchanged: 'reinforce if unchanged' };

/** A copy of `deps` whose store and index record the steps of a remember, and may hold it before or inside the lock. */
function watched(deps: MemoryDeps, hooks: { beforeLock?: () => Promise<void>; inLock?: () => Promise<void> } = {}) {
  const steps: string[] = [];
  const writes = deps.store as unknown as Record<string, ((...a: unknown[]) => Promise<unknown>) | undefined>;
  const store = overriding(deps.store, {
    withSpaceLock: async <T>(spaceId: string, fn: (tx: Tx) => Promise<T>): Promise<T> => {
      await hooks.beforeLock?.();
      return deps.store.withSpaceLock(spaceId, async (tx) => {
        steps.push('lock');
        await hooks.inLock?.();
        try {
          return await fn(tx);
        } finally {
          steps.push('unlock');
        }
      });
    },
    // PGlite's writes without the lock (one statement that checks the last event id itself): held like the lock
    ...Object.fromEntries(Object.entries(UNLOCKED_WRITES).flatMap(([name, step]) => {
      const write = writes[name];
      return write ? [[name, async (...a: unknown[]) => {
        await hooks.beforeLock?.();
        const written = await write.apply(deps.store, a);
        steps.push(written ? step : `${step}: moved`);
        return written;
      }]] : [];
    })),
  });
  const index = overriding(deps.index, {
    search: (...a: Parameters<VectorIndex['search']>) => { steps.push('search'); return deps.index.search(...a); },
  });
  return { deps: { ...deps, store, index } as MemoryDeps, steps };
}

function gate() {
  let open!: () => void;
  let reached!: () => void;
  const opened = new Promise<void>((r) => { open = r; });
  const arrived = new Promise<void>((r) => { reached = r; });
  return { open, arrived, pass: async () => { reached(); await opened; } };
}

for (const target of testDatabases()) {
  describe(`remember under concurrency (${target.name})`, () => {
    const app = testAppOn(target);
    let t: TestApp;
    beforeAll(() => { t = app.t; });
    const deps = () => t.app.engram.deps;
    const assistantOf = (spaceId: string) => ({ role: 'assistant', tokenId: null, spaceId }) as Actor;
    async function said(...texts: string[]) {
      const space = await createSpace(deps(), { name: 'concurrency test' });
      const c = await openConversation(deps(), space.id);
      for (const text of texts) await recordMessage(deps(), { role: 'chat', tokenId: null, spaceId: space.id } as Actor, { conversationId: c.id, role: 'USER', text });
      return { spaceId: space.id, conversationId: c.id, assistant: assistantOf(space.id) };
    }
    const count = async (sql: string, spaceId: string) => Number((await t.app.engram.db.query<{ n: number }>(sql, [spaceId])).rows[0].n);

    // PGlite runs one statement at a time: a new fact is one statement that checks the space's last event id itself.
    const unlocked = () => deps().store.oneStatementAtATime === true;

    it('searches before the lock; under it, nothing but the check and the write', async () => {
      const x = await said('I keep bees on the roof of my flat.');
      const w = watched(deps());
      const r = await remember(w.deps, x.assistant, { conversationId: x.conversationId, quote: 'I keep bees on the roof of my flat.', type: 'FACT' });
      expect(r.outcome).toBe('CREATED');
      expect(w.steps).toEqual(unlocked() ? ['search', 'write if unchanged'] : ['search', 'lock', 'unlock']);
      expect(await count(`select count(*)::int as n from memory_events where space_id = $1 and kind = 'CREATED'`, x.spaceId)).toBe(1);
    });

    it('a restatement written while another was recognised is recognised again under the lock: one memory', async () => {
      const first = 'My bike is a blue Brompton.';
      const again = 'my bike is a blue Brompton';
      const x = await said(first, again);
      const g = gate();
      const w = watched(deps(), { beforeLock: g.pass });
      // The first has recognised (nothing in the space: create) and waits before the lock ...
      const waiting = remember(w.deps, x.assistant, { conversationId: x.conversationId, quote: first, type: 'FACT' });
      await g.arrived;
      // ... while the restatement is kept.
      const other = await remember(deps(), x.assistant, { conversationId: x.conversationId, quote: again, type: 'FACT' });
      expect(other.outcome).toBe('CREATED');
      g.open();
      const r = await waiting;
      expect(r).toMatchObject({ outcome: 'REINFORCED', memory: { id: other.memory.id } });
      // searched once before the lock, and once more under it (on PGlite: after its write found the space written, and wrote nothing)
      expect(w.steps).toEqual(unlocked() ? ['search', 'write if unchanged: moved', 'lock', 'search', 'unlock'] : ['search', 'lock', 'search', 'unlock']);
      expect(await count(`select count(*)::int as n from memories where space_id = $1`, x.spaceId)).toBe(1);
      expect(await count(`select count(*)::int as n from mentions where space_id = $1`, x.spaceId)).toBe(2);
    });

    it('a reinforcement held while another is written is counted too, from the record as it then is', async () => {
      const texts = ['I play the cello.', 'i play the cello', 'I play the cello!'];
      const x = await said(...texts);
      const first = await remember(deps(), x.assistant, { conversationId: x.conversationId, quote: texts[0]!, type: 'FACT', tags: ['music'] });
      const g = gate();
      const w = watched(deps(), { beforeLock: g.pass });
      const waiting = remember(w.deps, x.assistant, { conversationId: x.conversationId, quote: texts[1]!, type: 'FACT', tags: ['strings'] });
      await g.arrived;
      const other = await remember(deps(), x.assistant, { conversationId: x.conversationId, quote: texts[2]!, type: 'FACT', tags: ['evenings'] });
      expect(other).toMatchObject({ outcome: 'REINFORCED', memory: { id: first.memory.id } });
      g.open();
      const r = await waiting;
      expect(r).toMatchObject({ outcome: 'REINFORCED', memory: { id: first.memory.id, mentionCount: 3 } });
      // the held one's lists were merged into the record the other had written, not the one it had read
      expect([...r.memory.tags].sort()).toEqual(['evenings', 'music', 'strings']);
      expect(w.steps).toEqual(unlocked() ? ['search', 'reinforce if unchanged: moved', 'lock', 'search', 'unlock'] : ['search', 'lock', 'search', 'unlock']);
      expect(await count(`select count(*)::int as n from mentions where space_id = $1`, x.spaceId)).toBe(3);
    });

    it('eight concurrent restatements in one space make one memory with eight mentions', async () => {
      // eight messages, each its own telling (the same sentence of one message remembered again is a retry: counted once)
      const texts = ['I was born in Duluth.', 'i was born in Duluth', 'I was born in Duluth!', 'I WAS BORN IN DULUTH.',
        'I was born in DULUTH.', 'i was born in duluth.', 'I Was Born In Duluth.', 'I was born in Duluth!!'];
      const x = await said(...texts);
      const results = await Promise.all(texts.map((quote) => remember(deps(), x.assistant, { conversationId: x.conversationId, quote, type: 'FACT' })));
      expect(new Set(results.map((r) => r.memory.id)).size).toBe(1);
      expect(results.filter((r) => r.outcome === 'CREATED')).toHaveLength(1);
      expect(await count(`select count(*)::int as n from memories where space_id = $1`, x.spaceId)).toBe(1);
      expect(await count(`select count(*)::int as n from mentions where space_id = $1`, x.spaceId)).toBe(8);
    });

    it('five concurrent retries of one sentence of one message make one memory with one mention', async () => {
      const x = await said('My locker is number 212.');
      const results = await Promise.all(Array.from({ length: 5 }, () =>
        remember(deps(), x.assistant, { conversationId: x.conversationId, quote: 'My locker is number 212.', type: 'FACT' })));
      expect(new Set(results.map((r) => r.memory.id)).size).toBe(1);
      expect(results.every((r) => r.outcome === 'CREATED')).toBe(true);
      expect(await count(`select count(*)::int as n from mentions where space_id = $1`, x.spaceId)).toBe(1);
      expect(await count(`select count(*)::int as n from memory_events where space_id = $1`, x.spaceId)).toBe(1);
    });

    // On PGlite there is one connection: a transaction holds it, so only the recognition before
    // the lock can overlap with another space's remember, not the transaction itself.
    it.skipIf(target.name === 'pglite')('two spaces: one remember holding its space lock does not hold the other', async () => {
      const a = await said('My cat is called Miso.');
      const b = await said('My dog is called Pepper.');
      const g = gate();
      const w = watched(deps(), { inLock: g.pass });
      let aDone = false;
      const held = remember(w.deps, a.assistant, { conversationId: a.conversationId, quote: 'My cat is called Miso.', type: 'FACT' })
        .finally(() => { aDone = true; });
      await g.arrived;
      const other = await remember(deps(), b.assistant, { conversationId: b.conversationId, quote: 'My dog is called Pepper.', type: 'FACT' });
      expect(other.outcome).toBe('CREATED');
      expect(aDone).toBe(false);
      g.open();
      expect((await held).outcome).toBe('CREATED');
    });
  });
}
