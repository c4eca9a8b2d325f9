import { NoSchemaIntrospectionCustomRule, validate, type DocumentNode, type GraphQLError, type GraphQLSchema } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { maxDepthPlugin } from '@escape.tech/graphql-armor-max-depth';
import { maxAliasesPlugin } from '@escape.tech/graphql-armor-max-aliases';
import { maxTokensPlugin } from '@escape.tech/graphql-armor-max-tokens';
import { costLimitRule } from '@escape.tech/graphql-armor-cost-limit';
import { blockFieldSuggestionsPlugin } from '@escape.tech/graphql-armor-block-field-suggestions';
import type { AppConfig } from '../config.js';
import type { Actor, MemoryDeps } from '../memory/deps.js';
import type { EngramMetrics } from '../ops/metrics.js';
import { authenticate } from '../memory/tokens.js';
import { unavailableIn } from '../store/sql-client.js';
import { CallerRate } from './rate-limit.js';
import { parseStopped, reported } from './armor.js';
import { withListSizes } from './list-sizes.js';

/**
 * Every request limit of the HTTP endpoint, in the order a request meets them
 * (docs/limits.md):
 * 1. body size: a Content-Length over the limit is answered 413 before any byte is read;
 *    a body without one is read up to the limit, then refused;
 * 2. the caller's token bucket (per token; per client address without a valid token), shared
 *    with the operations its sockets start (ws-limits.ts): 429 with Retry-After, before parsing;
 * 3. GraphQL Armor on the document: tokens (while parsing), depth, aliases, cost
 *    (validation rules), each refused with a GraphQL error naming the limit;
 * 4. per-argument bounds (src/graphql/guard.ts), typed InvalidInput.
 * Production mode adds: no introspection but for admin tokens (or ENGRAM_EXPOSE_SCHEMA),
 * no "Did you mean ...?" suggestions.
 */

/** The actor of each request, authenticated once at the door and reused by the context. */
const actors = new WeakMap<Request, Actor | null>();

export function actorOf(request: Request): Actor | null | undefined {
  return actors.get(request);
}

export function requestLimits(config: AppConfig, deps: MemoryDeps, rate: CallerRate, metrics?: EngramMetrics): Plugin[] {
  const l = config.limits;
  // (each refusal at the door counted by its code: a dashboard sees rate limiting and outages)
  const refuse = (status: number, code: string, message: string, headers: Record<string, string> = {}, extensions: Record<string, unknown> = {}): Response => {
    metrics?.refusals.inc({ code });
    return failure(status, code, message, headers, extensions);
  };
  const plugins: Plugin[] = [
    {
      async onRequest({ request, setRequest, endResponse, serverContext, url }) {
        if (!url.pathname.endsWith('/graphql')) return;
        const length = Number(request.headers.get('content-length') ?? NaN);
        if (request.method === 'POST') {
          if (Number.isFinite(length) && length > l.bodyBytes) return endResponse(tooLarge(l.bodyBytes, refuse));
          if (!Number.isFinite(length) && request.body) {
            const body = await readBounded(request, l.bodyBytes);
            if (body === null) return endResponse(tooLarge(l.bodyBytes, refuse));
            request = new Request(request.url, { method: request.method, headers: request.headers, body: body as unknown as BodyInit });
            setRequest(request);
          }
        }
        let actor: Actor | null;
        try {
          actor = await authenticate(deps, bearer(request));
        } catch (e) {
          // Whatever kept the token from being read, the caller learns only that it could not be, now (the
          // cause, with its stack, is the operator's: logged); a 500 with the driver's stack was the answer.
          const unavailable = unavailableIn(e);
          if (!unavailable) deps.log.error({ err: e }, 'the bearer token could not be read');
          return endResponse(refuse(503, 'UNAVAILABLE', unavailable?.message ?? 'the token could not be checked now; retry', { 'retry-after': '1' }, { retryAfterSeconds: 1 }));
        }
        actors.set(request, actor);
        const wait = rate.take(actor, addressOf(serverContext));
        if (wait > 0) return endResponse(refuse(429, 'RATE_LIMITED', CallerRate.refusal(actor, wait), { 'retry-after': String(wait) }));
      },
    },
    // Each refused as its operation's error, not thrown (armor.ts).
    maxTokensPlugin({ ...parseStopped(), n: l.tokens }) as Plugin,
    maxDepthPlugin({ ...reported('depth'), n: l.depth, ignoreIntrospection: true, flattenFragments: true }) as Plugin,
    maxAliasesPlugin({ ...reported('aliases'), n: l.aliases }) as Plugin,
    costOfWhatRuns(l.cost),
  ];
  if (config.production) {
    plugins.push(blockFieldSuggestionsPlugin() as Plugin);
    if (!config.exposeSchema) {
      plugins.push({
        onValidate({ addValidationRule, context }) {
          const request = (context as { request?: Request }).request;
          if (request && actors.get(request)?.role === 'admin') return;
          addValidationRule(NoSchemaIntrospectionCustomRule);
        },
      });
    }
  }
  return plugins;
}

function bearer(request: Request): string | null {
  return request.headers.get('authorization');
}

function addressOf(serverContext: unknown): string {
  const req = (serverContext as { req?: { socket?: { remoteAddress?: string } } } | undefined)?.req;
  return req?.socket?.remoteAddress ?? 'local';
}

function failure(status: number, code: string, message: string, headers: Record<string, string> = {}, extensions: Record<string, unknown> = {}): Response {
  return new Response(JSON.stringify({ errors: [{ message, extensions: { code, ...extensions } }] }), {
    status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  });
}

function tooLarge(max: number, refuse: typeof failure): Response {
  return refuse(413, 'PAYLOAD_TOO_LARGE', `the request body is limited to ${max.toLocaleString('en')} bytes`, { connection: 'close' });
}

/** The body, or null once it passes `max` bytes (reading stops there). */
async function readBounded(request: Request, max: number): Promise<Uint8Array | null> {
  const reader = request.body!.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/**
 * GraphQL Armor's cost limit on the document as it will run: its lists' `first` written in from
 * the variables and the fields' defaults (src/graphql/list-sizes.ts), which Armor's rule reads
 * only when written as numbers. Checked as the operation is about to run, when its variables are
 * known (validation's result is cached per document, whatever the variables), and refused there
 * with validation's error, nothing run.
 */
function costOfWhatRuns(maxCost: number): Plugin {
  const rule = costLimitRule({ ...reported('cost'), maxCost, ignoreIntrospection: true, flattenFragments: true });
  const over = (args: { schema: GraphQLSchema; document: DocumentNode; variableValues?: Record<string, unknown> | null }) =>
    validate(args.schema, withListSizes(args.schema, args.document, args.variableValues), [rule]);
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const errors: readonly GraphQLError[] = over(args);
      if (errors.length > 0) setResultAndStopExecution({ errors });
    },
    // (a subscription over server-sent events: its events' documents weighed the same way)
    onSubscribe({ args, setResultAndStopExecution }) {
      const errors: readonly GraphQLError[] = over(args);
      if (errors.length > 0) setResultAndStopExecution({ errors });
    },
  };
}
