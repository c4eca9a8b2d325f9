import type { Logger } from '../ports/logger.js';
import { ERASURES_CHANNEL } from './migration-erasure.js';
import { PgListener } from './pg-listen.js';

/**
 * What a process holds of a space's words, let go of when they are erased elsewhere: `ids` the
 * memories deleted, null when the notification could not name them (the whole space); a space of
 * null: erasures may have been missed (the listener reconnected), everything held goes.
 */
export type LetGo = (spaceId: string | null, ids: readonly string[] | null) => void;

/**
 * Erasures across instances on one PostgreSQL server (docs/erasure.md, "Every process"). Another
 * instance's forget deletes rows this process may hold copies of: the postings it scores BM25
 * from, the vector mirror, the texts its embedder answered lately. Migration 23's trigger notifies
 * each delete at commit; this listener, on a connection of its own, hands each to `letGo`. When the
 * connection drops, notifications may be lost meanwhile: on reconnecting, everything held goes
 * (read again from the database when next asked).
 */
export class PgErasureListener {
  private readonly listener: PgListener;

  constructor(connectionString: string, letGo: LetGo, log: Logger) {
    this.listener = new PgListener(connectionString, ERASURES_CHANNEL, async (payload) => {
      const note = parseErasure(payload);
      letGo(note.spaceId, note.ids);
    }, async () => letGo(null, null), log, 'erasure listener');
  }

  async start(): Promise<void> {
    await this.listener.start();
  }

  stop(): Promise<void> {
    return this.listener.stop();
  }
}

/** A notification's space and ids; anything unreadable means "everything" (nothing is kept on a doubt). */
export function parseErasure(payload: string): { spaceId: string | null; ids: string[] | null } {
  try {
    const note = JSON.parse(payload) as { s?: unknown; ids?: unknown };
    if (typeof note.s !== 'string') return { spaceId: null, ids: null };
    const ids = Array.isArray(note.ids) && note.ids.every((x) => typeof x === 'string') ? note.ids as string[] : null;
    return { spaceId: note.s, ids };
  } catch {
    return { spaceId: null, ids: null };
  }
}
