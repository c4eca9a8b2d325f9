/**
 * `engram eval scenarios`: told in one conversation, asked in another. Every case
 * runs in its own sealed space through the same use cases as the GraphQL API
 * (chat side records, assistant keeps / infers / recalls, operator acts), with a
 * deterministic clock so that repeated runs give identical verdicts.
 * The file format is described in ../shared/eval/README.md.
 */
import { readFileSync } from 'node:fs';
import type { MemoryDeps } from '../memory/deps.js';
import type { Clock } from '../ports/clock.js';
import type { MemoryRecord, Mention } from '../ports/memory-store.js';
import type { MemoryType } from '../core/types.js';
import { MEMORY_TYPES } from '../core/types.js';
import { remember, type RememberResult } from '../memory/remember.js';
import { infer } from '../memory/inferences.js';
import { recall, type RecallHit } from '../memory/recall.js';
import { changeStatus, forget, markErroneous } from '../memory/statuses.js';
import { QuoteRefusedError } from '../memory/errors.js';
import { personalMemoryCount, Wall } from './wall.js';

export type KeepExpect = 'created' | 'reinforced' | 'corrected' | 'rejected';

export interface ScenarioKeep {
  quote: string;
  type: MemoryType;
  entities?: string[];
  themes?: string[];
  expect?: KeepExpect | null;
}

export interface AskExpect {
  top_contains?: string;
  not_current_quote?: string;
  never_as_statement?: string;
  none?: boolean;
}

export interface ScenarioStep {
  conversation?: string;
  at?: string;
  user?: string;
  assistant?: string;
  keep?: ScenarioKeep[];
  infer?: { text: string; type: MemoryType }[];
  operator?: 'mute' | 'unmute' | 'retract' | 'forget' | 'mark_erroneous';
  quote?: string;
  corrected_by?: string;
  ask?: string;
  expect?: AskExpect;
  state?: { active?: number; erroneous?: number; mentions?: Record<string, number> };
}

export interface ScenarioCase {
  id: string;
  about?: string;
  steps: ScenarioStep[];
}

export interface CaseVerdict {
  id: string;
  passed: boolean;
  failures: string[];
  /** What the runner did that the case's words did not say exactly (only when there is some). */
  notes?: string[];
}

export interface ScenariosReport {
  passed: number;
  failed: number;
  cases: CaseVerdict[];
  operatorSpace: { before: number; after: number };
  repeats: number;
  identical: boolean;
  /**
   * Asks that expect nothing (`none`), and how many got something anyway: the false-positive
   * rate of recall on questions with nothing on file (first run).
   */
  nothingExpected: NothingTally;
}

/** Asks expecting `none`: how many, and which were answered anyway ("case: question"). */
export interface NothingTally { asked: number; answered: number; answeredAsks: string[] }

/** Reads a scenarios file as it is: `{ "cases": [...] }`. */
export function readScenarios(path: string): ScenarioCase[] {
  const raw = JSON.parse(readFileSync(path, 'utf8')) as { cases?: unknown };
  if (!raw || !Array.isArray(raw.cases)) throw new Error(`${path}: expected an object with a "cases" array`);
  return raw.cases as ScenarioCase[];
}

/** Start of a case's timeline when its steps carry no `at`. */
const EPOCH = Date.parse('2026-01-05T09:00:00Z');
const STEP_MS = 60_000;

/**
 * A clock the case advances step by step: a step's `at` when it has one, otherwise
 * one minute after the previous step. "Now" never goes backwards.
 */
export class StepClock implements Clock {
  private t = EPOCH;
  private latest = EPOCH;
  /** Moves to the step's time and returns it. */
  step(at?: string): Date {
    if (at) {
      const ms = Date.parse(at);
      if (Number.isNaN(ms)) throw new Error(`bad "at": ${at}`);
      this.t = ms;
    } else this.t += STEP_MS;
    this.latest = Math.max(this.latest, this.t);
    return new Date(this.t);
  }
  now(): Date {
    return new Date(this.latest);
  }
}

const lc = (s: string) => s.toLowerCase();
const short = (s: string, n = 80) => (s.length > n ? s.slice(0, n - 1) + '…' : s);
const q = (s: string) => JSON.stringify(s);

interface Held {
  memory: MemoryRecord;
  via: 'quote' | 'mention';
}

/**
 * The memory holding `quote` among the wall's statements (any status): its own quote
 * first, the current one if any, else the most recent; failing that, the memory a
 * wording with that quote was merged into.
 */
export async function findByQuote(deps: MemoryDeps, spaceId: string, quote: string): Promise<Held | null> {
  const all: MemoryRecord[] = [];
  for (let offset = 0; ; offset += 500) {
    const page = await deps.store.listMemories(spaceId, { kind: 'STATEMENT' }, 'CREATED', 500, offset);
    all.push(...page.items);
    if (!page.hasNext) break;
  }
  const want = quote.trim();
  const own = all.filter((m) => m.quote.trim() === want).sort((a, b) => b.seq - a.seq);
  const current = own.find((m) => m.status === 'ACTIVE');
  if (current || own[0]) return { memory: (current ?? own[0])!, via: 'quote' };
  const mentions = await deps.store.mentionsOf(all.map((m) => m.id));
  const holders = all.filter((_, i) => mentions[i]!.some((x) => x.quote.trim() === want)).sort((a, b) => b.seq - a.seq);
  const h = holders.find((m) => m.status === 'ACTIVE') ?? holders[0];
  return h ? { memory: h, via: 'mention' } : null;
}

/** What recognition weighed when it created a memory (from its CREATED event): candidate, score, relation. */
async function consideredOf(deps: MemoryDeps, spaceId: string, memoryId: string): Promise<string> {
  const [events] = await deps.store.eventsOf([memoryId]);
  const created = events?.find((e) => e.kind === 'CREATED' || e.kind === 'CORRECTED');
  const considered = (created?.detail?.considered ?? []) as { id: string; score: number | null; relation: string; rule?: string }[];
  if (!considered.length) return 'no candidate considered';
  const records = await deps.store.getMemories(considered.map((c) => c.id), spaceId);
  return 'considered ' + considered.map((c, i) =>
    `${q(short(records[i]?.quote ?? c.id, 50))} score ${c.score?.toFixed(3) ?? '-'} ${c.relation}${c.rule ? ' (' + c.rule + ')' : ''}`).join('; ');
}

/** Cosine of the question with the nearest current statements, for an answer that came back empty or wrong. */
async function nearest(deps: MemoryDeps, spaceId: string, ask: string): Promise<string> {
  const active = (await deps.store.listMemories(spaceId, { kind: 'STATEMENT', statuses: ['ACTIVE'] }, 'CREATED', 50, 0)).items;
  if (!active.length) return 'no current statement in the space';
  const [qv] = await deps.embedder.embed([ask]);
  const vecs = await deps.store.getVectors(active.map((m) => m.id));
  const { cosine } = await import('../core/vectors.js');
  const scored = active.map((m) => ({ m, s: vecs.get(m.id) ? cosine(qv!, vecs.get(m.id)!) : NaN })).sort((a, b) => b.s - a.s);
  return `nearest current statements by cosine (floor ${deps.thresholds.recallFloor}): ` +
    scored.slice(0, 3).map((x) => `${q(short(x.m.quote, 50))} ${x.s.toFixed(3)}`).join('; ');
}

function describeOutcome(r: RememberResult): string {
  switch (r.outcome) {
    case 'CREATED': return 'created';
    case 'REINFORCED': return `reinforced (${r.tier} ${r.score.toFixed(3)}) into ${q(short(r.memory.quote))}`;
    case 'CORRECTED': return `corrected (${r.rule}${r.score != null ? ' ' + r.score.toFixed(3) : ''}) superseding ${q(short(r.superseded.quote))}`;
  }
}

/** The texts a returned statement "contains": its quote, every wording merged into it, its source message. */
export function statementTexts(m: MemoryRecord, mentions: Mention[]): string[] {
  return [m.quote, ...mentions.map((x) => x.quote), ...(m.context ? [m.context] : [])];
}

/** Checks one ask step's expectations against what recall returned; returns the failures. */
export async function checkAsk(
  deps: MemoryDeps, spaceId: string, ask: string, expect: AskExpect, hits: RecallHit[],
): Promise<string[]> {
  const failures: string[] = [];
  const mentions = hits.length ? await deps.store.mentionsOf(hits.map((h) => h.memory.id)) : [];
  // (recall hands out its hits without their messages' words: read whole here, as a client's `context` would)
  const whole = hits.length ? await deps.store.getMemories(hits.map((h) => h.memory.id)) : [];
  const texts = hits.map((h, i) => statementTexts(whole[i] ?? { ...h.memory, context: null, basis: null }, mentions[i] ?? []));
  const got = hits.length ? `[${hits.map((h) => q(short(h.memory.quote, 60))).join(', ')}]` : 'nothing';
  const where = `ask ${q(ask)}`;
  if (expect.top_contains != null) {
    const want = lc(expect.top_contains);
    if (!hits.length) failures.push(`${where}: top_contains ${q(expect.top_contains)}: nothing returned`);
    else if (!texts[0]!.some((t) => lc(t).includes(want))) {
      const at = texts.findIndex((ts) => ts.some((t) => lc(t).includes(want)));
      failures.push(`${where}: top_contains ${q(expect.top_contains)}: top was ${q(short(hits[0]!.memory.quote))}` +
        (at >= 0 ? ` (found at rank ${at + 1})` : ' (not in any returned statement)') + `; returned ${got}`);
    }
  }
  if (expect.not_current_quote != null) {
    const want = expect.not_current_quote.trim();
    const returned = hits.findIndex((h) => h.memory.quote.trim() === want);
    if (returned >= 0) failures.push(`${where}: not_current_quote ${q(want)}: returned as current at rank ${returned + 1} (status ${hits[returned]!.memory.status})`);
    const held = await findByQuote(deps, spaceId, want);
    if (held && held.via === 'quote' && held.memory.status === 'ACTIVE') {
      failures.push(`${where}: not_current_quote ${q(want)}: the memory with that quote is still ACTIVE (mentions ${held.memory.mentionCount})`);
    }
  }
  if (expect.never_as_statement != null) {
    const want = lc(expect.never_as_statement);
    const bad = hits.findIndex((_, i) => texts[i]!.some((t) => lc(t).includes(want)));
    if (bad >= 0) failures.push(`${where}: never_as_statement ${q(expect.never_as_statement)}: returned as a statement at rank ${bad + 1}: ${q(short(hits[bad]!.memory.quote))}`);
  }
  if (expect.none) {
    if (hits.length) {
      const h = hits[0]!;
      failures.push(`${where}: none: ${hits.length} statement(s) returned: ${got}; top vector ${h.vectorScore?.toFixed(3) ?? '-'}, lexical ${h.lexicalRank != null ? 'yes' : 'no'}`);
    }
  }
  return failures;
}

async function checkState(deps: MemoryDeps, spaceId: string, state: NonNullable<ScenarioStep['state']>): Promise<string[]> {
  const failures: string[] = [];
  const counts = await deps.store.countByStatus(spaceId, 'STATEMENT');
  if (state.active != null && (counts.ACTIVE ?? 0) !== state.active) {
    const actives = await deps.store.listMemories(spaceId, { kind: 'STATEMENT', statuses: ['ACTIVE'] }, 'CREATED', 20, 0);
    failures.push(`state: active expected ${state.active}, found ${counts.ACTIVE ?? 0} [${actives.items.map((m) => q(short(m.quote, 60))).join(', ')}]`);
  }
  if (state.erroneous != null && (counts.ERRONEOUS ?? 0) !== state.erroneous) {
    failures.push(`state: erroneous expected ${state.erroneous}, found ${counts.ERRONEOUS ?? 0} (statuses ${JSON.stringify(counts)})`);
  }
  for (const [quote, n] of Object.entries(state.mentions ?? {})) {
    const held = await findByQuote(deps, spaceId, quote);
    if (!held) failures.push(`state: mentions of ${q(quote)} expected ${n}: no memory holds that quote`);
    else if (held.memory.mentionCount !== n) {
      failures.push(`state: mentions of ${q(quote)} expected ${n}, found ${held.memory.mentionCount} (${held.memory.status})`);
    }
  }
  return failures;
}

/** Runs one case in its own sealed space; the space is dropped at the end whatever happens. */
export async function runCase(base: MemoryDeps, c: ScenarioCase, nothing?: NothingTally): Promise<CaseVerdict> {
  const clock = new StepClock();
  const deps: MemoryDeps = { ...base, clock };
  const wall = await Wall.open(deps, `scenario:${c.id}`);
  const failures: string[] = [];
  const notes: string[] = [];
  let asks = 0;
  try {
    for (const [i, step] of c.steps.entries()) {
      const at = clock.step(step.at);
      const label = `step ${i + 1}`;
      try {
        if (step.user != null || step.assistant != null) {
          const key = step.conversation ?? 'c1';
          const conv = step.user != null
            ? await wall.say(key, 'USER', step.user, at)
            : await wall.say(key, 'ASSISTANT', step.assistant!, at);
          for (const k of step.keep ?? []) {
            if (!MEMORY_TYPES.includes(k.type)) { failures.push(`${label}: keep ${q(short(k.quote))}: unknown type ${k.type}`); continue; }
            let got: string;
            let detail: string;
            let created: string | null = null;
            try {
              const r = await remember(deps, wall.assistant, {
                conversationId: conv.id, quote: k.quote, type: k.type, entities: k.entities ?? [], themes: k.themes ?? [],
              });
              got = r.outcome.toLowerCase();
              detail = describeOutcome(r);
              if (r.outcome !== 'REINFORCED') created = r.memory.id;
            } catch (e) {
              if (!(e instanceof QuoteRefusedError)) throw e;
              got = 'rejected';
              detail = `rejected (${e.reason}: ${e.detail})`;
            }
            if (k.expect && got !== k.expect) {
              if (created) detail += ` — ${await consideredOf(deps, wall.spaceId, created)}`;
              failures.push(`${label}: keep ${q(short(k.quote))}: expected ${k.expect}, got ${detail}`);
            }
          }
          for (const inf of step.infer ?? []) {
            await infer(deps, wall.assistant, { conversationId: conv.id, text: inf.text, type: inf.type });
          }
        } else if (step.operator) {
          failures.push(...(await operate(deps, wall, step, label, notes)));
        } else if (step.ask != null) {
          // Asked in a conversation of its own: the wall's conversation under this key, opened on first use.
          await wall.conversation(step.conversation ?? `ask-${++asks}`);
          const r = await recall(deps, wall.spaceId, step.ask, 5);
          if (step.expect?.none && nothing) {
            nothing.asked++;
            if (r.statements.length) { nothing.answered++; nothing.answeredAsks.push(`${c.id}: ${step.ask}`); }
          }
          const fs = await checkAsk(deps, wall.spaceId, step.ask, step.expect ?? {}, r.statements);
          if (fs.length) fs.push(`  ${await nearest(deps, wall.spaceId, step.ask)}`);
          failures.push(...fs.map((f) => `${label}: ${f}`));
        } else if (step.state) {
          failures.push(...(await checkState(deps, wall.spaceId, step.state)).map((f) => `${label}: ${f}`));
        } else {
          failures.push(`${label}: unknown step ${q(short(JSON.stringify(step)))}`);
        }
      } catch (e) {
        failures.push(`${label}: error ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`);
      }
    }
  } finally {
    await wall.drop();
  }
  return { id: c.id, passed: failures.length === 0, failures, ...(notes.length ? { notes } : {}) };
}

async function operate(deps: MemoryDeps, wall: Wall, step: ScenarioStep, label: string, notes: string[]): Promise<string[]> {
  const quote = step.quote ?? '';
  const held = await findByQuote(deps, wall.spaceId, quote);
  if (!held) return [`${label}: operator ${step.operator}: no memory with quote ${q(quote)}`];
  const id = held.memory.id;
  const sid = wall.spaceId;
  switch (step.operator) {
    case 'mute': case 'unmute': case 'retract': {
      const r = await changeStatus(deps, wall.operator, sid, step.operator, [id]);
      return r.changed === 1 ? [] : [`${label}: operator ${step.operator} ${q(short(quote))}: ${r.results[0]?.outcome} (status was ${held.memory.status})`];
    }
    case 'forget': {
      const r = await forget(deps, wall.operator, sid, [id], true);
      return r.changed === 1 ? [] : [`${label}: operator forget ${q(short(quote))}: ${r.results[0]?.outcome}`];
    }
    case 'mark_erroneous': {
      // The operator's verdict is the mark; `corrected_by` names the memory that corrects it. When no
      // memory holds that quote (the operator wrote the right value, the person never said it), the
      // mark is still made, without a link: an operator's text is never kept as the person's words.
      let by: string | null = null;
      if (step.corrected_by) {
        const c = await findByQuote(deps, sid, step.corrected_by);
        if (c) by = c.memory.id;
        else notes.push(`${label}: mark_erroneous: no memory holds the corrected_by quote ${q(short(step.corrected_by))}: marked without a link`);
      }
      await markErroneous(deps, wall.operator, sid, id, by);
      return [];
    }
    default:
      return [`${label}: unknown operator action ${String(step.operator)}`];
  }
}

/** Runs the whole file `repeat` times; verdicts (pass/fail and failure texts per case) must be identical. */
export async function evalScenarios(deps: MemoryDeps, cases: ScenarioCase[], repeat = 1): Promise<ScenariosReport> {
  const before = await personalMemoryCount(deps);
  const runs: CaseVerdict[][] = [];
  const nothingExpected: NothingTally = { asked: 0, answered: 0, answeredAsks: [] };
  for (let r = 0; r < Math.max(1, repeat); r++) {
    const verdicts: CaseVerdict[] = [];
    for (const c of cases) verdicts.push(await runCase(deps, c, r === 0 ? nothingExpected : undefined));
    runs.push(verdicts);
  }
  const after = await personalMemoryCount(deps);
  const key = (vs: CaseVerdict[]) => JSON.stringify(vs.map((v) => [v.id, v.passed, v.failures]));
  const identical = runs.every((vs) => key(vs) === key(runs[0]!));
  const cases0 = runs[0]!;
  const passed = cases0.filter((v) => v.passed).length;
  return { passed, failed: cases0.length - passed, cases: cases0, operatorSpace: { before, after }, repeats: runs.length, identical, nothingExpected };
}

export function formatScenarios(r: ScenariosReport): string {
  const lines: string[] = [];
  for (const c of r.cases) {
    lines.push(`${c.passed ? 'PASS' : 'FAIL'} ${c.id}`);
    for (const f of c.failures) lines.push(`     ${f}`);
    for (const n of c.notes ?? []) lines.push(`     note: ${n}`);
  }
  lines.push('', `scenarios: ${r.passed} passed, ${r.failed} failed`);
  const n = r.nothingExpected;
  lines.push(`answered when nothing should be: ${n.answered} of ${n.asked} asks expecting none` +
    (n.asked ? ` (${((100 * n.answered) / n.asked).toFixed(0)}%)` : '') + (n.answeredAsks.length ? `: ${n.answeredAsks.join('; ')}` : ''));
  lines.push(`operator space memories: before ${r.operatorSpace.before}, after ${r.operatorSpace.after}${r.operatorSpace.before === r.operatorSpace.after ? '' : '  (CHANGED!)'}`);
  if (r.repeats > 1) lines.push(`repeats: ${r.repeats}, identical verdicts: ${r.identical ? 'yes' : 'no'}`);
  return lines.join('\n');
}
