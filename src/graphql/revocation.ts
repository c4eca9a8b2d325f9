import { EventEmitter } from 'node:events';
import type { MemoryDeps } from '../memory/deps.js';
import { hashToken } from '../memory/tokens.js';

/**
 * Revocation reaches open websockets and server-sent event streams (docs/limits.md#revocation): a
 * socket is registered under the token it authenticated with; revoking that token through this
 * process closes its sockets at once (close code 4403, reason "token revoked"), and every
 * `tokenRecheckSeconds` each open socket's token is looked up again, so a token revoked
 * elsewhere (another instance, the CLI) or expired closes its sockets too. A subscription over
 * server-sent events registers the same way (`watch`): one registry, one re-check, for both.
 */
export const TOKEN_REVOKED_CLOSE = { code: 4403, reason: 'token revoked' } as const;

const revocations = new EventEmitter();
revocations.setMaxListeners(0);

/** Called by the revokeToken mutation once the token is revoked. */
export function tokenRevoked(tokenId: string): void {
  revocations.emit('revoked', tokenId);
}

/**
 * What a stream no socket carries registers (a subscription over HTTP, server-sent events: revoking
 * its token used to leave it streaming every change of the space, quotes included, and then, once
 * it ended itself at its next change, to leave an idle one open): `revoked` is called once the
 * token is revoked — at once through this process, within the registry's re-check otherwise (another
 * instance, the CLI, expiry), the same bound as a socket. The returned function unregisters.
 */
export interface TokenWatch {
  watch(tokenId: string, hash: string, revoked: () => void): () => void;
}

interface Closable { close(code?: number, reason?: string): void }
interface Entry { tokenId: string; hash: string }

export class SocketRegistry implements TokenWatch {
  private readonly sockets = new Map<Closable, Entry>();
  private readonly onRevoked = (tokenId: string) => this.closeWhere((e) => e.tokenId === tokenId);
  private timer: NodeJS.Timeout | null = null;
  private checking = false;

  constructor(private readonly deps: MemoryDeps, recheckSeconds: number) {
    revocations.on('revoked', this.onRevoked);
    this.timer = setInterval(() => void this.recheck(), recheckSeconds * 1000);
    this.timer.unref();
  }

  add(socket: Closable, tokenId: string, secret: string): void {
    this.sockets.set(socket, { tokenId, hash: hashToken(secret.replace(/^Bearer\s+/i, '').trim()) });
  }

  /** A stream with no socket (server-sent events): `revoked` stands for closing it. */
  watch(tokenId: string, hash: string, revoked: () => void): () => void {
    const stream: Closable = { close: () => revoked() };
    this.sockets.set(stream, { tokenId, hash });
    return () => { this.sockets.delete(stream); };
  }

  remove(socket: Closable): void {
    this.sockets.delete(socket);
  }

  get size(): number {
    return this.sockets.size;
  }

  stop(): void {
    revocations.off('revoked', this.onRevoked);
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Looks every open socket's token up again; closes those whose token is gone. */
  async recheck(): Promise<void> {
    if (this.checking || this.sockets.size === 0) return;
    this.checking = true;
    try {
      const hashes = new Set([...this.sockets.values()].map((e) => e.hash));
      const gone = new Set<string>();
      for (const h of hashes) if (!(await this.deps.store.findToken(h))) gone.add(h);
      if (gone.size) this.closeWhere((e) => gone.has(e.hash));
    } catch (err) {
      // The database is unavailable: keep the sockets; the next round checks again.
      this.deps.log.warn({ err: (err as Error).message }, 'token re-check failed');
    } finally {
      this.checking = false;
    }
  }

  private closeWhere(test: (e: Entry) => boolean): void {
    for (const [socket, e] of this.sockets) {
      if (!test(e)) continue;
      this.sockets.delete(socket);
      socket.close(TOKEN_REVOKED_CLOSE.code, TOKEN_REVOKED_CLOSE.reason);
    }
  }
}
