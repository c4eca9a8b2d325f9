import SchemaBuilder from '@pothos/core';
import ErrorsPlugin from '@pothos/plugin-errors';
import { GraphQLError, Kind } from 'graphql';
import type { GraphQLContext } from './context.js';

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
  parseValue: (v) => {
    const d = new Date(String(v));
    if (typeof v !== 'string' || Number.isNaN(d.getTime())) throw new GraphQLError(`invalid DateTime: ${String(v)}`);
    return d;
  },
  parseLiteral: (ast) => {
    if (ast.kind !== Kind.STRING) throw new GraphQLError('DateTime must be a string');
    const d = new Date(ast.value);
    if (Number.isNaN(d.getTime())) throw new GraphQLError(`invalid DateTime: ${ast.value}`);
    return d;
  },
});

builder.scalarType('JSON', {
  description: 'Arbitrary JSON.',
  serialize: (v) => v,
  parseValue: (v) => v,
});

builder.queryType({});
builder.mutationType({});
