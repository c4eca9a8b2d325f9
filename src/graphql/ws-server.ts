import type { IncomingMessage } from 'node:http';
import { CloseCode, handleProtocols, makeServer, type ServerOptions } from 'graphql-ws';
import type { Extra } from 'graphql-ws/use/ws';
import type { WebSocket, WebSocketServer } from 'ws';
import type { Logger } from '../ports/logger.js';

/**
 * graphql-ws on a `ws` server (docs/live-updates.md), as graphql-ws's own `useServer` does it
 * (`graphql-ws/use/ws`: its protocol server, the subprotocol check, a ping every 12 s and a socket
 * closed when no pong comes back), except for what a client's mistake costs. `useServer` printed
 * every socket error and every message it could not handle with `console.error` and a stack, and
 * closed the socket with 4500 ("internal server error"). Any client could do that at will, without
 * a token: a frame over the message bound, or a `next` message sent to the server (found by an
 * adversarial probe). Here:
 * - a socket's error (a frame over `maxPayload`, an invalid frame): the `ws` library closes the
 *   socket itself (1009, 1002); it is logged at info, one line, as any client error;
 * - a message of a type only the server sends (`next`, `error`, `connection_ack`): closed 4400
 *   (bad request), logged at info;
 * - anything else thrown while handling a message is a defect: logged at error with its stack,
 *   closed 4500, as before.
 */
export function serveGraphqlWs<P extends Record<string, unknown> | undefined>(
  options: ServerOptions<P, Extra>, wss: WebSocketServer, log: Logger, keepAliveMs = 12_000,
): { dispose(): Promise<void> } {
  const server = makeServer<P, Extra>(options);
  wss.options.handleProtocols = handleProtocols;
  wss.on('error', (err) => log.error({ err }, 'websocket server error'));
  wss.on('connection', (socket: WebSocket, request: IncomingMessage) => {
    socket.on('error', (err: Error & { code?: string }) => log.info({ code: err.code ?? 'WS_ERROR', error: err.message }, 'client error'));
    let pongWait: NodeJS.Timeout | null = null;
    const ping = keepAliveMs > 0 ? setInterval(() => {
      if (socket.readyState !== socket.OPEN) return;
      pongWait = setTimeout(() => socket.terminate(), keepAliveMs);
      socket.once('pong', () => {
        if (pongWait) clearTimeout(pongWait);
        pongWait = null;
      });
      socket.ping();
    }, keepAliveMs) : null;
    const closed = server.opened({
      protocol: socket.protocol,
      send: (data) => new Promise<void>((resolve, reject) => {
        if (socket.readyState !== socket.OPEN) return resolve();
        socket.send(data, (err) => (err ? reject(err) : resolve()));
      }),
      close: (code, reason) => socket.close(code, reason),
      onMessage: (cb) => socket.on('message', async (data) => {
        try {
          await cb(String(data));
        } catch (err) {
          const message = err instanceof Error ? err.message : String(err);
          if (/^Unexpected message of type \w+ received/.test(message)) {
            log.info({ code: 'BAD_REQUEST', error: message }, 'client error');
            socket.close(CloseCode.BadRequest, message.slice(0, 120));
          } else {
            log.error({ err }, 'unexpected error handling a websocket message');
            socket.close(CloseCode.InternalServerError, 'Internal server error');
          }
        }
      }),
    }, { socket, request });
    socket.once('close', (code, reason) => {
      if (pongWait) clearTimeout(pongWait);
      if (ping) clearInterval(ping);
      void closed(code, String(reason));
    });
  });
  return {
    dispose: async () => {
      for (const client of wss.clients) client.close(1001, 'Going away');
      wss.removeAllListeners();
      await new Promise<void>((resolve, reject) => wss.close((err) => (err ? reject(err) : resolve())));
    },
  };
}
