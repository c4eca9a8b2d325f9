/**
 * Issue 13, append-only enforced by privileges on a PostgreSQL server: migrations run as
 * an owner role, the service as a role of its own. As the service role each of the
 * statements below fails (one test per statement), while the service itself works:
 * remember, forget for good (through the SECURITY DEFINER function), revoke a token.
 * Runs on the server at DATABASE_URL (a superuser: it creates per-run roles and a schema,
 * and drops them after).
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgClient } from '../../src/store/pg-client.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { assertTestDatabase } from '../helpers/db.js';
import { actors } from '../helpers/memory.js';
import { createToken } from '../../src/memory/tokens.js';

const url = process.env.DATABASE_URL;

describe.skipIf(!url)('service role on a PostgreSQL server (append-only by privileges)', () => {
  const tag = randomBytes(4).toString('hex');
  const owner = `engram_own_${tag}`;
  const service = `engram_svc_${tag}`;
  const schema = `engram_priv_${tag}`;
  let admin: PgClient;
  let svc: PgClient;
  let t: TestApp;
  let memoryId: string;
  let otherMessageId: string;
  let revokedTokenId: string;

  const as = (role: string) => {
    const u = new URL(url!);
    u.username = role;
    u.password = 'pw';
    return u.toString();
  };

  beforeAll(async () => {
    assertTestDatabase(url!);
    admin = new PgClient(url!, 1);
    await admin.query(`create extension if not exists vector`);
    await admin.query(`create role ${owner} login password 'pw'`);
    await admin.query(`create role ${service} login password 'pw'`);
    await admin.query(`create schema ${schema} authorization ${owner}`);
    const ext = (await admin.query<{ s: string }>(`select n.nspname as s from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'vector'`)).rows[0].s;
    for (const r of [owner, service]) {
      await admin.query(`alter role ${r} set search_path = ${schema}, ${ext}`);
      await admin.query(`grant usage on schema ${ext} to ${r}`);
    }
    t = await createTestApp({ env: { DATABASE_URL: as(service), DATABASE_OWNER_URL: as(owner) } });
    svc = new PgClient(as(service), 2);
    const s = await t.space({ name: 'privileges' });
    const a = actors(t.gql, s);
    const c = await a.open();
    await a.say(c, 'I was a lifeguard one summer. My cat is called Miso.');
    memoryId = (await a.remember({ conversationId: c, quote: 'I was a lifeguard one summer.' })).memory.id;
    // another message of the space sharing words with the wording ("I", "one") but not all of them
    await a.say(c, 'I was in Porto one weekend.');
    otherMessageId = (await svc.query<{ id: string }>(`select id from messages where text = 'I was in Porto one weekend.'`)).rows[0]!.id;
    const tok = await createToken(t.app.engram.deps, { role: 'chat', spaceId: s.id });
    revokedTokenId = tok.id;
    expect(await t.app.engram.store.revokeToken(tok.id)).toBe(true);
  });

  afterAll(async () => {
    await t?.close();
    await svc?.close();
    if (admin) {
      await admin.query(`drop schema if exists ${schema} cascade`).catch(() => {});
      for (const r of [service, owner]) {
        await admin.query(`drop owned by ${r} cascade`).catch(() => {});
        await admin.query(`drop role if exists ${r}`).catch(() => {});
      }
      await admin.close();
    }
  });

  it('the service really runs as the service role (not the owner, not a superuser)', async () => {
    const r = await t.app.engram.db.query<{ u: string; su: boolean }>(`select current_user as u, (select rolsuper from pg_roles where rolname = current_user) as su`);
    expect(r.rows[0]).toEqual({ u: service, su: false });
  });

  it('UPDATE memories SET quote fails', async () => {
    await expect(svc.query(`update memories set quote = 'I was never a lifeguard.' where id = $1`, [memoryId])).rejects.toThrow(/permission denied/);
  });

  it('ALTER TABLE … DISABLE TRIGGER fails', async () => {
    await expect(svc.query(`alter table memories disable trigger memories_no_update`)).rejects.toThrow(/must be owner/);
  });

  it('SET session_replication_role = replica fails', async () => {
    await expect(svc.query(`set session_replication_role = replica`)).rejects.toThrow(/permission denied/);
  });

  it('DELETE FROM memory_events fails', async () => {
    await expect(svc.query(`delete from memory_events`)).rejects.toThrow(/permission denied/);
  });

  it('UPDATE tokens SET revoked_at = null fails', async () => {
    await expect(svc.query(`update tokens set revoked_at = null where id = $1`, [revokedTokenId])).rejects.toThrow(/revoked token stays revoked/);
  });

  it('DROP TRIGGER fails', async () => {
    await expect(svc.query(`drop trigger memories_no_delete on memories`)).rejects.toThrow(/must be owner/);
  });

  it('no session setting opens a door: SET LOCAL engram.forget = on, then DELETE / UPDATE content fails', async () => {
    await expect(svc.transaction(async (tx) => {
      await tx.query(`set local engram.forget = 'on'`);
      await tx.query(`delete from memories where id = $1`, [memoryId]);
    })).rejects.toThrow(/permission denied/);
    await expect(svc.transaction(async (tx) => {
      await tx.query(`set local engram.forget = 'on'`);
      await tx.query(`update messages set text = 'edited'`);
    })).rejects.toThrow(/permission denied/);
  });

  it('the forget function refuses to write words: a message rewrite may only remove them', async () => {
    const msg = (await svc.query<{ id: string }>(`select message_id as id from memories where id = $1`, [memoryId])).rows[0].id;
    await expect(svc.query(`select engram_forget((select space_id from memories where id = $1), array[$1], array[$2], array['I was a pirate one summer.'], '{}', '{}')`, [memoryId, msg]))
      .rejects.toThrow(/only remove words/);
    const still = await svc.query<{ quote: string }>(`select quote from memories where id = $1`, [memoryId]);
    expect(still.rows[0].quote).toBe('I was a lifeguard one summer.');
  });

  it('the forget function rewrites no message that holds only some words of a forgotten wording', async () => {
    await expect(svc.query(`select engram_forget((select space_id from memories where id = $1), array[$1], array[$2], array[null::text], '{}', '{}')`, [memoryId, otherMessageId]))
      .rejects.toThrow(/holds no wording/);
    const still = await svc.query<{ text: string }>(`select text from messages where id = $1`, [otherMessageId]);
    expect(still.rows[0].text).toBe('I was in Porto one weekend.');
  });

  it('erasure as the service role says it cannot rewrite the tables, instead of reporting a VACUUM FULL that PostgreSQL skipped', async () => {
    const { eraseResidue } = await import('../../src/store/erasure.js');
    const r = await eraseResidue(svc);
    expect(r.done).not.toContain('vacuum full');
    const failed = r.failed.find((f) => f.step === 'vacuum full');
    expect(failed?.error).toMatch(/may not vacuum .*memories/);
    // and as the owner, it runs
    const own = new PgClient(as(owner), 1);
    try {
      const o = await eraseResidue(own);
      expect(o.done).toContain('vacuum full');
      expect(o.done).toContain('visibility map');
    } finally {
      await own.close();
    }
  });

  it('the service works: forget for good through the function, the other sentence stays', async () => {
    const spaceId = (await svc.query<{ s: string }>(`select space_id as s from memories where id = $1`, [memoryId])).rows[0].s;
    const { forget } = await import('../../src/memory/statuses.js');
    const r = await forget(t.app.engram.deps, { role: 'admin', tokenId: 'test', spaceId: null } as never, spaceId, [memoryId], true);
    expect(r.changed).toBe(1);
    const msgs = await svc.query<{ id: string; text: string }>(`select id, text from messages where space_id = $1`, [spaceId]);
    const said = msgs.rows.find((m) => m.id !== otherMessageId)!;
    expect(said.text).toContain('My cat is called Miso.');
    expect(said.text).not.toContain('lifeguard');
    // the message that shares only some of the wording's words is left as it was
    expect(msgs.rows.find((m) => m.id === otherMessageId)?.text).toBe('I was in Porto one weekend.');
    const events = await svc.query<{ n: number }>(`select count(*)::int as n from memory_events where memory_id = $1 and kind = 'FORGOTTEN'`, [memoryId]);
    expect(Number(events.rows[0].n)).toBe(1);
  });
});
