import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createYoga, maskError, type YogaServerInstance } from 'graphql-yoga';
import { WebSocketServer } from 'ws';
import { useServer } from 'graphql-ws/use/ws';
import type { GraphQLError } from 'graphql';
import type { AppConfig } from './config.js';
import { createEngram, type ContainerOptions, type Engram } from './container.js';
import { buildSchema } from './graphql/schema/index.js';
import { createLoaders } from './graphql/loaders.js';
import type { GraphQLContext } from './graphql/context.js';
import { createEventPubSub, type EventPubSub } from './graphql/pubsub.js';
import { authenticateBearer, bootstrapAdmin } from './memory/tokens.js';
import { DomainError } from './memory/errors.js';
import { EngramMetrics, watchOutbox } from './ops/metrics.js';
import { readinessPlugin } from './ops/health.js';
import { drainServer } from './ops/shutdown.js';
import { renderLocalGraphiQL, useStaticAssets } from './http/static-assets.js';
import { PgliteClient } from './store/pglite-client.js';
import { createLiveEvents } from './graphql/pg-events.js';

export interface App {
  start(): Promise<{ url: string; port: number; adminToken: string | null }>;
  stop(): Promise<void>;
  /** In-process GraphQL over fetch (tests call this without opening a port). */
  yoga: YogaServerInstance<Record<string, unknown>, GraphQLContext>;
  engram: Engram;
  pubsub: EventPubSub;
  /** Prometheus registry behind /metrics (src/ops/metrics.ts). */
  metrics: EngramMetrics;
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
  const liveEvents = await live.attach(engram, (e) => pubsub.publish(`space:${e.spaceId}`, e));
  let accepting = true;
  const authAs = async (header: string | null | undefined) => {
    const r = await authenticateBearer(deps, header);
    return { actor: r.actor, authProblem: r.problem };
  };
  watchOutbox(metrics, engram.deps.outbox);
  const deps = engram.deps;
  const schema = buildSchema();

  const yoga = createYoga<Record<string, unknown>, GraphQLContext>({
    schema,
    graphqlEndpoint: '/graphql',
    graphiql: { subscriptionsProtocol: 'WS', title: 'Engram GraphiQL' },
    // GraphiQL's scripts, styles and workers come from this server (no CDN: it works offline).
    renderGraphiQL: renderLocalGraphiQL,
    logging: false,
    // Operations (docs/operations.md): /healthz (process up), /readyz, /metrics.
    healthCheckEndpoint: '/healthz',
    // ... and the web app at `/` with GraphiQL's assets (src/http/static-assets.ts).
    plugins: [
      metrics.graphqlPlugin('/metrics'), readinessPlugin(engram, () => accepting),
      useStaticAssets({ webDir: config.webDir, graphqlEndpoint: '/graphql' }),
    ],
    maskedErrors: {
      maskError(error, message, isDev) {
        const original = (error as GraphQLError).originalError;
        if (original && !(original instanceof DomainError)) deps.log.error({ err: original }, 'unexpected error');
        return maskError(error, message, isDev);
      },
    },
    context: async ({ request }) => ({
      deps,
      ...(await authAs(request.headers.get('authorization'))),
      loaders: createLoaders(deps),
      pubsub,
      metrics,
      liveEvents,
    }),
  });

  let server: Server | null = null;
  let wss: WebSocketServer | null = null;
  let disposeWs: { dispose(): void | Promise<void> } | null = null;

  return {
    yoga, engram, pubsub, metrics,
    async start() {
      const adminToken = config.bootstrapAdmin ? await bootstrapAdmin(deps) : null;
      server = createServer(yoga);
      wss = new WebSocketServer({ server, path: '/graphql' });
      disposeWs = useServer(
        {
          // graphql-ws parses, validates and executes with its own import of graphql, the copy Pothos built the
          // schema with; passing this module's functions breaks under a test runner that loads a second copy
          // ("Cannot use GraphQLSchema from another module or realm").
          schema,
          context: async (ctx) => {
            const params = (ctx.connectionParams ?? {}) as Record<string, unknown>;
            const header = (params.authorization ?? params.Authorization ?? (params.token ? `Bearer ${String(params.token)}` : undefined)) as string | undefined;
            return { deps, ...(await authAs(header)), loaders: createLoaders(deps), pubsub, metrics, liveEvents } as GraphQLContext;
          },
        },
        wss,
      );
      await new Promise<void>((resolve) => server!.listen(config.port, config.host, resolve));
      const port = (server.address() as AddressInfo).port;
      const url = `http://${config.host}:${port}/graphql`;
      // CLI commands find the server that owns the embedded store here (docs/ownership.md).
      if (engram.db instanceof PgliteClient) engram.db.setAddress(port, url);
      deps.log.info({ url, engine: deps.index.name, embedder: deps.embedder.id }, 'engram listening');
      return { url, port, adminToken };
    },
    async stop() {
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
