/**
 * How often, as a value (src/core/values.ts): "weekly", "every week", "once a week" = 1/week; "twice a day",
 * "twice daily" = 2/day; "one coffee a day" = 1/day, as "once a day" is. Read at a token; the value's norm and
 * its last token.
 */
import { FREQUENCY_WORDS, PERIODS, TIMES } from './value-words.js';
import type { Tok } from './value-tokens.js';

/** "a", "per", "every": a period's word follows. */
const PER = /^(?:a|an|per|every|each)$/;

export function howOften(ts: readonly Tok[], i: number): { to: number; norm: string } | null {
  const [t, next, next2] = [ts[i]!, ts[i + 1], ts[i + 2]];
  const times = TIMES[t.lower];
  // ("twice daily", "thrice weekly": how many times in the period the next word gives)
  if (times !== undefined && next && FREQUENCY_WORDS[next.lower]) return { to: i + 1, norm: `${times}/${FREQUENCY_WORDS[next.lower]}` };
  if (FREQUENCY_WORDS[t.lower]) return { to: i, norm: `1/${FREQUENCY_WORDS[t.lower]}` };
  if ((t.lower === 'every' || t.lower === 'each') && next && PERIODS[next.lower]) return { to: i + 1, norm: `1/${PERIODS[next.lower]}` };
  if (times !== undefined && next && PER.test(next.lower)) {
    const period = next2 ? PERIODS[next2.lower] : undefined;
    return period ? { to: i + 2, norm: `${times}/${period}` } : { to: i, norm: String(times) };
  }
  // ("one" of a thing in a period: "down to one coffee a day")
  const period = t.lower === 'one' && next2 && PER.test(next2.lower) ? PERIODS[ts[i + 3]?.lower ?? ''] : undefined;
  return period ? { to: i + 3, norm: `1/${period}` } : null;
}
