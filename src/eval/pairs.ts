import { readFileSync } from 'node:fs';
import type { MemoryDeps } from '../memory/deps.js';
import { remember } from '../memory/remember.js';
import type { MemoryType } from '../core/types.js';
import { Wall } from './wall.js';

export interface PairSide { text: string; type: MemoryType; entities?: string[]; themes?: string[] }
export interface Pair { id: string; old: PairSide; new: PairSide; label: 'same' | 'different' | 'corrects' }
export type Predicted = 'same' | 'different' | 'corrects';

export interface PairOutcome {
  id: string;
  label: Pair['label'];
  predicted: Predicted;
  outcome: string;
  tier: string | null;
  score: number | null;
  rule: string | null;
  oldStatus: string;
}

export interface PairsReport {
  pairs: number;
  same: { precision: number; recall: number; f1: number; tp: number; fp: number; fn: number };
  corrects: { total: number; merged: number; superseded: number; supersededShare: number };
  confusion: Record<string, Record<Predicted, number>>;
  outcomes: PairOutcome[];
}

export function readPairs(path: string): Pair[] {
  return readFileSync(path, 'utf8').split('\n').filter((l) => l.trim()).map((l, i) => {
    try {
      return JSON.parse(l) as Pair;
    } catch (e) {
      throw new Error(`${path}:${i + 1}: not JSON (${String(e)})`);
    }
  });
}

/** Runs one pair through the real remember path in a fresh sealed space. */
export async function runPair(deps: MemoryDeps, p: Pair): Promise<PairOutcome> {
  const wall = await Wall.open(deps, `pair:${p.id}`);
  try {
    const t0 = new Date('2026-01-05T10:00:00Z');
    const c1 = await wall.say('old', 'USER', p.old.text, t0);
    const first = await remember(deps, wall.assistant, {
      conversationId: c1.id, quote: p.old.text, type: p.old.type, entities: p.old.entities, themes: p.old.themes,
    });
    const c2 = await wall.say('new', 'USER', p.new.text, new Date(t0.getTime() + 7 * 86_400_000));
    const second = await remember(deps, wall.assistant, {
      conversationId: c2.id, quote: p.new.text, type: p.new.type, entities: p.new.entities, themes: p.new.themes,
    });
    const [old] = await deps.store.getMemories([first.memory.id], wall.spaceId);
    const predicted: Predicted =
      second.outcome === 'REINFORCED' ? 'same' : second.outcome === 'CORRECTED' ? 'corrects' : 'different';
    return {
      id: p.id, label: p.label, predicted, outcome: second.outcome,
      tier: second.outcome === 'REINFORCED' ? second.tier : null,
      score: second.outcome === 'CREATED' ? null : second.score,
      rule: second.outcome === 'CORRECTED' ? second.rule : null,
      oldStatus: old?.status ?? 'GONE',
    };
  } finally {
    await wall.drop();
  }
}

export async function evalPairs(deps: MemoryDeps, pairs: Pair[]): Promise<PairsReport> {
  const outcomes: PairOutcome[] = [];
  for (const p of pairs) outcomes.push(await runPair(deps, p));
  const labels = ['same', 'different', 'corrects'] as const;
  const confusion = Object.fromEntries(labels.map((l) => [l, { same: 0, different: 0, corrects: 0 }])) as PairsReport['confusion'];
  for (const o of outcomes) confusion[o.label][o.predicted]++;
  const tp = confusion.same.same;
  const fp = confusion.different.same + confusion.corrects.same;
  const fn = confusion.same.different + confusion.same.corrects;
  const precision = tp + fp ? tp / (tp + fp) : 1;
  const recall = tp + fn ? tp / (tp + fn) : 1;
  const corr = outcomes.filter((o) => o.label === 'corrects');
  const superseded = corr.filter((o) => o.outcome === 'CORRECTED' && o.oldStatus === 'SUPERSEDED').length;
  return {
    pairs: outcomes.length,
    same: { precision, recall, f1: precision + recall ? (2 * precision * recall) / (precision + recall) : 0, tp, fp, fn },
    corrects: { total: corr.length, merged: corr.filter((o) => o.predicted === 'same').length, superseded, supersededShare: corr.length ? superseded / corr.length : 1 },
    confusion, outcomes,
  };
}

export function formatPairs(r: PairsReport): string {
  const f = (x: number) => x.toFixed(3);
  const lines = [
    `pairs: ${r.pairs}`,
    `same: precision ${f(r.same.precision)}, recall ${f(r.same.recall)}, F1 ${f(r.same.f1)} (tp ${r.same.tp}, fp ${r.same.fp}, fn ${r.same.fn})`,
    `corrects: ${r.corrects.superseded}/${r.corrects.total} superseded (${f(r.corrects.supersededShare)}), reinforced (merged): ${r.corrects.merged}`,
    '',
    'confusion (rows: label, columns: outcome)',
    `${'label'.padEnd(10)} ${'same'.padStart(6)} ${'different'.padStart(10)} ${'corrects'.padStart(9)}`,
    ...Object.entries(r.confusion).map(([l, c]) => `${l.padEnd(10)} ${String(c.same).padStart(6)} ${String(c.different).padStart(10)} ${String(c.corrects).padStart(9)}`),
    '',
    'errors:',
    ...r.outcomes.filter((o) => o.label !== o.predicted).map((o) =>
      `  ${o.id} ${o.label} -> ${o.predicted} (${o.outcome}${o.tier ? ' ' + o.tier : ''}${o.rule ? ' ' + o.rule : ''}${o.score != null ? ' ' + o.score.toFixed(3) : ''})`),
  ];
  return lines.join('\n');
}
