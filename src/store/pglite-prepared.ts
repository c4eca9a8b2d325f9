/**
 * Prepared statements for PGlite (docs/operations.md, "PGlite's statements, prepared").
 *
 * PGlite sends every parameterised query as an unnamed statement: PostgreSQL parses and plans
 * it again each time. For the service's small, hot statements that is most of their cost in
 * WebAssembly: recognition's first read, 0.7–1.1 ms as a plain query, 0.25 ms as `EXECUTE` of a
 * statement prepared once (the plan cached: PostgreSQL's own choice between custom and generic
 * plans, as for any prepared statement). PGlite has no protocol-level named statements, so this
 * uses SQL's `PREPARE name AS …` once per text and `EXECUTE name(literals)`, the parameters
 * written as quoted literals (each an untyped literal, coerced to the parameter's type exactly
 * as a text-format parameter is). Only what is sure to read back the same is written that way:
 * strings, numbers, booleans, bigints, dates, null, flat arrays of those, and plain objects (as
 * JSON, as PGlite serialises them for a json parameter); anything else (bytes, typed arrays)
 * runs as a plain query. Prepared statements are session state: they
 * outlive a rolled-back transaction and never reach the data directory.
 *
 * The `EXECUTE` goes as a simple query (PGlite's `exec`: one message, no parse, bind and describe
 * of an unnamed statement around it; ~0.1 ms less per statement, the rows parsed by the same type
 * parsers). A statement marked `GENERIC_PLAN` runs with `plan_cache_mode = force_generic_plan`
 * set just before its `EXECUTE` and reset just after, in the same message: planned once, never
 * again per execution. Should the statement fail, the implicit or open transaction it ran in
 * rolls the setting back with it.
 */
import { GENERIC_PLAN } from './sql-client.js';

/** A statement PREPARE takes: one query or data-modifying statement. */
const PREPARABLE = /^\s*(select|with|insert|update|delete)\b/i;

/** Texts prepared at most (least recently used let go with DEALLOCATE past it). */
export const MAX_PREPARED = 256;

const quote = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** A NUL would end the statement's text early (PostgreSQL refuses it in a bound value: left to the plain query). */
const hasNul = (s: string) => s.includes('\u0000');

/** An array element in PostgreSQL's array literal syntax. */
function element(v: unknown): string | null {
  if (v === null || v === undefined) return 'NULL';
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  if (typeof v === 'boolean') return v ? 't' : 'f';
  if (typeof v === 'string' && hasNul(v)) return null;
  if (typeof v === 'string') return `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  if (v instanceof Date && !Number.isNaN(v.getTime())) return `"${v.toISOString()}"`;
  return null;
}

/** A parameter as an SQL literal, or null when it is not one of the kinds written this way. */
export function literal(v: unknown): string | null {
  if (v === null || v === undefined) return 'NULL';
  switch (typeof v) {
    case 'string': return hasNul(v) ? null : quote(v);
    case 'number': case 'bigint': return quote(String(v));
    case 'boolean': return v ? "'t'" : "'f'";
    default: break;
  }
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : quote(v.toISOString());
  if (Array.isArray(v)) {
    const parts: string[] = [];
    for (const x of v) {
      const e = element(x);
      if (e === null) return null;
      parts.push(e);
    }
    return quote(`{${parts.join(',')}}`);
  }
  // A plain object goes to a json parameter, serialised as PGlite serialises it.
  if (Object.getPrototypeOf(v) === Object.prototype) {
    const json = JSON.stringify(v);
    return hasNul(json) ? null : quote(json);
  }
  return null;
}

export interface Runner {
  query<T>(sql: string, params?: unknown[]): Promise<{ rows: T[]; affectedRows?: number }>;
  /** Several statements as one simple query: a result per statement. */
  exec?(sql: string): Promise<Array<{ rows: unknown[]; affectedRows?: number }>>;
}

const FORCE_GENERIC = 'set plan_cache_mode = force_generic_plan; ';
const RESET_PLAN = '; reset plan_cache_mode';

/** Names are unique in the process, so two owners of one session never collide. */
let named = 0;

/** The statements prepared on one PGlite session, by text. */
export class PreparedStatements {
  private names = new Map<string, string>();

  /**
   * Runs `sql` with `params` through `run` (the session, or its open transaction): as `EXECUTE`
   * of the statement prepared for this text (preparing it the first time), or as a plain query
   * when it has no parameters or one cannot be written as a literal.
   */
  async query<T>(run: Runner, text: string, params: unknown[]): Promise<{ rows: T[]; affectedRows?: number }> {
    const generic = text.startsWith(GENERIC_PLAN);
    const sql = generic ? text.slice(GENERIC_PLAN.length) : text;
    if (params.length === 0 || !PREPARABLE.test(sql)) return run.query<T>(sql, params);
    const literals: string[] = [];
    for (const p of params) {
      const l = literal(p);
      if (l === null) return run.query<T>(sql, params);
      literals.push(l);
    }
    let name = this.names.get(sql);
    if (name !== undefined) {
      // The map's order is the order of last use.
      this.names.delete(sql);
      this.names.set(sql, name);
    } else {
      name = `engram_s${++named}`;
      await run.query(`prepare ${name} as ${sql.trim().replace(/;$/, '')}`);
      this.names.set(sql, name);
      if (this.names.size > MAX_PREPARED) {
        const [oldest, gone] = this.names.entries().next().value!;
        this.names.delete(oldest);
        await run.query(`deallocate ${gone}`);
      }
    }
    const execute = `execute ${name}(${literals.join(', ')})`;
    try {
      if (!run.exec) return await run.query<T>(execute);
      const results = await run.exec(generic ? `${FORCE_GENERIC}${execute}${RESET_PLAN}` : execute);
      return results[generic ? 1 : 0] as { rows: T[]; affectedRows?: number };
    } catch (e) {
      // A table's columns changed under a cached plan (a migration run by this session):
      // prepared again on the next use.
      if (/cached plan must not change result type/.test(String((e as Error)?.message))) {
        this.names.delete(sql);
        await run.query(`deallocate ${name}`).catch(() => {});
      }
      throw e;
    }
  }
}
