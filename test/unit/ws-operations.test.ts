/**
 * graphql-ws's `onSubscribe` (src/graphql/ws-operations.ts): every step that can fail before an
 * operation runs answers that operation with errors instead of throwing (a throw closed the whole
 * socket, 4500): a syntax error, the store unavailable while the context is made, a defect.
 */
import { createRequire } from 'node:module';
import { describe, expect, it, vi } from 'vitest';
import type { GraphQLSchema } from 'graphql';
import { wsOperations } from '../../src/graphql/ws-operations.js';
import { StoreUnavailableError } from '../../src/store/sql-client.js';

const graphql = createRequire(import.meta.url)('graphql') as typeof import('graphql');
const schema = graphql.buildSchema('type Query { hello: String }') as unknown as GraphQLSchema;

function steps(context: () => Promise<unknown>) {
  const log = { info: vi.fn(), warn: vi.fn(), error: vi.fn(), debug: vi.fn(), child: vi.fn() };
  const onSubscribe = wsOperations({ gate: () => undefined, schema, validate: (s, d) => graphql.validate(s as never, d as never), context, log });
  return { log, run: (query: string) => onSubscribe({}, '1', { query }) };
}

const errorsOf = (r: unknown) => r as Array<InstanceType<typeof graphql.GraphQLError>>;

describe('wsOperations', () => {
  it('answers a syntax error as the operation\'s error, logged at info', async () => {
    const { log, run } = steps(async () => ({}));
    const [e] = errorsOf(await run('subscription{'));
    expect(e).toBeInstanceOf(graphql.GraphQLError);
    expect(e!.message).toBe('Syntax Error: Expected Name, found <EOF>.');
    expect(e!.extensions).toMatchObject({ code: 'GRAPHQL_PARSE_FAILED' });
    expect(log.info).toHaveBeenCalled();
    expect(log.error).not.toHaveBeenCalled();
  });

  it('answers validation errors, and runs a valid operation with its context', async () => {
    const { run } = steps(async () => ({ who: 'me' }));
    expect(errorsOf(await run('{ nope }'))[0]!.message).toMatch(/Cannot query field "nope"/);
    expect(await run('{ hello }')).toMatchObject({ schema, contextValue: { who: 'me' } });
  });

  it('answers UNAVAILABLE when the store fails while the context is made, "Unexpected error." for a defect', async () => {
    const down = steps(async () => { throw new StoreUnavailableError('database unavailable: connection refused'); });
    expect(errorsOf(await down.run('{ hello }'))[0]).toMatchObject({ message: 'database unavailable: connection refused', extensions: { code: 'UNAVAILABLE', retryAfterSeconds: 1 } });
    const broken = steps(async () => { throw new TypeError('x is undefined'); });
    const [e] = errorsOf(await broken.run('{ hello }'));
    expect(e).toBeInstanceOf(graphql.GraphQLError);
    expect(e).toMatchObject({ message: 'Unexpected error.', extensions: { code: 'INTERNAL_SERVER_ERROR' } });
    expect(broken.log.error).toHaveBeenCalledTimes(1);
  });
});
