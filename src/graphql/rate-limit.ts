/**
 * Token buckets (docs/limits.md#rate): each bearer token has its own bucket; requests
 * without a valid token share one bucket per client address, with a lower budget. A
 * request takes one unit; an empty bucket answers 429 with Retry-After, before any
 * parsing or database work.
 */
export interface BucketBudget {
  /** Units a full bucket holds (the burst). */
  burst: number;
  /** Units refilled per second. */
  perSecond: number;
}

interface Bucket { units: number; at: number }

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(private readonly now: () => number = () => performance.now(), private readonly maxKeys = 50_000) {}

  /** Takes one unit from `key`'s bucket: 0 when granted, else the seconds until one is available. */
  take(key: string, budget: BucketBudget): number {
    const now = this.now();
    let b = this.buckets.get(key);
    if (b) {
      b.units = Math.min(budget.burst, b.units + ((now - b.at) / 1000) * budget.perSecond);
      b.at = now;
      // Refresh its place: the map's insertion order is the eviction order.
      this.buckets.delete(key);
    } else {
      b = { units: budget.burst, at: now };
      if (this.buckets.size >= this.maxKeys) this.evict();
    }
    this.buckets.set(key, b);
    if (b.units >= 1) {
      b.units -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - b.units) / budget.perSecond));
  }

  /** Forgets the least recently seen tenth of the keys (their buckets were refilling anyway). */
  private evict(): void {
    let n = Math.ceil(this.maxKeys / 10);
    for (const key of this.buckets.keys()) {
      if (n-- <= 0) break;
      this.buckets.delete(key);
    }
  }
}

/** The budgets `CallerRate` reads (`Limits` in src/config.ts). */
export interface RateLimits { rateBurst: number; ratePerSecond: number; anonBurst: number; anonPerSecond: number }

/**
 * One set of buckets for every way in (docs/limits.md): an HTTP request and an operation
 * started over graphql-ws take from the same token's bucket, so a socket is no way around
 * the limit.
 */
export class CallerRate {
  private readonly limiter: RateLimiter;
  constructor(private readonly limits: RateLimits, now?: () => number) {
    this.limiter = new RateLimiter(now);
  }

  /** Takes one unit for the caller (its token, else its address): 0 when granted, else the seconds to wait. */
  take(actor: { tokenId: string | null } | null, address: string): number {
    const l = this.limits;
    return actor
      ? this.limiter.take(`token:${actor.tokenId}`, { burst: l.rateBurst, perSecond: l.ratePerSecond })
      : this.limiter.take(`anon:${address}`, { burst: l.anonBurst, perSecond: l.anonPerSecond });
  }

  /** The refusal's words, the same on both ways in. */
  static refusal(actor: { tokenId: string | null } | null, wait: number): string {
    return `too many requests${actor ? ' for this token' : ' without a token'}: retry in ${wait} s`;
  }
}
