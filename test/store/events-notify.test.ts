/**
 * The events trigger (migration 10) announces events to other instances LISTENing on a server.
 * Migration 14: it notifies nothing in a session with engram.notify_events = off. Migration 20:
 * the embedded store (one process, events published in process) has no such trigger, so a write
 * of events copies no transition table; a server keeps it (test/e2e/multi-instance.test.ts hears
 * it).
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../src/store/migrations.js';
import { SqlStore } from '../../src/store/sql-store.js';
import type { Queryable } from '../../src/store/sql-client.js';
import { testAppOn } from '../helpers/app.js';
import { testDatabases, withOlderStore } from '../helpers/db.js';
import { until } from '../helpers/live.js';

const triggers = async (db: Queryable) => (await db.query<{ name: string }>(
  `select tgname as name from pg_trigger where tgrelid = 'memory_events'::regclass and not tgisinternal order by tgname`,
)).rows.map((r) => r.name);

describe('events notify', () => {
  it('an embedded store upgraded to migration 20 loses the notification trigger and keeps its events', async () => {
    await withOlderStore(19, ['m1'], async (db) => {
      expect(await triggers(db)).toContain('memory_events_notify');
      await db.query(`insert into memory_events (space_id, memory_id, kind, actor) values ('s1', 'm1', 'CREATED', 'old')`);
      expect(await migrate(db, { dimensions: 512, upTo: 20 })).toEqual([20]);
      expect(await triggers(db)).not.toContain('memory_events_notify');
      // the append-only guards stay
      expect(await triggers(db)).toEqual(expect.arrayContaining(['memory_events_no_delete', 'memory_events_no_update']));
      const store = new SqlStore(db);
      const changed = await db.transaction((tx) => store.setStatusLogged(tx, 's1', ['m1'], 'MUTED', ['ACTIVE'], { kind: 'MUTED', actor: 'new' }));
      expect(changed.changed).toEqual(['m1']);
      const [history] = await store.eventsOf(['m1']);
      expect(history.map((e) => [e.kind, e.actor])).toEqual([['CREATED', 'old'], ['MUTED', 'new']]);
    });
  });

  const server = testDatabases().find((d) => d.name === 'pg');
  describe.skipIf(!server)('on a server', () => {
    const app = testAppOn(server!);
    it('keeps the trigger; a session with notify_events off notifies nothing, one without it notifies', async () => {
      expect(app.db.driver).toBe('pg');
      expect(await triggers(app.db)).toContain('memory_events_notify');
      const url = process.env.DATABASE_URL!;
      const listener = new pg.Client({ connectionString: url });
      const writer = new pg.Client({ connectionString: url });
      await listener.connect();
      await writer.connect();
      try {
        const heard: string[] = [];
        listener.on('notification', (n) => { if (n.payload) heard.push(JSON.parse(n.payload).s as string); });
        await listener.query('listen engram_events');
        const event = (space: string) =>
          writer.query(`insert into memory_events (space_id, kind, actor) values ($1, 'NOTIFY_TEST', 'test')`, [space]);
        const [first, silent, last] = [randomUUID(), randomUUID(), randomUUID()];
        await event(first);
        await until(() => heard.includes(first), 10_000, 'the first notification');
        await writer.query(`set engram.notify_events = off`);
        await event(silent);
        await writer.query(`reset engram.notify_events`);
        await event(last);
        // notifications arrive in commit order: once the last is heard, the silent one would have been
        await until(() => heard.includes(last), 10_000, 'the last notification');
        expect(heard).not.toContain(silent);
      } finally {
        await listener.end();
        await writer.end();
      }
    });
  });
});
