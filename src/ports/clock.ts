/** Time source; tests and evaluations pass their own. */
export interface Clock {
  now(): Date;
}
export const systemClock: Clock = { now: () => new Date() };
