import { createRequire } from 'node:module';
import type { DocumentNode, GraphQLSchema, ValidationRule } from 'graphql';
import type { AppConfig } from '../config.js';
import { reported } from './armor.js';
import { withListSizes } from './list-sizes.js';

/**
 * Settings that differ in production mode (docs/limits.md#production-mode), and the
 * same document limits on the websocket endpoint as on HTTP.
 */

/** Yoga's GraphiQL and CORS settings for this configuration. */
export function httpOptions(config: AppConfig): { graphiql: false | { subscriptionsProtocol: 'WS'; title: string }; cors?: false | { origin: string[]; credentials: boolean } } {
  const graphiql = !config.production || config.exposeSchema ? ({ subscriptionsProtocol: 'WS', title: 'Engram GraphiQL' } as const) : false;
  if (config.corsOrigins.length > 0) return { graphiql, cors: { origin: config.corsOrigins, credentials: true } };
  // Development keeps Yoga's permissive default (GraphiQL from anywhere); production sends no CORS headers.
  return config.production ? { graphiql, cors: false } : { graphiql };
}

// graphql-ws validates with the schema's own copy of graphql (the CommonJS one Pothos built it
// with): the rules and `validate` are loaded through require, so all of them share that copy.
const require = createRequire(import.meta.url);

/**
 * graphql-ws options: depth, alias and cost limits on subscriptions too, and in production mode what
 * HTTP does there (src/graphql/limits.ts): no introspection but for an admin's socket (or with
 * ENGRAM_EXPOSE_SCHEMA), and no "Did you mean …?" in a validation error (GraphQL Armor's mask).
 */
export function graphqlWsRules(config: AppConfig): {
  validate: (schema: GraphQLSchema, doc: DocumentNode, admin: boolean, variables?: Record<string, unknown> | null) => ReturnType<typeof import('graphql').validate>;
} {
  const graphql = require('graphql') as typeof import('graphql');
  const { maxDepthRule } = require('@escape.tech/graphql-armor-max-depth') as typeof import('@escape.tech/graphql-armor-max-depth');
  const { maxAliasesRule } = require('@escape.tech/graphql-armor-max-aliases') as typeof import('@escape.tech/graphql-armor-max-aliases');
  const { costLimitRule } = require('@escape.tech/graphql-armor-cost-limit') as typeof import('@escape.tech/graphql-armor-cost-limit');
  const { blockFieldSuggestionsDefaultOptions } = require('@escape.tech/graphql-armor-block-field-suggestions') as typeof import('@escape.tech/graphql-armor-block-field-suggestions');
  const l = config.limits;
  const rules: ValidationRule[] = [
    ...graphql.specifiedRules,
    // Reported, not thrown: a throw closed the client's whole socket (armor.ts).
    maxDepthRule({ ...reported('depth'), n: l.depth, ignoreIntrospection: true, flattenFragments: true }) as ValidationRule,
    maxAliasesRule({ ...reported('aliases'), n: l.aliases }) as ValidationRule,
  ];
  // on the document as it will run, its lists' sizes written in (src/graphql/list-sizes.ts), as over HTTP
  const cost = [costLimitRule({ ...reported('cost'), maxCost: l.cost, ignoreIntrospection: true, flattenFragments: true }) as ValidationRule];
  const hidden = config.production && !config.exposeSchema;
  const withoutIntrospection = hidden ? [...rules, graphql.NoSchemaIntrospectionCustomRule] : rules;
  const mask = blockFieldSuggestionsDefaultOptions.mask;
  return {
    validate: (schema, doc, admin, variables) => {
      const errors = [...graphql.validate(schema, doc, admin ? rules : withoutIntrospection), ...graphql.validate(schema, withListSizes(schema, doc, variables), cost)];
      if (!config.production) return errors;
      // (the mask GraphQL Armor's blockFieldSuggestionsPlugin puts in a message over HTTP)
      for (const e of errors) e.message = e.message.replace(/Did you mean ".+"\?/g, mask).trim();
      return errors;
    },
  };
}
