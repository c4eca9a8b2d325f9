import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createYoga, type YogaServerInstance } from 'graphql-yoga';
import { GraphQLError } from 'graphql';
import { WebSocketServer } from 'ws';
import type { Extra } from 'graphql-ws/use/ws';
import type { Context as WsContext } from 'graphql-ws';
import type { AppConfig } from './config.js';
import { createEngram, type ContainerOptions, type Engram } from './container.js';
import { buildSchema } from './graphql/schema/index.js';
import { createLoaders } from './graphql/loaders.js';
import type { GraphQLContext } from './graphql/context.js';
import { createEventPubSub, type EventPubSub } from './graphql/pubsub.js';
import { authenticate, authenticateBearer, bootstrapAdmin } from './memory/tokens.js';
import { EngramMetrics, watchOutbox, watchVectorMirror } from './ops/metrics.js';
import { readinessPlugin } from './ops/health.js';
import { drainServer } from './ops/shutdown.js';
import { renderLocalGraphiQL, useStaticAssets } from './http/static-assets.js';
import { PgliteClient } from './store/pglite-client.js';
import { unavailableIn } from './store/sql-client.js';
import { createLiveEvents } from './graphql/live-events.js';
import { guardSchema } from './graphql/guard.js';
import { requestLimits } from './graphql/limits.js';
import { SocketRegistry } from './graphql/revocation.js';
import { StreamCount } from './graphql/stream-count.js';
import { graphqlWsRules, httpOptions } from './graphql/production.js';
import { errorMasker } from './graphql/masking.js';
import { CallerRate } from './graphql/rate-limit.js';
import { wsRateGate, type SocketCaller } from './graphql/ws-limits.js';
import { socketAuthorization, wsErrorMasking, wsOperations } from './graphql/ws-operations.js';
import { strictRequestParsing } from './graphql/request-parsing.js';
import { serveGraphqlWs } from './graphql/ws-server.js';

export interface App {
  start(): Promise<{ url: string; port: number; adminToken: string | null }>;
  stop(): Promise<void>;
  /** In-process GraphQL over fetch (tests call this without opening a port). */
  yoga: YogaServerInstance<Record<string, unknown>, GraphQLContext>;
  engram: Engram;
  pubsub: EventPubSub;
  /** Prometheus registry behind /metrics (src/ops/metrics.ts). */
  metrics: EngramMetrics;
  /** The subscriptions each token holds open (src/graphql/stream-count.ts). */
  streams: StreamCount;
}

/**
 * Builds the service: system of record, engine, embedder, GraphQL over HTTP (Yoga,
 * GraphiQL at /graphql), subscriptions over graphql-ws on the same path, and the web app at /.
 */
export async function buildApp(config: AppConfig, opts: ContainerOptions = {}): Promise<App> {
  const { pubsub, bus } = createEventPubSub();
  const metrics = opts.metrics ?? new EngramMetrics({ processMetrics: true });
  // Events across instances through PostgreSQL on a server, in process on PGlite (docs/live-updates.md).
  const live = createLiveEvents(bus);
  const engram = await createEngram(config, { ...opts, bus: live.bus, metrics });
  const liveEvents = await live.attach(engram);
  let accepting = true;
  const authAs = async (header: string | null | undefined) => {
    let r: Awaited<ReturnType<typeof authenticateBearer>>;
    try {
      r = await authenticateBearer(deps, header);
    } catch (e) {
      // (the door read the token a moment before: the database went away in between) the operation's
      // typed UNAVAILABLE, a 503 over HTTP, never the driver's error
      const unavailable = unavailableIn(e);
      if (!unavailable) deps.log.error({ err: e }, 'the bearer token could not be read');
      throw new GraphQLError(unavailable?.message ?? 'the token could not be checked now; retry', {
        extensions: { code: 'UNAVAILABLE', retryAfterSeconds: 1, http: { status: 503, headers: { 'retry-after': '1' } } },
      });
    }
    return { actor: r.actor, authProblem: r.problem, tokenHash: r.actor ? r.hash : null };
  };
  watchOutbox(metrics, engram.deps.outbox);
  watchVectorMirror(metrics, engram.deps.index);
  const deps = engram.deps;
  const schema = guardSchema(buildSchema());
  // One bucket per token for HTTP requests and socket operations alike (docs/limits.md).
  const rate = new CallerRate(config.limits);
  // Sockets and server-sent event streams alike end when their token is revoked (src/graphql/revocation.ts).
  const registry = new SocketRegistry(deps, config.limits.tokenRecheckSeconds);
  // The subscriptions each token holds open, over graphql-ws and server-sent events alike (docs/limits.md).
  const streams = new StreamCount();

  const yoga = createYoga<Record<string, unknown>, GraphQLContext>({
    schema,
    graphqlEndpoint: '/graphql',
    ...httpOptions(config),
    // GraphiQL's scripts, styles and workers come from this server (no CDN: it works offline).
    renderGraphiQL: renderLocalGraphiQL,
    // Any other path is 404 (Yoga's landing page answered 200 with a page that loads an icon from
    // another host: a stale asset's address got HTML, and the server is meant to work offline).
    landingPage: false,
    logging: false,
    // Operations (docs/operations.md): /healthz (process up), /readyz, /metrics; then the request limits (docs/limits.md).
    healthCheckEndpoint: '/healthz',
    // ... and the web app at `/` with GraphiQL's assets (src/http/static-assets.ts).
    plugins: [
      metrics.graphqlPlugin('/metrics'), readinessPlugin(engram, () => accepting),
      useStaticAssets({ webDir: config.webDir }),
      // Unreadable variables, extensions or bytes: 400 naming them, not 500 (src/graphql/request-parsing.ts).
      strictRequestParsing(),
      ...requestLimits(config, deps, rate, metrics),
    ],
    maskedErrors: { maskError: errorMasker(deps.log, metrics) },
    context: async ({ request }) => ({
      deps,
      ...(await authAs(request.headers.get('authorization'))),
      loaders: createLoaders(deps, config.limits.readChars),
      pubsub,
      metrics,
      liveEvents,
      tokenWatch: registry,
      limits: config.limits,
      streams,
    }),
  });

  let server: Server | null = null;
  let wss: WebSocketServer | null = null;
  let disposeWs: { dispose(): void | Promise<void> } | null = null;

  return {
    yoga, engram, pubsub, metrics, streams,
    async start() {
      server = createServer(yoga);
      wss = new WebSocketServer({ server, path: '/graphql', maxPayload: config.limits.bodyBytes });
      const callers = new WeakMap<object, SocketCaller>();
      const wsRules = graphqlWsRules(config);
      // graphql-ws as its `useServer` runs it, but a client's protocol mistake is the client's (src/graphql/ws-server.ts).
      disposeWs = serveGraphqlWs(
        {
          // Each socket is registered under its token, so that revoking the token closes it.
          onConnect: async (ctx) => {
            const secret = socketAuthorization(ctx.connectionParams).header;
            let actor: Awaited<ReturnType<typeof authenticate>>;
            try {
              actor = secret ? await authenticate(deps, secret) : null;
            } catch (e) {
              // The token could not be read (the database refused or was lost): 1013 "try again later",
              // not graphql-ws's 4500 "Internal server error" (docs/limits.md, "Faults").
              if (!unavailableIn(e)) deps.log.error({ err: e }, 'the bearer token could not be read');
              ctx.extra.socket.close(1013, 'the token could not be checked now; retry');
              return false;
            }
            if (actor?.tokenId && secret) registry.add(ctx.extra.socket, actor.tokenId, secret);
            callers.set(ctx.extra.socket, { actor, address: ctx.extra.request.socket.remoteAddress ?? 'unknown' });
            return true;
          },
          onClose: (ctx) => registry.remove(ctx.extra.socket),
          // The operation's own steps, each failure answered to that operation alone (src/graphql/ws-operations.ts):
          // each operation the socket starts takes from its token's bucket, as an HTTP request does; then parse,
          // validation (graphqlWsRules) and the context. graphql-ws parses, validates and executes with its own
          // import of graphql, the copy Pothos built the schema with; passing this module's functions breaks under
          // a test runner that loads a second copy ("Cannot use GraphQLSchema from another module or realm").
          onSubscribe: wsOperations<WsContext<Record<string, unknown> | undefined, Extra>>({
            gate: wsRateGate(rate, (socket) => callers.get(socket as object), metrics),
            schema,
            // (an admin's socket may introspect in production, as an admin's request may)
            validate: (schema, doc, ctx, variables) => wsRules.validate(schema, doc, callers.get(ctx.extra.socket)?.actor?.role === 'admin', variables),
            maxTokens: config.limits.tokens,
            log: deps.log,
            context: async (ctx) => {
              const { header, problem } = socketAuthorization(ctx.connectionParams);
              const caller = problem ? { actor: null, authProblem: problem } : await authAs(header);
              // No token hash: the socket registry closes the socket itself when its token is revoked (src/graphql/revocation.ts);
              // a subscription registers its own stream only over server-sent events.
              return { deps, ...caller, tokenHash: null, loaders: createLoaders(deps, config.limits.readChars), pubsub, metrics, liveEvents, limits: config.limits, streams } as GraphQLContext;
            },
          }),
          schema,
          // A result's errors masked and logged as over HTTP (src/graphql/ws-operations.ts).
          ...wsErrorMasking(errorMasker(deps.log, metrics)),
        },
        wss,
        deps.log,
      );
      // A port already taken fails the start (it used to leave a process that never listened).
      const listening = server;
      await new Promise<void>((resolve, reject) => {
        listening.once('error', reject);
        listening.listen(config.port, config.host, () => {
          listening.off('error', reject);
          resolve();
        });
      }).catch((e: unknown) => {
        server = null; // nothing to drain on stop
        throw e;
      });
      // The first admin token once the service listens: one created by a start that then failed would never be shown.
      const adminToken = config.bootstrapAdmin ? await bootstrapAdmin(deps) : null;
      const port = (server.address() as AddressInfo).port;
      // An IPv6 address goes in brackets (`http://[::1]:4000/`): without them the address is no URL, and the CLI could not reach it.
      const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}/graphql`;
      // CLI commands find the server that owns the embedded store here (docs/ownership.md).
      if (engram.db instanceof PgliteClient) engram.db.setAddress(port, url);
      deps.log.info({ url, engine: deps.index.name, embedder: deps.embedder.id }, 'engram listening');
      return { url, port, adminToken };
    },
    async stop() {
      registry.stop();
      // Graceful (SIGTERM): not ready, stop accepting, subscriptions closed with 1001, in-flight requests finish.
      accepting = false;
      if (server) await drainServer(server, disposeWs, deps.log, config.shutdownGraceMs);
      else await disposeWs?.dispose();
      wss?.close();
      await live.stop();
      await engram.close();
    },
  };
}
