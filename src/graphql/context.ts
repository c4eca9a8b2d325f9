import type { Actor, MemoryDeps } from '../memory/deps.js';
import type { Loaders } from './loaders.js';
import type { EventPubSub } from './pubsub.js';

/** Per-request context: the use-case dependencies, who is asking, and this request's DataLoaders. */
export interface GraphQLContext {
  deps: MemoryDeps;
  actor: Actor | null;
  loaders: Loaders;
  pubsub: EventPubSub;
}
