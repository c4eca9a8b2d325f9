/**
 * The document the cost limit weighs (src/graphql/list-sizes.ts): a list's `first` given by a
 * variable, or left to the field's default, is written in as the number the operation runs with,
 * so GraphQL Armor's cost rule (which reads only numbers written in the document) multiplies by it.
 */
import { describe, expect, it } from 'vitest';
import { parse, print, validate, type ValidationRule } from 'graphql';
import { costLimitRule } from '@escape.tech/graphql-armor-cost-limit';
import { buildSchema } from '../../src/graphql/schema/index.js';
import { withListSizes } from '../../src/graphql/list-sizes.js';

const schema = buildSchema();
const costOf = (query: string, variables?: Record<string, unknown>): number => {
  let found = Number.NaN;
  const rule = costLimitRule({ maxCost: 1, exposeLimits: true, propagateOnRejection: false, onReject: [(_c, e) => { found = Number(/found (\d+(?:\.\d+)?)/.exec(e.message)![1]); }] });
  validate(schema, withListSizes(schema, parse(query), variables), [rule as ValidationRule]);
  return found;
};
const LIST = (first: string) => `{ memories${first} { ... on MemoryConnection { nodes { id quote mentions { quote } } } } }`;

describe('list sizes written in for the cost limit', () => {
  it('weighs first: $n as first: n, in an operation and in a fragment', () => {
    const written = costOf(LIST('(first: 200)'));
    expect(costOf('query($n: Int) ' + LIST('(first: $n)'), { n: 200 })).toBe(written);
    expect(costOf('query($n: Int = 200) ' + LIST('(first: $n)'))).toBe(written);
    const fragment = `query($n: Int) { ...F } fragment F on Query { memories(first: $n) { ... on MemoryConnection { nodes { id quote mentions { quote } } } } }`;
    expect(costOf(fragment, { n: 200 })).toBe(costOf(`query { ...F } fragment F on Query { memories(first: 200) { ... on MemoryConnection { nodes { id quote mentions { quote } } } } }`));
    // more items cost more
    expect(costOf('query($n: Int) ' + LIST('(first: $n)'), { n: 400 })).toBeGreaterThan(written);
  });

  it("weighs a list left to its field's default as that default, a nested list as well", () => {
    const dflt = schema.getQueryType()!.getFields().memories!.args.find((a) => a.name === 'first')!.defaultValue as number;
    expect(costOf(LIST(''))).toBe(costOf(LIST(`(first: ${dflt})`)));
    const messages = (first: string) => `query($c: ID!) { conversation(id: $c) { ... on Conversation { messages${first} { id text } } } }`;
    expect(costOf(messages(''), { c: 'x' })).toBe(costOf(messages('(first: 100)'), { c: 'x' }));
    expect(costOf(messages(''), { c: 'x' })).toBeGreaterThan(costOf(messages('(first: 1)'), { c: 'x' }));
  });

  it('leaves a size as written when the variable is null or not a number (execution refuses or defaults it), and the document given unchanged', () => {
    const q = 'query($n: Int) ' + LIST('(first: $n)');
    const doc = parse(q);
    const before = print(doc);
    expect(print(withListSizes(schema, doc, { n: 'many' }))).toContain('first: $n');
    expect(print(withListSizes(schema, doc, { n: null }))).toContain('first: $n');
    expect(print(withListSizes(schema, doc, { n: 7 }))).toContain('first: 7');
    expect(print(doc)).toBe(before);
    // an unknown field is left for validation to report
    expect(print(withListSizes(schema, parse('{ nothing(first: 3) { id } }'), {}))).toContain('nothing(first: 3)');
  });
});
