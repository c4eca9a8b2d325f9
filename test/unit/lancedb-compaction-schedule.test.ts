/**
 * LanceDB's compaction schedule (adapters/lancedb/lancedb-compaction.ts): the timer compacts
 * between bursts of writes, not in them, and never waits for a pause for ever; the write-count
 * trigger fires in a burst as before. Pure scheduling, on a controlled clock.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CompactionSchedule, type CompactionPolicy } from '../../adapters/lancedb/lancedb-compaction.js';

const T0 = new Date('2026-12-03T12:00:00Z').getTime();
const at = (seconds: number) => T0 + seconds * 1000;

function schedule(policy: Partial<CompactionPolicy> = {}) {
  const runs: number[] = [];
  const s = new CompactionSchedule(
    { everyWrites: 0, everyMs: 60_000, keepVersionsMs: 0, quietMs: 5_000, ...policy },
    async () => { runs.push(Date.now()); },
    (e) => { throw e; },
  );
  /** Writes once a second from `from` to `to` (seconds), the clock moved to each. */
  const writeEverySecond = (from: number, to: number) => {
    for (let t = from; t <= to; t++) {
      vi.setSystemTime(at(t));
      s.noteWrite();
    }
  };
  const tickAt = async (t: number) => {
    vi.setSystemTime(at(t));
    s.tick(at(t));
    await Promise.resolve();
  };
  return { s, runs, writeEverySecond, tickAt };
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(T0);
});
afterEach(() => {
  vi.useRealTimers();
});

describe('LanceDB compaction schedule', () => {
  it('compacts on the timer once the writes have paused', async () => {
    const { runs, writeEverySecond, tickAt } = schedule();
    writeEverySecond(1, 3);
    await tickAt(61);
    expect(runs).toEqual([at(61)]);
  });

  it('does not compact in the middle of a burst, and does once it pauses', async () => {
    const { runs, writeEverySecond, tickAt } = schedule();
    writeEverySecond(1, 70);
    await tickAt(70);
    expect(runs).toEqual([]);
    await tickAt(74); // 4 s without a write
    expect(runs).toEqual([]);
    await tickAt(75); // 5 s
    expect(runs).toEqual([at(75)]);
  });

  it('stops waiting for a pause after ten intervals', async () => {
    const { runs, writeEverySecond, tickAt } = schedule();
    writeEverySecond(1, 599);
    await tickAt(599);
    expect(runs).toEqual([]);
    writeEverySecond(600, 600);
    await tickAt(600);
    expect(runs).toEqual([at(600)]);
  });

  it('nothing written: no compaction, however long', async () => {
    const { runs, tickAt } = schedule();
    await tickAt(3_600);
    expect(runs).toEqual([]);
  });

  it('the write-count trigger still compacts in a burst', async () => {
    const { runs, writeEverySecond } = schedule({ everyWrites: 3 });
    writeEverySecond(1, 3);
    await Promise.resolve();
    expect(runs).toEqual([at(3)]);
  });
  it('waits for a share of the table to be written: a few rows do not pay for rewriting a large table', async () => {
    const { s, runs, tickAt } = schedule({ minShare: 0.01 });
    s.sized(100_000);
    vi.setSystemTime(at(1));
    s.noteWrite(200);
    await tickAt(61);
    expect(runs).toEqual([]);
    vi.setSystemTime(at(62));
    s.noteWrite(800); // 1,000 rows since the last compaction: 1 % of the table
    await tickAt(121);
    expect(runs).toEqual([at(121)]);
  });

  it('counts rows again from each compaction, against the size it left', async () => {
    const { s, runs, tickAt } = schedule({ minShare: 0.01 });
    s.sized(1_000);
    vi.setSystemTime(at(1));
    s.noteWrite(10);
    await tickAt(61);
    expect(runs).toEqual([at(61)]);
    s.sized(50_000);
    vi.setSystemTime(at(62));
    s.noteWrite(10);
    await tickAt(200);
    expect(runs).toEqual([at(61)]);
  });
});
