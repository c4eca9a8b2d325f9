import { createRequire } from 'node:module';
import type { EngramMetrics } from '../ops/metrics.js';
import type { GraphQLError } from 'graphql';
import type { Actor } from '../memory/deps.js';
import { CallerRate } from './rate-limit.js';

/**
 * The per-token rate limit on graphql-ws (docs/limits.md): every operation a socket starts
 * (a `subscribe` message: a subscription, a query or a mutation) takes a unit from the bucket
 * its token's HTTP requests take from (per client address without a token). Over the limit,
 * that operation alone is answered with an error message coded RATE_LIMITED, as HTTP answers
 * 429; the socket and its other subscriptions stay open. 400 mutations over one socket used to
 * run in 1.5 s while HTTP refused the same token after ~135.
 */

// graphql-ws accepts only errors of its own copy of graphql (the CommonJS one: see production.ts).
const require = createRequire(import.meta.url);

export interface SocketCaller {
  actor: Actor | null;
  address: string;
}

/** graphql-ws's `onSubscribe`: nothing when the operation may run, else its error. */
export function wsRateGate(rate: CallerRate, callerOf: (socket: unknown) => SocketCaller | undefined, metrics?: EngramMetrics) {
  const { GraphQLError: WsGraphQLError } = require('graphql') as typeof import('graphql');
  return (ctx: { extra: { socket: unknown } }): readonly GraphQLError[] | void => {
    const caller = callerOf(ctx.extra.socket) ?? { actor: null, address: 'unknown' };
    const wait = rate.take(caller.actor, caller.address);
    if (wait === 0) return;
    metrics?.refusals.inc({ code: 'RATE_LIMITED' });
    return [new WsGraphQLError(CallerRate.refusal(caller.actor, wait), { extensions: { code: 'RATE_LIMITED', retryAfterSeconds: wait } })];
  };
}
