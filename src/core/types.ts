/** Domain vocabulary shared by every layer. Pure: no I/O, no project imports. */

export const MEMORY_TYPES = [
  'FACT', 'PREFERENCE', 'INSTRUCTION', 'EVENT', 'TASK', 'REMINDER', 'APPOINTMENT', 'MEMO',
] as const;
export type MemoryType = (typeof MEMORY_TYPES)[number];

/** ACTIVE is the only status that is recognised, reinforced or recalled as current. */
export const MEMORY_STATUSES = [
  'ACTIVE', 'MUTED', 'RETRACTED', 'SUPERSEDED', 'ERRONEOUS', 'MERGED',
] as const;
export type MemoryStatus = (typeof MEMORY_STATUSES)[number];

/** A STATEMENT holds the person's own words; an INFERENCE is the assistant's conclusion, kept apart. */
export const MEMORY_KINDS = ['STATEMENT', 'INFERENCE'] as const;
export type MemoryKind = (typeof MEMORY_KINDS)[number];

/** How a new memory was recognised as an existing one. */
export const TIERS = ['EXACT', 'CLOSE', 'RELATED'] as const;
export type Tier = (typeof TIERS)[number];

export type Metric = 'cosine' | 'l2';
