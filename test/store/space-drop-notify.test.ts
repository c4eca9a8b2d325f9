/**
 * A space dropped, announced on a server (migration 26, src/graphql/pg-events.ts): deleting a
 * space notifies `engram_events` at commit, and the event hub ends the local subscriptions of the
 * spaces it watches that were dropped — named in the payload, or, for a space id too long for one,
 * found by asking which are gone; a rolled-back drop announces nothing; a drop committed while the
 * hub's LISTEN connection was cut is found when it reconnects. (End to end, through graphql-ws and
 * server-sent events: test/e2e/multi-instance.test.ts.) Every wait is bounded and polls.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { PgEventHub } from '../../src/graphql/pg-events.js';
import type { EventBus } from '../../src/ports/event-bus.js';
import type { Logger } from '../../src/ports/logger.js';
import { testAppOn } from '../helpers/app.js';
import { testDatabases } from '../helpers/db.js';
import { TcpProxy } from '../helpers/live.js';

const quiet = { debug() {}, info() {}, warn() {}, error() {} } as unknown as Logger;
const BOUND = { timeout: 30_000, interval: 50 };
const server = testDatabases().find((d) => d.name === 'pg');

describe.skipIf(!server)('a space dropped, on a server', () => {
  const app = testAppOn(server!);
  const sealed = async (id: string = randomUUID()) =>
    (await app.t.app.engram.store.createSpace({ id, name: 'drop-notify', sealed: true, timeZone: 'UTC' })).id;
  const drop = (id: string) => app.db.query(`select engram_drop_sealed_space($1)`, [id]);
  const hubOn = (url: string) => {
    const dropped: string[] = [];
    const local: EventBus = { publish: () => {}, spaceDropped: (id) => { dropped.push(id); } };
    return { dropped, hub: new PgEventHub(url, app.t.app.engram.store, app.db, local, quiet) };
  };

  it('ends the watched spaces dropped, a long id included; not a rolled-back drop, nor an unwatched space', async () => {
    const { dropped, hub } = hubOn(process.env.DATABASE_URL!);
    await hub.start();
    try {
      const [short, long, kept, unwatched] = [await sealed(), await sealed(`drop-${'x'.repeat(1200)}`), await sealed(), await sealed()];
      const unwatch = await Promise.all([short, long, kept].map((s) => hub.watch(s)));
      await expect(app.db.transaction(async (tx) => {
        await tx.query(`select engram_drop_sealed_space($1)`, [kept]);
        throw new Error('roll back');
      })).rejects.toThrow('roll back');
      await drop(unwatched);
      await drop(short);
      await drop(long);
      await vi.waitFor(() => expect(dropped).toEqual(expect.arrayContaining([short, long])), BOUND);
      // notifications arrive in commit order: the rolled-back and unwatched ones came before, and ended nothing
      expect(dropped).not.toContain(kept);
      expect(dropped).not.toContain(unwatched);
      for (const u of unwatch) u();
    } finally {
      await hub.stop();
    }
  });

  it('a drop committed while its LISTEN connection was cut is found when it reconnects', async () => {
    const target = new URL(process.env.DATABASE_URL!);
    const proxy = new TcpProxy(target.hostname, Number(target.port || 5432));
    const port = await proxy.open();
    const through = new URL(target);
    through.hostname = '127.0.0.1';
    through.port = String(port);
    const { dropped, hub } = hubOn(through.toString());
    await hub.start();
    try {
      const [gone, stays] = [await sealed(), await sealed()];
      await hub.watch(gone);
      await hub.watch(stays);
      await proxy.cut();
      await drop(gone); // committed: its notification reaches no one
      await proxy.restore();
      await vi.waitFor(() => expect(dropped).toEqual([gone]), BOUND);
    } finally {
      await hub.stop();
      await proxy.cut();
    }
  });
});
