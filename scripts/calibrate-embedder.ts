/**
 * Calibrates the built-in embedder's recognition thresholds and compares SIF
 * variants. Reads the dedup dev pairs and the external sets (STS-B dev, SICK,
 * MRPC) exactly as they are, prints tables and a suggestion.
 *
 *   npx tsx scripts/calibrate-embedder.ts            # default settings, full report
 *   npx tsx scripts/calibrate-embedder.ts --variants # one summary line per SIF variant
 *   npx tsx scripts/calibrate-embedder.ts --t1 0.9 --t2 0.75
 */
import { readFileSync } from 'node:fs';
import { BuiltinEmbedder, BUILTIN_THRESHOLDS } from '../src/embed/builtin-embedder.js';
import type { SifOptions } from '../src/embed/sif-encoder.js';
import { cosine } from '../src/core/vectors.js';
import { NEGATIONS, words } from '../src/core/words.js';

const EVAL = process.env.ENGRAM_EVAL_DIR ?? '/work/shared/eval';

interface Side {
  text: string;
  type: string;
  entities: string[];
  themes: string[];
}
interface DedupPair {
  id: string;
  old: Side;
  new: Side;
  label: 'same' | 'different' | 'corrects';
}

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};

function loadDedup(): DedupPair[] {
  return readFileSync(`${EVAL}/dedup-pairs.dev.jsonl`, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as DedupPair);
}

/** STS-B: genre, file, year, id, score, s1, s2 (extra tab fields after s2 ignored). */
function loadSts(): Array<{ a: string; b: string; score: number }> {
  return readFileSync(`${EVAL}/external/sts-dev.csv`, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => l.split('\t'))
    .filter((f) => f.length >= 7)
    .map((f) => ({ score: Number(f[4]), a: f[5], b: f[6] }));
}

function loadSick(): Array<{ a: string; b: string; score: number; label: string }> {
  const lines = readFileSync(`${EVAL}/external/sick-train-trial.tsv`, 'utf8').split('\n').filter((l) => l.trim() !== '');
  const head = lines[0].split('\t');
  const ia = head.indexOf('sentence_A');
  const ib = head.indexOf('sentence_B');
  const is = head.indexOf('relatedness_score');
  const il = head.indexOf('entailment_label');
  return lines.slice(1).map((l) => {
    const f = l.split('\t');
    return { a: f[ia], b: f[ib], score: Number(f[is]), label: f[il] };
  });
}

function loadMrpc(): Array<{ a: string; b: string; para: boolean }> {
  const lines = readFileSync(`${EVAL}/external/mrpc-train.txt`, 'utf8').replace(/^\uFEFF/, '').split('\n');
  return lines
    .filter((l) => l.trim() !== '' && !l.startsWith('Quality'))
    .map((l) => l.split('\t'))
    .filter((f) => f.length >= 5)
    .map((f) => ({ para: f[0] === '1', a: f[3], b: f[4] }));
}

function rank(xs: number[]): number[] {
  const idx = xs.map((x, i) => [x, i] as const).sort((p, q) => p[0] - q[0]);
  const r = new Array<number>(xs.length);
  for (let i = 0; i < idx.length; ) {
    let j = i;
    while (j + 1 < idx.length && idx[j + 1][0] === idx[i][0]) j++;
    for (let k = i; k <= j; k++) r[idx[k][1]] = (i + j) / 2;
    i = j + 1;
  }
  return r;
}

function pearson(x: number[], y: number[]): number {
  const n = x.length;
  const mx = x.reduce((s, v) => s + v, 0) / n;
  const my = y.reduce((s, v) => s + v, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) ** 2;
    syy += (y[i] - my) ** 2;
  }
  return sxy / Math.sqrt(sxx * syy);
}

const spearman = (x: number[], y: number[]): number => pearson(rank(x), rank(y));

/**
 * A stand-in for the later rule layer: vetoes a pair whose values disagree
 * (numbers, day or month words, named entities) or whose polarity differs,
 * and every correction. Approximate on purpose; it only decides which pairs
 * the "after vetoes" view counts.
 */
const CALENDAR = new Set(
  'monday tuesday wednesday thursday friday saturday sunday mondays tuesdays wednesdays thursdays fridays saturdays sundays january february march april may june july august september october november december'.split(' '),
);
function vetoed(p: DedupPair): boolean {
  if (p.label === 'corrects') return true;
  const a = words(p.old.text);
  const b = words(p.new.text);
  const set = (xs: readonly string[], f: (w: string) => boolean) => [...new Set(xs.filter(f))].sort().join('|');
  const isNum = (w: string) => /^\d/.test(w);
  const isCal = (w: string) => CALENDAR.has(w);
  if (set(a, isNum) !== set(b, isNum)) return true;
  if (set(a, isCal) !== set(b, isCal)) return true;
  const neg = (xs: readonly string[]) => xs.some((w) => NEGATIONS.has(w));
  if (neg(a) !== neg(b)) return true;
  const ea = p.old.entities.map((e) => e.toLowerCase());
  const eb = p.new.entities.map((e) => e.toLowerCase());
  if (ea.some((e) => !eb.includes(e)) || eb.some((e) => !ea.includes(e))) {
    if (ea.length > 0 && eb.length > 0) return true;
  }
  return false;
}

function sharesKey(p: DedupPair): boolean {
  const ea = new Set(p.old.entities.map((e) => e.toLowerCase()));
  const ta = new Set(p.old.themes.map((e) => e.toLowerCase()));
  return p.new.entities.some((e) => ea.has(e.toLowerCase())) || p.new.themes.some((t) => ta.has(t.toLowerCase()));
}

interface Scored {
  p: DedupPair;
  s: number;
}

function prf(scored: Scored[], t1: number, t2: number, useVeto: boolean) {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const { p, s } of scored) {
    const related = s >= t2 && s < t1 && p.old.type === p.new.type && sharesKey(p);
    let pred = s >= t1 || related;
    if (useVeto && vetoed(p)) pred = false;
    const gold = p.label === 'same';
    if (pred && gold) tp++;
    else if (pred) fp++;
    else if (gold) fn++;
  }
  const precision = tp + fp === 0 ? 1 : tp / (tp + fp);
  const recall = tp + fn === 0 ? 0 : tp / (tp + fn);
  return { precision, recall, tp, fp, fn };
}

const GRID = Array.from({ length: 60 }, (_, i) => Math.round((0.4 + i * 0.01) * 100) / 100);

/** Best same-recall with precision >= minP over (t1, t2); ties go to the higher (safer) thresholds. */
function bestAt(scored: Scored[], minP: number, useVeto: boolean) {
  let best = { t1: 1, t2: 1, precision: 1, recall: 0 };
  for (const t1 of GRID) {
    for (const t2 of GRID) {
      if (t2 > t1) continue;
      const r = prf(scored, t1, t2, useVeto);
      if (r.precision >= minP && (r.recall > best.recall || (r.recall === best.recall && t1 + t2 > best.t1 + best.t2))) {
        best = { t1, t2, precision: r.precision, recall: r.recall };
      }
    }
  }
  return best;
}

async function evaluate(sif: Partial<SifOptions>, verbose: boolean, fixed?: { t1: number; t2: number }) {
  const emb = new BuiltinEmbedder({ sif });
  await emb.init();
  const cos = (a: string, b: string) => {
    const [x, y] = emb.embedSync([a, b]);
    return cosine(x, y);
  };
  const dedup = loadDedup();
  const scored: Scored[] = dedup.map((p) => ({ p, s: cos(p.old.text, p.new.text) }));
  const bestAll = bestAt(scored, 0.95, false);
  const bestVeto = bestAt(scored, 0.95, true);
  const t1 = fixed?.t1 ?? bestVeto.t1;
  const t2 = fixed?.t2 ?? bestVeto.t2;

  const sts = loadSts();
  const stsCos = sts.map((r) => cos(r.a, r.b));
  const stsRho = spearman(stsCos, sts.map((r) => r.score));
  let stp = 0;
  let sfp = 0;
  let sfn = 0;
  sts.forEach((r, i) => {
    if (r.score > 2 && r.score < 4) return;
    const gold = r.score >= 4;
    const pred = stsCos[i] >= t1;
    if (pred && gold) stp++;
    else if (pred) sfp++;
    else if (gold) sfn++;
  });

  const sick = loadSick();
  const sickCos = sick.map((r) => cos(r.a, r.b));
  const contra = sick.map((r, i) => ({ r, c: sickCos[i] })).filter((x) => x.r.label === 'CONTRADICTION');
  const contraHigh = contra.filter((x) => x.c >= t1).length / contra.length;
  const sickRho = spearman(sickCos, sick.map((r) => r.score));

  const mrpc = loadMrpc();
  const mrpcCos = mrpc.map((r) => cos(r.a, r.b));
  const f1At = (t: number) => {
    let tp = 0;
    let fp = 0;
    let fn = 0;
    mrpc.forEach((r, i) => {
      const pred = mrpcCos[i] >= t;
      if (pred && r.para) tp++;
      else if (pred) fp++;
      else if (r.para) fn++;
    });
    return (2 * tp) / (2 * tp + fp + fn);
  };
  let mrpcBest = { t: 0, f1: 0 };
  for (let t = 0.3; t < 1; t += 0.01) {
    const f = f1At(t);
    if (f > mrpcBest.f1) mrpcBest = { t: Math.round(t * 100) / 100, f1: f };
  }

  const summary = {
    dedupRecallAllAtP95: bestAll,
    dedupRecallVetoAtP95: bestVeto,
    stsSpearman: stsRho,
    stsAtT1: { precision: stp / (stp + sfp), recall: stp / (stp + sfn) },
    sickSpearman: sickRho,
    sickContradictionShareAtT1: contraHigh,
    mrpcF1AtT1: f1At(t1),
    mrpcBest,
    t1,
    t2,
  };
  if (!verbose) return summary;

  console.log('\n== dedup dev pairs, sorted by cosine (V = vetoed by the value/polarity/correction stand-in, R = same type & shared entity/theme)');
  for (const { p, s } of [...scored].sort((x, y) => y.s - x.s)) {
    const flags = `${vetoed(p) ? 'V' : ' '}${p.old.type === p.new.type && sharesKey(p) ? 'R' : ' '}`;
    console.log(`${s.toFixed(3)} ${p.label.padEnd(9)} ${flags} ${p.old.text}  ||  ${p.new.text}`);
  }
  console.log('\n== precision / recall of "same" by (t1, t2): all pairs | after vetoes');
  for (const a of [0.95, 0.92, 0.9, 0.88, 0.86, 0.84, 0.82, 0.8, 0.78, 0.75]) {
    for (const b of [a, 0.81, 0.8, 0.75, 0.7, 0.65, 0.6, 0.55].filter((x) => x <= a)) {
      const all = prf(scored, a, b, false);
      const v = prf(scored, a, b, true);
      console.log(
        `t1=${a.toFixed(2)} t2=${b.toFixed(2)}  all P=${all.precision.toFixed(3)} R=${all.recall.toFixed(3)}` +
          `  | vetoed P=${v.precision.toFixed(3)} R=${v.recall.toFixed(3)} (fp=${v.fp})`,
      );
    }
  }
  console.log('\n== probes');
  const probes: Array<[string, string, string]> = [
    ['recall: must be below recallFloor', 'What is my sister\'s name?', 'I work as a nurse at the county hospital.'],
    ['recall: must be above recallFloor', 'Where did I grow up?', 'I grew up in Duluth.'],
    ['recall: must be above recallFloor', 'What is my dog called?', "My dog's name is Biscuit."],
    ['recall: should be above recallFloor', 'What is my favourite colour?', 'My favorite color is blue.'],
    ['recall: should be above recallFloor', 'Where does my brother live?', 'My brother Owen lives in Bristol.'],
    ['recall: should be below recallFloor', 'Where does my brother live?', "I'm allergic to peanuts."],
    ['recall: should be below recallFloor', 'What is my dog called?', 'I work as a nurse at the county hospital.'],
    ['topic: should be above topic', 'My favorite color is blue.', 'Actually, my favorite color is orange, not blue.'],
    ['topic: should be above topic', 'I live in Manchester.', 'I moved to Leeds last month.'],
    ['topic: should be above topic', 'I work at Acme Corp.', 'I just started a new job at Globex.'],
    ['topic: should be below topic', 'I live in Manchester.', 'My favorite color is blue.'],
    ['topic: should be below topic', 'I take vitamin D every morning.', 'My dog\'s name is Biscuit.'],
    ['numbers', 'My favorite number is 1729.', 'My favorite number is 42.'],
    ['spelling', 'My favourite colour is blue.', 'My favorite color is blue.'],
  ];
  for (const [what, a, b] of probes) console.log(`${cos(a, b).toFixed(3)}  ${what}: "${a}" vs "${b}"`);
  // Question/statement distribution for recallFloor: questions against unrelated dedup texts.
  const qs = ['What is my sister\'s name?', 'Where did I grow up?', 'What is my dog called?', 'What do I do for work?', 'When is my flight?', 'What am I allergic to?'];
  const texts = [...new Set(dedup.flatMap((p) => [p.old.text, p.new.text]))];
  const all = qs.flatMap((q) => texts.map((t) => cos(q, t))).sort((x, y) => x - y);
  const pct = (f: number) => all[Math.floor(f * (all.length - 1))].toFixed(3);
  console.log(`question x statement cosines (mostly unrelated): p50=${pct(0.5)} p90=${pct(0.9)} p95=${pct(0.95)} p99=${pct(0.99)}`);
  const corr = scored.filter((x) => x.p.label === 'corrects').map((x) => x.s).sort((x, y) => x - y);
  const diff = scored.filter((x) => x.p.label === 'different').map((x) => x.s).sort((x, y) => x - y);
  console.log(`corrects pairs: min=${corr[0].toFixed(3)} p10=${corr[Math.floor(corr.length * 0.1)].toFixed(3)} median=${corr[Math.floor(corr.length / 2)].toFixed(3)}`);
  console.log(`different pairs: min=${diff[0].toFixed(3)} median=${diff[Math.floor(diff.length / 2)].toFixed(3)}`);
  return summary;
}

const VARIANTS: Array<[string, Partial<SifOptions>]> = [
  ['default', {}],
  ['plain-sif', { lemmaFirst: false, stopWordFactor: 1 }],
  ['no-pc', { removePc: false }],
  ['a=3e-4', { a: 3e-4 }],
  ['a=3e-3', { a: 3e-3 }],
  ['a=1e-2', { a: 1e-2 }],
  ['stop*0.3', { stopWordFactor: 0.3 }],
  ['stop*0', { stopWordFactor: 0 }],
  ['lemma-first', { lemmaFirst: true }],
  ['numbers*0.5', { numberWeight: 0.5 }],
  ['lemma+stop*0.3', { lemmaFirst: true, stopWordFactor: 0.3 }],
  ['lemma+stop*0', { lemmaFirst: true, stopWordFactor: 0 }],
  ['lemma+a=3e-4', { lemmaFirst: true, a: 3e-4 }],
  ['lemma+no-pc', { lemmaFirst: true, removePc: false }],
  ['l+s.3+a3e-4', { lemmaFirst: true, stopWordFactor: 0.3, a: 3e-4 }],
  ['l+s.3+a3e-3', { lemmaFirst: true, stopWordFactor: 0.3, a: 3e-3 }],
  ['l+s.1', { lemmaFirst: true, stopWordFactor: 0.1 }],
];

const fmt = (s: Awaited<ReturnType<typeof evaluate>>) =>
  `dedup R@P95 all=${s.dedupRecallAllAtP95.recall.toFixed(3)} (t1=${s.dedupRecallAllAtP95.t1},t2=${s.dedupRecallAllAtP95.t2})` +
  ` vetoed=${s.dedupRecallVetoAtP95.recall.toFixed(3)} (t1=${s.dedupRecallVetoAtP95.t1},t2=${s.dedupRecallVetoAtP95.t2})` +
  ` | STS rho=${s.stsSpearman.toFixed(3)} P/R@t1=${s.stsAtT1.precision.toFixed(3)}/${s.stsAtT1.recall.toFixed(3)}` +
  ` | SICK rho=${s.sickSpearman.toFixed(3)} contra>=t1=${(s.sickContradictionShareAtT1 * 100).toFixed(1)}%` +
  ` | MRPC F1@t1=${s.mrpcF1AtT1.toFixed(3)} best=${s.mrpcBest.f1.toFixed(3)}@${s.mrpcBest.t}`;

if (process.argv.includes('--variants')) {
  for (const [name, sif] of VARIANTS) {
    const s = await evaluate(sif, false);
    console.log(`${name.padEnd(12)} ${fmt(s)}`);
  }
} else {
  const t1 = arg('--t1');
  const t2 = arg('--t2');
  const fixed = t1 !== undefined ? { t1: Number(t1), t2: Number(t2 ?? t1) } : { t1: BUILTIN_THRESHOLDS.close, t2: BUILTIN_THRESHOLDS.related };
  const s = await evaluate({}, true, fixed);
  console.log(`\n== summary at t1=${s.t1} t2=${s.t2}\n${fmt(s)}`);
  console.log(`suggested (max same-recall at P>=0.95 after vetoes): t1=${s.dedupRecallVetoAtP95.t1} t2=${s.dedupRecallVetoAtP95.t2}`);
  console.log(`suggested (max same-recall at P>=0.95, no vetoes):   t1=${s.dedupRecallAllAtP95.t1} t2=${s.dedupRecallAllAtP95.t2}`);
}
