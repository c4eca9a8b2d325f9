import type { StreamCount } from './stream-count.js';
import type { Actor, MemoryDeps } from '../memory/deps.js';
import type { Loaders } from './loaders.js';
import type { EventPubSub } from './pubsub.js';
import type { EngramMetrics } from '../ops/metrics.js';
import type { LiveEventSource } from './pg-events.js';
import type { Limits } from '../config.js';
import type { TokenWatch } from './revocation.js';

/** Per-request context: the use-case dependencies, who is asking, and this request's DataLoaders. */
export interface GraphQLContext {
  deps: MemoryDeps;
  actor: Actor | null;
  /** Why there is no actor (no token, no `Bearer `, malformed, unknown, revoked): the refusal says it. */
  authProblem?: string | null;
  /** The hash of the caller's token: a subscription over server-sent events is ended when it is revoked (`tokenWatch`). */
  tokenHash?: string | null;
  /** Where such a subscription registers (the socket registry: src/graphql/revocation.ts). */
  tokenWatch?: TokenWatch;
  loaders: Loaders;
  pubsub: EventPubSub;
  /** The service's Prometheus series (absent outside the server). */
  metrics?: EngramMetrics;
  /** Events across instances (PostgreSQL server): subscriptions register their space here. */
  liveEvents?: LiveEventSource | null;
  /** This service's request limits (docs/limits.md); defaults when absent. */
  limits?: Limits;
  /** The subscriptions each token holds open (src/graphql/stream-count.ts); none counted when absent. */
  streams?: StreamCount;
}
