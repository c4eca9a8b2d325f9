/**
 * Calibrates the recognition thresholds of the USE-lite embedder
 * (src/embed/use-lite-embedder.ts). Run: npx tsx scripts/calibrate-use.ts
 *
 * Reads the dev pairs and public sets under /work/shared/eval (paths can be
 * overridden with ENGRAM_EVAL_DIR), prints every figure that
 * docs/embedder-use-lite.md quotes, and ends with suggested thresholds.
 * Nothing is tuned per case: thresholds are picked by simple rules stated
 * next to each suggestion.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { UseLiteEmbedder } from '../src/embed/use-lite-embedder.js';

const EVAL_DIR = process.env.ENGRAM_EVAL_DIR ?? '/work/shared/eval';
const EXTERNAL = join(EVAL_DIR, 'external');

// ---------------------------------------------------------------- helpers

const f3 = (x: number): string => (Number.isFinite(x) ? x.toFixed(3) : '  -  ');
const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

interface Counts {
  tp: number;
  fp: number;
  fn: number;
  tn: number;
}
function prf(c: Counts): { p: number; r: number; f1: number; acc: number } {
  const p = c.tp + c.fp === 0 ? NaN : c.tp / (c.tp + c.fp);
  const r = c.tp + c.fn === 0 ? NaN : c.tp / (c.tp + c.fn);
  const f1 = p + r > 0 ? (2 * p * r) / (p + r) : 0;
  const acc = (c.tp + c.tn) / (c.tp + c.fp + c.fn + c.tn);
  return { p, r, f1: Number.isFinite(f1) ? f1 : 0, acc };
}

function ranks(xs: number[]): number[] {
  const idx = xs.map((x, i) => [x, i] as const).sort((a, b) => a[0] - b[0]);
  const r = new Array<number>(xs.length);
  for (let i = 0; i < idx.length; ) {
    let j = i;
    while (j + 1 < idx.length && idx[j + 1][0] === idx[i][0]) j++;
    const avg = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) r[idx[k][1]] = avg;
    i = j + 1;
  }
  return r;
}
function pearson(a: number[], b: number[]): number {
  const n = a.length;
  const ma = a.reduce((s, x) => s + x, 0) / n;
  const mb = b.reduce((s, x) => s + x, 0) / n;
  let num = 0;
  let da = 0;
  let db = 0;
  for (let i = 0; i < n; i++) {
    num += (a[i] - ma) * (b[i] - mb);
    da += (a[i] - ma) ** 2;
    db += (b[i] - mb) ** 2;
  }
  return num / Math.sqrt(da * db);
}
const spearman = (a: number[], b: number[]): number => pearson(ranks(a), ranks(b));

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

/** Round down / up to a 0.05 grid so suggestions are not fitted to the last digit. */
const floor05 = (x: number): number => Math.floor(x * 20 + 1e-9) / 20;
const ceil05 = (x: number): number => Math.ceil(x * 20 - 1e-9) / 20;

// ---------------------------------------------------------------- embedding with a cache

const embedder = new UseLiteEmbedder({ batchSize: 32 });
const cache = new Map<string, Float32Array>();
let embedMs = 0;
let embedCount = 0;

// Optional disk cache for re-runs (CALIBRATE_USE_CACHE=/tmp/use-cache): vectors keyed by text.
const CACHE_PATH = process.env.CALIBRATE_USE_CACHE;
if (CACHE_PATH && existsSync(`${CACHE_PATH}.json`)) {
  const texts = JSON.parse(readFileSync(`${CACHE_PATH}.json`, 'utf8')) as string[];
  const buf = readFileSync(`${CACHE_PATH}.bin`);
  const all = new Float32Array(buf.buffer, buf.byteOffset, buf.byteLength / 4);
  texts.forEach((t, i) => cache.set(t, all.slice(i * 512, (i + 1) * 512)));
}
function saveCache(): void {
  if (!CACHE_PATH) return;
  const texts = [...cache.keys()];
  const all = new Float32Array(texts.length * 512);
  texts.forEach((t, i) => all.set(cache.get(t)!, i * 512));
  writeFileSync(`${CACHE_PATH}.json`, JSON.stringify(texts));
  writeFileSync(`${CACHE_PATH}.bin`, Buffer.from(all.buffer));
}

async function embedAll(texts: string[]): Promise<void> {
  const todo = [...new Set(texts)].filter((t) => !cache.has(t));
  const CHUNK = 512;
  for (let i = 0; i < todo.length; i += CHUNK) {
    const part = todo.slice(i, i + CHUNK);
    const t0 = performance.now();
    const vs = await embedder.embed(part);
    embedMs += performance.now() - t0;
    embedCount += part.length;
    part.forEach((t, k) => cache.set(t, vs[k]));
  }
}
async function cosines(pairs: Array<[string, string]>): Promise<number[]> {
  await embedAll(pairs.flat());
  return pairs.map(([a, b]) => dot(cache.get(a)!, cache.get(b)!));
}

// ---------------------------------------------------------------- 0. load and timing

const rssBefore = process.memoryUsage().rss;
let t = performance.now();
await embedder.init();
const loadMs = performance.now() - t;
const rssLoaded = process.memoryUsage().rss;

const timingSentences = Array.from({ length: 96 }, (_, i) => `Timing sentence number ${i}: I walk the dog at ${i % 12} o'clock.`);
await embedder.embed(['warm up']);
t = performance.now();
for (const s of timingSentences.slice(0, 24)) await embedder.embed([s]);
const singleMs = (performance.now() - t) / 24;
t = performance.now();
await embedder.embed(timingSentences);
const batchedMs = (performance.now() - t) / timingSentences.length;

console.log('# USE-lite (use-lite-512@1) calibration\n');
console.log(`load: ${loadMs.toFixed(0)} ms; RSS ${(rssBefore / 2 ** 20).toFixed(0)} MB -> ${(rssLoaded / 2 ** 20).toFixed(0)} MB after load`);
console.log(`single-text call: ${singleMs.toFixed(1)} ms/text; batched (32 per pass): ${batchedMs.toFixed(1)} ms/text = ${(1000 / batchedMs).toFixed(0)} texts/s\n`);

// ---------------------------------------------------------------- 1. dev dedup pairs

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
const dedup: DedupPair[] = readFileSync(join(EVAL_DIR, 'dedup-pairs.dev.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l) as DedupPair);
const dedupCos = await cosines(dedup.map((d) => [d.old.text, d.new.text]));
const scored = dedup.map((d, i) => ({ ...d, cos: dedupCos[i] }));

const lower = (xs: string[]): Set<string> => new Set(xs.map((x) => x.toLowerCase()));
function context(d: DedupPair): boolean {
  if (d.old.type !== d.new.type) return false;
  const e = lower(d.old.entities);
  const th = lower(d.old.themes);
  return d.new.entities.some((x) => e.has(x.toLowerCase())) || d.new.themes.some((x) => th.has(x.toLowerCase()));
}
const ctx = scored.map(context);
const merges = (i: number, t1: number, t2: number): boolean => scored[i].cos >= t1 || (scored[i].cos >= t2 && ctx[i]);

console.log(`## Dev dedup pairs (${dedup.length}: ${['same', 'different', 'corrects'].map((l) => `${dedup.filter((d) => d.label === l).length} ${l}`).join(', ')})\n`);
console.log('cos    label      ctx id    old | new');
for (const i of scored.map((_, i) => i).sort((a, b) => scored[b].cos - scored[a].cos)) {
  const d = scored[i];
  console.log(`${f3(d.cos)}  ${d.label.padEnd(9)}  ${ctx[i] ? 'y' : '-'}   ${d.id}  ${d.old.text} | ${d.new.text}`);
}

function evalGrid(t1: number, t2: number, includeCorrects: boolean): Counts {
  const c: Counts = { tp: 0, fp: 0, fn: 0, tn: 0 };
  scored.forEach((d, i) => {
    if (!includeCorrects && d.label === 'corrects') return;
    const m = merges(i, t1, t2);
    const same = d.label === 'same';
    if (m && same) c.tp++;
    else if (m) c.fp++;
    else if (same) c.fn++;
    else c.tn++;
  });
  return c;
}

const T1 = Array.from({ length: 15 }, (_, i) => +(0.6 + i * 0.025).toFixed(3));
const T2 = Array.from({ length: 11 }, (_, i) => +(0.35 + i * 0.05).toFixed(3));
interface GridRow {
  t1: number;
  t2: number;
  all: ReturnType<typeof prf>;
  sd: ReturnType<typeof prf>;
  allC: Counts;
  sdC: Counts;
}
const grid: GridRow[] = [];
for (const t1 of T1)
  for (const t2 of T2) {
    if (t2 > t1) continue;
    const allC = evalGrid(t1, t2, true);
    const sdC = evalGrid(t1, t2, false);
    grid.push({ t1, t2, allC, sdC, all: prf(allC), sd: prf(sdC) });
  }

function printGrid(title: string, key: 'all' | 'sd'): void {
  console.log(`\n### ${title}: F1 of "same" (rows t1 = CLOSE, columns t2 = RELATED; t2 = t1 means no RELATED band)`);
  console.log(`t1\\t2  ${T2.map((x) => x.toFixed(2).padStart(6)).join('')}`);
  for (const t1 of T1) {
    const cells = T2.map((t2) => {
      const row = grid.find((g) => g.t1 === t1 && g.t2 === t2);
      return (row ? row[key].f1.toFixed(3) : '').padStart(6);
    });
    console.log(`${t1.toFixed(3)} ${cells.join('')}`);
  }
}
printGrid('All pairs (corrects count as not-same)', 'all');
printGrid('same vs different only (corrects excluded: the rule layer vetoes them)', 'sd');

// ---------------------------------------------------------------- external sets (embedded here: t1 is chosen on them too)

const sts = readFileSync(join(EXTERNAL, 'sts-dev.csv'), 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => l.split('\t'))
  .filter((f) => f.length >= 7 && Number.isFinite(Number(f[4])))
  .map((f) => ({ score: Number(f[4]), a: f[5], b: f[6] }));
const stsCos = await cosines(sts.map((r) => [r.a, r.b]));
function stsAt(th: number): Counts {
  const c: Counts = { tp: 0, fp: 0, fn: 0, tn: 0 };
  sts.forEach((r, i) => {
    if (r.score > 2 && r.score < 4) return;
    const same = r.score >= 4;
    const m = stsCos[i] >= th;
    if (m && same) c.tp++;
    else if (m) c.fp++;
    else if (same) c.fn++;
    else c.tn++;
  });
  return c;
}
const sickLines = readFileSync(join(EXTERNAL, 'sick-train-trial.tsv'), 'utf8').split('\n').filter((l) => l.trim());
const head = sickLines[0].replace(/^\uFEFF/, '').split('\t');
const col = (name: string): number => {
  const i = head.indexOf(name);
  if (i < 0) throw new Error(`SICK: no column ${name}`);
  return i;
};
const [cA, cB, cRel, cLab, cAB, cBA] = ['sentence_A', 'sentence_B', 'relatedness_score', 'entailment_label', 'entailment_AB', 'entailment_BA'].map(col);
const sick = sickLines.slice(1).map((l) => {
  const f = l.split('\t');
  return { a: f[cA], b: f[cB], rel: Number(f[cRel]), label: f[cLab], ab: f[cAB], ba: f[cBA] };
});
const sickCos = await cosines(sick.map((r) => [r.a, r.b]));
const contra = sick.map((r, i) => ({ r, c: sickCos[i] })).filter((x) => x.r.label === 'CONTRADICTION');
const mutual = sick.map((r, i) => ({ r, c: sickCos[i] })).filter((x) => x.r.ab === 'A_entails_B' && x.r.ba === 'B_entails_A');
const mrpc = readFileSync(join(EXTERNAL, 'mrpc-train.txt'), 'utf8')
  .replace(/^\uFEFF/, '')
  .split('\n')
  .slice(1)
  .filter((l) => l.trim())
  .map((l) => l.split('\t'))
  .filter((f) => f.length >= 5)
  .map((f) => ({ q: f[0].trim() === '1', a: f[3], b: f[4] }));
const mrpcCos = await cosines(mrpc.map((r) => [r.a, r.b]));
function mrpcAt(th: number): ReturnType<typeof prf> {
  const c: Counts = { tp: 0, fp: 0, fn: 0, tn: 0 };
  mrpc.forEach((r, i) => {
    const m = mrpcCos[i] >= th;
    if (m && r.q) c.tp++;
    else if (m) c.fp++;
    else if (r.q) c.fn++;
    else c.tn++;
  });
  return prf(c);
}
// ---------------------------------------------------------------- choosing t1 (CLOSE) and t2 (RELATED)

// On the dev pairs almost every pair shares type and a theme, so once a RELATED band exists F1 is flat
// in t1 (see the grids): the dev pairs cannot pick t1. CLOSE is "the same with no other evidence", so
// t1 is chosen for CLOSE alone: the lowest grid value at which a bare score >= t1 is precise both on
// the dev pairs (same vs different, precision >= TARGET_P) and on STS-B (score >= 4 vs <= 2,
// precision >= TARGET_P). Then t2 is the value with the best dev F1 over all pairs under that t1
// (ties within 0.005 go to the higher t2: a false merge loses a memory, a missed one only duplicates it).
const TARGET_P = 0.9;
function closeAloneDev(t1: number): Counts {
  const c: Counts = { tp: 0, fp: 0, fn: 0, tn: 0 };
  scored.forEach((d) => {
    if (d.label === 'corrects') return;
    const m = d.cos >= t1;
    const same = d.label === 'same';
    if (m && same) c.tp++;
    else if (m) c.fp++;
    else if (same) c.fn++;
    else c.tn++;
  });
  return c;
}
const contraAll = sick.map((r, i) => ({ r, c: sickCos[i] })).filter((x) => x.r.label === 'CONTRADICTION');
console.log('\n### CLOSE alone (no context), by t1');
console.log('t1     | dev same/diff P  R     fp | dev corrects >= t1 | STS P  R      | SICK contra >= t1 | MRPC acc  P');
const T1C = Array.from({ length: 9 }, (_, i) => +(0.75 + i * 0.025).toFixed(3));
let CLOSE = 0.95;
for (const t1 of T1C) {
  const dc = closeAloneDev(t1);
  const dm = prf(dc);
  const sm = prf(stsAt(t1));
  const mm = mrpcAt(t1);
  const corr = scored.filter((d) => d.label === 'corrects' && d.cos >= t1).length;
  console.log(
    `${t1.toFixed(3)}  |       ${f3(dm.p)}  ${f3(dm.r)}  ${String(dc.fp).padStart(2)} |           ${String(corr).padStart(2)}/24    | ${f3(sm.p)}  ${f3(sm.r)} | ${pct(contraAll.filter((x) => x.c >= t1).length / contraAll.length).padStart(8)}          | ${f3(mm.acc)}  ${f3(mm.p)}`,
  );
}
for (const t1 of T1C) {
  if (prf(closeAloneDev(t1)).p >= TARGET_P && prf(stsAt(t1)).p >= TARGET_P) {
    CLOSE = t1;
    break;
  }
}
const best = grid
  .filter((g) => g.t1 === CLOSE && g.t2 < CLOSE)
  .sort((a, b) => (Math.abs(b.all.f1 - a.all.f1) > 0.005 ? b.all.f1 - a.all.f1 : b.t2 - a.t2))[0];
const RELATED = best.t2;

console.log('\n### Top 10 settings by F1 (all pairs)');
console.log('t1     t2     | all: P     R      F1    | same/diff: P  R      F1');
for (const g of [...grid].sort((a, b) => b.all.f1 - a.all.f1 || b.t1 - a.t1).slice(0, 10)) {
  console.log(`${g.t1.toFixed(3)}  ${g.t2.toFixed(2)}   |      ${f3(g.all.p)}  ${f3(g.all.r)}  ${f3(g.all.f1)} |            ${f3(g.sd.p)}  ${f3(g.sd.r)}  ${f3(g.sd.f1)}`);
}
console.log(`\nsuggested: close (t1) = ${CLOSE}, related (t2) = ${RELATED}`);
console.log(`  all pairs:      P ${f3(best.all.p)} R ${f3(best.all.r)} F1 ${f3(best.all.f1)}  (tp ${best.allC.tp}, fp ${best.allC.fp}, fn ${best.allC.fn})`);
console.log(`  same/different: P ${f3(best.sd.p)} R ${f3(best.sd.r)} F1 ${f3(best.sd.f1)}  (tp ${best.sdC.tp}, fp ${best.sdC.fp}, fn ${best.sdC.fn})`);
const closeOnly = prf(evalGrid(CLOSE, CLOSE, true));
console.log(`  CLOSE alone (no RELATED band), all pairs: P ${f3(closeOnly.p)} R ${f3(closeOnly.r)} F1 ${f3(closeOnly.f1)}`);
console.log('\n`different` / `corrects` pairs merged at the suggested thresholds (for the rule layer to veto):');
scored.forEach((d, i) => {
  if (d.label !== 'same' && merges(i, CLOSE, RELATED)) {
    console.log(`  ${d.id} ${d.label.padEnd(9)} ${f3(d.cos)} ${d.cos >= CLOSE ? 'CLOSE  ' : 'RELATED'}  ${d.old.text} | ${d.new.text}`);
  }
});
console.log('`same` pairs missed at the suggested thresholds:');
scored.forEach((d, i) => {
  if (d.label === 'same' && !merges(i, CLOSE, RELATED)) {
    console.log(`  ${d.id} ${f3(d.cos)} ctx=${ctx[i] ? 'y' : '-'}  ${d.old.text} | ${d.new.text}`);
  }
});

// ---------------------------------------------------------------- 2. STS-B dev

console.log(`\n## STS-B dev (${sts.length} pairs)`);
console.log(`Spearman(cos, score) = ${spearman(stsCos, sts.map((r) => r.score)).toFixed(4)}; Pearson = ${pearson(stsCos, sts.map((r) => r.score)).toFixed(4)}`);
for (const th of [CLOSE, RELATED]) {
  const c = stsAt(th);
  const m = prf(c);
  console.log(`cos >= ${th}: "same" (score >= 4, n=${c.tp + c.fn}) vs "different" (score <= 2, n=${c.fp + c.tn}): P ${f3(m.p)} R ${f3(m.r)} F1 ${f3(m.f1)} (fp ${c.fp})`);
}

// ---------------------------------------------------------------- 3. SICK

console.log(`\n## SICK train+trial (${sick.length} pairs)`);
console.log(`Spearman(cos, relatedness) = ${spearman(sickCos, sick.map((r) => r.rel)).toFixed(4)}`);
for (const th of [CLOSE, RELATED]) {
  console.log(
    `cos >= ${th}: CONTRADICTION pairs ${pct(contra.filter((x) => x.c >= th).length / contra.length)} of ${contra.length}; ` +
      `mutual-entailment pairs ${pct(mutual.filter((x) => x.c >= th).length / mutual.length)} of ${mutual.length}`,
  );
}
console.log('highest-scoring CONTRADICTION pairs:');
for (const x of [...contra].sort((a, b) => b.c - a.c).slice(0, 5)) console.log(`  ${f3(x.c)}  ${x.r.a} | ${x.r.b}`);

// ---------------------------------------------------------------- 4. MRPC

console.log(`\n## MRPC train (${mrpc.length} pairs, ${pct(mrpc.filter((r) => r.q).length / mrpc.length)} paraphrases)`);
for (const th of [CLOSE, RELATED]) {
  const m = mrpcAt(th);
  console.log(`cos >= ${th}: accuracy ${f3(m.acc)}, P ${f3(m.p)} R ${f3(m.r)} F1 ${f3(m.f1)}`);
}
let bestMrpc = { th: 0, acc: 0 };
for (let th = 0.3; th <= 0.951; th += 0.025) {
  const m = mrpcAt(th);
  if (m.acc > bestMrpc.acc) bestMrpc = { th: +th.toFixed(3), acc: m.acc };
}
console.log(`(for reference: best accuracy on MRPC is ${f3(bestMrpc.acc)} at cos >= ${bestMrpc.th}; always-paraphrase baseline ${f3(mrpc.filter((r) => r.q).length / mrpc.length)})`);

// ---------------------------------------------------------------- 5. recall floor: question -> statement

const questions: Array<{ q: string; s: string; relevant: boolean }> = [
  { q: "What is my sister's name?", s: 'I work as a nurse at the county hospital.', relevant: false },
  { q: 'Where did I grow up?', s: 'I grew up in Duluth.', relevant: true },
  { q: 'What is my dog called?', s: "My dog's name is Biscuit.", relevant: true },
  { q: 'How do I like my summaries?', s: 'When you summarize anything for me, keep it to three bullet points.', relevant: true },
  { q: 'What project am I working on at home?', s: "This spring I'm building a greenhouse in the back garden.", relevant: true },
  { q: 'What are my hobbies?', s: 'I love hiking in the Lake District.', relevant: true },
  { q: 'Do I have any food allergies?', s: 'I have a peanut allergy, so watch out for that in recipes.', relevant: true },
  { q: 'When does my gym membership renew?', s: 'My gym membership renews in March.', relevant: true },
  { q: 'What will the weather be in Bristol?', s: 'My brother Owen lives in Bristol.', relevant: false },
  { q: 'How do I take my coffee?', s: 'I work as a nurse at the county hospital.', relevant: false },
];
const qCos = await cosines(questions.map((x) => [x.q, x.s]));
console.log('\n## Recall: question -> statement');
questions.forEach((x, i) => console.log(`  ${f3(qCos[i])}  ${x.relevant ? 'relevant  ' : 'IRRELEVANT'}  ${x.q} -> ${x.s}`));
const relMin = Math.min(...qCos.filter((_, i) => questions[i].relevant));
const irrMax = Math.max(...qCos.filter((_, i) => !questions[i].relevant));
// Cross pairs: every question against every relevant statement it was NOT written for.
const crossQ: number[] = [];
const crossPairs: Array<[string, string]> = [];
questions.forEach((a) =>
  questions.forEach((b) => {
    if (a.q !== b.q && b.relevant && a.s !== b.s) crossPairs.push([a.q, b.s]);
  }),
);
crossQ.push(...(await cosines(crossPairs)));
const crossSorted = [...crossQ].sort((a, b) => a - b);
console.log(
  `lowest relevant ${f3(relMin)}, highest irrelevant ${f3(irrMax)}; ` +
    `mismatched question/statement cross pairs (n=${crossQ.length}): median ${f3(quantile(crossSorted, 0.5))}, p90 ${f3(quantile(crossSorted, 0.9))}, max ${f3(crossSorted[crossSorted.length - 1])}`,
);
// Floor: on a 0.025 grid, the value that classifies most of the ten pairs correctly, and must reject the
// first (sister -> nurse); ties go to the value farthest from every pair's score (the widest margin).
const mustReject = qCos[0];
let recallFloor = NaN;
let bestKey = [-1, -1];
for (let f = 0.2; f <= 0.601; f += 0.025) {
  const floor = +f.toFixed(3);
  if (floor <= mustReject) continue;
  const correct = qCos.filter((c, i) => (c >= floor) === questions[i].relevant).length;
  const margin = Math.min(...qCos.map((c) => Math.abs(c - floor)));
  if (correct > bestKey[0] || (correct === bestKey[0] && margin > bestKey[1])) {
    bestKey = [correct, margin];
    recallFloor = floor;
  }
}
console.log(`suggested recallFloor = ${recallFloor} (rejects ${qCos.filter((c, i) => !questions[i].relevant && c < recallFloor).length}/3 irrelevant (margin ${f3(bestKey[1])}), keeps ${qCos.filter((c, i) => questions[i].relevant && c >= recallFloor).length}/7 relevant, cross pairs above: ${pct(crossQ.filter((c) => c >= recallFloor).length / crossQ.length)})`);

// ---------------------------------------------------------------- 6. topic threshold

const corrects = scored.filter((d) => d.label === 'corrects').sort((a, b) => a.cos - b.cos);
console.log('\n## Topic: `corrects` pairs (lowest first)');
for (const d of corrects) console.log(`  ${f3(d.cos)}  ${d.id}  ${d.old.text} | ${d.new.text}`);
const offTopic = scored.filter((d) => {
  if (d.label !== 'different') return false;
  const th = lower(d.old.themes);
  return !d.new.themes.some((x) => th.has(x.toLowerCase()));
});
console.log('`different` pairs with no shared theme (different topics):');
for (const d of [...offTopic].sort((a, b) => b.cos - a.cos)) console.log(`  ${f3(d.cos)}  ${d.id}  ${d.old.text} | ${d.new.text}`);
// Unrelated baseline: old text of one pair vs new text of another whose themes are disjoint.
const unrelatedPairs: Array<[string, string]> = [];
for (const a of dedup)
  for (const b of dedup) {
    if (a.id === b.id) continue;
    const th = lower(a.old.themes);
    if (b.new.themes.some((x) => th.has(x.toLowerCase()))) continue;
    unrelatedPairs.push([a.old.text, b.new.text]);
  }
const unrelated = (await cosines(unrelatedPairs)).sort((a, b) => a - b);
console.log(
  `unrelated cross pairs (disjoint themes, n=${unrelated.length}): median ${f3(quantile(unrelated, 0.5))}, p95 ${f3(quantile(unrelated, 0.95))}, p99 ${f3(quantile(unrelated, 0.99))}, max ${f3(unrelated[unrelated.length - 1])}`,
);
const corrSorted = corrects.map((d) => d.cos);
const p10 = quantile(corrSorted, 0.1);
const topic = floor05(p10);
console.log(
  `corrects: min ${f3(corrSorted[0])}, 10th percentile ${f3(p10)}; suggested topic = ${topic} ` +
    `(corrects above: ${pct(corrSorted.filter((c) => c >= topic).length / corrSorted.length)}, ` +
    `off-topic different above: ${offTopic.filter((d) => d.cos >= topic).length}/${offTopic.length}, ` +
    `unrelated cross pairs above: ${pct(unrelated.filter((c) => c >= topic).length / unrelated.length)})`,
);

// ---------------------------------------------------------------- summary

const rssEnd = process.memoryUsage().rss;
console.log('\n## Summary');
console.log(
  embedCount > 0
    ? `embedded ${embedCount} distinct texts in ${(embedMs / 1000).toFixed(1)} s = ${(embedCount / (embedMs / 1000)).toFixed(0)} texts/s (batches of 32, mixed lengths); RSS at end ${(rssEnd / 2 ** 20).toFixed(0)} MB`
    : `all vectors came from the cache (${CACHE_PATH}); RSS at end ${(rssEnd / 2 ** 20).toFixed(0)} MB`,
);
console.log(`suggested thresholds: { close: ${CLOSE}, related: ${RELATED}, topic: ${topic}, recallFloor: ${recallFloor} }`);
console.log(`configured in UseLiteEmbedder: ${JSON.stringify(embedder.thresholds)}`);
saveCache();
await embedder.close();
