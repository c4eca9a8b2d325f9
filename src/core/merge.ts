/**
 * Merge rules for reinforcement: importance = max, tags / entities / themes =
 * union (first spelling kept), last-mentioned = most recent, valence = from the
 * newer statement, recall count untouched.
 */
export interface Mergeable {
  importance: number | null;
  valence: number | null;
  entities: string[];
  themes: string[];
  tags: string[];
  lastMentionedAt: Date;
}

export function union(a: string[], b: string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const x of [...a, ...b]) {
    const k = x.trim().toLowerCase();
    if (!k || seen.has(k)) continue;
    seen.add(k);
    out.push(x.trim());
  }
  return out;
}

export function mergeInto(old: Mergeable, incoming: Mergeable): Mergeable {
  const newer = incoming.lastMentionedAt.getTime() >= old.lastMentionedAt.getTime();
  return {
    importance:
      old.importance == null ? incoming.importance : incoming.importance == null ? old.importance : Math.max(old.importance, incoming.importance),
    valence: newer ? (incoming.valence ?? old.valence) : (old.valence ?? incoming.valence),
    entities: union(old.entities, incoming.entities),
    themes: union(old.themes, incoming.themes),
    tags: union(old.tags, incoming.tags),
    lastMentionedAt: newer ? incoming.lastMentionedAt : old.lastMentionedAt,
  };
}
