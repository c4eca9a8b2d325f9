/** Dates as a person reads them, in the browser's locale and zone. */
export function when(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  return d.toLocaleString(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
}

export function lower(s: string): string {
  return s.charAt(0) + s.slice(1).toLowerCase();
}

export const TYPES = ['FACT', 'PREFERENCE', 'INSTRUCTION', 'MEMO', 'APPOINTMENT', 'REMINDER', 'TASK', 'EVENT'] as const;
export const STATUSES = ['ACTIVE', 'MUTED', 'SUPERSEDED', 'ERRONEOUS', 'MERGED', 'RETRACTED'] as const;
export type MemoryType = (typeof TYPES)[number];
export type MemoryStatus = (typeof STATUSES)[number];
