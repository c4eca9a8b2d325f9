import { createRequire } from 'node:module';
import type { DocumentNode, ExecutionArgs, ExecutionResult, FormattedExecutionResult, GraphQLError, GraphQLFormattedError, GraphQLSchema } from 'graphql';
import type { Logger } from '../ports/logger.js';
import { unavailableIn } from '../store/sql-client.js';

/**
 * How graphql-ws starts an operation (docs/limits.md): its `onSubscribe` does the rate gate
 * (ws-limits.ts), the parse, the validation and the context itself, so that whatever fails there
 * is answered as an error message of that operation alone. graphql-ws's own steps let a throw
 * escape its message handler, and the server then closed the client's whole socket (4500) with
 * its other subscriptions: a subscribe with `subscription{` (a syntax error) did that. Now:
 * - a syntax error: its GraphQL error (code GRAPHQL_PARSE_FAILED), logged at info; a document past the
 *   token limit stops parsing there and is answered as over HTTP (LIMIT_EXCEEDED, limit "tokens");
 * - validation errors (the limit rules included): as before, the operation's errors;
 * - the database unavailable while the socket's token is looked up: UNAVAILABLE (retry);
 * - anything else: a defect, logged at error with its stack, answered "Unexpected error."
 *   (INTERNAL_SERVER_ERROR), as HTTP answers it; the socket stays open.
 */

// graphql-ws accepts only errors of its own copy of graphql (the CommonJS one: see production.ts).
const require = createRequire(import.meta.url);

type SubscribeMessage = { query: string; operationName?: string | null; variables?: Record<string, unknown> | null };

export interface WsOperationSteps<X> {
  /** Refuses the operation (the rate limit), else nothing. */
  gate(ctx: X): readonly GraphQLError[] | void;
  schema: GraphQLSchema;
  validate(schema: GraphQLSchema, document: DocumentNode, ctx: X, variables?: Record<string, unknown> | null): readonly GraphQLError[];
  context(ctx: X): Promise<unknown>;
  log: Logger;
  /** The most tokens a document may hold (as over HTTP, GraphQL Armor's max-tokens): parsing stops past it. */
  maxTokens?: number;
}

/** graphql-ws's `onSubscribe`: the operation's execution arguments, or the errors it is answered with. */
export function wsOperations<X>(steps: WsOperationSteps<X>) {
  const graphql = require('graphql') as typeof import('graphql');
  const failed = (message: string, code: string, more: Record<string, unknown> = {}) => [new graphql.GraphQLError(message, { extensions: { code, ...more } })];
  return async (ctx: X, _id: string, payload: SubscribeMessage): Promise<ExecutionArgs | readonly GraphQLError[]> => {
    try {
      const refused = steps.gate(ctx);
      if (refused) return refused;
      let document: DocumentNode;
      try {
        document = graphql.parse(payload.query, steps.maxTokens ? { maxTokens: steps.maxTokens } : undefined);
      } catch (e) {
        if (!(e instanceof graphql.GraphQLError)) throw e;
        // Parsing stopped at the token limit (graphql-js: "Document contains more that N tokens"): the limit's own error, as over HTTP.
        if (steps.maxTokens && /contains more th\w+ \d+ tokens/.test(e.message)) {
          steps.log.info({ code: 'LIMIT_EXCEEDED', limit: 'tokens' }, 'client error');
          return [new graphql.GraphQLError(`Token limit of ${steps.maxTokens} exceeded.`, { extensions: { code: 'LIMIT_EXCEEDED', limit: 'tokens' } })];
        }
        steps.log.info({ code: 'GRAPHQL_PARSE_FAILED', error: e.message }, 'client error');
        return [new graphql.GraphQLError(e.message, { nodes: e.nodes, source: e.source, positions: e.positions, extensions: { code: 'GRAPHQL_PARSE_FAILED' } })];
      }
      const invalid = steps.validate(steps.schema, document, ctx, payload.variables);
      if (invalid.length > 0) {
        // coded as over HTTP (Yoga's GRAPHQL_VALIDATION_FAILED), logged as any client error
        return invalid.map((e) => {
          const code = (e.extensions?.code as string | undefined) ?? 'GRAPHQL_VALIDATION_FAILED';
          steps.log.info({ code, error: e.message }, 'client error');
          return e.extensions?.code ? e : new graphql.GraphQLError(e.message, { nodes: e.nodes, source: e.source, positions: e.positions, extensions: { ...e.extensions, code } });
        });
      }
      // No operation to run (several and no name, or a name none has): refused as over HTTP, not in graphql-ws's words without a code.
      if (!graphql.getOperationAST(document, payload.operationName ?? undefined)) {
        steps.log.info({ code: 'OPERATION_RESOLUTION_FAILURE' }, 'client error');
        return failed('Could not determine what operation to execute.', 'OPERATION_RESOLUTION_FAILURE');
      }
      return {
        schema: steps.schema,
        document,
        operationName: payload.operationName,
        variableValues: payload.variables,
        contextValue: await steps.context(ctx),
      };
    } catch (e) {
      const unavailable = unavailableIn(e);
      if (unavailable) {
        steps.log.warn({ reason: unavailable.message }, 'database unavailable');
        return failed(unavailable.message, 'UNAVAILABLE', { retryAfterSeconds: 1 });
      }
      steps.log.error({ err: e }, 'unexpected error');
      return failed('Unexpected error.', 'INTERNAL_SERVER_ERROR');
    }
  };
}

/**
 * graphql-ws's `onNext` and `onError`: what an operation answers over the socket passes the HTTP
 * endpoint's error masking (src/graphql/masking.ts, `errorMasker`). graphql-ws sends a result's
 * errors as they are: a defect inside a field (a store's SQL error, say) reached the client word for
 * word, without a code, and nothing was logged. Now a defect is "Unexpected error."
 * (INTERNAL_SERVER_ERROR) and logged at error with its stack, the database lost is UNAVAILABLE, a
 * domain error keeps its code, and a client's error gets one.
 */
export function wsErrorMasking(mask: (error: unknown, message: string) => Error) {
  const out = (e: GraphQLError | Error): GraphQLFormattedError => {
    const json: GraphQLFormattedError = typeof (e as GraphQLError).toJSON === 'function' ? (e as GraphQLError).toJSON() : { message: e.message };
    if (!json.extensions) return json;
    // (Yoga's own marks, which its HTTP responses do not show either)
    const { unexpected: _u, http: _h, ...extensions } = json.extensions as Record<string, unknown>;
    return { ...json, extensions };
  };
  return {
    onNext: (_ctx: unknown, _id: string, _payload: unknown, _args: unknown, result: ExecutionResult): FormattedExecutionResult | void => {
      if (!result.errors?.length) return;
      return { ...result, errors: result.errors.map((e) => out(mask(e, 'Unexpected error.'))) } as FormattedExecutionResult;
    },
    onError: (_ctx: unknown, _id: string, _payload: unknown, errors: readonly GraphQLError[]): GraphQLFormattedError[] =>
      errors.map((e) => out(e.extensions?.code ? e : mask(e, 'Unexpected error.'))),
  };
}

/**
 * The `Authorization` value a socket's connection parameters carry (`authorization`, `Authorization`
 * or a bare `token`), or why none can be read: a value that is not text (a number, a list, an
 * object) is refused in words, as a malformed header is. It used to reach the token check as it
 * was and fail there: "Unexpected error.", logged at error as a defect.
 */
export function socketAuthorization(connectionParams: unknown): { header: string | undefined; problem: string | null } {
  const params = (connectionParams !== null && typeof connectionParams === 'object' ? connectionParams : {}) as Record<string, unknown>;
  for (const key of ['authorization', 'Authorization', 'token']) {
    const v = params[key];
    if (v == null) continue;
    if (typeof v !== 'string') {
      return { header: undefined, problem: `the connection parameter "${key}" must be text ("Bearer <token>"), not ${Array.isArray(v) ? 'a list' : `a ${typeof v}`}` };
    }
    return { header: key !== 'token' ? v : v ? `Bearer ${v}` : undefined, problem: null };
  }
  return { header: undefined, problem: null };
}
