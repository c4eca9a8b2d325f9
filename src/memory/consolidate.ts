import { isTimedType } from '../core/cleanup-selection.js';
import { timeWindow } from '../core/occasions.js';
import { clusterSteps, type ClusterItem, type ClusterLink, type Neighbour } from '../core/consolidation.js';
import { dot, normalize } from '../core/vectors.js';
import type { MemoryEvent, MemoryRecord, Tx } from '../ports/memory-store.js';
import { actorLabel, systemActor, type Actor, type MemoryDeps } from './deps.js';
import { InvalidStateError, NotFoundError } from './errors.js';
import { indexStatus, searchVectors } from './indexing.js';
import { rebuildLexicon } from './lexicon-rebuild.js';
import { turns } from './turns.js';

/** A group of active memories recognition would now merge; the reference is the one kept. */
export interface DuplicateCluster {
  reference: MemoryRecord;
  /** The reference first, then the others oldest first. */
  members: MemoryRecord[];
  links: ClusterLink[];
}

export interface ConsolidationResult {
  dryRun: boolean;
  clusters: DuplicateCluster[];
  /** Memories marked MERGED (0 for a dry run). */
  merged: number;
}

/** Up to this many active statements, neighbours are computed here exactly; above, through the vector index. */
const BRUTE_FORCE_MAX = 1500;

function toItem(m: MemoryRecord): ClusterItem {
  return {
    id: m.id, text: m.quote, normalized: m.normalized, type: m.type, entities: m.entities, themes: m.themes,
    messageId: m.messageId, mentionCount: m.mentionCount, saidAt: m.saidAt, seq: m.seq, window: timeWindow(m),
  };
}

/**
 * Each memory's nearest active statements: computed here exactly up to `bruteForceMax` of them;
 * above, through `searchVectors`, as recognition and recall search (an outside engine's rows not
 * applied yet or parked are read from the outbox, an unreachable engine falls back to the exact
 * scan, a hit without a finite score is dropped): a memory the engine does not hold yet is
 * still some other memory's neighbour.
 */
export async function neighboursOf(
  deps: MemoryDeps, tx: Tx | undefined, spaceId: string, items: MemoryRecord[], bruteForceMax = BRUTE_FORCE_MAX,
): Promise<Map<string, Neighbour[]>> {
  const k = deps.candidateK;
  // (in slices: 1,500 memories are 1.1 million pairs; 2,000 searches of an in-process copy never yield)
  const turn = turns();
  const vectors = await deps.store.getVectors(items.map((m) => m.id), tx);
  const out = new Map<string, Neighbour[]>();
  const withVec = items.filter((m) => vectors.has(m.id));
  if (withVec.length <= bruteForceMax) {
    const unit = withVec.map((m) => normalize(vectors.get(m.id)!));
    const lists: Neighbour[][] = withVec.map(() => []);
    for (let i = 0; i < withVec.length; i++) {
      await turn();
      for (let j = i + 1; j < withVec.length; j++) {
        const s = dot(unit[i], unit[j]);
        if (!Number.isFinite(s)) continue;
        lists[i].push({ id: withVec[j].id, score: s });
        lists[j].push({ id: withVec[i].id, score: s });
      }
    }
    withVec.forEach((m, i) => out.set(m.id, lists[i].sort((a, b) => b.score - a.score).slice(0, k)));
    return out;
  }
  for (const m of withVec) {
    await turn();
    const search = { spaceId, vector: vectors.get(m.id)!, k: k + 1, statuses: ['ACTIVE' as const], kind: 'STATEMENT' as const, exact: true };
    const hits = await searchVectors(deps, search, tx);
    out.set(m.id, hits.filter((h) => h.memoryId !== m.id).slice(0, k).map((h) => ({ id: h.memoryId, score: h.score })));
  }
  return out;
}

async function clustersIn(deps: MemoryDeps, tx: Tx | undefined, spaceId: string): Promise<DuplicateCluster[]> {
  const records = await deps.store.activeStatements(tx, spaceId);
  const byId = new Map(records.map((m) => [m.id, m]));
  const neighbours = await neighboursOf(deps, tx, spaceId, records);
  const items = records.map(toItem);
  // Timed memories' windows are read in the space's time zone (an all-day window is a local date): read only when one has a window.
  const timeZone = items.some((m) => m.window && isTimedType(m.type)) ? (await deps.store.getSpaces([spaceId]))[0]?.timeZone : undefined;
  const steps = clusterSteps(items, neighbours, deps.thresholds, timeZone ?? 'UTC');
  const turn = turns();
  let r = steps.next();
  for (; !r.done; r = steps.next()) await turn();
  return r.value.map((c) => ({
    reference: byId.get(c.referenceId)!,
    members: c.memberIds.map((id) => byId.get(id)!),
    links: c.links,
  }));
}

/**
 * Groups of active statements that recognition, with today's rules and thresholds, would merge.
 * Read without a transaction: on the embedded store a transaction holds its only connection,
 * and every other request's statements waited seconds for the neighbours of a large space.
 */
export async function duplicateClusters(deps: MemoryDeps, spaceId: string): Promise<DuplicateCluster[]> {
  return clustersIn(deps, undefined, spaceId);
}

/** Tries to merge the clusters found before the space's lock this many times before finding them under it. */
const OPTIMISTIC_TRIES = 3;

/**
 * The clusters found before the space's lock, as remember recognises (docs/concurrency.md), then
 * merged under it if nothing was written in the space meanwhile: the space's last event id, read
 * before and again under the lock, says so (every writer records events under the lock). Written
 * meanwhile, they are found again, before the lock, up to OPTIMISTIC_TRIES times; only then under
 * it. The lock (on the embedded store a transaction holding its only connection) is held for the
 * merges, not for the neighbours of every memory: with writers busy in the space, finding them
 * under it at once held every other space's statements for 3-4 s (found by a probe). Nothing
 * found, nothing is locked.
 */
async function mergeFound(deps: MemoryDeps, actor: Actor, spaceId: string): Promise<{ clusters: DuplicateCluster[]; merged: number; events: MemoryEvent[] }> {
  for (let i = 0; i < OPTIMISTIC_TRIES; i++) {
    const seen = await deps.store.lastEventId(spaceId);
    const early = await clustersIn(deps, undefined, spaceId);
    if (early.length === 0) return { clusters: early, merged: 0, events: [] };
    const done = await deps.store.withSpaceLock(spaceId, async (tx) => (
      (await deps.store.lastEventId(spaceId, tx)) !== seen ? null : mergeClusters(deps, tx, actor, spaceId, early)));
    if (done) return done;
  }
  return deps.store.withSpaceLock(spaceId, async (tx) => mergeClusters(deps, tx, actor, spaceId, await clustersIn(deps, tx, spaceId)));
}

/** Under the space's lock: each cluster's members MERGED into its reference, with their events. */
async function mergeClusters(
  deps: MemoryDeps, tx: Tx, actor: Actor, spaceId: string, clusters: DuplicateCluster[],
): Promise<{ clusters: DuplicateCluster[]; merged: number; events: MemoryEvent[] }> {
  if (clusters.length === 0) return { clusters, merged: 0, events: [] };
  const linkOf = (c: DuplicateCluster, id: string) =>
    c.links.find((l) => (l.from === id && l.to === c.reference.id) || (l.to === id && l.from === c.reference.id))
    ?? c.links.find((l) => l.from === id || l.to === id);
  const requests = clusters.flatMap((c) => c.members.slice(1).map((m) => {
    const l = linkOf(c, m.id);
    return { memoryId: m.id, intoId: c.reference.id, tier: l?.tier ?? null, score: l?.score ?? null };
  }));
  const order = new Map(requests.map((r, i) => [r.memoryId, i]));
  const applied = (await deps.store.mergeMemories(tx, spaceId, requests)).sort((x, y) => order.get(x.memoryId)! - order.get(y.memoryId)!);
  await indexStatus(deps, tx, applied.map((a) => a.memoryId), 'MERGED');
  await rebuildLexicon(deps, tx, [...new Set(applied.map((a) => a.intoId))]);
  const events = await deps.store.addEvents(tx, applied.map((a) => ({
    spaceId, memoryId: a.memoryId, kind: 'MERGED', actor: actorLabel(actor), tier: a.tier, score: a.score, rule: 'consolidation',
    relatedId: a.intoId, detail: { added: a.added },
  })));
  return { clusters, merged: applied.length, events };
}

/**
 * Consolidation pass: keeps the most complete memory of each duplicate cluster and
 * marks the others MERGED into it (linked, reversible with `unmerge`), adding their
 * mention counts onto it; its mentions and lexical index then include their wordings.
 */
export async function consolidate(deps: MemoryDeps, actor: Actor, spaceId: string, dryRun: boolean): Promise<ConsolidationResult> {
  const [space] = await deps.store.getSpaces([spaceId]);
  if (!space) throw new NotFoundError('Space', spaceId);
  const { clusters, merged, events } = dryRun ? { clusters: await clustersIn(deps, undefined, spaceId), merged: 0, events: [] } : await mergeFound(deps, actor, spaceId);
  if (!dryRun && merged > 0) {
    deps.outbox?.kick();
    deps.bus.publish(events);
  }
  deps.log.info({ spaceId, dryRun, clusters: clusters.length, merged }, 'consolidation pass');
  if (dryRun || merged === 0) return { dryRun, clusters, merged };
  // Report the members as they are now (statuses, and reference counts including what was merged).
  const ids = clusters.flatMap((c) => c.members.map((m) => m.id));
  const fresh = new Map((await deps.store.getMemories(ids, spaceId)).filter((m): m is MemoryRecord => !!m).map((m) => [m.id, m]));
  const now = (m: MemoryRecord) => fresh.get(m.id) ?? m;
  return { dryRun, merged, clusters: clusters.map((c) => ({ ...c, reference: now(c.reference), members: c.members.map(now) })) };
}

/** Reverses a merge: the memory is ACTIVE again and its mention count is taken back off the reference. */
export async function unmerge(deps: MemoryDeps, actor: Actor, spaceId: string, memoryId: string): Promise<MemoryRecord> {
  const events = await deps.store.withSpaceLock(spaceId, async (tx) => {
    const [m] = await deps.store.getMemories([memoryId], spaceId, tx);
    if (!m) throw new NotFoundError('Memory', memoryId);
    if (m.status !== 'MERGED') throw new InvalidStateError(`memory ${memoryId} is ${m.status}, not MERGED`);
    const undone = await deps.store.unmergeMemory(tx, spaceId, memoryId);
    if (!undone) throw new InvalidStateError(`memory ${memoryId} has no merge to undo`);
    await indexStatus(deps, tx, [memoryId], 'ACTIVE');
    // The reference (and whatever it is merged into in turn) loses this memory's wordings; the
    // memory itself gets back exactly the index the write path gave it.
    const chain = [undone.intoId];
    for (let id: string | null = undone.intoId; chain.length < 100;) {
      const [r]: (MemoryRecord | null)[] = await deps.store.getMemories([id], spaceId, tx);
      id = r?.status === 'MERGED' ? r.mergedInto : null;
      if (!id || chain.includes(id)) break;
      chain.push(id);
    }
    await rebuildLexicon(deps, tx, [...chain, memoryId]);
    return deps.store.addEvents(tx, [{
      spaceId, memoryId, kind: 'UNMERGED', actor: actorLabel(actor), tier: undone.tier, score: undone.score, rule: null,
      relatedId: undone.intoId, detail: { removed: undone.added },
    }]);
  });
  deps.outbox?.kick();
  deps.bus.publish(events);
  deps.log.info({ spaceId, memoryId }, 'memory unmerged');
  const [m] = await deps.store.getMemories([memoryId], spaceId);
  return m!;
}

/**
 * Runs a consolidation pass over every space every `everySeconds` (off when 0).
 * A failing space is logged and skipped; passes never overlap.
 */
export function scheduleConsolidation(deps: MemoryDeps, everySeconds: number): { stop(): void } {
  if (!everySeconds || everySeconds <= 0) return { stop() {} };
  let running = false;
  const timer = setInterval(async () => {
    if (running) return;
    running = true;
    try {
      for (const s of await deps.store.listSpaces()) {
        try {
          await consolidate(deps, systemActor, s.id, false);
        } catch (err) {
          deps.log.error({ err, spaceId: s.id }, 'scheduled consolidation failed');
        }
      }
    } catch (err) {
      deps.log.error({ err }, 'scheduled consolidation failed');
    } finally {
      running = false;
    }
  }, everySeconds * 1000);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
