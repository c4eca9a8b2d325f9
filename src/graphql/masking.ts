import { GraphQLError } from 'graphql';
import { maskError } from 'graphql-yoga';
import type { Logger } from '../ports/logger.js';
import type { EngramMetrics } from '../ops/metrics.js';
import { DomainError, InvalidInputError } from '../memory/errors.js';
import { unavailableIn } from '../store/sql-client.js';

/**
 * Yoga's error masking, with logging by who is at fault (docs/limits.md#errors):
 * - the client's (a GraphQL syntax or validation error, a bad scalar value, a typed domain
 *   error): logged at info, one line, no stack; sent as is;
 * - the database unavailable (a StoreUnavailableError, bare or along the `cause` chain): logged at warn, sent as `UNAVAILABLE` (retry);
 * - a client that closed its connection before its request's body was read: logged at info;
 * - anything else: a defect, logged at error with its stack, sent as "Unexpected error.".
 */
export function errorMasker(log: Logger, metrics?: EngramMetrics) {
  return (error: unknown, message: string, isDev?: boolean): Error => {
    // (by name, not class: graphql-ws executes with graphql's CommonJS copy, Yoga with its ES module)
    const original = isGraphQLError(error) ? error.originalError : error;
    // Also when an adapter wrapped it (a vector engine's search failed because the store did).
    const unavailable = unavailableIn(original);
    if (unavailable) {
      metrics?.refusals.inc({ code: 'UNAVAILABLE' });
      log.warn({ reason: unavailable.message, cause: (unavailable.cause as Error | undefined)?.message, via: unavailable === original ? undefined : (original as Error).message }, 'database unavailable');
      // (with the typed Unavailable's retryAfterSeconds: a client reads one shape wherever the outage met the request)
      return new GraphQLError(unavailable.message, { ...(isGraphQLError(error) ? pathOf(error) : {}), extensions: { code: 'UNAVAILABLE', retryAfterSeconds: 1 } });
    }
    if (!original || isGraphQLError(original) || original instanceof DomainError) {
      const e = withRequestCode(error as GraphQLError);
      log.info({ code: e.extensions?.code ?? (original as DomainError | undefined)?.code, error: e.message }, 'client error');
      if (original instanceof DomainError) {
        const field = original instanceof InvalidInputError ? { field: original.field } : {};
        return new GraphQLError(original.message, { ...pathOf(e), extensions: { ...e.extensions, code: original.code, ...field } });
      }
      return maskError(e, message, isDev);
    }
    if (clientWentAway(original)) {
      // (the request's body cut short: the client closed its connection; nobody is left to answer)
      log.info({ code: (original as { code?: string }).code, error: (original as Error).message }, 'client went away');
      return maskError(error, message, isDev);
    }
    log.error({ err: original }, 'unexpected error');
    return maskError(error, message, isDev);
  };
}

/** Node's error for a request whose connection closed before its body was read ("aborted", ECONNRESET). */
function clientWentAway(e: unknown): boolean {
  const x = e as { code?: unknown; message?: unknown } | null;
  return !!x && x.code === 'ECONNRESET' && x.message === 'aborted';
}

function isGraphQLError(e: unknown): e is GraphQLError {
  return e instanceof Error && e.name === 'GraphQLError';
}

/**
 * A variable's value refused by graphql-js ("Variable "$n" got invalid value …", "… was not
 * provided") carries no code: it gets BAD_USER_INPUT naming the variable, as every other bad input
 * names its field. (It was answered 400 without a code, over HTTP and graphql-ws alike.)
 */
function withRequestCode(e: GraphQLError): GraphQLError {
  if (e.extensions?.code || e.path) return e;
  const variable = /^Variable "\$([_A-Za-z][_0-9A-Za-z]*)"/.exec(e.message);
  if (!variable) return e;
  return new GraphQLError(e.message, { nodes: e.nodes, source: e.source, positions: e.positions, extensions: { ...e.extensions, code: 'BAD_USER_INPUT', field: variable[1] } });
}

function pathOf(e: GraphQLError): { path?: ReadonlyArray<string | number>; nodes?: GraphQLError['nodes'] } {
  return { path: e.path, nodes: e.nodes };
}
