import { initGraphQLTada } from 'gql.tada';
import type { introspection } from './graphql-env.d.ts';

/**
 * Operations typed from schema.graphql (gql.tada): `graphql-env.d.ts` is generated from the
 * schema by `npm run build:web`, and `tsc -p web` (in `npm test`) checks every operation
 * against it. Ids are opaque strings: the UI never parses one.
 */
export const graphql = initGraphQLTada<{
  introspection: introspection;
  disableMasking: true;
  scalars: { DateTime: string; JSON: unknown; ID: string };
}>();

export type { FragmentOf, ResultOf, VariablesOf } from 'gql.tada';
