/**
 * PGlite's parameterised statements run as EXECUTE of a statement prepared once
 * (src/store/pglite-prepared.ts), the parameters written as literals. Every kind of value the
 * service binds must read back exactly as PGlite's own binding reads it, the prepared statement
 * must be used again (not prepared per call), and a rolled-back transaction must not lose it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PGlite } from '@electric-sql/pglite';
import { literal, PreparedStatements } from '../../src/store/pglite-prepared.js';
import { GENERIC_PLAN } from '../../src/store/sql-client.js';
import { leanParsers } from '../../src/store/pglite-client.js';

describe('PGlite prepared statements', () => {
  let db: PGlite;
  beforeAll(async () => {
    db = await PGlite.create();
  });
  afterAll(async () => {
    await db?.close();
  });

  const awkward = [
    'plain', "it's", 'back\\slash', 'a "quoted" word', '{braces,commas}', 'NULL', '', ' spaced ', 'ünïcödé — “quotes”', "'';--",
  ];

  it('reads every kind of parameter back as PGlite\'s binding does', async () => {
    const prepared = new PreparedStatements();
    const cases: [string, unknown][] = [
      ...awkward.map((s): [string, unknown] => ['$1::text', s]),
      ['$1::int', 42], ['$1::float8', 0.1 + 0.2], ['$1::float8', -1e-7], ['$1::real', 3.4028234663852886e38], ['$1::bigint', 2n ** 60n],
      ['$1::numeric', 1e21], ['$1::bool', true], ['$1::bool', false], ['$1::text', null],
      ['$1::timestamptz', new Date(Date.UTC(2026, 11, 1, 12, 34, 56, 789))],
      ['$1::text[]', awkward], ['$1::text[]', ['a', null, 'b']], ['$1::text[]', []], ['$1::int[]', [1, 2, 3]],
      ['$1::real[]', [0.5, null, -2.25]], ['$1::timestamptz[]', [new Date(0), new Date(Date.UTC(2020, 1, 29))]],
      ['$1::jsonb[]', [JSON.stringify({ a: "it's \"q\" \\" }), null]], ['$1::jsonb', { considered: [{ id: 'x', score: 0.5 }], note: "it's" }],
    ];
    for (const [expr, value] of cases) {
      const sql = `select ${expr} as v`;
      const plain = (await db.query<{ v: unknown }>(sql, [value])).rows[0].v;
      const viaExecute = (await prepared.query<{ v: unknown }>(db, sql, [value])).rows[0].v;
      expect(viaExecute, `${expr} ${String(value)}`).toEqual(plain);
    }
  });

  it('prepares a text once, uses it again, and keeps it across a rollback', async () => {
    const prepared = new PreparedStatements();
    const sql = 'select $1::int + 1 as v';
    const count = async () => Number((await db.query<{ n: number }>(`select count(*)::int as n from pg_prepared_statements`)).rows[0].n);
    const before = await count();
    await expect(db.transaction(async (tx) => {
      expect((await prepared.query<{ v: number }>(tx, sql, [1])).rows[0].v).toBe(2);
      throw new Error('roll back');
    })).rejects.toThrow('roll back');
    for (let i = 0; i < 5; i++) expect((await prepared.query<{ v: number }>(db, sql, [i])).rows[0].v).toBe(i + 1);
    expect(await count()).toBe(before + 1);
  });

  it('runs a GENERIC_PLAN statement with its generic plan, and leaves the session\'s setting as it was, even when it fails', async () => {
    const prepared = new PreparedStatements();
    const mode = async () => (await db.query<{ m: string }>(`select current_setting('plan_cache_mode') as m`)).rows[0].m;
    await db.exec(`create table if not exists gp (id int primary key, v text); insert into gp select g, 'v' || g from generate_series(1, 50) g on conflict do nothing`);
    const sql = `${GENERIC_PLAN}select v from gp where id = $1`;
    for (let i = 1; i <= 3; i++) expect((await prepared.query<{ v: string }>(db, sql, [i])).rows[0].v).toBe(`v${i}`);
    const plans = (await db.query<{ g: number; c: number }>(
      `select generic_plans::int as g, custom_plans::int as c from pg_prepared_statements where statement like '%from gp where id%'`,
    )).rows[0];
    // three runs, none planned for its parameter (PostgreSQL's own choice plans the first five)
    expect(plans).toEqual({ g: 3, c: 0 });
    expect(await mode()).toBe('auto');
    await expect(prepared.query(db, `${GENERIC_PLAN}select 1 / $1::int as v`, [0])).rejects.toThrow(/division by zero/);
    expect(await mode()).toBe('auto');
    await expect(db.transaction(async (tx) => {
      await prepared.query(tx, `${GENERIC_PLAN}select 1 / $1::int as v`, [0]);
    })).rejects.toThrow(/division by zero/);
    expect(await mode()).toBe('auto');
  });

  it('runs what it cannot write as a literal as a plain query', async () => {
    expect(literal(new Uint8Array([1, 2]))).toBeNull();
    expect(literal([[1, 2], [3]])).toBeNull();
    expect(literal(new Date(Number.NaN))).toBeNull();
    expect(literal('a\u0000b')).toBeNull();
    expect(literal(['a', 'b\u0000'])).toBeNull();
    const prepared = new PreparedStatements();
    const r = await prepared.query<{ v: Uint8Array }>(db, 'select $1::bytea as v', [new Uint8Array([1, 2, 255])]);
    expect([...r.rows[0].v]).toEqual([1, 2, 255]);
  });

  it('the service\'s lean map of parsers (arrays of row types dropped) reads every kind of value as the full map does', async () => {
    const exprs = [
      `array['a', null, 'b"c']::text[]`, 'array[1, 2]::int4[]', 'array[2, 3]::int8[]', 'array[1, 2]::int2[]', 'array[0.5, -2.25]::float4[]',
      'array[0.1, 1e300]::float8[]', 'array[1.5, 2]::numeric[]', 'array[true, false, null]::bool[]', `array['{"a": [1]}']::jsonb[]`,
      `array['{"b": 2}']::json[]`, `array[timestamptz '2026-12-01 12:00:00+00']`, `array[date '2026-02-28']`, `array['x']::varchar[]`,
      `array['n']::name[]`, `array['5a4c3a5e-0000-4000-8000-000000000001']::uuid[]`, `array[interval '1 day']`, `array[int4range(1, 5)]`,
      `array[oid '26']`, `array['y']::bpchar[]`, `array['\\x0102']::bytea[]`, `'{"considered": [1, 2]}'::jsonb`, `timestamptz '2026-12-01 12:34:56.789+00'`,
      `array[to_tsvector('simple', 'a b')]`, 'array[]::text[]',
    ];
    const read = async () => Promise.all(exprs.map(async (e) => (await db.query<{ v: unknown }>(`select ${e} as v`)).rows[0].v));
    const full = await read();
    const before = Object.keys(db.parsers).length;
    await leanParsers(db);
    expect(Object.keys(db.parsers).length).toBeLessThan(before / 2);
    const lean = await read();
    exprs.forEach((e, i) => expect(lean[i], e).toEqual(full[i]));
  });
});
