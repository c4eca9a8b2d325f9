/**
 * The system of record on both databases (PGlite always, the PostgreSQL server
 * when DATABASE_URL is set): migrations, the vector text form, status changes
 * that leave memory_vectors alone, the space lock under concurrent remembers,
 * and the append-only triggers.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { testAppOn, testEmbedder } from '../helpers/app.js';
import { testDatabases } from '../helpers/db.js';
import { migrate, MIGRATIONS } from '../../src/store/migrations.js';
import { PgliteClient } from '../../src/store/pglite-client.js';
import { cosine, parseVector } from '../../src/core/vectors.js';
import { openConversation, recordMessage } from '../../src/memory/conversations.js';
import { remember } from '../../src/memory/remember.js';
import { changeStatus } from '../../src/memory/statuses.js';
import { createSpace } from '../../src/memory/spaces.js';
import type { Actor } from '../../src/memory/deps.js';

for (const target of testDatabases()) {
  describe(`system of record (${target.name})`, () => {
    const app = testAppOn(target);
    const deps = () => app.deps;
    const actorsOf = (spaceId: string) => ({
      chat: { role: 'chat', tokenId: null, spaceId } as Actor,
      assistant: { role: 'assistant', tokenId: null, spaceId } as Actor,
      operator: { role: 'operator', tokenId: null, spaceId } as Actor,
    });
    /** A new space and one USER message holding `text`, through the use cases. */
    async function said(...texts: string[]) {
      const space = await createSpace(deps(), { name: 'store test' });
      const who = actorsOf(space.id);
      const c = await openConversation(deps(), space.id);
      for (const text of texts) await recordMessage(deps(), who.chat, { conversationId: c.id, role: 'USER', text });
      return { spaceId: space.id, conversationId: c.id, who };
    }

    it('migrations are idempotent: a second run applies nothing and changes nothing', async () => {
      const versions = MIGRATIONS.map((m) => m.version);
      if (target.name === 'pglite') {
        const fresh = await PgliteClient.open(':memory:');
        try {
          expect(await migrate(fresh, { dimensions: 512 })).toEqual(versions);
          expect(await migrate(fresh, { dimensions: 512 })).toEqual([]);
          const r = await fresh.query<{ version: number }>(`select version from schema_migrations order by version`);
          expect(r.rows.map((x) => Number(x.version))).toEqual(versions);
          // a database of other dimensions is refused, not silently mixed
          await expect(migrate(fresh, { dimensions: 100 })).rejects.toThrow(/512-dimension/);
        } finally {
          await fresh.close();
        }
        // a first run that stopped part-way (each migration commits alone) and is resumed with
        // another embedder: refused too
        const stopped = await PgliteClient.open(':memory:');
        try {
          await stopped.query('create table memory_merges (x int)'); // migration 2 then fails
          await expect(migrate(stopped, { dimensions: 512 })).rejects.toThrow(/memory_merges/);
          expect((await stopped.query(`select version from schema_migrations`)).rows).toEqual([{ version: 1 }]);
          await stopped.query('drop table memory_merges');
          await expect(migrate(stopped, { dimensions: 100 })).rejects.toThrow(/512-dimension/);
          expect(await migrate(stopped, { dimensions: 512 })).toEqual(versions.slice(1));
        } finally {
          await stopped.close();
        }
      }
      const tables = async () => (await app.db.query<{ n: number }>(`select count(*)::int as n from information_schema.tables where table_schema = current_schema()`)).rows[0].n;
      const before = await tables();
      expect(await migrate(app.db, { dimensions: 512 })).toEqual([]);
      expect(await migrate(app.db, { dimensions: 512 })).toEqual([]);
      expect(await tables()).toBe(before);
      const r = await app.db.query<{ version: number }>(`select version from schema_migrations order by version`);
      expect(r.rows.map((x) => Number(x.version))).toEqual(versions);
    });

    it('a 512-d vector read back as text parses and compares with cosine ≈ 1', async () => {
      const text = 'My grandmother was born in Valparaíso.';
      const x = await said(text);
      const r = await remember(deps(), x.who.assistant, { conversationId: x.conversationId, quote: text, type: 'FACT' });
      const [original] = await testEmbedder().embed([text]);
      // the store reads `embedding::text`, the form node-postgres returns for an unregistered vector type
      const got = (await app.t.app.engram.store.getVectors([r.memory.id])).get(r.memory.id)!;
      expect(got).toBeInstanceOf(Float32Array);
      expect(got).toHaveLength(512);
      expect(cosine(got, original)).toBeGreaterThan(0.99999);
      // and the raw column as the driver hands it over, whatever its form
      const raw = (await app.db.query<{ embedding: unknown }>(`select embedding from memory_vectors where memory_id = $1`, [r.memory.id])).rows[0].embedding;
      if (typeof raw === 'string') expect(raw.startsWith('[')).toBe(true);
      const parsed = parseVector(raw, 512);
      expect(cosine(parsed, original)).toBeGreaterThan(0.99999);
      // recognition compares it (not discarded): the same sentence again scores ~1 through the index
      const hits = await deps().index.search({ spaceId: x.spaceId, vector: original, k: 3, exact: true });
      expect(hits[0].memoryId).toBe(r.memory.id);
      expect(hits[0].score).toBeGreaterThan(0.9999);
    });

    it('a status change does not touch memory_vectors (same ctid and xmin)', async () => {
      const text = 'I have a season ticket for the opera.';
      const x = await said(text);
      const r = await remember(deps(), x.who.assistant, { conversationId: x.conversationId, quote: text, type: 'FACT' });
      const row = async () => (await app.db.query<{ ctid: string; xmin: string }>(
        `select ctid::text as ctid, xmin::text as xmin from memory_vectors where memory_id = $1`, [r.memory.id])).rows[0];
      const stateRow = async () => (await app.db.query<{ xmin: string }>(`select xmin::text as xmin from memory_state where memory_id = $1`, [r.memory.id])).rows[0];
      const v0 = await row();
      const s0 = await stateRow();
      expect(v0).toBeDefined();
      for (const action of ['mute', 'unmute', 'retract'] as const) {
        const res = await changeStatus(deps(), x.who.operator, x.spaceId, action, [r.memory.id]);
        expect(res.changed).toBe(1);
      }
      expect(await row()).toEqual(v0);
      // the state row did change (so the check above is not vacuous)
      expect((await stateRow()).xmin).not.toBe(s0.xmin);
    });

    it('five concurrent remembers of the same sentence in one space make one memory', async () => {
      // five messages, each its own telling (the same sentence of one message remembered again is a retry: counted once)
      const texts = ['My bike is a blue Brompton.', 'my bike is a blue Brompton', 'My bike is a blue Brompton!', 'MY BIKE IS A BLUE BROMPTON.', 'My Bike Is A Blue Brompton.'];
      const x = await said(...texts);
      const results = await Promise.all(texts.map((quote) => remember(deps(), x.who.assistant, { conversationId: x.conversationId, quote, type: 'FACT' })));
      const ids = new Set(results.map((r) => r.memory.id));
      expect(ids.size).toBe(1);
      expect(results.filter((r) => r.outcome === 'CREATED')).toHaveLength(1);
      expect(results.filter((r) => r.outcome === 'REINFORCED')).toHaveLength(4);
      const n = await app.db.query<{ n: number }>(`select count(*)::int as n from memories where space_id = $1`, [x.spaceId]);
      expect(Number(n.rows[0].n)).toBe(1);
      const [m] = await app.t.app.engram.store.getMemories([...ids]);
      expect(m!.mentionCount).toBe(5);
      const mentions = await app.db.query<{ n: number }>(`select count(*)::int as n from mentions where space_id = $1`, [x.spaceId]);
      expect(Number(mentions.rows[0].n)).toBe(5);
    });

    describe('append-only triggers', () => {
      let memoryId: string;
      let messageId: string;
      beforeAll(async () => {
        const text = 'I was a lifeguard one summer.';
        const x = await said(text);
        const r = await remember(deps(), x.who.assistant, { conversationId: x.conversationId, quote: text, type: 'FACT' });
        memoryId = r.memory.id;
        messageId = r.memory.messageId!;
      });

      const refusedStatements: Array<[string, string]> = [
        ['update memories set quote', `update memories set quote = 'I was never a lifeguard.' where id = $1`],
        ['update memories set space_id', `update memories set space_id = space_id where id = $1`],
        ['update memories set said_at', `update memories set said_at = now() where id = $1`],
        ['update mentions set quote', `update mentions set quote = 'edited' where memory_id = $1`],
        ['update messages set text', `update messages set text = 'edited' where id = (select message_id from memories where id = $1)`],
        ['delete from memories', `delete from memories where id = $1`],
        ['delete from mentions', `delete from mentions where memory_id = $1`],
        ['delete from messages', `delete from messages where id = (select message_id from memories where id = $1)`],
      ];

      it.each(refusedStatements)('refuses %s', async (_label, sql) => {
        await expect(app.db.query(sql, [memoryId])).rejects.toThrow(/append-only/);
        // also inside a transaction that did not open the forget path
        await expect(app.db.transaction((tx) => tx.query(sql, [memoryId]))).rejects.toThrow(/append-only/);
        const [m] = await app.t.app.engram.store.getMemories([memoryId]);
        expect(m!.quote).toBe('I was a lifeguard one summer.');
      });

      it.each(['memories', 'mentions', 'messages'])('refuses truncate %s', async (table) => {
        if (target.name === 'pglite') {
          await expect(app.db.query(`truncate ${table} cascade`)).rejects.toThrow(/append-only/);
          return;
        }
        // On the shared server a TRUNCATE, even a refused one, first takes ACCESS EXCLUSIVE
        // locks on the table and everything referencing it, deadlocking other suites'
        // writes: check that the statement trigger is installed instead.
        const r = await app.db.query<{ n: number }>(
          `select count(*)::int as n from pg_trigger t join pg_class c on c.oid = t.tgrelid
            where c.relname = $1 and c.relnamespace = current_schema()::regnamespace and not t.tgisinternal
              and (t.tgtype & 32) <> 0 and t.tgfoid = 'engram_refuse_truncate'::regproc`,
          [table],
        );
        expect(Number(r.rows[0].n)).toBe(1);
      });

      it('allows them only in a transaction that did SET LOCAL engram.forget = on, and only for that transaction', async () => {
        // a session-less SET LOCAL outside a transaction opens nothing
        await app.db.query(`set local engram.forget = 'on'`).catch(() => {});
        await expect(app.db.query(`update memories set quote = 'x' where id = $1`, [memoryId])).rejects.toThrow(/append-only/);
        // rolled back: the path was open inside, and the content is unchanged after
        await expect(app.db.transaction(async (tx) => {
          await tx.query(`set local engram.forget = 'on'`);
          const u = await tx.query(`update memories set quote = 'I was never a lifeguard.' where id = $1`, [memoryId]);
          expect(u.rowCount).toBe(1);
          throw new Error('roll back');
        })).rejects.toThrow('roll back');
        expect((await app.t.app.engram.store.getMemories([memoryId]))[0]!.quote).toBe('I was a lifeguard one summer.');
        // committed: a delete goes through (this is what forget for good does)
        await app.db.transaction(async (tx) => {
          await tx.query(`set local engram.forget = 'on'`);
          await tx.query(`delete from mentions where memory_id = $1`, [memoryId]);
          await tx.query(`delete from memories where id = $1`, [memoryId]);
          await tx.query(`delete from messages where id = $1`, [messageId]);
        });
        expect((await app.t.app.engram.store.getMemories([memoryId]))[0]).toBeNull();
        // and the setting did not outlive its transaction, on any pooled connection
        for (let i = 0; i < 6; i++) {
          await expect(app.db.query(`update memories set quote = quote where id = (select id from memories limit 1)`)).rejects.toThrow(/append-only/);
        }
      });
    });
  });
}
