import {
  GraphQLError, GraphQLInputObjectType, GraphQLList, GraphQLNonNull, GraphQLObjectType, GraphQLScalarType, GraphQLUnionType,
  getNamedType, type GraphQLArgument, type GraphQLField, type GraphQLInputType, type GraphQLSchema,
} from 'graphql';
import { wrapOrThrow } from '@pothos/plugin-errors';
import { LimitsSchema, type Limits } from '../config.js';
import { DomainError, InvalidInputError, UnavailableError } from '../memory/errors.js';
import { unavailableIn } from '../store/sql-client.js';
import { inputFault } from '../store/pg-errors.js';
import type { GraphQLContext } from './context.js';

/**
 * The gate in front of every root field (docs/limits.md): arguments are checked against
 * the declared limits before a resolver runs, and failures the client can act on come
 * back typed instead of as "Unexpected error.":
 * - a string or id with a NUL character or a lone UTF-16 surrogate, or longer than its bound (quote, query, message
 *   text, anything else), a `first` outside its field's bounds, a float too small for the store
 *   (5e-324), a date outside the years 1-9999: InvalidInput naming the field;
 * - the database lost, refused or timed out: Unavailable (retry);
 * - a value the database still refused (a foreign key, a check): InvalidInput naming the
 *   column, logged as a gap in validation.
 * Fields whose payload cannot carry the typed error (subscriptions) get a GraphQL error with
 * the same `extensions.code`.
 */

const DEFAULT_LIMITS: Limits = LimitsSchema.parse({});

/** Largest `first` per field (root fields, and the lists inside an object: `Conversation.messages`, `Memory.mentions`, `Memory.events`); any other `first` is bounded by `limits.first`. */
export const FIRST_MAX: Readonly<Record<string, number>> = {
  recall: 100, recallSpace: 100, profile: 200, memories: 500, inferences: 500, messages: 500, mentions: 500, events: 500,
};

/** Smallest `first` per root field whose use case asks for at least one (any other: 0, an empty page). */
const FIRST_MIN: Readonly<Record<string, number>> = { recall: 1, recallSpace: 1, memories: 1 };

/** Characters per string argument, by argument name; any other string by `limits.stringChars`. */
function textBound(arg: string, limits: Limits): number {
  switch (arg) {
    case 'quote': return limits.quoteChars;
    case 'query': return limits.queryChars;
    case 'text': case 'basis': return limits.messageChars;
    default: return limits.stringChars;
  }
}

/** Float4 (real) columns refuse non-zero values this close to zero ("out of range"). */
const SMALLEST_FLOAT = 1e-30;
const WRAPPED = Symbol('engram.guarded');

export function guardSchema(schema: GraphQLSchema): GraphQLSchema {
  const roots = [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()];
  for (const type of roots) {
    if (!type) continue;
    for (const field of Object.values(type.getFields())) guardField(field, type.name === 'Subscription');
  }
  // The arguments of every other field that takes some (`Conversation.messages`, `Memory.mentions`...): the same checks, answered
  // as a GraphQL error on that field (INVALID_INPUT naming the argument): no union to carry the typed error.
  for (const type of Object.values(schema.getTypeMap())) {
    if (!(type instanceof GraphQLObjectType) || type.name.startsWith('__') || roots.includes(type)) continue;
    for (const field of Object.values(type.getFields())) if (field.args.length > 0) guardArgs(field);
  }
  return schema;
}

function guardArgs(field: GraphQLField<unknown, GraphQLContext> & { [WRAPPED]?: true }): void {
  if (field[WRAPPED] || !field.resolve) return;
  field[WRAPPED] = true;
  const inner = field.resolve;
  field.resolve = (root, args, ctx, info) => {
    const fault = checkArgs(field.name, field.args, args, ctx?.limits ?? DEFAULT_LIMITS);
    if (fault) throw new GraphQLError(fault.message, { extensions: { code: fault.code, field: fault.field } });
    return inner(root, args, ctx, info);
  };
}

function guardField(field: GraphQLField<unknown, GraphQLContext> & { [WRAPPED]?: true }, subscription: boolean): void {
  if (field[WRAPPED]) return;
  field[WRAPPED] = true;
  const returnType = getNamedType(field.type);
  const typed = returnType instanceof GraphQLUnionType ? new Set(returnType.getTypes().map((t) => t.name)) : new Set<string>();
  const answer = (e: DomainError): unknown => {
    const name = e instanceof InvalidInputError ? 'InvalidInput' : e instanceof UnavailableError ? 'Unavailable' : '';
    // The errors plugin's own wrapping: graphql-js would treat a bare Error as thrown.
    if (!subscription && typed.has(name)) return wrapOrThrow(e, [e.constructor as new (...a: never[]) => Error]);
    throw new GraphQLError(e.message, {
      extensions: { code: e.code, ...(e instanceof InvalidInputError ? { field: e.field } : {}) },
    });
  };
  const wrap = (inner: (...a: any[]) => unknown) => async (root: unknown, args: Record<string, unknown>, ctx: GraphQLContext, info: unknown) => {
    const fault = checkArgs(field.name, field.args, args, ctx?.limits ?? DEFAULT_LIMITS);
    if (fault) return answer(fault);
    try {
      return await inner(root, args, ctx, info);
    } catch (e) {
      const typedError = translate(e, ctx);
      if (typedError) return answer(typedError);
      throw e;
    }
  };
  if (subscription) {
    if (field.subscribe) field.subscribe = wrap(field.subscribe);
  } else if (field.resolve) {
    field.resolve = wrap(field.resolve);
  }
}

/** A store failure the client can act on, as its typed error; null for anything else. */
function translate(e: unknown, ctx: GraphQLContext | undefined): DomainError | null {
  const unavailable = unavailableIn(e);
  if (unavailable) {
    ctx?.metrics?.refusals.inc({ code: 'UNAVAILABLE' });
    return new UnavailableError(unavailable.message);
  }
  const input = inputFault(e);
  if (input) {
    ctx?.deps.log.warn({ field: input.field, detail: input.message }, 'the database refused input that validation let through');
    return new InvalidInputError(input.field, input.message);
  }
  return null;
}

/** The first argument outside its limits, as InvalidInput naming it; null when all are within. */
export function checkArgs(fieldName: string, defs: readonly GraphQLArgument[], args: Record<string, unknown>, limits: Limits): InvalidInputError | null {
  for (const def of defs) {
    const v = args[def.name];
    if (v == null) continue;
    if (def.name === 'first' && typeof v === 'number') {
      const max = Math.min(FIRST_MAX[fieldName] ?? limits.first, limits.first);
      const min = FIRST_MIN[fieldName] ?? 0;
      if (v < min || v > max) return new InvalidInputError('first', `must be between ${min} and ${max}`);
      continue;
    }
    const fault = checkValue(def.name, def.type, v, limits);
    if (fault) return fault;
  }
  return null;
}

function checkValue(name: string, type: GraphQLInputType, v: unknown, limits: Limits): InvalidInputError | null {
  if (v == null) return null;
  if (type instanceof GraphQLNonNull) return checkValue(name, type.ofType, v, limits);
  if (type instanceof GraphQLList) {
    if (!Array.isArray(v)) return checkValue(name, type.ofType, v, limits);
    for (const item of v) {
      const fault = checkValue(name, type.ofType, item, limits);
      if (fault) return fault;
    }
    return null;
  }
  if (type instanceof GraphQLInputObjectType) {
    const fields = type.getFields();
    for (const [key, value] of Object.entries(v as Record<string, unknown>)) {
      const f = fields[key];
      if (!f) continue;
      const fault = checkValue(key, f.type, value, limits);
      if (fault) return fault;
    }
    return null;
  }
  if (!(type instanceof GraphQLScalarType)) return null;
  if (type.name === 'JSON') {
    // Free-form (a client vector as "[0.1, ...]" text): bounded by the body size; only its strings' characters are checked here.
    const fault = illFormedIn(v);
    return fault ? new InvalidInputError(name, fault) : null;
  }
  if (typeof v === 'string') {
    const max = textBound(name, limits);
    if (v.length > max) return new InvalidInputError(name, `at most ${max.toLocaleString('en')} characters (got ${v.length.toLocaleString('en')})`);
    const fault = illFormed(v);
    return fault ? new InvalidInputError(name, fault) : null;
  }
  if (type.name === 'Float' && typeof v === 'number' && v !== 0 && Math.abs(v) < SMALLEST_FLOAT) {
    return new InvalidInputError(name, `must be 0 or at least ${SMALLEST_FLOAT} in magnitude`);
  }
  if (v instanceof Date) {
    const year = v.getUTCFullYear();
    if (year < 1 || year > 9999) return new InvalidInputError(name, 'must be a date in the years 0001-9999');
  }
  return null;
}

/**
 * What makes a string unstorable as the client's words: a NUL (PostgreSQL cannot store it), or a
 * lone UTF-16 surrogate (`"\\ud800"` in JSON), which is no character at all: it was stored as
 * U+FFFD, a character the person never typed. Null when the string is fine.
 */
function illFormed(s: string): string | null {
  if (s.includes('\u0000')) return 'must not contain NUL (\\u0000) characters';
  if (!(s as string & { isWellFormed(): boolean }).isWellFormed()) return 'must not contain lone UTF-16 surrogates (\\ud800-\\udfff not in a pair)';
  return null;
}

/** `illFormed` for every string (and key) of a free-form JSON value, however deep (no recursion). */
function illFormedIn(value: unknown): string | null {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const v = pending.pop();
    if (typeof v === 'string') {
      const fault = illFormed(v);
      if (fault) return fault;
    } else if (Array.isArray(v)) {
      for (const item of v) pending.push(item);
    } else if (v !== null && typeof v === 'object') {
      for (const [key, item] of Object.entries(v)) pending.push(key, item);
    }
  }
  return null;
}
