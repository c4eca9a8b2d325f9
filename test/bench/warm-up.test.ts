import { describe, expect, it } from 'vitest';
import { warmUpEmbedder } from '../../bench/stats.js';

/**
 * The embedder's warm-up before the quick bench measures anything: passes in blocks until a
 * block's median is within the tolerance of the one before, never fewer than `min` passes, never
 * more than `max`. Timed on a clock the fake pass moves, so the passes' "durations" are exact.
 */
describe('warmUpEmbedder', () => {
  const clocked = (durationOf: (j: number) => number) => {
    let t = 0;
    return { now: () => t, pass: async (j: number) => { t += durationOf(j); } };
  };

  it('goes on past a plateau while the passes get faster and stops once two blocks agree', async () => {
    // 15 ms a pass for the first 150 passes, 10 ms after (USE-lite's shape): blocks 1-3 at 15 (a
    // plateau `min` sees past), block 4 at 10, block 5 at 10.
    const c = clocked((j) => (j < 150 ? 15 : 10));
    const r = await warmUpEmbedder(c.pass, { clock: c.now, block: 50, min: 200, max: 1_000, tolerance: 0.05 });
    expect(r).toEqual({ passes: 250, lastMs: 10 });
  });

  it('runs at least `min` passes even when the first blocks agree', async () => {
    const c = clocked(() => 10);
    const r = await warmUpEmbedder(c.pass, { clock: c.now, block: 50, min: 200, max: 1_000 });
    expect(r.passes).toBe(200);
  });

  it('refuses a block that would never end the loop', async () => {
    await expect(warmUpEmbedder(async () => {}, { block: 0 })).rejects.toThrow(RangeError);
  });

  it('stops at `max` when the passes never settle', async () => {
    // each block 20 % faster than the one before
    const c = clocked((j) => 100 * 0.8 ** Math.floor(j / 50));
    const r = await warmUpEmbedder(c.pass, { clock: c.now, block: 50, min: 100, max: 300, tolerance: 0.05 });
    expect(r.passes).toBe(300);
  });
});
