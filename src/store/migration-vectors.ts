/**
 * Migration 22: a vector's sign-bits row takes its `seq` under its space's write lock.
 *
 * The in-process copy of a space's vectors (adapters/pgvector/vector-mirror.ts) catches up by
 * reading the rows past the highest `seq` it holds. That is sound only if, within a space, rows
 * commit in `seq` order: a row numbered 100 committing after one numbered 101 was read would never
 * be read. One connection (PGlite) gives that order for free; on a server two transactions may
 * take numbers in one order and commit in the other. So the trigger that writes the bits takes
 * the space's write lock first, the very lock `withSpaceLock` takes (`hashtext('space:' || id)`,
 * src/store/sql-store-base.ts; a transaction holding it already takes it again at no cost), in
 * the spaces' order (one statement writing several spaces never waits in an order another
 * reverses). The lock is held to the end of the transaction, so every row of a space numbered
 * after another row of it belongs to a transaction that began writing the space after the other's
 * committed or rolled back: reading "past n" never skips a row that commits later. The
 * migration first takes a lock on the bits table that waits for the writers already numbering
 * rows under the old trigger (another instance, mid-upgrade). PGlite needs neither: one
 * connection, its transactions never interleave (docs/engines.md, "The vector mirror").
 */
export const vectorBitsInSpaceOrderSql = (dimensions: number, driver: 'pg' | 'pglite') => `
${driver === 'pglite' ? '' : `-- Writers numbering rows under the previous trigger finish first; new ones wait for this one.
lock table memory_vector_bits in share row exclusive mode;
`}create or replace function engram_vector_bits_new() returns trigger language plpgsql as $$
begin
${driver === 'pglite' ? '' : `  perform pg_advisory_xact_lock(hashtext('space:' || s.space_id))
    from (select distinct space_id from new_rows order by space_id) s;
`}  insert into memory_vector_bits (memory_id, space_id, kind, bq)
    select memory_id, space_id, kind, binary_quantize(embedding)::bit(${dimensions}) from new_rows
  on conflict (memory_id) do update set space_id = excluded.space_id, kind = excluded.kind, bq = excluded.bq,
    seq = nextval('memory_vector_bits_seq');
  return null;
end $$;
`;
