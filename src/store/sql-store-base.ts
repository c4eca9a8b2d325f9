import type { Conversation, Message, MessagePage, Space, TokenRecord, Tx } from '../ports/memory-store.js';
import type { MemoryKind } from '../core/types.js';
import type { Queryable, SqlClient } from './sql-client.js';
import type { Logger } from '../ports/logger.js';
import { eraseResidue } from './erasure.js';
import { date, toMessage, toSpace, type Row } from './sql-rows.js';

/** When an erasure whose connection was lost twice runs again (`eraseResidue`). */
export const ERASURE_RETRY_MS = [30_000, 120_000, 600_000] as const;

/** Messages read per statement when a whole conversation is read (listMessages), at most. */
export const MESSAGES_PAGE = 16;
/** And at most this many bytes of their text per statement (a message over it alone is read alone). */
export const MESSAGES_PAGE_BYTES = 262_144;

/**
 * The system of record over `SqlClient`, in parts by concern (each part extends the one
 * before; `SqlStore` in sql-store.ts is the whole): this one holds the connection,
 * transactions and the space lock, spaces, tokens, conversations and messages.
 * Methods that take `tx` run inside the caller's transaction; the others run on their own.
 */
export class SqlStoreBase {
  /**
   * `maintenance`: a client of the tables' owner (DATABASE_OWNER_URL) for what the service
   * role may not do (VACUUM FULL after a forget); the service's own client otherwise.
   */
  constructor(readonly db: SqlClient, protected readonly maintenance: SqlClient = db, protected readonly log?: Logger) {}

  /** One erasure at a time; a forget waits for its own. */
  private erasing: Promise<void> = Promise.resolve();
  /**
   * The erasure asked for that has not begun yet: a forget committed now is erased by it too, so a
   * burst of forgets (an operator's clicks, a sweep in parts) costs two rewrites, not one each
   * (each rewrites the whole of the content tables: seconds on a large embedded store).
   */
  private queued: Promise<void> | null = null;
  /** The erasure owed after a connection lost twice or tables held past the lock timeout, and when it runs (`ERASURE_RETRY_MS`). */
  private retry: ReturnType<typeof setTimeout> | null = null;
  private erasureStopped = false;

  eraseResidue(): Promise<void> {
    return this.erase(0);
  }

  /**
   * An erasure whose connection was lost on both tries, or whose tables another session held past
   * the lock timeout (docs/erasure.md), leaves the forgotten words on disk, though forget answered:
   * it is run again later, in 30 s, 2 min, then every 10 min, until it goes through (a forget
   * meanwhile erases for it, and starts the count again).
   */
  private erase(attempt: number): Promise<void> {
    if (this.queued) return this.queued;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    const run: Promise<void> = this.erasing.then(async () => {
      // (begun: what commits from now on waits for the next one)
      if (this.queued === run) this.queued = null;
      // what is owed now: a forget committed from here on records a later time, and stays owed for its own erasure
      const owed = await this.owedSince();
      const report = await eraseResidue(this.maintenance, this.log);
      if (owed && !report.connectionLost && !report.tablesHeld && !report.failed.some((f) => f.step === 'vacuum full')) {
        await this.db.query(`delete from erasure_owed where since = $1::timestamptz`, [owed])
          .catch((e: unknown) => this.log?.warn({ cause: String(e) }, 'erasure: done, but could not record it (it runs again at the next start)'));
      }
      if (!(report.connectionLost || report.tablesHeld) || this.erasureStopped) return;
      // (past the schedule, every last interval while the process lives: a dump may hold the tables for an hour)
      const ms = ERASURE_RETRY_MS[Math.min(attempt, ERASURE_RETRY_MS.length - 1)]!;
      this.log?.warn({ inSeconds: ms / 1000 }, 'erasure: the forgotten words stay on disk until it runs again');
      this.retry = setTimeout(() => {
        this.retry = null;
        this.erase(attempt + 1).catch((e: unknown) => this.log?.warn({ cause: String(e) }, 'erasure: the retry failed'));
      }, ms);
      this.retry.unref?.();
    });
    this.erasing = run.catch(() => undefined);
    this.queued = run;
    return run;
  }

  /** No erasure is retried after this (the store is about to close): the one running, if any, is waited for. */
  async stopErasures(): Promise<void> {
    this.erasureStopped = true;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    await this.erasing;
  }

  get statementCount(): number {
    return this.db.statementCount;
  }

  protected q(tx?: Tx): Queryable {
    return (tx as Queryable | undefined) ?? this.db;
  }

  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => fn(tx));
  }

  /**
   * A transaction holding the space's write lock: recognition and writes of one space never
   * interleave. On PGlite the transaction itself is that lock and more: one connection, and
   * PGlite runs a transaction to its end before any other statement (its query and transaction
   * calls share one mutex), so the advisory lock would only cost a statement.
   */
  withSpaceLock<T>(spaceId: string, fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.db.transaction(async (tx) => {
      if (this.db.driver !== 'pglite') await tx.query(`select pg_advisory_xact_lock(hashtext($1))`, [`space:${spaceId}`]);
      return fn(tx);
    });
  }

  async createSpace(s: { id: string; name: string; sealed: boolean; timeZone: string }, tx?: Tx): Promise<Space> {
    const r = await this.q(tx).query<Row>(
      `insert into spaces (id, name, sealed, time_zone) values ($1, $2, $3, $4) returning *`,
      [s.id, s.name, s.sealed, s.timeZone],
    );
    return toSpace(r.rows[0]);
  }

  async getSpaces(ids: readonly string[]): Promise<(Space | null)[]> {
    const r = await this.db.query<Row>(`select * from spaces where id = any($1::text[])`, [ids]);
    const by = new Map(r.rows.map((x) => [x.id as string, toSpace(x)]));
    return ids.map((id) => by.get(id) ?? null);
  }

  async listSpaces(): Promise<Space[]> {
    return (await this.db.query<Row>(`select * from spaces order by created_at, id`)).rows.map(toSpace);
  }

  async setSpaceTimeZone(id: string, timeZone: string): Promise<void> {
    await this.db.query(`update spaces set time_zone = $2 where id = $1`, [id, timeZone]);
  }

  /** Drops a sealed space with everything in it, through the database's function (it refuses a person's space). */
  async dropSpace(id: string, tx: Tx): Promise<void> {
    await this.q(tx).query(`select engram_drop_sealed_space($1)`, [id]);
    await this.oweErasure(tx);
  }

  /** Records, in the deleting transaction, that an erasure is owed (cleared by the one that goes through). */
  protected async oweErasure(tx: Tx): Promise<void> {
    await this.q(tx).query(`insert into erasure_owed (id, since) values (1, clock_timestamp()) on conflict (id) do update set since = excluded.since`);
  }

  /**
   * An erasure owed by a forget whose process stopped before the erasure went through (kill -9, a
   * crash, a retry still pending): run now, in the background. Called once at start.
   */
  async resumeOwedErasure(): Promise<void> {
    const since = await this.owedSince();
    if (since === null) return;
    this.log?.warn({ since }, 'erasure: one was owed when the process stopped; running it now');
    await this.eraseResidue();
  }

  /** When the erasure owed was last recorded (exactly, as text), or null: none, or unreadable now. */
  private async owedSince(): Promise<string | null> {
    try {
      return (await this.db.query<{ since: string }>(`select since::text as since from erasure_owed`)).rows[0]?.since ?? null;
    } catch {
      return null;
    }
  }

  async countMemories(spaceId: string, kind: MemoryKind | null = null): Promise<number> {
    const r = await this.db.query<{ n: number }>(
      `select count(*)::int as n from memories where space_id = $1 and ($2::text is null or kind = $2)`,
      [spaceId, kind],
    );
    return Number(r.rows[0].n);
  }

  async countByStatus(spaceId: string, kind: MemoryKind): Promise<Record<string, number>> {
    const r = await this.db.query<Row>(
      `select status, count(*)::int as n from memory_state where space_id = $1 and kind = $2 group by status`,
      [spaceId, kind],
    );
    return Object.fromEntries(r.rows.map((x) => [x.status, Number(x.n)]));
  }

  async insertToken(t: { id: string; hash: string; role: string; spaceId: string | null; label: string | null }): Promise<void> {
    await this.db.query(
      `insert into tokens (id, hash, role, space_id, label) values ($1, $2, $3, $4, $5)`,
      [t.id, t.hash, t.role, t.spaceId, t.label],
    );
  }

  async findToken(hash: string): Promise<TokenRecord | null> {
    const r = await this.db.query<Row>(`select * from tokens where hash = $1 and revoked_at is null`, [hash]);
    const x = r.rows[0];
    return x ? { id: x.id, role: x.role, spaceId: x.space_id ?? null, label: x.label ?? null } : null;
  }

  async isRevokedToken(hash: string): Promise<boolean> {
    return (await this.db.query(`select 1 from tokens where hash = $1 and revoked_at is not null`, [hash])).rows.length > 0;
  }

  async countTokens(): Promise<number> {
    return Number((await this.db.query<{ n: number }>(`select count(*)::int as n from tokens where revoked_at is null`)).rows[0].n);
  }

  async revokeToken(id: string): Promise<boolean> {
    return (await this.db.query(`update tokens set revoked_at = now() where id = $1 and revoked_at is null`, [id])).rowCount > 0;
  }

  async createConversation(c: { id: string; spaceId: string }): Promise<Conversation> {
    const r = await this.db.query<Row>(
      `insert into conversations (id, space_id) values ($1, $2) returning *`,
      [c.id, c.spaceId],
    );
    const x = r.rows[0];
    return { id: x.id, spaceId: x.space_id, createdAt: date(x.created_at) };
  }

  async getConversations(ids: readonly string[]): Promise<(Conversation | null)[]> {
    const r = await this.db.query<Row>(`select * from conversations where id = any($1::text[])`, [ids]);
    const by = new Map(r.rows.map((x) => [x.id as string, { id: x.id, spaceId: x.space_id, createdAt: date(x.created_at) }]));
    return ids.map((id) => by.get(id) ?? null);
  }

  async addMessage(m: Message): Promise<Message> {
    const r = await this.db.query<Row>(
      `insert into messages (id, conversation_id, space_id, role, text, at) values ($1, $2, $3, $4, $5, $6) returning *`,
      [m.id, m.conversationId, m.spaceId, m.role, m.text, m.at],
    );
    return toMessage(r.rows[0]);
  }

  /**
   * In pages, one statement each (by `seq`, the index's order): a conversation may hold hundreds of
   * messages of up to 100,000 characters, and one statement returning them all held PGlite's
   * thread, so every request of the process, for seconds (docs/quote-check.md). A page is at most
   * MESSAGES_PAGE messages and MESSAGES_PAGE_BYTES of their text, its first message always (16
   * messages of 100,000 characters held the thread 0.10 s): the sizes come from each stored text's
   * header (`octet_length`), so a message left for the next page is not read for this one.
   */
  async listMessages(conversationId: string, tx?: Tx): Promise<Message[]> {
    const out: Message[] = [];
    for (let after: string | null = null; ;) {
      const page: MessagePage = await this.messagePage(conversationId, after, MESSAGES_PAGE, MESSAGES_PAGE_BYTES, tx);
      out.push(...page.messages);
      if (!page.more) return out;
      after = page.messages[page.messages.length - 1]!.id;
    }
  }

  async messageText(conversationId: string, messageId: string, tx?: Tx): Promise<string | null> {
    const r = await this.q(tx).query<{ text: string }>(`select text from messages where id = $1 and conversation_id = $2`, [messageId, conversationId]);
    return r.rows[0]?.text ?? null;
  }

  /** A page as `listMessages` reads them (see there), after the message `after` (its id). */
  async messagePage(conversationId: string, after: string | null, count: number, bytes: number, tx?: Tx): Promise<MessagePage> {
    const r = await this.q(tx).query<Row>(
      `with a as (select seq from messages where id = $2 and conversation_id = $1)
       select p.id, p.conversation_id, p.space_id, p.role, p.text, p.at, p.page from (
         select *, sum(octet_length(text)) over (order by seq) - octet_length(text) as before, count(*) over () as page
         from (select * from messages where conversation_id = $1 and ($2::text is null or seq > (select seq from a)) order by seq limit $3) m
       ) p where p.before < $4::bigint order by p.seq`,
      [conversationId, after, count, bytes],
    );
    const last = r.rows[r.rows.length - 1];
    if (!last) {
      const found = after === null || (await this.q(tx).query(`select 1 from messages where id = $1 and conversation_id = $2`, [after, conversationId])).rows.length > 0;
      return { messages: [], more: false, afterFound: found };
    }
    // More may follow where the page found as many as it asked for, or the bytes left some out.
    const found = Number(last.page);
    return { messages: r.rows.map(toMessage), more: found === count || r.rows.length < found, afterFound: true };
  }

}
