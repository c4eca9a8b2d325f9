/**
 * /metrics stays bounded whatever clients send (docs/operations.md#metrics): operation names
 * and error paths are labels only while few and short; 40 requests named with 200,000
 * characters used to grow /metrics to 176 MB. Requests go without a token, as the probe's did.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { LABEL_CHARS, LABEL_VALUES } from '../../src/ops/graphql-metrics.js';

let t: TestApp;
beforeAll(async () => { t = await createTestApp(); });
afterAll(async () => t?.close());

async function post(body: unknown, token: string | null = null) {
  const res = await t.app.yoga.fetch('http://engram.test/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  await res.text();
  return res.status;
}

const metrics = async () => (await t.app.yoga.fetch('http://engram.test/metrics')).text();

/** Every value a label takes in the exposition. */
function values(text: string, label: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(new RegExp(`[{,]${label}="([^"]*)"`, 'g'))) out.add(m[1]!);
  return out;
}

describe('GraphQL series labels', () => {
  it('keeps a few short operation names and counts every other one as "other"', async () => {
    // Named operations a client may use: labelled by name.
    expect(await post({ query: 'query Ask { __typename }' })).toBe(200);
    expect(values(await metrics(), 'operationName')).toContain('Ask');
    for (let i = 0; i < 40; i++) {
      const name = `Long${i}${'x'.repeat(20_000)}`;
      expect(await post({ query: `query ${name} { __typename }`, operationName: name })).toBe(200);
    }
    for (let i = 0; i < LABEL_VALUES + 20; i++) expect(await post({ query: `query Short${i} { __typename }` })).toBe(200);
    const full = await metrics();
    const names = values(full, 'operationName');
    expect(names).toContain('Ask');
    expect(names).toContain('other');
    expect(names.size).toBeLessThanOrEqual(LABEL_VALUES + 2); // + Anonymous, other
    for (const n of names) expect(n.length).toBeLessThanOrEqual(LABEL_CHARS);
    // More distinct names now add no series at all.
    for (let i = 0; i < 50; i++) expect(await post({ query: `query More${i} { __typename }` })).toBe(200);
    const after = await metrics();
    expect(values(after, 'operationName')).toEqual(names);
    const seriesOf = (text: string) => text.split('\n').filter((l) => l.startsWith('engram_graphql_') || l.startsWith('engram_http_')).length;
    expect(seriesOf(after)).toBe(seriesOf(full));
  });

  it('bounds error paths written with aliases', async () => {
    const sp = await t.space({ name: 'paths' });
    for (let i = 0; i < LABEL_VALUES + 20; i++) {
      const alias = `a${i}${'y'.repeat(i % 2 ? 10_000 : 0)}`;
      // `node` has no error union: an unknown id is a GraphQL error whose path is the alias.
      await post({ query: `query { ${alias}: node(id: "x") { id } }` }, sp.operator);
    }
    const paths = values(await metrics(), 'path');
    expect(paths).toContain('a0');
    expect(paths).toContain('other');
    expect(paths.size).toBeLessThanOrEqual(LABEL_VALUES + 1);
    for (const p of paths) expect(p.length).toBeLessThanOrEqual(LABEL_CHARS);
  });
});
