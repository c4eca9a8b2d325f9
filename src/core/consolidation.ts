/**
 * Consolidation: which active memories recognition would now merge, grouped into
 * clusters, and which member of each cluster is kept as the reference. Pure: the
 * caller supplies the memories and each one's vector neighbours with scores.
 * The rules are recognition's own (`decide`), so a cluster never holds a pair that
 * the write path would have kept apart. See docs/consolidation.md.
 */
import type { MemoryType, Tier } from './types.js';
import { decide, type Candidate, type Thresholds } from './recognition.js';

/** A stored memory as consolidation sees it: a recognition candidate plus what "most complete" needs. */
export interface ClusterItem extends Omit<Candidate, 'score'> {
  mentionCount: number;
  saidAt: Date;
  seq: number;
}

export interface Neighbour {
  id: string;
  score: number;
}

/** One pair recognition would merge, with its tier and score. */
export interface ClusterLink {
  from: string;
  to: string;
  tier: Tier;
  score: number;
}

export interface Cluster {
  referenceId: string;
  /** Every member, the reference first, then the others oldest first. */
  memberIds: string[];
  links: ClusterLink[];
}

const TIER_RANK: Record<Tier, number> = { EXACT: 3, CLOSE: 2, RELATED: 1 };

/**
 * Most complete first: most mentions, then the longest quote, then the most
 * entities and themes, then the oldest.
 */
export function moreComplete(a: ClusterItem, b: ClusterItem): number {
  return (
    b.mentionCount - a.mentionCount ||
    b.text.length - a.text.length ||
    b.entities.length + b.themes.length - (a.entities.length + a.themes.length) ||
    a.saidAt.getTime() - b.saidAt.getTime() ||
    a.seq - b.seq
  );
}

export function chooseReference(members: readonly ClusterItem[]): ClusterItem {
  return [...members].sort(moreComplete)[0];
}

function asCandidate(m: ClusterItem, score: number | null): Candidate {
  return {
    id: m.id, text: m.text, normalized: m.normalized, type: m.type, entities: m.entities, themes: m.themes,
    messageId: m.messageId, score, window: m.window, saidAt: m.saidAt,
  };
}

/**
 * Finds the duplicate clusters among `items`. Each memory is put through `decide`
 * as if it were said now, against its older neighbours (plus every older memory with
 * the same normalised text). A candidate it would correct is never linked, and two groups
 * are never joined when any member of one contradicts any member of the other.
 */
export function findClusters(
  items: readonly ClusterItem[], neighbours: ReadonlyMap<string, readonly Neighbour[]>, t: Thresholds, timeZone = 'UTC',
): Cluster[] {
  const steps = clusterSteps(items, neighbours, t, timeZone);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/**
 * `findClusters` a memory at a time: the generator yields after each memory it put through the
 * rules (300 ms for 2,000 memories, all at once), so a caller may let other work run between
 * (src/memory/consolidate.ts); run to its end it returns the clusters.
 */
export function* clusterSteps(
  items: readonly ClusterItem[], neighbours: ReadonlyMap<string, readonly Neighbour[]>, t: Thresholds, timeZone = 'UTC',
): Generator<void, Cluster[]> {
  const byId = new Map(items.map((m) => [m.id, m]));
  const byNormalized = new Map<string, ClusterItem[]>();
  for (const m of items) {
    const list = byNormalized.get(m.normalized);
    if (list) list.push(m);
    else byNormalized.set(m.normalized, [m]);
  }
  const pairKey = (a: string, b: string) => (a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`);
  const conflicts = new Set<string>();
  const links = new Map<string, ClusterLink>();

  for (const m of items) {
    yield;
    // As on the write path, the newer of two memories is the one "said now": only older ones are its candidates.
    const older = (x: ClusterItem) => x.saidAt.getTime() < m.saidAt.getTime() || (x.saidAt.getTime() === m.saidAt.getTime() && x.seq < m.seq);
    const scores = new Map<string, number>();
    for (const n of neighbours.get(m.id) ?? []) {
      const x = byId.get(n.id);
      if (x && x.id !== m.id && older(x)) scores.set(n.id, n.score);
    }
    for (const x of byNormalized.get(m.normalized) ?? []) if (x.id !== m.id && older(x)) scores.set(x.id, 1);
    let candidates = [...scores].map(([id, s]) => asCandidate(byId.get(id)!, s));
    const incoming = {
      text: m.text, normalized: m.normalized, type: m.type, entities: m.entities, themes: m.themes, previousSentence: null, messageId: m.messageId,
      said: m.window ? { window: m.window, saidAt: m.saidAt, timeZone } : undefined,
    };
    // A correction wins in `decide`; take it out and ask again, so m can still join a true duplicate.
    for (let round = 0; round <= candidates.length && candidates.length; round++) {
      const d = decide(incoming, candidates, t);
      for (const c of d.considered) if (c.relation === 'corrects') conflicts.add(pairKey(m.id, c.id));
      if (d.action === 'correct') {
        conflicts.add(pairKey(m.id, d.targetId));
        candidates = candidates.filter((c) => c.id !== d.targetId);
        continue;
      }
      if (d.action === 'reinforce') {
        const k = pairKey(m.id, d.targetId);
        const prev = links.get(k);
        if (!prev || TIER_RANK[d.tier] > TIER_RANK[prev.tier] || (d.tier === prev.tier && d.score > prev.score)) {
          links.set(k, { from: m.id, to: d.targetId, tier: d.tier, score: d.score });
        }
      }
      break;
    }
  }

  // Union strongest links first, refusing any union that would put a contradicting pair together.
  const ordered = [...links.values()]
    .filter((l) => !conflicts.has(pairKey(l.from, l.to)))
    .sort((a, b) => TIER_RANK[b.tier] - TIER_RANK[a.tier] || b.score - a.score || (a.from < b.from ? -1 : 1));
  const groupOf = new Map<string, Set<string>>();
  for (const m of items) groupOf.set(m.id, new Set([m.id]));
  const kept: ClusterLink[] = [];
  for (const l of ordered) {
    const ga = groupOf.get(l.from)!;
    const gb = groupOf.get(l.to)!;
    if (ga === gb) {
      kept.push(l);
      continue;
    }
    let clash = false;
    for (const a of ga) {
      for (const b of gb) if (conflicts.has(pairKey(a, b))) { clash = true; break; }
      if (clash) break;
    }
    if (clash) continue;
    const [big, small] = ga.size >= gb.size ? [ga, gb] : [gb, ga];
    for (const x of small) {
      big.add(x);
      groupOf.set(x, big);
    }
    kept.push(l);
  }

  const seen = new Set<Set<string>>();
  const clusters: Cluster[] = [];
  for (const m of items) {
    const g = groupOf.get(m.id)!;
    if (g.size < 2 || seen.has(g)) continue;
    seen.add(g);
    const members = [...g].map((id) => byId.get(id)!);
    const ref = chooseReference(members);
    const others = members.filter((x) => x.id !== ref.id).sort((a, b) => a.saidAt.getTime() - b.saidAt.getTime() || a.seq - b.seq);
    clusters.push({
      referenceId: ref.id,
      memberIds: [ref.id, ...others.map((x) => x.id)],
      links: kept.filter((l) => g.has(l.from)),
    });
  }
  return clusters;
}
