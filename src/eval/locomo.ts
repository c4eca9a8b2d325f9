/**
 * `engram eval locomo`: retrieval on LoCoMo conversations (snap-research, CC BY-NC 4.0).
 * Every turn is recorded as the person's words and kept with `remember` in one
 * sealed space per conversation; every question goes through `recall`. A memory
 * keeps every source dia_id (a reinforced turn adds its id to the memory it merged
 * into), so a merge never hides evidence. Measures: recall_any@1/5/10,
 * recall_all@10, MRR (within the first 10), overall and per category.
 */
import { appendFileSync } from 'node:fs';
import { readFileSync } from 'node:fs';
import type { MemoryDeps } from '../memory/deps.js';
import type { Clock } from '../ports/clock.js';
import { remember } from '../memory/remember.js';
import { recall, setRecallTrace, type RecallTraceItem } from '../memory/recall.js';
import { QuoteRefusedError } from '../memory/errors.js';
import { Wall } from './wall.js';

export interface LocomoTurn { speaker: string; dia_id: string; text: string }
export interface LocomoQa { question: string; answer?: unknown; evidence?: string[]; category: number; adversarial_answer?: unknown }
export interface LocomoSample {
  sample_id: string;
  conversation: Record<string, unknown> & { speaker_a?: string; speaker_b?: string };
  qa: LocomoQa[];
}

export const CATEGORY_NAMES: Record<string, string> = {
  '1': 'multi-hop', '2': 'temporal', '3': 'open-domain', '4': 'single-hop', '5': 'adversarial',
};
export const KS = [1, 5, 10] as const;
const FIRST = 10;

export interface Metrics {
  n: number;
  recall_any: Record<'1' | '5' | '10', number>;
  recall_all: Record<'10', number>;
  mrr: number;
}

export interface LocomoReport {
  overall: Metrics;
  /**
   * Diagnostic, not the headline: the same questions when a returned memory is also credited
   * with the turns of the memories it superseded (its correction chain).
   */
  overall_with_chain: Metrics;
  /** Questions whose every evidence turn is held only by memories that are no longer current. */
  evidence_not_current: number;
  categories: Record<string, Metrics & { name: string }>;
  questions: number;
  skippedQuestions: number;
  turns: number;
  outcomes: { created: number; reinforced: number; corrected: number; refused: number; empty: number };
  /** Corrections made during ingest, by the rule that fired. */
  corrected_by_rule: Record<string, number>;
  /** Every correction during ingest: the new turn, the turns of the memory it superseded, the rule. */
  corrections: { conversation: string; turn: string; superseded: string[]; rule: string; text: string; supersededText: string }[];
  ingest_ms: number;
  query_ms: number;
  ingest_ms_per_turn: number;
  query_ms_per_question: number;
  avg_returned: number;
  conversations: { id: string; turns: number; memories: number; questions: number; recall_any_10: number }[];
}

export function readLocomo(path: string): LocomoSample[] {
  const raw = JSON.parse(readFileSync(path, 'utf8')) as unknown;
  const list = Array.isArray(raw) ? raw : [raw];
  for (const s of list) {
    if (!s || typeof s !== 'object' || !('conversation' in s) || !('qa' in s)) throw new Error(`${path}: not a LoCoMo sample list`);
  }
  return list as LocomoSample[];
}

/** Sessions of a conversation in order: `session_N` turn lists with their `session_N_date_time`. */
export function sessionsOf(conv: LocomoSample['conversation']): { key: string; n: number; at: Date | null; turns: LocomoTurn[] }[] {
  return Object.keys(conv)
    .map((k) => /^session_(\d+)$/.exec(k))
    .filter((m): m is RegExpExecArray => !!m && Array.isArray(conv[m[0]]))
    .map((m) => ({
      key: m[0], n: Number(m[1]),
      at: parseSessionDate(String(conv[`${m[0]}_date_time`] ?? '')),
      turns: conv[m[0]] as LocomoTurn[],
    }))
    .sort((a, b) => a.n - b.n);
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** "1:56 pm on 8 May, 2023" -> 2023-05-08T13:56Z; null when the text is not in that form. */
export function parseSessionDate(s: string): Date | null {
  const m = /(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})/i.exec(s);
  if (!m) return null;
  const month = MONTHS.findIndex((x) => x.startsWith(m[5]!.toLowerCase().slice(0, 3)));
  if (month < 0) return null;
  let h = Number(m[1]) % 12;
  if (m[3]!.toLowerCase() === 'pm') h += 12;
  return new Date(Date.UTC(Number(m[6]), month, Number(m[4]), h, Number(m[2])));
}

/**
 * Evidence ids as the data has them ("D1:3", "D:11:26", "D8:6; D9:17", "D30:05"),
 * normalised to "D<session>:<turn>"; ids that name no turn of the conversation are skipped.
 */
export function normalizeEvidence(ids: readonly string[] | undefined, known?: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const raw of ids ?? []) {
    for (const part of String(raw).split(/[;\s]+/)) {
      const m = /D:?(\d+):0*(\d+)/.exec(part);
      if (!m) continue;
      const id = `D${Number(m[1])}:${Number(m[2])}`;
      if (known && !known.has(id)) continue;
      if (!out.includes(id)) out.push(id);
    }
  }
  return out;
}

/** Normalises a turn's own dia_id the same way as evidence. */
export function normalizeDiaId(id: string): string {
  return normalizeEvidence([id])[0] ?? id;
}

export interface QuestionScore {
  anyAt: Record<'1' | '5' | '10', boolean>;
  allAt10: boolean;
  /** 1 / rank of the first result holding an evidence turn, within the first 10; 0 if none. */
  rr: number;
}

/** Scores one question: `ranked` holds, per returned memory in rank order, the dia_ids it keeps. */
export function scoreQuestion(ranked: readonly (readonly string[])[], evidence: readonly string[]): QuestionScore {
  const ev = new Set(evidence);
  const firstHit = ranked.slice(0, FIRST).findIndex((ids) => ids.some((d) => ev.has(d)));
  const covered = new Set(ranked.slice(0, 10).flat().filter((d) => ev.has(d)));
  return {
    anyAt: { '1': firstHit === 0, '5': firstHit >= 0 && firstHit < 5, '10': firstHit >= 0 && firstHit < 10 },
    allAt10: ev.size > 0 && covered.size === ev.size,
    rr: firstHit >= 0 ? 1 / (firstHit + 1) : 0,
  };
}

export function aggregate(scores: readonly QuestionScore[]): Metrics {
  const n = scores.length;
  const mean = (f: (s: QuestionScore) => number) => (n ? scores.reduce((a, s) => a + f(s), 0) / n : 0);
  return {
    n,
    recall_any: { '1': mean((s) => +s.anyAt['1']), '5': mean((s) => +s.anyAt['5']), '10': mean((s) => +s.anyAt['10']) },
    recall_all: { '10': mean((s) => +s.allAt10) },
    mrr: mean((s) => s.rr),
  };
}

class FixedClock implements Clock {
  constructor(public t: Date) {}
  now(): Date { return this.t; }
}

/** Runs every conversation: ingest all turns, then ask every question with evidence. */
export async function evalLocomo(base: MemoryDeps, samples: LocomoSample[], progress: (s: string) => void = () => {}): Promise<LocomoReport> {
  /** ENGRAM_LOCOMO_DUMP=<file>: every question's candidates as fusion saw them, one JSON line each (offline study of the ranking). */
  const dumpTo = process.env.ENGRAM_LOCOMO_DUMP || null;
  const outcomes = { created: 0, reinforced: 0, corrected: 0, refused: 0, empty: 0 };
  const corrections: LocomoReport['corrections'] = [];
  const byRule: Record<string, number> = {};
  const all: { cat: string; s: QuestionScore; chain: QuestionScore }[] = [];
  let evidenceNotCurrent = 0;
  const perConv: LocomoReport['conversations'] = [];
  let ingestMs = 0;
  let queryMs = 0;
  let turns = 0;
  let skipped = 0;
  let returned = 0;
  let asked = 0;

  for (const sample of samples) {
    const sessions = sessionsOf(sample.conversation);
    const lastAt = sessions.reduce((t, s) => Math.max(t, s.at?.getTime() ?? 0), 0);
    const clock = new FixedClock(new Date(lastAt || Date.parse('2024-01-01T00:00:00Z')));
    const deps: MemoryDeps = { ...base, clock };
    const wall = await Wall.open(deps, `locomo:${sample.sample_id}`);
    try {
      const dia = new Map<string, string[]>();
      /** Memory id -> the memories it superseded (turn corrections). */
      const preds = new Map<string, string[]>();
      const known = new Set<string>();
      const t0 = performance.now();
      for (const s of sessions) {
        s.turns.forEach((t) => known.add(normalizeDiaId(t.dia_id)));
        for (const [i, t] of s.turns.entries()) {
          const text = typeof t.text === 'string' ? t.text : '';
          if (!text.trim()) { outcomes.empty++; continue; }
          // The session's date and time, one second per turn so the transcript keeps its order.
          const at = s.at ? new Date(s.at.getTime() + i * 1000) : undefined;
          clock.t = at ?? clock.t;
          const conv = await wall.say(s.key, 'USER', text, at);
          try {
            const r = await remember(deps, wall.assistant, {
              conversationId: conv.id, quote: text, type: 'FACT', entities: t.speaker ? [t.speaker] : [], themes: [],
            });
            const id = r.memory.id;
            const list = dia.get(id) ?? [];
            list.push(normalizeDiaId(t.dia_id));
            dia.set(id, list);
            if (r.outcome === 'CORRECTED') {
              preds.set(id, [...(preds.get(id) ?? []), r.superseded.id]);
              byRule[r.rule] = (byRule[r.rule] ?? 0) + 1;
              corrections.push({
                conversation: sample.sample_id, turn: normalizeDiaId(t.dia_id), superseded: dia.get(r.superseded.id) ?? [],
                rule: r.rule, text, supersededText: r.superseded.quote,
              });
            }
            outcomes[r.outcome === 'CREATED' ? 'created' : r.outcome === 'REINFORCED' ? 'reinforced' : 'corrected']++;
          } catch (e) {
            if (!(e instanceof QuoteRefusedError)) throw e;
            outcomes.refused++;
            progress(`  refused ${t.dia_id}: ${e.reason} ${JSON.stringify(text.slice(0, 60))}`);
          }
          if (++turns % 200 === 0) progress(`locomo: ${turns} turns ingested (${((performance.now() - t0 + ingestMs) / 1000).toFixed(0)} s)`);
        }
      }
      ingestMs += performance.now() - t0;
      clock.t = new Date(lastAt + 86_400_000);

      const convScores: QuestionScore[] = [];
      const holders = [...dia.keys()];
      const status = new Map((await deps.store.getMemories(holders, wall.spaceId)).map((m, i) => [holders[i]!, m?.status ?? 'GONE']));
      const currentTurns = new Set(holders.filter((id) => status.get(id) === 'ACTIVE').flatMap((id) => dia.get(id)!));
      const withChain = (id: string, seen = new Set<string>()): string[] => {
        if (seen.has(id)) return [];
        seen.add(id);
        return [...(dia.get(id) ?? []), ...(preds.get(id) ?? []).flatMap((p) => withChain(p, seen))];
      };
      for (const qa of sample.qa) {
        const evidence = normalizeEvidence(qa.evidence, known);
        if (evidence.length === 0 || !qa.question) { skipped++; continue; }
        const q0 = performance.now();
        let traced: RecallTraceItem[] = [];
        if (dumpTo) setRecallTrace((kind, items) => { if (kind === 'STATEMENT') traced = items; });
        const r = await recall(deps, wall.spaceId, qa.question, FIRST);
        if (dumpTo) {
          setRecallTrace(null);
          const now = clock.now().getTime();
          const contexts = await deps.store.memoryTexts(traced.map((x) => x.memory.id), Number.MAX_SAFE_INTEGER);
          appendFileSync(dumpTo, JSON.stringify({
            conv: sample.sample_id, q: qa.question, cat: String(qa.category), evidence,
            items: traced.map((x, i) => ({
              turns: dia.get(x.memory.id) ?? [], quote: x.memory.quote, context: contexts[i]?.context ?? null, v: x.v, l: x.l, vRank: x.vRank, lRank: x.lRank,
              fused: x.fused, mentions: x.memory.mentionCount, ageDays: (now - x.memory.lastMentionedAt.getTime()) / 86_400_000, seq: x.memory.seq,
            })),
          }) + '\n');
        }
        queryMs += performance.now() - q0;
        asked++;
        returned += r.statements.length;
        const s = scoreQuestion(r.statements.map((h) => dia.get(h.memory.id) ?? []), evidence);
        const chain = scoreQuestion(r.statements.map((h) => withChain(h.memory.id)), evidence);
        if (!evidence.some((e) => currentTurns.has(e))) evidenceNotCurrent++;
        all.push({ cat: String(qa.category), s, chain });
        convScores.push(s);
      }
      perConv.push({
        id: sample.sample_id, turns: sessions.reduce((a, s) => a + s.turns.length, 0), memories: await deps.store.countMemories(wall.spaceId),
        questions: convScores.length, recall_any_10: aggregate(convScores).recall_any['10'],
      });
      progress(`locomo: ${sample.sample_id} done (${perConv.at(-1)!.memories} memories, recall_any@10 ${perConv.at(-1)!.recall_any_10.toFixed(3)})`);
    } finally {
      await wall.drop();
    }
  }

  const categories: LocomoReport['categories'] = {};
  for (const cat of [...new Set(all.map((x) => x.cat))].sort()) {
    categories[cat] = { name: CATEGORY_NAMES[cat] ?? cat, ...aggregate(all.filter((x) => x.cat === cat).map((x) => x.s)) };
  }
  return {
    overall: aggregate(all.map((x) => x.s)), overall_with_chain: aggregate(all.map((x) => x.chain)),
    evidence_not_current: evidenceNotCurrent, categories, questions: asked, skippedQuestions: skipped, turns, outcomes,
    corrected_by_rule: byRule, corrections,
    ingest_ms: Math.round(ingestMs), query_ms: Math.round(queryMs),
    ingest_ms_per_turn: turns ? ingestMs / turns : 0, query_ms_per_question: asked ? queryMs / asked : 0,
    avg_returned: asked ? returned / asked : 0, conversations: perConv,
  };
}

export function formatLocomo(r: LocomoReport): string {
  const f = (x: number) => x.toFixed(3);
  const row = (name: string, m: Metrics) =>
    `${name.padEnd(16)} ${String(m.n).padStart(5)} ${f(m.recall_any['1']).padStart(7)} ${f(m.recall_any['5']).padStart(7)} ${f(m.recall_any['10']).padStart(7)} ${f(m.recall_all['10']).padStart(7)} ${f(m.mrr).padStart(7)}`;
  return [
    `locomo: ${r.conversations.length} conversations, ${r.turns} turns, ${r.questions} questions (${r.skippedQuestions} without usable evidence skipped)`,
    `ingest: created ${r.outcomes.created}, reinforced ${r.outcomes.reinforced}, corrected ${r.outcomes.corrected}, refused ${r.outcomes.refused}, empty ${r.outcomes.empty}`,
    `corrections by rule: ${Object.entries(r.corrected_by_rule).sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`).join(', ') || 'none'}`,
    '',
    `${'category'.padEnd(16)} ${'n'.padStart(5)} ${'any@1'.padStart(7)} ${'any@5'.padStart(7)} ${'any@10'.padStart(7)} ${'all@10'.padStart(7)} ${'MRR'.padStart(7)}`,
    row('overall', r.overall),
    row('  (with chain)', r.overall_with_chain),
    ...Object.entries(r.categories).map(([c, m]) => row(`${c} ${m.name}`, m)),
    '',
    ...r.conversations.map((c) => `${c.id}: ${c.turns} turns -> ${c.memories} memories, ${c.questions} questions, any@10 ${f(c.recall_any_10)}`),
    `questions whose evidence turns are all held by non-current (superseded) memories: ${r.evidence_not_current}`,
    `returned per question: ${r.avg_returned.toFixed(2)} (of 10 asked; the relevance floor may return fewer)`,
    `ingest: ${(r.ingest_ms / 1000).toFixed(1)} s (${r.ingest_ms_per_turn.toFixed(1)} ms/turn); query: ${(r.query_ms / 1000).toFixed(1)} s (${r.query_ms_per_question.toFixed(1)} ms/question)`,
  ].join('\n');
}
