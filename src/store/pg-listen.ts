import pg from 'pg';
import type { Logger } from '../ports/logger.js';

/**
 * A connection of its own that LISTENs on one channel of a PostgreSQL server and hands each
 * notification to `heard`, one at a time in arrival (= commit) order. When the connection drops
 * it reconnects with backoff (250 ms doubling to 5 s), and `missed` runs first on the new
 * connection: whatever was notified while nobody listened is lost, and the caller catches up
 * (the event hub reads its spaces' events again; the erasure listener lets go of every copy).
 */
export class PgListener {
  private client: pg.Client | null = null;
  private chain: Promise<void> = Promise.resolve();
  private stopped = false;
  private retryMs = 250;
  private reconnectTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly connectionString: string,
    private readonly channel: string,
    private readonly heard: (payload: string) => Promise<void>,
    private readonly missed: () => Promise<void>,
    private readonly log: Logger,
    private readonly what: string,
  ) {
    if (!/^[a-z_]+$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
  }

  /** Connects and listens (rejects if the first connection fails). */
  async start(): Promise<void> {
    await this.connect();
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.connectionString });
    client.on('notification', (m) => {
      if (m.channel === this.channel) this.enqueue(() => this.heard(m.payload ?? ''));
    });
    const lost = (e?: unknown) => {
      if (this.client !== client) return;
      this.client = null;
      client.removeAllListeners('notification');
      void client.end().catch(() => {});
      if (this.stopped) return;
      this.log.warn({ err: e, retryMs: this.retryMs }, `${this.what} lost its connection; reconnecting`);
      this.scheduleReconnect();
    };
    client.on('error', lost);
    client.on('end', () => lost());
    try {
      await client.connect();
      await client.query(`LISTEN ${this.channel}`);
    } catch (e) {
      client.removeAllListeners('notification');
      await client.end().catch(() => {});
      throw e;
    }
    this.client = client;
    this.retryMs = 250;
  }

  private scheduleReconnect(): void {
    if (this.reconnectTimer || this.stopped) return;
    this.reconnectTimer = setTimeout(async () => {
      this.reconnectTimer = null;
      try {
        await this.connect();
        this.enqueue(this.missed);
      } catch (e) {
        this.retryMs = Math.min(this.retryMs * 2, 5_000);
        this.log.warn({ err: e, retryMs: this.retryMs }, `${this.what} could not reconnect; retrying`);
        this.scheduleReconnect();
      }
    }, this.retryMs);
    this.reconnectTimer.unref();
  }

  /** Runs after every notification handled so far (one at a time). */
  enqueue(fn: () => Promise<void>): void {
    this.chain = this.chain.then(fn).catch((e) => {
      this.log.warn({ err: e }, `${this.what}: handling a notification failed`);
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    const c = this.client;
    this.client = null;
    await c?.end().catch(() => {});
    await this.chain;
  }
}
