/**
 * A word table keyed by what a person typed: no prototype, so a typed word that names one of
 * Object's own members ("constructor", "toString", "__proto__") is no entry (a plain object gave
 * `Object` itself for "constructor", and the rules threw on it). Frozen: the rules only read it.
 */
export function table<T>(entries: Record<string, T>): Readonly<Record<string, T>> {
  return Object.freeze(Object.assign(Object.create(null) as Record<string, T>, entries));
}
