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

/** Each unit of a measure in its measure's unit: lengths in metres, weights in kilograms, volumes in litres. */
const IN_BASE: Record<string, [string, number]> = {
  km: ['length', 1000], m: ['length', 1], cm: ['length', 0.01], mm: ['length', 0.001], mile: ['length', 1609.344], ft: ['length', 0.3048], inch: ['length', 0.0254],
  kg: ['weight', 1], g: ['weight', 0.001], lb: ['weight', 0.45359237], oz: ['weight', 0.028349523125], stone: ['weight', 6.35029318],
  l: ['volume', 1], ml: ['volume', 0.001],
  mg: ['weight', 1e-6], mcg: ['weight', 1e-9],
};

/**
 * A measure's kind, its count in that kind's unit, and half its count's last digit in that unit ("26.5|lb" -> weight,
 * 12.02, 0.05 lb): or null (no unit, or a unit of time).
 */
function inBase(norm: string): { kind: string; value: number; half: number } | null {
  const unit = unitOf(norm);
  const base = unit ? IN_BASE[unit] : undefined;
  if (!base) return null;
  const n = count(norm);
  const value = Number(n) * base[1];
  return Number.isFinite(value) && value > 0 ? { kind: base[0], value, half: 0.5 * 10 ** -(n.split('.')[1]?.length ?? 0) * base[1] } : null;
}

/** How far apart one measure said two ways may be: within 3 % (and within rounding, `sameMeasure`). */
const NEAR = 1.03;

/**
 * One measure said in two units, as a conversion gives it ("1.82 metres" / "182 cm", "12 kg" / "roughly 26.5 lbs",
 * "6 ft" / "183 cm"): the less precise count, put in the other's unit, rounds to the other as written (to its last
 * digit), and the two are within 3 %. "80 kg" / "12 stone" are two weights (76.2 kg), as are "1.8 m" / "178 cm" and
 * "5 km" / "3 miles" (4.8 km: a round count in miles is no conversion of it).
 */
export function sameMeasure(a: string, b: string): boolean {
  const [ma, mb] = [inBase(a), inBase(b)];
  if (!ma || !mb || ma.kind !== mb.kind) return false;
  const apart = Math.abs(ma.value - mb.value);
  return apart < Math.min(ma.half, mb.half) * (1 - 1e-9) && Math.max(ma.value, mb.value) <= NEAR * Math.min(ma.value, mb.value);
}

/** Keys that two measures `sameMeasure` reads as one share (one of them at least): their kind and size, in steps of 3 %. */
export function measureKeys(norm: string): string[] {
  const m = inBase(norm);
  if (!m) return [];
  const step = Math.floor(Math.log(m.value) / Math.log(NEAR));
  return [step - 1, step, step + 1].map((x) => `m${m.kind}${x}`);
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
  ['ft', /^(?:ft|feet|foot)$/], ['inch', /^inches$/], ['l', /^(?:litres?|liters?)$/], ['ml', /^(?:ml|millilit(?:er|re)s?)$/], ['mg', /^(?:mg|milligrams?)$/], ['mcg', /^(?:mcg|micrograms?)$/], ['%', /^(?:%|percent)$/],
  ['second', /^(?:seconds?|secs?)$/], ['minute', /^(?:minutes?|mins?)$/], ['hour', /^(?:hours?|hrs?)$/], ['day', /^days?$/], ['week', /^(?:weeks?|wks?)$/], ['month', /^months?$/], ['year', /^(?:years?|yrs?)$/],
];
export function withUnit(n: string, unit: string): string {
  const u = MEASURES.find(([, re]) => re.test(unit))?.[0];
  return u ? `${n}|${u}` : n;
}
