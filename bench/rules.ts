/**
 * The recognition rules alone (`npm run bench -- --rules [--json]`): `decide` on LoCoMo turns and
 * the bench's template sentences, each against its 8 nearest earlier ones by the default embedder
 * (USE-lite), as a remember would meet them. Two figures, per case (one `decide`), each the second
 * best of 11 passes: with every sentence's readings cached (`decide_warm_ms`: a space's recent
 * memories) and read afresh (`decide_cold_ms`: the rules' sentence caches emptied before the pass).
 * `decisions_md5` is the digest of every decision written out: a change of speed that changes no
 * decision leaves it as it was (docs/bench-rounds.md, "Thirtieth round").
 */
import { createHash } from 'node:crypto';
import { decide, type Candidate } from '../src/core/recognition.js';
import { deriveEntities, deriveNames } from '../src/core/derive.js';
import { ensureLexicon, registerLexiconLoader } from '../src/core/lexicon.js';
import { forgetSentenceReadings } from '../src/core/memo.js';
import { normalizeText } from '../src/core/normalize.js';
import { cosine } from '../src/core/vectors.js';
import { UseLiteEmbedder, USE_LITE_THRESHOLDS } from '../src/embed/use-lite-embedder.js';
import { loadWordNet } from '../src/lexicon/wordnet.js';
import { locomoTexts, templateSentence } from './workload.js';

export interface RulesResult {
  cases: number;
  candidates_per_case: number;
  decide_warm_ms: number;
  decide_cold_ms: number;
  decisions_md5: string;
}

const K = 8;
const PASSES = 11;

export async function runRules(o: { turns?: number; templates?: number } = {}): Promise<RulesResult> {
  registerLexiconLoader(() => loadWordNet());
  await ensureLexicon();
  const turns = locomoTexts().turns.slice(0, o.turns ?? 600);
  const templates = Array.from({ length: o.templates ?? 200 }, (_, i) => templateSentence(i));
  const embedder = new UseLiteEmbedder({});
  await embedder.init();
  const embedAll = async (texts: string[]) => {
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += 16) out.push(...(await embedder.embed(texts.slice(i, i + 16))));
    return out;
  };
  const groups = [turns, templates];
  const vectors = [await embedAll(turns), await embedAll(templates)];
  await embedder.close();

  // Each sentence from the twentieth of its group on, against its K nearest earlier ones.
  const cases: Array<{ text: string; candidates: Candidate[] }> = [];
  groups.forEach((texts, g) => {
    const vs = vectors[g]!;
    const candidate = (j: number, score: number): Candidate => ({
      id: `m${g}:${j}`, text: texts[j]!, normalized: normalizeText(texts[j]!), type: 'FACT', entities: [], themes: [],
      messageId: `msg${g}:${j}`, score, derivedEntities: deriveEntities(texts[j]!), derivedNames: deriveNames(texts[j]!),
    });
    for (let i = 20; i < texts.length; i++) {
      const near = Array.from({ length: i }, (_, j) => [j, cosine(vs[i]!, vs[j]!)] as const).sort((a, b) => b[1] - a[1]).slice(0, K);
      cases.push({ text: texts[i]!, candidates: near.map(([j, s]) => candidate(j, s)) });
    }
  });

  const t = { ...USE_LITE_THRESHOLDS };
  const pass = (): { ms: number; decisions: string[] } => {
    const decisions: string[] = [];
    const start = performance.now();
    for (const c of cases) {
      const x = c.text;
      decisions.push(JSON.stringify(decide({
        text: x, normalized: normalizeText(x), type: 'FACT', entities: [], themes: [],
        get derivedEntities() { return deriveEntities(x); }, get derivedNames() { return deriveNames(x); },
        previousSentence: null, messageId: 'new',
      }, c.candidates, t)));
    }
    return { ms: (performance.now() - start) / cases.length, decisions };
  };
  const first = pass().decisions;
  const warm: number[] = [];
  const cold: number[] = [];
  for (let r = 0; r < PASSES; r++) {
    forgetSentenceReadings();
    const c = pass();
    cold.push(c.ms);
    const w = pass();
    warm.push(w.ms);
    // (the same decisions each pass, whatever the caches held)
    if (c.decisions.join('\n') !== first.join('\n') || w.decisions.join('\n') !== first.join('\n')) throw new Error('decide gave other decisions on a later pass');
  }
  const second = (xs: number[]) => Math.round([...xs].sort((a, b) => a - b)[1]! * 1000) / 1000;
  return {
    cases: cases.length, candidates_per_case: K, decide_warm_ms: second(warm), decide_cold_ms: second(cold),
    decisions_md5: createHash('md5').update(first.join('\n')).digest('hex'),
  };
}
