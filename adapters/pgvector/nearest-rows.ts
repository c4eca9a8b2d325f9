/** PostgreSQL orders NaN above every number. */
export const key = (x: number) => (x !== x ? Number.POSITIVE_INFINITY : x);

/**
 * Rows read nearest first by pgvector's exact distance (`upTo`): a first pass names the rows that
 * could be among the nearest m (`candidates`: `Ranked` in JavaScript, `NativeRanked` in native
 * code), whose exact distances are computed once each and sorted (stable: ties in row order).
 */
export abstract class NearestRows {
  private order: number[] = [];
  private exactOf = new Map<number, number>();
  /**
   * `ids`: row j's id; `exact(j)`: pgvector's distance of row j; `stale`: whether a slot changed
   * since the ranking (its rows are then read again: `searchMirror`).
   */
  constructor(protected readonly ids: string[], private readonly exact: (j: number) => number, readonly stale: () => boolean) {}

  /** Whether the rows are a full first-pass window (rows past it may be nearer than its last). */
  abstract readonly windowFull: boolean;

  /** The rows, in row order, that could be among the exact nearest `want` (every one of those, at least). */
  protected abstract candidates(want: number): number[];

  get size(): number {
    return this.ids.length;
  }

  /** The nearest m rows (all when fewer), nearest first: ids and exact distances. */
  upTo(m: number): { ids: string[]; d: number[] } {
    const want = Math.min(m, this.ids.length);
    if (this.order.length < want) this.order = this.candidates(want).sort((a, b) => key(this.d(a)) - key(this.d(b))).slice(0, want);
    const take = this.order.slice(0, want);
    // Each row's exact distance (a sort of one row never asked for it).
    return { ids: take.map((j) => this.ids[j]), d: take.map((j) => this.d(j)) };
  }

  /**
   * How many rows, nearest first, score at least `minScore` (1 − distance; a NaN distance is never
   * below it): those before the first row that scores below it, or all. Here: the exact first
   * `first` rows, then 4 times as many each time, until one scores below.
   */
  reaching(minScore: number, first: number): number {
    for (let m = first; ; m *= 4) {
      const { d } = this.upTo(m);
      const below = d.findIndex((x) => 1 - x < minScore);
      if (below >= 0 || d.length === this.size) return below >= 0 ? below : d.length;
    }
  }

  protected d(j: number): number {
    let x = this.exactOf.get(j);
    if (x === undefined) this.exactOf.set(j, (x = this.exact(j)));
    return x;
  }
}
