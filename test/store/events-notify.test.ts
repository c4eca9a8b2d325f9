/**
 * Migration 14: the events trigger notifies nothing in a session with engram.notify_events = off,
 * which every session of the embedded store has (nothing there LISTENs: events are published in
 * process); a server's sessions notify as before (test/e2e/multi-instance.test.ts hears them).
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { PgliteClient } from '../../src/store/pglite-client.js';
import { testAppOn } from '../helpers/app.js';
import { testDatabases } from '../helpers/db.js';
import { until } from '../helpers/live.js';

describe('events notify (migration 14)', () => {
  it('every session of the embedded store has engram.notify_events off', async () => {
    const db = await PgliteClient.open(':memory:');
    try {
      const r = await db.query<{ v: string | null }>(`select current_setting('engram.notify_events', true) as v`);
      expect(r.rows[0].v).toBe('off');
    } finally {
      await db.close();
    }
  });

  const server = testDatabases().find((d) => d.name === 'pg');
  describe.skipIf(!server)('on a server', () => {
    const app = testAppOn(server!);
    it('a session with it off notifies nothing; a session without it notifies as before', async () => {
      expect(app.db.driver).toBe('pg');
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
