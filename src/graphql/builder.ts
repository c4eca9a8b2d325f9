import SchemaBuilder from '@pothos/core';
import ErrorsPlugin from '@pothos/plugin-errors';
import { GraphQLError, Kind } from 'graphql';
import type { GraphQLContext } from './context.js';
import { parseDateTime } from './date-time.js';

/** The one Pothos builder: typed context, typed errors as result unions. */
export const builder = new SchemaBuilder<{
  Context: GraphQLContext;
  Scalars: {
    DateTime: { Input: Date; Output: Date };
    JSON: { Input: unknown; Output: unknown };
  };
  DefaultFieldNullability: false;
}>({
  plugins: [ErrorsPlugin],
  defaultFieldNullability: false,
  errors: {
    directResult: true,
    defaultResultOptions: { name: ({ fieldName }) => `${fieldName[0].toUpperCase()}${fieldName.slice(1)}Success` },
    defaultUnionOptions: { name: ({ fieldName }) => `${fieldName[0].toUpperCase()}${fieldName.slice(1)}Payload` },
  },
});

builder.scalarType('DateTime', {
  description: 'An ISO-8601 date-time (UTC).',
  serialize: (d) => (d instanceof Date ? d : new Date(String(d))).toISOString(),
  // Field by field (date-time.ts): `new Date` rolled 2026-02-30 forward to 2 March.
  parseValue: (v) => parseDateTime(v),
  parseLiteral: (ast) => {
    if (ast.kind !== Kind.STRING) throw new GraphQLError('DateTime must be a string', { extensions: { code: 'INVALID_INPUT' } });
    return parseDateTime(ast.value);
  },
});

builder.scalarType('JSON', {
  description: 'Arbitrary JSON.',
  serialize: (v) => v,
  parseValue: (v) => v,
});

builder.queryType({});
builder.mutationType({});
