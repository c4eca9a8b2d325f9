import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { builder } from '../builder.js';
import './errors.js';
import './enums.js';
import './space.js';
import './memory.js';
import './queries.js';
import './mutations.js';
import './tidy.js';
import './subscriptions.js';
import './node.js';

let schema: GraphQLSchema | null = null;

/** The schema, built once from the Pothos builder. */
export function buildSchema(): GraphQLSchema {
  schema ??= builder.toSchema();
  return schema;
}

/** SDL as committed in schema.graphql (sorted, so diffs stay readable). */
export function printSDL(): string {
  return printSchema(lexicographicSortSchema(buildSchema())) + '\n';
}
