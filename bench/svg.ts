/** results.svg: a hand-written grouped bar chart (log scale) of p50 latencies per case, engines side by side with the floor. */
import type { BenchResults } from './run.js';
import { fmt } from './report.js';

const COLORS: Record<string, string> = {
  pgvector: '#336791', 'pgvector-pglite': '#6f9fd8', lancedb: '#e3833b', qdrant: '#dc244c', floor: '#7a7a7a',
};
const PANELS = [
  { workload: 'remember() with recognition', metric: 'p50', title: 'remember() p50' },
  { workload: 'recognition search (exact)', metric: 'p50', title: 'recognition search, exact, p50' },
  { workload: 'search k=10 (approximate)', metric: 'p50', title: 'vector search k=10, approximate, p50' },
  { workload: 'recall() use case', metric: 'p50', title: 'recall() p50' },
];

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function renderSvg(r: BenchResults): string {
  const engines = [...new Set(r.cases.flatMap((c) => c.engines))];
  const groups = r.cases.map((c) => `${c.spec.n >= 1000 ? `${c.spec.n / 1000}K` : c.spec.n} · ${c.spec.dim}d · ${c.spec.spaces === 1 ? '1 space' : `${c.spec.spaces} sp`}`);
  const barW = 12;
  const groupW = Math.max(engines.length * barW + 16, 90);
  const panelW = 70 + groups.length * groupW;
  const panelH = 210;
  const W = Math.max(panelW, 640);
  const top = 70;
  const H = top + PANELS.length * (panelH + 50) + 30;
  const vals = r.cases.flatMap((c) => c.rows.filter((x) => PANELS.some((p) => p.workload === x.workload && p.metric === x.metric)).map((x) => x.value))
    .filter((v) => Number.isFinite(v) && v > 0);
  const lo = Math.pow(10, Math.floor(Math.log10(Math.min(...vals, 1))));
  const hi = Math.pow(10, Math.ceil(Math.log10(Math.max(...vals, 1))));
  const y = (v: number, y0: number) => y0 + panelH - ((Math.log10(v) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo))) * panelH;
  const m = r.machine;
  const s: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="11">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<text x="10" y="18" font-size="14" font-weight="bold">Engram bench: p50 latency in ms (log scale), engines beside the brute-force floor</text>`,
    `<text x="10" y="34">${esc(`${m.cpu}, ${m.cores} cores, ${m.ramGiB} GiB, Node ${m.node}. ${m.note}`).slice(0, 200)}</text>`,
  ];
  engines.forEach((e, i) => {
    s.push(`<rect x="${10 + i * 120}" y="44" width="10" height="10" fill="${COLORS[e] ?? '#999'}"/><text x="${24 + i * 120}" y="53">${esc(e)}</text>`);
  });
  PANELS.forEach((p, pi) => {
    const y0 = top + pi * (panelH + 50) + 20;
    s.push(`<text x="10" y="${y0 - 6}" font-weight="bold">${esc(p.title)}</text>`);
    for (let d = lo; d <= hi * 1.0001; d *= 10) {
      const yy = y(d, y0).toFixed(1);
      s.push(`<line x1="60" x2="${panelW}" y1="${yy}" y2="${yy}" stroke="#ddd"/><text x="55" y="${yy}" text-anchor="end" dy="3">${fmt(d)}</text>`);
    }
    r.cases.forEach((c, gi) => {
      const gx = 70 + gi * groupW;
      engines.forEach((e, ei) => {
        const row = c.rows.find((x) => x.engine === e && x.workload === p.workload && x.metric === p.metric);
        if (!row || !Number.isFinite(row.value) || row.value <= 0) return;
        const yy = y(Math.max(row.value, lo), y0);
        s.push(`<rect x="${gx + ei * barW}" y="${yy.toFixed(1)}" width="${barW - 2}" height="${(y0 + panelH - yy).toFixed(1)}" fill="${COLORS[e] ?? '#999'}"><title>${esc(`${e} ${groups[gi]}: ${fmt(row.value)} ms`)}</title></rect>`);
      });
      s.push(`<text x="${gx}" y="${y0 + panelH + 14}">${esc(groups[gi])}</text>`);
    });
  });
  s.push('</svg>');
  return `${s.join('\n')}\n`;
}
