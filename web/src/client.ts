import { Client, fetchExchange, subscriptionExchange } from '@urql/core';
import { createClient as createWsClient, type Client as WsClient } from 'graphql-ws';

/**
 * One urql client per signed-in token: queries and mutations over HTTP POST to /graphql,
 * subscriptions over graphql-ws on the same path (the token in the connection params).
 * No document cache: the list keeps its own state, kept current by `memoryEvents`.
 */
export interface Api {
  client: Client;
  ws: WsClient;
  /** Called when the socket reconnects after a drop: events may have been missed, reload. */
  onReconnect(fn: () => void): () => void;
  dispose(): void;
}

export function createApi(token: string, origin: string = window.location.origin): Api {
  const reconnectListeners = new Set<() => void>();
  const ws = createWsClient({
    url: origin.replace(/^http/, 'ws') + '/graphql',
    connectionParams: { authorization: `Bearer ${token}` },
    lazy: true,
    keepAlive: 20_000,
    retryAttempts: Number.POSITIVE_INFINITY,
    shouldRetry: () => true,
    on: {
      connected: (_socket, _payload, wasRetry) => {
        if (wasRetry) for (const fn of reconnectListeners) fn();
      },
    },
  });
  const client = new Client({
    url: origin + '/graphql',
    requestPolicy: 'network-only',
    preferGetMethod: false,
    fetchOptions: () => ({ headers: { authorization: `Bearer ${token}` } }),
    exchanges: [
      fetchExchange,
      subscriptionExchange({
        forwardSubscription(request) {
          const input = { ...request, query: request.query || '' };
          return {
            subscribe(sink) {
              const unsubscribe = ws.subscribe(input, sink);
              return { unsubscribe };
            },
          };
        },
      }),
    ],
  });
  return {
    client, ws,
    onReconnect(fn) { reconnectListeners.add(fn); return () => reconnectListeners.delete(fn); },
    dispose() { void ws.dispose(); },
  };
}
