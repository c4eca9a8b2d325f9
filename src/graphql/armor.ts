import type { GraphQLError, ValidationContext } from 'graphql';

/**
 * How a document over a GraphQL Armor limit is refused (docs/limits.md), the same on HTTP and
 * over graphql-ws. Armor's rules throw by default (`propagateOnRejection`), and a validation
 * rule that throws ends graphql-ws's handling of the message: the server closed the client's
 * whole socket (4500), ending its other subscriptions with it. Armor also words every refusal
 * "Syntax Error: …", though the document parsed. Here each refusal is reported as a validation
 * error of its operation instead, without that prefix, coded `LIMIT_EXCEEDED` with the limit's
 * name; the token limit, checked while parsing, still stops the parse but with the same wording.
 */
export type ArmorLimit = 'depth' | 'aliases' | 'cost' | 'tokens';

interface RejectOptions {
  exposeLimits: true;
  propagateOnRejection: boolean;
  onReject: ((ctx: ValidationContext | null, error: GraphQLError) => void)[];
}

/** Options for an Armor validation rule (depth, aliases, cost): report, do not throw. */
export function reported(limit: Exclude<ArmorLimit, 'tokens'>): RejectOptions {
  return {
    exposeLimits: true,
    propagateOnRejection: false,
    onReject: [(ctx, error) => ctx?.reportError(limitError(error, limit))],
  };
}

/** Options for the token limit (checked while parsing: the parse must stop, with a plain message). */
export function parseStopped(): RejectOptions {
  return {
    exposeLimits: true,
    propagateOnRejection: true,
    onReject: [(_ctx, error) => { throw limitError(error, 'tokens'); }],
  };
}

/**
 * Armor's error reworded and coded. Built with the class of Armor's own error: graphql-ws
 * validates with the CommonJS copy of graphql (production.ts), Yoga with the ES module one.
 */
export function limitError(error: GraphQLError, limit: ArmorLimit): GraphQLError {
  const Ctor = error.constructor as typeof GraphQLError;
  return new Ctor(error.message.replace(/^Syntax Error: /, ''), {
    nodes: error.nodes,
    extensions: { code: 'LIMIT_EXCEEDED', limit },
  });
}
