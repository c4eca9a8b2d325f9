/**
 * The vector mirror's exact scan of a whole space, first pass in native code: USearch's exact
 * search (`exactSearch`, SIMD, prebuilt for linux-x64/arm64, darwin and win32 in its npm package)
 * finds the nearest rows by its own cosine distance (2.25.3 sums float32 inputs in double with an
 * exact square root; the bound below assumes only float32 sums, so it holds for any version that
 * keeps at least that accuracy); the rows that could be among the
 * nearest by pgvector's arithmetic are then computed exactly in JavaScript (mirror-slots.ts), so
 * the answer is the one the double-precision pass gives, to the last bit and in the same order.
 * At 10K × 512-d: ~1 ms against ~4 ms for the JavaScript pass (docs/bench-rounds.md, seventh round).
 * Where the module does not load, or `ENGRAM_NATIVE_SCAN=0`, the JavaScript pass runs.
 */
import { createRequire } from 'node:module';
import { key, NearestRows } from './nearest-rows.js';

interface Matches { keys: BigUint64Array; distances: Float32Array }
type ExactSearch = (dataset: Float32Array, queries: Float32Array, dimensions: number, count: number, metric: 'cos', threads?: number) => Matches;

let loaded: ExactSearch | null | undefined;
let enabled = process.env.ENGRAM_NATIVE_SCAN !== '0';

/** USearch's exact search, or null (not loadable here, or turned off). */
export function nativeExactSearch(): ExactSearch | null {
  if (!enabled) return null;
  if (loaded === undefined) {
    try {
      loaded = (createRequire(import.meta.url)('usearch') as { exactSearch: ExactSearch }).exactSearch;
    } catch {
      loaded = null;
    }
  }
  return loaded;
}

/** Tests: the native pass on or off (both must give the same answers). */
export function setNativeScan(on: boolean): void {
  enabled = on;
}

/**
 * Its distances' distance from pgvector's, at most: each float32 sum of `dim` products drifts by
 * ~dim·2⁻²⁴ of |a||b| (twice, the two computations), plus the square root's rounding. The native
 * pass is used only up to 2,048 dimensions, where this stays under the mirror's 5e-4 guard.
 */
export const NATIVE_MAX_DIM = 2_048;

/** The nearest rows of a whole space, read nearest first (`upTo`), as `Ranked` reads them. */
export class NativeRanked extends NearestRows {
  readonly windowFull = false;

  /**
   * `vectors`: the space's n rows back to back; `ids`: row i's id; `exact(i)`: pgvector's
   * distance of row i; `drift`: a bound on |native − exact| for every row (no row nor query whose
   * float32 squared norm is 0 or overflows: `Slots.rank`); `stale`: a slot changed since.
   */
  constructor(
    private readonly search: ExactSearch, ids: string[], private readonly vectors: Float32Array,
    private readonly query: Float32Array, exact: (i: number) => number, private readonly drift: number,
    stale: () => boolean,
  ) {
    super(ids, exact, stale);
    // The binding reads the array's buffer from its start, whatever its offset.
    if (vectors.byteOffset !== 0) throw new Error('the native search reads a buffer from its start: pass an array at offset 0');
  }

  /**
   * T is the native want-th smallest distance: want rows are then exactly within T + drift, so
   * every row of the exact first want is natively within T + 2·drift. The native search is asked
   * for more rows until the last it returns lies past that cut (then no row it left out can be
   * within it); those within the cut come back in row order, as the JavaScript pass gives them.
   */
  protected candidates(want: number): number[] {
    const n = this.ids.length;
    const dim = this.query.length;
    for (let count = Math.min(n, 2 * want + 64); ; count = Math.min(n, count * 4)) {
      const { keys, distances } = this.search(this.vectors, this.query, dim, count, 'cos', 1);
      const cut = key(distances[want - 1]) + 2 * this.drift;
      if (count >= n || key(distances[keys.length - 1]) > cut) {
        const near: number[] = [];
        for (let j = 0; j < keys.length; j++) if (key(distances[j]) <= cut) near.push(Number(keys[j]));
        return near.sort((a, b) => a - b);
      }
    }
  }
}
