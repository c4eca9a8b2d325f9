/**
 * Vectors go to PostgreSQL as hexadecimal floats (`toPgVectorParam`): pgvector stores the very
 * float32 bits the process holds, -0, subnormals and the largest float32 included, on both
 * databases; a component that is not a finite float32 is refused before any statement.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../helpers/db.js';
import { toPgVectorParam, VectorFormatError } from '../../src/core/vectors.js';
import type { SqlClient } from '../../src/store/sql-client.js';

for (const target of testDatabases()) {
  describe(`vector parameters (${target.name})`, () => {
    let db: SqlClient;
    beforeAll(async () => {
      db = await target.open();
      await db.exec('create extension if not exists vector');
    });
    afterAll(async () => {
      await db?.close();
    });

    it('stores the float32 bits the process holds, to the last bit', async () => {
      let seed = 7;
      const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) - 0.5;
      const vectors = Array.from({ length: 20 }, (_, r) => Float32Array.from({ length: 512 }, () => rnd() * 10 ** ((r % 9) - 5)));
      vectors[0]!.set([0, -0, 1e-40, -1e-45, 3.4028234e38, -1.5, 1, 2 ** -126]);
      for (const v of vectors) {
        const r = await db.query<{ b: string }>(`select encode(vector_send($1::vector), 'hex') as b`, [toPgVectorParam(v)]);
        // vector_send: dimensions (int16), unused (int16), then each float4 big-endian
        expect(r.rows[0]!.b.slice(8)).toBe(Buffer.from(Float32Array.from(v).buffer).swap32().toString('hex'));
      }
    });

    it('refuses what is not a finite float32', () => {
      for (const bad of [[Number.NaN], [Number.POSITIVE_INFINITY], [1e39]]) {
        expect(() => toPgVectorParam(bad)).toThrow(VectorFormatError);
      }
      expect(toPgVectorParam([0.1875, -1, 0])).toBe('[0x1.800000p-3,-0x1.000000p0,0]');
    });
  });
}
