// usage: cd TREE && npx tsx /work/scratch/srv-recall.mts  (recall() on engram_bench, lookup vectors)
const T = process.cwd();
const { configFromEnv } = await import(`${T}/src/config.ts`);
const { createEngram } = await import(`${T}/src/container.ts`);
const { recall } = await import(`${T}/src/memory/recall.ts`);
const { LookupEmbedder } = await import(`${T}/bench/lookup-embedder.ts`);
const { templateSentence } = await import(`${T}/bench/workload.ts`);
const pg = (await import('pg')).default;
const url = 'postgres://engram:engram@127.0.0.1:5432/engram_bench';
const c = new pg.Client(url); await c.connect();
const space = (await c.query(`select space_id from lexicon_stats limit 1`)).rows[0].space_id; await c.end();
const emb = new LookupEmbedder(512);
let seed = 7; const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648) - 0.5;
const qs: string[] = [];
for (let j = 0; j < 80; j++) {
  const v = new Float32Array(512); let n = 0; for (let i = 0; i < 512; i++) { v[i] = rnd(); n += v[i] * v[i]; }
  for (let i = 0; i < 512; i++) v[i] /= Math.sqrt(n);
  const q = `Who ${templateSentence(9_000_000 + j).toLowerCase().replace(/\.$/, '')}?`; emb.register(q, v); qs.push(q);
}
const engram = await createEngram(configFromEnv({}, { databaseUrl: url, logLevel: 'silent', engine: 'pgvector' }), { embedder: emb });
const ms: number[] = [];
for (let r = 0; r < 2; r++) for (const q of qs) { const t = performance.now(); await recall(engram.deps, space, q, 10); if (r) ms.push(performance.now() - t); }
ms.sort((a, b) => a - b);
console.log(T, 'recall p50', ms[ms.length >> 1].toFixed(1), 'p90', ms[Math.floor(ms.length * 0.9)].toFixed(1));
await engram.close(); process.exit(0);
