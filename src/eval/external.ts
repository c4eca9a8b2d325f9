/**
 * `engram eval sts|mrpc|sick`: the configured embedder and recognition rules on
 * public paraphrase sets, read as they are. "Recognised as same" is measured two
 * ways: the bare cosine (>= the embedder's `close` threshold) and the real decision
 * function (`decide()`: one candidate, same type FACT, no entities or themes), so
 * that the correction and conflict rules count.
 */
import { ensureLexicon } from '../core/lexicon.js';
import { deriveEntities, deriveNames } from '../core/derive.js';
import { readFileSync } from 'node:fs';
import type { MemoryDeps } from '../memory/deps.js';
import type { RecognitionThresholds } from '../ports/embedder.js';
import { cosine } from '../core/vectors.js';
import { decide } from '../core/recognition.js';
import { normalizeText } from '../core/normalize.js';

export interface TextPair { a: string; b: string }
export interface StsPair extends TextPair { score: number }
export interface MrpcPair extends TextPair { paraphrase: boolean }
export interface SickPair extends TextPair { id: string; label: string; ab: string; ba: string; relatedness: number }

// ---- parsing ------------------------------------------------------------------

const lines = (text: string) => text.replace(/^\uFEFF/, '').split(/\r?\n/).filter((l) => l.trim() !== '');

/** STS Benchmark: tab-separated, no header: genre, file, year, id, score, s1, s2 (extra fields after s2 ignored). */
export function parseSts(text: string): StsPair[] {
  const out: StsPair[] = [];
  for (const l of lines(text)) {
    const f = l.split('\t');
    const score = Number(f[4]);
    if (f.length < 7 || !Number.isFinite(score) || !f[5] || !f[6]) continue;
    out.push({ score, a: f[5], b: f[6] });
  }
  return out;
}

/** MRPC: byte-order mark, header (Quality, #1 ID, #2 ID, #1 String, #2 String), tab-separated. */
export function parseMrpc(text: string): MrpcPair[] {
  const ls = lines(text);
  const head = ls[0]?.split('\t').map((h) => h.trim()) ?? [];
  const hasHeader = head[0] === 'Quality';
  const col = (name: string, dflt: number) => (hasHeader && head.indexOf(name) >= 0 ? head.indexOf(name) : dflt);
  const qi = col('Quality', 0);
  const ai = col('#1 String', 3);
  const bi = col('#2 String', 4);
  const out: MrpcPair[] = [];
  for (const l of hasHeader ? ls.slice(1) : ls) {
    const f = l.split('\t');
    if (f[qi] !== '0' && f[qi] !== '1') continue;
    if (!f[ai] || !f[bi]) continue;
    out.push({ paraphrase: f[qi] === '1', a: f[ai]!, b: f[bi]! });
  }
  return out;
}

/** SICK: tab-separated with a header; columns found by name. */
export function parseSick(text: string): SickPair[] {
  const ls = lines(text);
  const head = ls[0]!.split('\t').map((h) => h.trim());
  const idx = (name: string) => {
    const i = head.indexOf(name);
    if (i < 0) throw new Error(`SICK: no column ${name}`);
    return i;
  };
  const [ia, ib, il, iab, iba, ir] = ['sentence_A', 'sentence_B', 'entailment_label', 'entailment_AB', 'entailment_BA', 'relatedness_score'].map(idx) as number[];
  const iid = head.indexOf('pair_ID');
  return ls.slice(1).map((l) => l.split('\t')).filter((f) => f[ia!] && f[ib!]).map((f, n) => ({
    id: iid >= 0 ? f[iid]! : String(n + 1), a: f[ia!]!, b: f[ib!]!, label: (f[il!] ?? '').trim().toUpperCase(),
    ab: (f[iab!] ?? '').trim(), ba: (f[iba!] ?? '').trim(), relatedness: Number(f[ir!]),
  }));
}

export const readSts = (p: string) => parseSts(readFileSync(p, 'utf8'));
export const readMrpc = (p: string) => parseMrpc(readFileSync(p, 'utf8'));
export const readSick = (p: string) => parseSick(readFileSync(p, 'utf8'));

// ---- metrics --------------------------------------------------------------------

/** Ranks from 1, ties given their average rank. */
export function ranks(xs: readonly number[]): number[] {
  const order = xs.map((x, i) => [x, i] as const).sort((p, q) => p[0] - q[0]);
  const r = new Array<number>(xs.length);
  for (let i = 0; i < order.length;) {
    let j = i;
    while (j + 1 < order.length && order[j + 1]![0] === order[i]![0]) j++;
    const avg = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) r[order[k]![1]] = avg;
    i = j + 1;
  }
  return r;
}

export function pearson(x: readonly number[], y: readonly number[]): number {
  const n = x.length;
  if (n < 2) return 0;
  const mx = x.reduce((a, b) => a + b, 0) / n;
  const my = y.reduce((a, b) => a + b, 0) / n;
  let sxy = 0, sxx = 0, syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = x[i]! - mx, dy = y[i]! - my;
    sxy += dx * dy; sxx += dx * dx; syy += dy * dy;
  }
  return sxx && syy ? sxy / Math.sqrt(sxx * syy) : 0;
}

/** Spearman's rho: Pearson correlation of the ranks (ties averaged). */
export function spearman(x: readonly number[], y: readonly number[]): number {
  return pearson(ranks(x), ranks(y));
}

export interface Binary { tp: number; fp: number; fn: number; tn: number; precision: number; recall: number; f1: number; accuracy: number }

/** Precision / recall / F1 / accuracy of predicted vs gold booleans. */
export function binary(pred: readonly boolean[], gold: readonly boolean[]): Binary {
  let tp = 0, fp = 0, fn = 0, tn = 0;
  pred.forEach((p, i) => {
    if (p && gold[i]) tp++; else if (p) fp++; else if (gold[i]) fn++; else tn++;
  });
  const precision = tp + fp ? tp / (tp + fp) : 1;
  const recall = tp + fn ? tp / (tp + fn) : 1;
  const n = tp + fp + fn + tn;
  return { tp, fp, fn, tn, precision, recall, f1: precision + recall ? (2 * precision * recall) / (precision + recall) : 0, accuracy: n ? (tp + tn) / n : 0 };
}

// ---- embedding and the decision -------------------------------------------------------

/** Cosine of every pair, each distinct sentence embedded once, in batches. */
export async function pairCosines(deps: MemoryDeps, pairs: readonly TextPair[], batch = 64): Promise<number[]> {
  const texts = [...new Set(pairs.flatMap((p) => [p.a, p.b]))];
  const vec = new Map<string, Float32Array>();
  for (let i = 0; i < texts.length; i += batch) {
    const chunk = texts.slice(i, i + batch);
    const vs = await deps.embedder.embed(chunk);
    chunk.forEach((t, j) => vec.set(t, vs[j]!));
  }
  return pairs.map((p) => cosine(vec.get(p.a)!, vec.get(p.b)!));
}

/** What recognition would do when `next` arrives and `old` is the only memory: the real decision function, with the entities remember derives. */
export function wouldReinforce(old: string, next: string, score: number, t: RecognitionThresholds): { reinforce: boolean; action: string; rule?: string } {
  const d = decide(
    { text: next, normalized: normalizeText(next), type: 'FACT', entities: [], themes: [], derivedEntities: deriveEntities(next), derivedNames: deriveNames(next), previousSentence: null, messageId: null },
    [{ id: 'old', text: old, normalized: normalizeText(old), type: 'FACT', entities: [], themes: [], derivedEntities: deriveEntities(old), derivedNames: deriveNames(old), messageId: null, score }],
    t,
  );
  return { reinforce: d.action === 'reinforce', action: d.action, rule: d.action === 'correct' ? d.rule : d.considered[0]?.rule };
}

// ---- STS ---------------------------------------------------------------------------

export interface StsReport {
  pairs: number;
  spearman: number;
  pearson: number;
  /** Pairs scored >= 4 (same) or <= 2 (different); the rest are not judged. */
  judged: number;
  cosine: Binary;
  rules: Binary;
  thresholds: { close: number; related: number };
}

export async function evalSts(deps: MemoryDeps, pairs: StsPair[]): Promise<StsReport> {
  const cos = await pairCosines(deps, pairs);
  const judgedIdx = pairs.map((p, i) => (p.score >= 4 || p.score <= 2 ? i : -1)).filter((i) => i >= 0);
  const gold = judgedIdx.map((i) => pairs[i]!.score >= 4);
  const t = deps.thresholds;
  return {
    pairs: pairs.length,
    spearman: spearman(cos, pairs.map((p) => p.score)),
    pearson: pearson(cos, pairs.map((p) => p.score)),
    judged: judgedIdx.length,
    cosine: binary(judgedIdx.map((i) => cos[i]! >= t.close), gold),
    rules: binary(judgedIdx.map((i) => wouldReinforce(pairs[i]!.a, pairs[i]!.b, cos[i]!, t).reinforce), gold),
    thresholds: { close: t.close, related: t.related },
  };
}

const f3 = (x: number) => x.toFixed(3);
const fmtBinary = (name: string, b: Binary) =>
  `${name}: precision ${f3(b.precision)}, recall ${f3(b.recall)}, F1 ${f3(b.f1)}, accuracy ${f3(b.accuracy)} (tp ${b.tp}, fp ${b.fp}, fn ${b.fn}, tn ${b.tn})`;

export function formatSts(r: StsReport, t: RecognitionThresholds): string {
  return [
    `sts: ${r.pairs} pairs; Spearman ${f3(r.spearman)} (Pearson ${f3(r.pearson)}) of cosine vs score`,
    `"same" = score >= 4, "different" = score <= 2: ${r.judged} pairs judged; close threshold ${t.close}`,
    fmtBinary('  cosine >= close', r.cosine),
    fmtBinary('  full rules     ', r.rules),
  ].join('\n');
}

// ---- MRPC --------------------------------------------------------------------------

export interface MrpcReport { pairs: number; positives: number; cosine: Binary; rules: Binary; thresholds: { close: number } }

export async function evalMrpc(deps: MemoryDeps, pairs: MrpcPair[]): Promise<MrpcReport> {
  await ensureLexicon();
  const cos = await pairCosines(deps, pairs);
  const t = deps.thresholds;
  const gold = pairs.map((p) => p.paraphrase);
  return {
    pairs: pairs.length, positives: gold.filter(Boolean).length,
    cosine: binary(cos.map((c) => c >= t.close), gold),
    rules: binary(pairs.map((p, i) => wouldReinforce(p.a, p.b, cos[i]!, t).reinforce), gold),
    thresholds: { close: t.close },
  };
}

export function formatMrpc(r: MrpcReport, t: RecognitionThresholds): string {
  return [
    `mrpc: ${r.pairs} pairs, ${r.positives} paraphrases; close threshold ${t.close}`,
    fmtBinary('  cosine >= close', r.cosine),
    fmtBinary('  full rules     ', r.rules),
  ].join('\n');
}

// ---- SICK --------------------------------------------------------------------------

export interface SlipExample { id: string; a: string; b: string; cosine: number; tier: string; /** Words only in A -> words only in B. */ swap: string }
export interface SickReport {
  pairs: number;
  contradiction: {
    total: number;
    /** Share with cosine >= close (what a bare vector threshold would merge). */
    cosineMerged: number; cosineShare: number;
    /** Share the real decision reinforces (A stored, B arrives): the figure that must stay <= 2%. */
    rulesMerged: number; rulesShare: number;
    /** Reinforced in at least one direction (A then B, or B then A). */
    eitherMerged: number; eitherShare: number;
    /** What slips through, by kind, with examples. */
    kinds: { kind: string; count: number; examples: SlipExample[] }[];
  };
  mutualEntailment: { total: number; cosineMerged: number; cosineRate: number; rulesMerged: number; rulesRate: number };
  thresholds: { close: number; related: number };
}

const NEG = /\b(no|not|nobody|none|nothing|never|n't|isn't|aren't|doesn't|don't|neither|nor|without)\b|n't\b/i;

/** Words of `x` not in `y` (lower case). */
function extra(x: string, y: string): string[] {
  const ys = new Set(y.toLowerCase().match(/[a-z']+/g) ?? []);
  return [...new Set(x.toLowerCase().match(/[a-z']+/g) ?? [])].filter((w) => !ys.has(w));
}

/** A rough kind for a contradiction pair, so the rule author knows what to look at. */
export function contradictionKind(a: string, b: string): string {
  const na = NEG.test(a), nb = NEG.test(b);
  if (na !== nb) {
    const neg = na ? a : b;
    if (/^\s*(there is no|there are no)\b/i.test(neg)) return 'negation: "There is no ..." vs "There is ..."';
    if (/^\s*no\b/i.test(neg)) return 'negation: "No X is ..." vs "A X is ..."';
    if (/\bnobody\b|\bno one\b/i.test(neg)) return 'negation: "Nobody ..."';
    if (/\b(is|are) not\b|n't\b/i.test(neg)) return 'negation: "is not" / "isn\'t"';
    return 'negation: other';
  }
  if (na && nb) return 'both negated (different scope)';
  const stem = (x: string) => new Set((x.toLowerCase().match(/[a-z']+/g) ?? []).map((w) => w.replace(/s$/, '')));
  const sa = stem(a), sb = stem(b);
  if (sa.size === sb.size && [...sa].every((w) => sb.has(w))) return 'roles swapped (same words, other order)';
  const ea = extra(a, b), eb = extra(b, a);
  if (ea.length === 1 && eb.length === 1) return 'one word swapped (antonym / other value)';
  if (ea.length + eb.length <= 4) return 'a few words swapped';
  return 'other wording';
}

export async function evalSick(deps: MemoryDeps, pairs: SickPair[]): Promise<SickReport> {
  await ensureLexicon();
  const cos = await pairCosines(deps, pairs);
  const t = deps.thresholds;
  const contra = pairs.map((p, i) => ({ p, c: cos[i]! })).filter((x) => x.p.label === 'CONTRADICTION');
  let cosineMerged = 0, rulesMerged = 0, eitherMerged = 0;
  const kinds = new Map<string, SlipExample[]>();
  for (const { p, c } of contra) {
    if (c >= t.close) cosineMerged++;
    const ab = wouldReinforce(p.a, p.b, c, t);
    const ba = wouldReinforce(p.b, p.a, c, t);
    if (ab.reinforce) {
      rulesMerged++;
      const k = contradictionKind(p.a, p.b);
      const list = kinds.get(k) ?? [];
      list.push({ id: p.id, a: p.a, b: p.b, cosine: c, tier: ab.rule ?? '', swap: `${extra(p.a, p.b).join(' ')} -> ${extra(p.b, p.a).join(' ')}` });
      kinds.set(k, list);
    }
    if (ab.reinforce || ba.reinforce) eitherMerged++;
  }
  const mutual = pairs.map((p, i) => ({ p, c: cos[i]! }))
    .filter((x) => /entails/i.test(x.p.ab) && /entails/i.test(x.p.ba));
  const mutualRules = mutual.filter((x) => wouldReinforce(x.p.a, x.p.b, x.c, t).reinforce).length;
  const mutualCos = mutual.filter((x) => x.c >= t.close).length;
  const share = (n: number, d: number) => (d ? n / d : 0);
  return {
    pairs: pairs.length,
    contradiction: {
      total: contra.length,
      cosineMerged, cosineShare: share(cosineMerged, contra.length),
      rulesMerged, rulesShare: share(rulesMerged, contra.length),
      eitherMerged, eitherShare: share(eitherMerged, contra.length),
      kinds: [...kinds].map(([kind, ex]) => ({ kind, count: ex.length, examples: ex.sort((x, y) => y.cosine - x.cosine) }))
        .sort((x, y) => y.count - x.count),
    },
    mutualEntailment: {
      total: mutual.length, cosineMerged: mutualCos, cosineRate: share(mutualCos, mutual.length),
      rulesMerged: mutualRules, rulesRate: share(mutualRules, mutual.length),
    },
    thresholds: { close: t.close, related: t.related },
  };
}

export function formatSick(r: SickReport, t: RecognitionThresholds, examplesPerKind = 25): string {
  const c = r.contradiction;
  const pct = (x: number) => (100 * x).toFixed(2) + '%';
  const lines = [
    `sick: ${r.pairs} pairs; close threshold ${t.close}`,
    `CONTRADICTION pairs that would be reinforced: full rules ${c.rulesMerged}/${c.total} (${pct(c.rulesShare)})${c.rulesShare <= 0.02 ? '' : '  ABOVE the 2% limit'}; ` +
      `bare cosine ${c.cosineMerged}/${c.total} (${pct(c.cosineShare)}); either direction (rules) ${c.eitherMerged}/${c.total} (${pct(c.eitherShare)})`,
    `mutual entailment pairs merged: full rules ${r.mutualEntailment.rulesMerged}/${r.mutualEntailment.total} (${pct(r.mutualEntailment.rulesRate)}); ` +
      `bare cosine ${r.mutualEntailment.cosineMerged}/${r.mutualEntailment.total} (${pct(r.mutualEntailment.cosineRate)})`,
  ];
  if (c.kinds.length) {
    lines.push('', 'contradictions reinforced by the full rules, by kind:');
    for (const k of c.kinds) {
      lines.push(`  ${k.count}  ${k.kind}`);
      for (const e of k.examples.slice(0, examplesPerKind)) lines.push(`      [${e.id}] ${e.cosine.toFixed(3)} {${e.swap}} "${e.a}" / "${e.b}"`);
    }
  }
  return lines.join('\n');
}
