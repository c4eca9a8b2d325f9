import type { Engram } from '../container.js';
import type { OutboxStatus } from '../ports/outbox.js';

/** What `engram outbox status|retry` prints, and its exit code. */
export interface OutboxCommandResult {
  code: number;
  output: string;
}

function describe(s: OutboxStatus): string {
  const lines = [`outbox of ${s.engine}: ${s.pending} pending, ${s.parked} parked (parked after ${s.maxAttempts} refused attempts)`];
  for (const r of s.parkedRows) {
    lines.push(`  #${r.id} ${r.op} ${r.memoryId} attempts=${r.attempts} since ${r.createdAt.toISOString()}: ${r.lastError ?? ''}`);
  }
  if (s.parked > s.parkedRows.length) lines.push(`  … and ${s.parked - s.parkedRows.length} more`);
  if (s.parked > 0) lines.push('recall still finds these memories (exact scan of PostgreSQL); `engram outbox retry` puts them back in line');
  return lines.join('\n') + '\n';
}

/**
 * `engram outbox status`: rows waiting and rows parked (dead-lettered) for the
 * configured engine, exit code 2 when any row is parked (for monitoring).
 * `engram outbox retry`: puts parked rows back in line and drains once; exit
 * code 1 when some are still parked afterwards.
 */
export async function outboxCommand(engram: Engram, sub: string | undefined, opts: { json?: boolean; limit?: number } = {}): Promise<OutboxCommandResult> {
  const outbox = engram.deps.outbox;
  if (!outbox) {
    const msg = `engine ${engram.deps.index.name} has no outbox: its writes join the memory's transaction`;
    return { code: 0, output: opts.json ? JSON.stringify({ engine: engram.deps.index.name, outbox: false }) + '\n' : msg + '\n' };
  }
  if (sub === 'status') {
    const s = await outbox.status(opts.limit ?? 20);
    return { code: s.parked > 0 ? 2 : 0, output: opts.json ? JSON.stringify(s) + '\n' : describe(s) };
  }
  if (sub === 'retry') {
    const requeued = await outbox.retryParked();
    let drainError: string | null = null;
    let drained = 0;
    try {
      drained = await outbox.drain();
    } catch (e) {
      drainError = e instanceof Error ? e.message : String(e);
    }
    const s = await outbox.status(opts.limit ?? 20);
    const code = s.parked > 0 || drainError ? 1 : 0;
    if (opts.json) return { code, output: JSON.stringify({ requeued, drained, drainError, ...s }) + '\n' };
    const head = `${requeued} parked rows put back in line; ${drained} rows applied${drainError ? `; the engine still fails: ${drainError}` : ''}\n`;
    return { code, output: head + describe(s) };
  }
  return { code: 1, output: 'usage: engram outbox status|retry [--json]\n' };
}
