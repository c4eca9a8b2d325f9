import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite/vector';
import { readFileSync } from 'node:fs';
import { execSync } from 'node:child_process';
const src = process.argv[2]; const dir = src + '-b';
execSync(`rm -rf ${dir} && cp -r ${src} ${dir} && rm -f ${dir}/*.lock ${dir}/.engram*`);
const meta = JSON.parse(readFileSync(src + '.json', 'utf8'));
const db = await PGlite.create(dir, { extensions: { vector } });
const space = meta.space;
const ids = Array.from({ length: 10000 }, (_, i) => `bench-m${i}`);
const back = () => db.query(`update memory_state set status = 'ACTIVE' where memory_id = any($1::text[])`, [ids]);
const rows = `with changed as (update memory_state set status = $3, status_changed_at = now(), updated_at = now() where memory_id = any($1::text[]) and space_id = $2 and status = any($4::text[]) returning memory_id)
 insert into memory_events (space_id, memory_id, kind, actor) select $2, memory_id, $5, $6 from changed returning id, memory_id, at`;
const agg = `with changed as (update memory_state set status = $3, status_changed_at = now(), updated_at = now() where memory_id = any($1::text[]) and space_id = $2 and status = any($4::text[]) returning memory_id),
 ev as (insert into memory_events (space_id, memory_id, kind, actor) select $2, memory_id, $5, $6 from changed returning id, memory_id, at)
 select array_agg(id order by id) as ids, array_agg(memory_id order by id) as mids, min(at) as at from ev`;
const noev = `update memory_state set status = $3, status_changed_at = now(), updated_at = now() where memory_id = any($1::text[]) and space_id = $2 and status = any($4::text[]) returning memory_id`;
const t = async (name: string, f: () => Promise<unknown>) => { const a = performance.now(); await f(); const ms = performance.now() - a; await back(); return [name, ms] as const; };
const res: Record<string, number[]> = {};
for (let r = 0; r < 4; r++) {
  for (const [name, f] of [
    ['raw', () => db.query(`update memory_state set status = 'MUTED' where memory_id = any($1::text[])`, [ids])],
    ['rows', () => db.query(rows, [ids, space, 'MUTED', ['ACTIVE'], 'MUTED', 'admin'])],
    ['agg', () => db.query(agg, [ids, space, 'MUTED', ['ACTIVE'], 'MUTED', 'admin'])],
    ['update only (ret)', () => db.query(noev, [ids, space, 'MUTED', ['ACTIVE']])],
    ['insert events only', () => db.query(`insert into memory_events (space_id, memory_id, kind, actor) select $1, x, 'X', 'a' from unnest($2::text[]) x`, [space, ids])],
  ] as const) { const [n, ms] = await t(name, f as any); (res[n] ??= []).push(ms); }
}
for (const [k, v] of Object.entries(res)) console.log(k.padEnd(22), v.map((x) => x.toFixed(0)).join(' '));
await db.close();
