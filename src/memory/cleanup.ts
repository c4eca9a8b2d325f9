import { selectForCleanup, type CleanupScope } from '../core/cleanup-selection.js';
import { MEMORY_TYPES, type MemoryType } from '../core/types.js';
import { actorLabel, type Actor, type MemoryDeps } from './deps.js';
import { ConfirmationRequiredError, InvalidInputError, NotFoundError } from './errors.js';
import { eraseEverywhere, removeForGood } from './statuses.js';

export interface CleanUpInput {
  categories: readonly MemoryType[];
  scope: CleanupScope;
  confirm: boolean;
  dryRun: boolean;
}

export interface CleanUpResult {
  dryRun: boolean;
  /** Memories deleted (or, for a dry run, that the real run would delete). */
  total: number;
  /** Per type, in the order of MEMORY_TYPES; types with nothing to delete are left out. */
  counts: { type: MemoryType; count: number }[];
}

/**
 * The cleanup sweep: deletes for good every memory of `categories` that `scope`
 * selects (docs/cleanup.md), in one transaction with a constant number of
 * statements whatever the count. A dry run selects exactly the same way under the
 * same lock and deletes nothing.
 */
export async function cleanUp(deps: MemoryDeps, actor: Actor, spaceId: string, input: CleanUpInput): Promise<CleanUpResult> {
  if (input.categories.length === 0) throw new InvalidInputError('categories', 'name at least one memory type');
  if (!input.dryRun && !input.confirm) throw new ConfirmationRequiredError('cleanUp');
  const [space] = await deps.store.getSpaces([spaceId]);
  if (!space) throw new NotFoundError('Space', spaceId);
  const now = deps.clock.now();

  const { selection, events } = await deps.store.withSpaceLock(spaceId, async (tx) => {
    const items = await deps.store.sweepItems(tx, spaceId);
    const selection = selectForCleanup(items, input.categories, input.scope, now, space.timeZone);
    if (input.dryRun || selection.ids.length === 0) return { selection, events: [] };
    const typeOf = new Map(items.map((i) => [i.id, i.type]));
    const gone = await removeForGood(deps, tx, spaceId, selection.ids);
    const events = await deps.store.addEvents(tx, gone.map((id) => ({
      spaceId, memoryId: id, kind: 'CLEANED', actor: actorLabel(actor), tier: null, score: null, rule: input.scope,
      relatedId: null, detail: { type: typeOf.get(id) ?? null },
    })));
    return { selection, events };
  });

  if (!input.dryRun) {
    deps.bus.publish(events);
    if (events.length) await eraseEverywhere(deps);
  }
  deps.log.info(
    { spaceId, categories: input.categories, scope: input.scope, dryRun: input.dryRun, total: selection.ids.length },
    input.dryRun ? 'cleanup dry run' : 'cleanup sweep',
  );
  const counts = MEMORY_TYPES.filter((t) => selection.counts[t]).map((t) => ({ type: t, count: selection.counts[t]! }));
  return { dryRun: input.dryRun, total: selection.ids.length, counts };
}
