/**
 * Migration 24: CORRECTED events written before a recognised correction's reason named only its
 * rule quoted both values; they are rewritten, so that forgetting the old memory leaves none of
 * its words in the log (docs/erasure.md, "Every copy"). An explicit correction's reason stays.
 */
import { describe, expect, it } from 'vitest';
import { migrate } from '../../src/store/migrations.js';
import { withOlderStore } from '../helpers/db.js';

describe('migration 24: event reasons without words', () => {
  it('rewrites an old CORRECTED reason to name its rule; leaves an explicit one and other events alone', async () => {
    await withOlderStore(23, ['m1', 'm2', 'm3'], async (db) => {
      const insert = (memory: string, kind: string, rule: string | null, detail: unknown) => db.query(
        `insert into memory_events (space_id, memory_id, kind, actor, rule, detail) values ('s1', $1, $2, 'test', $3, $4::jsonb)`,
        [memory, kind, rule, JSON.stringify(detail)],
      );
      await insert('m2', 'CORRECTED', 'new-value', { considered: [{ id: 'm1', score: 0.9 }], reason: 'home: name: "Zorgtown" -> "Plimbury"' });
      await insert('m3', 'CORRECTED', 'explicit', { reason: 'corrected explicitly by the assistant, with the wording of this memory' });
      await insert('m1', 'CREATED', null, { considered: [] });
      expect(await migrate(db, { dimensions: 512 })).toContain(24);
      const rows = (await db.query<{ memory_id: string; detail: Record<string, unknown> }>(
        `select memory_id, detail from memory_events where space_id = 's1' order by id`)).rows;
      expect(rows).toEqual([
        { memory_id: 'm2', detail: { considered: [{ id: 'm1', score: 0.9 }], reason: 'recognised by the new-value rule' } },
        { memory_id: 'm3', detail: { reason: 'corrected explicitly by the assistant, with the wording of this memory' } },
        { memory_id: 'm1', detail: { considered: [] } },
      ]);
      expect(JSON.stringify(rows)).not.toMatch(/Zorgtown|Plimbury/);
      // the log is append-only again once the migration is done
      await expect(db.query(`update memory_events set detail = null where memory_id = 'm1'`)).rejects.toThrow(/append-only/);
    });
  });
});
