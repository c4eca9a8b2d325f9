import type { Registry } from 'prom-client';
import { createCounter, createHistogram, usePrometheus, type FillLabelsFnParams } from '@graphql-yoga/plugin-prometheus';
import type { Plugin } from 'graphql-yoga';

/**
 * The GraphQL series of /metrics (docs/operations.md#metrics), through
 * @graphql-yoga/plugin-prometheus, with labels no client can multiply. The plugin's default
 * labels are the operation name and the error path as the client wrote them: every new name
 * was a new series on every histogram bucket, kept for the life of the process (40 requests
 * named with 200,000 characters each, without a token, grew /metrics to 176 MB and one scrape
 * to 14.7 s). Here a label takes a value only while its set of values is small: a name up to
 * 64 characters, of GraphQL name characters, among the first 100 seen; any other becomes
 * "other".
 */

/** Distinct values a label keeps before the rest are counted as "other". */
export const LABEL_VALUES = 100;
/** The longest value kept as is. */
export const LABEL_CHARS = 64;

/** A label's values, bounded in number and length (see above). */
export class BoundedLabel {
  private readonly kept = new Set<string>();
  constructor(private readonly shape: RegExp, private readonly max = LABEL_VALUES, private readonly chars = LABEL_CHARS) {}

  /** `value` if it is kept (or can still be), else "other". */
  of(value: string): string {
    if (this.kept.has(value)) return value;
    if (value.length > this.chars || !this.shape.test(value) || this.kept.size >= this.max) return 'other';
    this.kept.add(value);
    return value;
  }
}

const NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;
// An error's path: response keys (field names or aliases) and list indexes, dot-joined.
const PATH = /^[_A-Za-z0-9]+(\.[_A-Za-z0-9]+)*$/;

type Labels = Record<string, string | number>;

/** The plugin on `registry`, its series named engram_…, its client-given labels bounded. */
export function graphqlPrometheus(registry: Registry, endpoint: string): Plugin {
  const names = new BoundedLabel(NAME);
  const paths = new BoundedLabel(PATH);
  const operation = (p: FillLabelsFnParams): Labels => ({
    operationName: p.operationName ? names.of(p.operationName) : 'Anonymous',
    operationType: p.operationType ?? 'unknown',
  });
  const byOperation = ['operationName', 'operationType'];
  return usePrometheus({
    registry, endpoint,
    metrics: {
      graphql_envelop_request_duration: createHistogram({
        registry, fillLabelsFn: operation,
        histogram: { name: 'engram_graphql_request_duration_seconds', help: 'GraphQL operation time, from parse to the end of execution', labelNames: byOperation },
      }),
      graphql_envelop_request: createCounter({
        registry, fillLabelsFn: operation,
        counter: { name: 'engram_graphql_requests_total', help: 'GraphQL operations executed, failed or not, subscriptions included', labelNames: byOperation },
      }),
      graphql_envelop_error_result: createCounter({
        registry,
        fillLabelsFn: (p: FillLabelsFnParams) => {
          const path = p.error?.path?.join('.');
          return { ...operation(p), phase: p.errorPhase ?? 'unknown', ...(path ? { path: paths.of(path) } : {}) } as Labels;
        },
        counter: { name: 'engram_graphql_errors_total', help: 'errors in GraphQL results, by phase (parse, validate, context, execute, subscribe) and path', labelNames: [...byOperation, 'path', 'phase'] },
      }),
      graphql_envelop_deprecated_field: createCounter({
        registry,
        // Field and type names come from the schema: bounded already.
        fillLabelsFn: (p: FillLabelsFnParams) => ({ ...operation(p), fieldName: p.deprecationInfo?.fieldName ?? '', typeName: p.deprecationInfo?.typeName ?? '' }),
        counter: { name: 'engram_graphql_deprecated_fields_total', help: 'uses of deprecated fields', labelNames: [...byOperation, 'fieldName', 'typeName'] },
      }),
      graphql_yoga_http_duration: createHistogram({
        registry,
        // Node's HTTP parser accepts only the methods it knows; status codes are the server's own.
        fillLabelsFn: (p: FillLabelsFnParams, ctx: { request: Request; response: Response }) => ({
          ...operation(p), method: ctx.request.method, statusCode: ctx.response.status,
        }),
        histogram: { name: 'engram_http_request_duration_seconds', help: 'HTTP time of a GraphQL request', labelNames: [...byOperation, 'method', 'statusCode'] },
      }),
      // Off: the plugin's other series would not carry the engram_ prefix.
      graphql_envelop_request_time_summary: false,
      graphql_envelop_phase_parse: false,
      graphql_envelop_phase_validate: false,
      graphql_envelop_phase_context: false,
      graphql_envelop_phase_execute: false,
      graphql_envelop_phase_subscribe: false,
      graphql_envelop_schema_change: false,
      graphql_envelop_execute_resolver: false,
    },
  });
}
