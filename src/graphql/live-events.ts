import type { EventBus } from '../ports/event-bus.js';
import type { Engram } from '../container.js';
import type { PgEventHub } from './pg-events.js';
import type { PgClient } from '../store/pg-client.js';

/**
 * The event bus the use cases publish on, and the live source subscriptions watch. On the
 * embedded default (PGlite, one process) events go straight to the in-process pub/sub after
 * commit. On a PostgreSQL server they go only through the database (the hub), so every
 * instance — the writer included — hears them once, in commit order. A space dropped takes the
 * same ways: in process, or announced by the database to every instance.
 */
export function createLiveEvents(local: EventBus) {
  let hub: PgEventHub | null = null;
  const bus: EventBus = {
    publish: (events) => { if (!hub) local.publish(events); },
    spaceDropped: (spaceId) => { if (!hub) local.spaceDropped?.(spaceId); },
  };
  return {
    bus,
    get hub(): PgEventHub | null {
      return hub;
    },
    /** Starts listening when the system of record is a PostgreSQL server; returns the hub or null. */
    async attach(engram: Engram): Promise<PgEventHub | null> {
      if (engram.db.driver !== 'pg') return null;
      const db = engram.db as PgClient;
      // The hub's driver (pg) loads only here: the embedded default never needs it.
      const { PgEventHub } = await import('./pg-events.js');
      const h = new PgEventHub(db.connectionString, engram.store, db, local, engram.deps.log);
      await h.start();
      hub = h;
      return h;
    },
    async stop(): Promise<void> {
      await hub?.stop();
    },
  };
}
