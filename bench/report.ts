/** results.md: one table per case, every engine figure with its ratio to the floor of the same run. */
import type { BenchResults, CaseResult, Row } from './run.js';

export function fmt(v: number | null | undefined, unit = ''): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return 'n/a';
  if (unit === 'share') return `${(v * 100).toFixed(1)}%`;
  const a = Math.abs(v);
  if (a >= 1000) return Math.round(v).toLocaleString('en-US');
  if (a >= 100) return v.toFixed(0);
  if (a >= 10) return v.toFixed(1);
  if (a >= 1) return v.toFixed(2);
  if (a === 0) return '0';
  return v.toPrecision(2);
}

function fmtRatio(r: number | null): string {
  if (r === null || !Number.isFinite(r)) return '';
  return ` (×${r >= 100 ? Math.round(r).toLocaleString('en-US') : r >= 10 ? r.toFixed(0) : r.toFixed(1)})`;
}

export function caseTitle(c: CaseResult): string {
  const s = c.spec;
  return `N = ${s.n.toLocaleString('en-US')}, ${s.dim}-d ${s.data === 'semantic' ? 'SIF sentence vectors (LoCoMo + templates)' : 'random unit vectors'}, ${s.spaces === 1 ? 'one space' : `${s.spaces.toLocaleString('en-US')} spaces`}`;
}

function cell(row: Row | undefined, engine: string): string {
  if (!row) return '–';
  const v = fmt(row.value, row.unit);
  if (engine === 'floor') return v;
  // Shares (recall, misses) read better as they are; ratios of 0 to 0 say nothing.
  return row.unit === 'share' ? v : `${v}${fmtRatio(row.ratio)}`;
}

function caseTable(c: CaseResult): string {
  const engines = c.engines;
  const keys: { workload: string; metric: string; unit: string }[] = [];
  for (const r of c.rows) if (!keys.some((k) => k.workload === r.workload && k.metric === r.metric)) keys.push(r);
  const lines = [
    `| workload | metric | unit | ${engines.join(' | ')} |`,
    `|---|---|---|${engines.map(() => '---:').join('|')}|`,
  ];
  const pre = c.preload;
  lines.push(`| preload (store + engine write path, batches of 1,000) | rate | memories/s | ${engines.map((e) => pre[e] ? `${fmt(pre[e].perSecond)}${e === 'floor' ? '' : fmtRatio(pre.floor ? pre[e].perSecond / pre.floor.perSecond : null)}` : '–').join(' | ')} |`);
  lines.push(`| preload | pgvector HNSW build after load | s | ${engines.map((e) => pre[e] && pre[e].hnswMs > 0 ? fmt(pre[e].hnswMs / 1000) : '–').join(' | ')} |`);
  lines.push(`| preload | outbox drained + engine maintenance | s | ${engines.map((e) => pre[e] && e !== 'floor' ? fmt((pre[e].settleMs + pre[e].maintainMs) / 1000) : '–').join(' | ')} |`);
  for (const k of keys) {
    const samples = c.rows.find((r) => r.workload === k.workload && r.metric === k.metric && r.engine !== 'floor')?.samples;
    const label = samples !== undefined && k.unit !== 'ms' ? k.metric : k.metric;
    lines.push(`| ${k.workload} | ${label} | ${k.unit} | ${engines.map((e) => cell(c.rows.find((r) => r.engine === e && r.workload === k.workload && r.metric === k.metric), e)).join(' | ')} |`);
  }
  const out = [`### ${caseTitle(c)}`, '', ...lines, ''];
  const sampleNote = engines.filter((e) => e !== 'floor').map((e) => {
    const rs = c.rows.filter((r) => r.engine === e && r.metric === 'p50');
    return `${e}: ${rs.map((r) => `${r.workload.replace(/ \(.*\)$/, '')} ${r.samples}`).join(', ')}`;
  });
  out.push(`Samples per latency workload — ${sampleNote.join('; ')}.`, '');
  const oc = Object.entries(c.outcomes).map(([e, o]) => `${e} ${Object.entries(o).map(([k, v]) => `${k} ${v}`).join(' / ')}`);
  if (oc.length) out.push(`remember() outcomes — ${oc.join('; ')}.`, '');
  for (const [e, m] of Object.entries(c.errors)) out.push(`**${e} failed:** ${m}`, '');
  return out.join('\n');
}

export function renderMarkdown(r: BenchResults): string {
  const m = r.machine;
  const out = [
    '# Engram bench results',
    '',
    `Machine: ${m.cpu}, ${m.cores} cores, ${m.ramGiB} GiB RAM, Node ${m.node}, ${m.platform}.${m.note ? ` ${m.note}` : ''}`,
    '',
    `Run ${r.startedAt} → ${r.finishedAt}. Command options: engines ${r.options.engines.join(',')}; ${r.options.cases ? `cases ${r.options.cases.map((c) => `${c.dim}x${c.n}x${c.spaces}`).join(',')}` : `N ${r.options.ns.join(',')}; dim ${r.options.dims.join(',')}; spaces ${r.options.spaces.join(',')}`}; samples ${JSON.stringify(r.options.sizes)}.`,
    '',
    'Each engine cell is the figure and, in brackets, its ratio to the brute-force floor (in-process Float32Array scan, no persistence) measured in the same run. Shares (recall@10, duplicate misses) are shown as they are. Latencies are one client, back to back; throughput = 1000 / mean latency.',
    '',
  ];
  if (r.notices.length) out.push('Notices:', '', ...r.notices.map((n) => `- ${n}`), '');
  for (const c of r.cases) out.push(caseTable(c));
  if (r.global.length) {
    out.push('### Start-up and embedders', '', '| what | metric | unit | value |', '|---|---|---|---:|');
    for (const g of r.global) out.push(`| ${g.workload} | ${g.metric} | ${g.unit} | ${fmt(g.value)} |`);
    out.push('');
  }
  return `${out.join('\n')}\n`;
}
