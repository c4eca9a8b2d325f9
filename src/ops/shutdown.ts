import type { Server } from 'node:http';
import type { Logger } from '../ports/logger.js';

/** How long in-flight requests get to finish after a SIGTERM before their connections are cut. */
export const DEFAULT_GRACE_MS = 10_000;

/**
 * Stops an HTTP + graphql-ws server gracefully (docs/operations.md):
 * 1. stop accepting: the listening socket closes (new connections are refused) and idle
 *    keep-alive connections are closed;
 * 2. subscriptions end: graphql-ws closes each socket with 1001 "Going away", so clients
 *    reconnect elsewhere (and resume with `memoryEvents(after:)`);
 * 3. in-flight requests finish, up to `graceMs`; connections still open then are cut.
 * The caller closes the store afterwards.
 */
export async function drainServer(
  server: Server, subscriptions: { dispose(): void | Promise<void> } | null, log: Logger, graceMs = DEFAULT_GRACE_MS,
): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections?.();
  try {
    await subscriptions?.dispose();
  } catch (e) {
    log.warn({ err: e }, 'closing subscriptions failed');
  }
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => { timer = setTimeout(() => resolve('late'), graceMs); });
  // Responses finished after close() leave keep-alive sockets idle: close them as they go idle.
  const idle = setInterval(() => server.closeIdleConnections?.(), 100);
  try {
    if ((await Promise.race([closed, late])) === 'late') {
      log.warn({ graceMs }, 'requests still running after the grace period: connections closed');
      server.closeAllConnections?.();
      await closed;
    }
  } finally {
    clearTimeout(timer);
    clearInterval(idle);
  }
}
