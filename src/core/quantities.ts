/**
 * A quantity's parts as the value rules compare them (src/core/values.ts): its count ("5k" is 5000), its unit, each
 * spelling to one ("kilos" and "kg"), and a length of time in its smallest unit ("two years" is "24 months"). Pure.
 */

/** Lengths of time in a smaller unit: "two years" is "24 months", "a fortnight" "14 days", "an hour" "60 minutes". */
const SMALLER: Record<string, [string, number]> = { year: ['month', 12], week: ['day', 7], hour: ['minute', 60], minute: ['second', 60] };
/** The units of time `SMALLER` reaches: a unit it names, or one it comes down to. */
const TIME_UNITS = new Set([...Object.keys(SMALLER), ...Object.values(SMALLER).map(([u]) => u)]);
/** A quantity that is a length of time, as a count of the smallest unit it comes to ("2|year" -> "24 month", "1|hour" -> "3600 second"), or null. */
export function lengthOfTime(norm: string): string | null {
  const unit = unitOf(norm);
  if (unit === null) return null;
  let [u, v] = [unit, Number(count(norm))];
  if (!Number.isFinite(v) || !TIME_UNITS.has(u)) return null;
  while (u in SMALLER) [u, v] = [SMALLER[u]![0], v * SMALLER[u]![1]];
  return `${v} ${u}`;
}

/** A quantity's count as compared: "5k" = "5000" (without its unit: "80|kg" -> "80"). */
export const count = (norm: string) => norm.split('|')[0]!.replace(/k$/, '000');
/** A quantity's unit as compared ("80|kg" -> "kg"), or null when none was said or it could be read two ways. */
export const unitOf = (norm: string): string | null => norm.split('|')[1] ?? null;

/**
 * The units a measure is said in, each spelling to one: "80 kg" and "80 kilos" are one weight,
 * "80 kg" and "80 lb" two ("I weigh 80 kg." / "I weigh 80 lb." is a correction, not a restatement).
 * Money and the units read two ways ("pounds", "k", "in", "st" as a street) name none.
 */
const MEASURES: Array<[string, RegExp]> = [
  ['kg', /^(?:kgs?|kilos?|kilograms?)$/], ['lb', /^lbs?$/], ['stone', /^stone$/], ['g', /^(?:g|grams?)$/], ['oz', /^(?:oz|ounces?)$/],
  ['km', /^(?:kms?|kilomet(?:er|re)s?)$/], ['mile', /^miles?$/], ['m', /^(?:m|met(?:er|re)s?)$/], ['cm', /^cm$/], ['mm', /^mm$/],
  ['ft', /^(?:ft|feet|foot)$/], ['inch', /^inches$/], ['l', /^(?:litres?|liters?)$/], ['ml', /^ml$/], ['%', /^(?:%|percent)$/],
  ['second', /^(?:seconds?|secs?)$/], ['minute', /^(?:minutes?|mins?)$/], ['hour', /^(?:hours?|hrs?)$/], ['day', /^days?$/], ['week', /^weeks?$/], ['month', /^months?$/], ['year', /^years?$/],
];
export function withUnit(n: string, unit: string): string {
  const u = MEASURES.find(([, re]) => re.test(unit))?.[0];
  return u ? `${n}|${u}` : n;
}
