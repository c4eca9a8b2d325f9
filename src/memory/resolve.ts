import { isTimedType } from '../core/cleanup-selection.js';
import type { MemoryRecord, Resolution, Space } from '../ports/memory-store.js';
import { actorLabel, type Actor, type MemoryDeps } from './deps.js';
import { InvalidInputError, InvalidStateError, NotFoundError } from './errors.js';
import { canonicalTimeZone } from './spaces.js';

/**
 * Resolves an item with a time (APPOINTMENT, REMINDER, TASK, EVENT): DONE or
 * CANCELLED at `at` (now by default), or reopens it (`resolution` null). A
 * resolved item is "past or resolved" for the cleanup sweep.
 */
export async function resolveMemory(
  deps: MemoryDeps, actor: Actor, spaceId: string, memoryId: string, resolution: Resolution | null, at?: Date | null,
): Promise<MemoryRecord> {
  const when = resolution ? (at ?? deps.clock.now()) : null;
  const events = await deps.store.withSpaceLock(spaceId, async (tx) => {
    const [m] = await deps.store.getMemories([memoryId], spaceId, tx);
    if (!m) throw new NotFoundError('Memory', memoryId);
    if (!isTimedType(m.type)) throw new InvalidStateError(`a ${m.type} has no resolution: only appointments, reminders, tasks and events do`);
    if (!resolution && !m.resolution) throw new InvalidStateError(`memory ${memoryId} is not resolved`);
    await deps.store.setResolution(tx, spaceId, memoryId, resolution, when);
    return deps.store.addEvents(tx, [{
      spaceId, memoryId, kind: resolution ? 'RESOLVED' : 'REOPENED', actor: actorLabel(actor), tier: null, score: null,
      rule: resolution, relatedId: null, detail: resolution ? { resolution, at: when!.toISOString() } : null,
    }]);
  });
  deps.bus.publish(events);
  deps.log.info({ spaceId, memoryId, resolution }, resolution ? 'memory resolved' : 'memory reopened');
  const [m] = await deps.store.getMemories([memoryId], spaceId);
  return m!;
}

/** Sets the time zone a space's all-day items are read in. */
export async function setSpaceTimeZone(deps: MemoryDeps, spaceId: string, asked: string): Promise<Space> {
  const timeZone = canonicalTimeZone(asked);
  if (!timeZone) throw new InvalidInputError('timeZone', `unknown time zone ${asked}`);
  const [space] = await deps.store.getSpaces([spaceId]);
  if (!space) throw new NotFoundError('Space', spaceId);
  await deps.store.setSpaceTimeZone(spaceId, timeZone);
  deps.log.info({ spaceId, timeZone }, 'space time zone set');
  return { ...space, timeZone };
}
