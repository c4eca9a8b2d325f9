import { randomUUID } from 'node:crypto';
import { showsNothing, trimInvisible } from '../core/normalize.js';
import type { Space } from '../ports/memory-store.js';
import type { MemoryDeps } from './deps.js';
import { eraseEverywhere } from './statuses.js';
import { ConfirmationRequiredError, InvalidInputError, InvalidStateError, NotFoundError } from './errors.js';

/**
 * An IANA time zone as kept: its canonical name as the runtime's time zone data spells it
 * ("EUROPE/paris" is "Europe/Paris", a retired alias its zone), or null for a name it does not know.
 */
export function canonicalTimeZone(tz: string): string | null {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: tz }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/** A memory space. A sealed space (evaluations, test harnesses) can be dropped as a whole. */
export async function createSpace(
  deps: MemoryDeps, input: { name: string; sealed?: boolean; timeZone?: string | null },
): Promise<Space> {
  const name = trimInvisible(input.name);
  if (showsNothing(name)) throw new InvalidInputError('name', 'a space needs a name (whitespace and invisible characters alone name nothing)');
  const timeZone = canonicalTimeZone(input.timeZone ?? 'UTC');
  if (!timeZone) throw new InvalidInputError('timeZone', `unknown time zone ${input.timeZone}`);
  return deps.store.createSpace({ id: randomUUID(), name, sealed: input.sealed ?? false, timeZone });
}

/**
 * Drops a sealed space and everything in it; a person's space can never be dropped this way. Its
 * live subscriptions end once the drop commits (docs/live-updates.md): in process here, or, on a
 * server, on every instance through the database's announcement (the bus leaves it to that).
 */
export async function dropSealedSpace(deps: MemoryDeps, spaceId: string, confirm: boolean): Promise<void> {
  const [space] = await deps.store.getSpaces([spaceId]);
  if (!space) throw new NotFoundError('Space', spaceId);
  if (!space.sealed) throw new InvalidStateError('only a sealed space can be dropped as a whole');
  if (!confirm) throw new ConfirmationRequiredError('dropping a sealed space');
  await deps.store.transaction(async (tx) => {
    await deps.store.dropSpace(spaceId, tx);
    if (deps.index.capabilities.transactional) await deps.index.removeSpace(spaceId, tx);
    // After dropSpace (which clears the space's outbox rows): the engine forgets the space when it can.
    else await deps.outbox!.enqueue(tx, [{ memoryId: spaceId, op: 'remove_space' }]);
  });
  deps.bus.spaceDropped?.(spaceId);
  await eraseEverywhere(deps);
}
