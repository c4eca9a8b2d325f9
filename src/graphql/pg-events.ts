import type { MemoryStore } from '../ports/memory-store.js';
import type { EventBus } from '../ports/event-bus.js';
import type { Logger } from '../ports/logger.js';
import type { Queryable } from '../store/sql-client.js';
import { PgListener } from '../store/pg-listen.js';

/** The channel migration 10's trigger notifies on. */
export const EVENTS_CHANNEL = 'engram_events';
const PAGE = 500;

/** What a subscription registers: interest in a space, until the returned function is called. */
export interface LiveEventSource {
  watch(spaceId: string): Promise<() => void>;
}

/**
 * Events across instances on one PostgreSQL (docs/live-updates.md). A trigger on
 * memory_events notifies `{s: space, last: event id, n}` at commit, in commit order; this
 * hub LISTENs on a connection of its own and, for each space a local subscription
 * watches, reads the rows after the space's cursor and publishes them to the in-process
 * pub/sub. The payload never carries rows, so no write is too large to announce, and
 * reading after a cursor (ids of one space increase in commit order: every writer holds
 * the space's lock) means a missed or merged notification loses nothing. A space dropped is
 * announced on the same channel (`{s: space, dropped: true}`, migration 26's trigger on `spaces`):
 * the space's local subscriptions end. When the LISTEN connection drops, it reconnects with
 * backoff, ends the subscriptions of watched spaces dropped meanwhile and catches up the others
 * (PgListener).
 */
export class PgEventHub implements LiveEventSource {
  private readonly watchers = new Map<string, { count: number; cursor: number }>();
  private readonly listener: PgListener;
  /** Notifications handled and events published by this instance (metrics, tests). */
  readonly stats = { notifications: 0, published: 0 };

  constructor(
    connectionString: string,
    private readonly store: Pick<MemoryStore, 'spaceEvents'>,
    private readonly db: Queryable,
    private readonly local: EventBus,
    log: Logger,
  ) {
    // Whatever was committed while nobody listened: spaces dropped end, every other watched space catches up.
    this.listener = new PgListener(connectionString, EVENTS_CHANNEL, (payload) => this.onNotification(payload), async () => {
      await this.endDropped([...this.watchers.keys()]);
      await this.catchUp([...this.watchers.keys()]);
    }, log, 'event listener');
  }

  async start(): Promise<void> {
    await this.listener.start();
  }

  private async onNotification(payload: string): Promise<void> {
    this.stats.notifications++;
    let note: { s?: string | null; last?: number; dropped?: boolean };
    try {
      note = JSON.parse(payload);
    } catch {
      note = {};
    }
    if (note.dropped === true) {
      // The trigger names the space deleted (committed); a space id too long for a payload is left out: ask which are gone.
      if (typeof note.s !== 'string') await this.endDropped([...this.watchers.keys()]);
      else if (this.watchers.has(note.s)) this.local.spaceDropped?.(note.s);
    } else if (typeof note.s === 'string') {
      const w = this.watchers.get(note.s);
      if (!w || (typeof note.last === 'number' && note.last <= w.cursor)) return;
      await this.catchUp([note.s]);
    } else {
      await this.catchUp([...this.watchers.keys()]);
    }
  }

  private async catchUp(spaces: string[]): Promise<void> {
    for (const spaceId of spaces) {
      for (;;) {
        const w = this.watchers.get(spaceId);
        if (!w) break;
        const rows = await this.store.spaceEvents(spaceId, w.cursor, PAGE);
        for (const e of rows) w.cursor = Math.max(w.cursor, Number(e.id));
        this.local.publish(rows);
        this.stats.published += rows.length;
        if (rows.length < PAGE) break;
      }
    }
  }

  /** Ends the local subscriptions of those of `spaces` that no longer exist (dropped). */
  private async endDropped(spaces: string[]): Promise<void> {
    if (spaces.length === 0) return;
    const present = new Set((await this.db.query<{ id: string }>(`select id from spaces where id = any($1)`, [spaces])).rows.map((r) => r.id));
    for (const s of spaces) if (!present.has(s) && this.watchers.has(s)) this.local.spaceDropped?.(s);
  }

  /**
   * Registers a local subscription's interest in a space. The first watcher of a space
   * starts its cursor at the space's last event now; the subscription itself reads any
   * backlog it asks for (`after`) from the store.
   */
  async watch(spaceId: string): Promise<() => void> {
    const w = this.watchers.get(spaceId);
    if (w) w.count++;
    else {
      const entry = { count: 1, cursor: Number.MAX_SAFE_INTEGER };
      this.watchers.set(spaceId, entry);
      // The cursor is set inside the chain, so no notification is read against a cursor not yet known.
      await new Promise<void>((resolve) => this.listener.enqueue(async () => {
        try {
          entry.cursor = Number((await this.db.query<{ last: number }>(
            `select coalesce(max(id), 0) as last from memory_events where space_id = $1`, [spaceId])).rows[0].last);
        } finally {
          resolve();
        }
      }));
    }
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const cur = this.watchers.get(spaceId);
      if (cur && --cur.count <= 0) this.watchers.delete(spaceId);
    };
  }

  async stop(): Promise<void> {
    await this.listener.stop();
  }
}

export { createLiveEvents } from './live-events.js';
