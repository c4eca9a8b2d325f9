/**
 * Issue 13, erasure that erases: two sentences of one message are remembered, one is
 * forgotten for good, the server stops cleanly, and no byte of it is left anywhere under
 * the data directory (PGlite's files, its WAL, LanceDB's versions); the other sentence is
 * still quotable (the message keeps it) and recalled after a restart. An inference drawn from the
 * forgotten words goes with them, from the tables and from LanceDB's files; one drawn from the
 * other sentence stays.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../helpers/app.js';
import { actors } from '../helpers/memory.js';

const root = mkdtempSync(join(tmpdir(), 'engram-h13-erase-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Files under `dir` whose bytes contain any of the needles (UTF-8). */
function filesHolding(dir: string, needles: string[]): string[] {
  const out: string[] = [];
  const bufs = needles.map((n) => Buffer.from(n, 'utf8'));
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) {
        const bytes = readFileSync(p);
        for (const [i, b] of bufs.entries()) if (bytes.includes(b)) out.push(`${p.slice(dir.length + 1)} ~ ${needles[i]}`);
      }
    }
  };
  walk(dir);
  return out;
}

for (const engine of ['pgvector', 'lancedb'] as const) {
  describe(`erasure on disk (${engine})`, () => {
    it('forget one sentence: not a byte of it under the data directory; its neighbour stays quotable and recallable', { timeout: 600_000 }, async () => {
      const dataDir = join(root, engine);
      const secretWord = `Quillonbrax${engine === 'lancedb' ? 'lx' : 'px'}`;
      const forgotten = `My neighbour ${secretWord} keeps bees on the garage roof.`;
      const kept = 'My sister Ramona lives in Porto.';
      let t = await createTestApp({ dataDir, engine });
      let s = await t.space({ name: 'erasure' });
      let a = actors(t.gql, s);
      const c = await a.open();
      await a.say(c, `${forgotten} ${kept}`);
      const f = await a.remember({ conversationId: c, quote: forgotten, entities: [secretWord], themes: ['neighbours'] });
      const k = await a.remember({ conversationId: c, quote: kept, entities: ['Ramona', 'Porto'], themes: ['family'] });
      expect(f.outcome).toBe('CREATED');
      expect(k.outcome).toBe('CREATED');
      // The assistant's own conclusions (kept apart, each with its vector in the engine): one drawn
      // from the forgotten words, which goes with them (docs/erasure.md, "Inferences drawn from the
      // words"), and one drawn from the other sentence, which stays.
      const infer = `mutation($c: ID!, $t: String!, $b: String) { infer(conversationId: $c, text: $t, type: FACT, basis: $b) { __typename ... on Memory { id } } }`;
      const drawn = (await t.gql(s.assistant, infer, { c, t: `Their neighbour ${secretWord} may sell honey.`, b: forgotten })).data.infer;
      const other = (await t.gql(s.assistant, infer, { c, t: 'They may visit Portugal often.', b: kept })).data.infer;
      expect([drawn.__typename, other.__typename]).toEqual(['Memory', 'Memory']);
      // Some unrelated traffic so the words are spread over heap, indexes and WAL.
      for (let i = 0; i < 5; i++) await a.state(`I walked ${i + 2} miles on day ${i + 1} of the trip.`);
      await t.app.engram.deps.outbox?.drain();

      const r = await t.gql(s.operator, `mutation($ids: [ID!]!) { forget(ids: $ids, confirm: true) { ... on BulkResult { changed } } }`, { ids: [f.memory.id] });
      expect(r.data.forget.changed).toBe(2); // the memory and the inference drawn from it
      // The message kept the other sentence: it is still quotable (a restatement reinforces).
      const again = await a.remember({ conversationId: c, quote: kept, entities: ['Ramona'], themes: ['family'] });
      expect(again.__typename, JSON.stringify(again)).toBe('RememberOutcome');
      expect(again.memory.id).toBe(k.memory.id);
      const keptMemory = await a.memory(k.memory.id);
      expect(keptMemory.quote).toBe(kept);
      const spaceId = s.id;
      const tokens = s;
      await t.close();

      const left = filesHolding(dataDir, [secretWord, forgotten, 'keeps bees on the garage roof', 'may sell honey']);
      const lancedb = engine === 'lancedb' ? filesHolding(join(dataDir, 'lancedb'), [f.memory.id, drawn.id]) : [];
      expect([...left, ...lancedb]).toEqual([]);
      // The other sentence and the other inference are still there on disk (the grep would find a survivor).
      expect(filesHolding(dataDir, ['Ramona lives in Porto']).length).toBeGreaterThan(0);
      expect(filesHolding(dataDir, ['may visit Portugal often']).length).toBeGreaterThan(0);
      if (engine === 'lancedb') for (const id of [k.memory.id, other.id]) expect(filesHolding(join(dataDir, 'lancedb'), [id]).length, id).toBeGreaterThan(0);

      // After a restart: recalled, and the message still offers it (and not the forgotten one).
      t = await createTestApp({ dataDir, engine });
      a = actors(t.gql, { ...tokens, id: spaceId });
      const c2 = await a.open();
      const rec = await a.recall(c2, 'Where does my sister live?');
      expect(JSON.stringify(rec)).toContain('Ramona lives in Porto');
      expect(JSON.stringify(rec)).not.toContain(secretWord);
      const msgs = await t.app.engram.store.listMessages(c);
      expect(msgs[0].text).toContain(kept);
      expect(msgs[0].text).toContain('[forgotten]');
      expect(msgs[0].text).not.toContain(secretWord);
      await t.close();
    });
  });
}

describe('erasure on disk: every copy (pgvector)', () => {
  it('the words said three times, the assistant repeating them once: not a byte of them left', { timeout: 600_000 }, async () => {
    const dataDir = join(root, 'copies');
    const secretWord = 'Quokkazebrapx';
    const quote = `I have a tattoo of a ${secretWord} on my ankle.`;
    const t = await createTestApp({ dataDir, engine: 'pgvector' });
    const s = await t.space({ name: 'erasure copies' });
    const a = actors(t.gql, s);
    const c = await a.open();
    await a.say(c, `${quote} I like tea.`);
    await a.say(c, `Noted, you wrote: ${quote} Anything else?`, { role: 'ASSISTANT' });
    await a.say(c, quote);
    const f = await a.remember({ conversationId: c, quote });
    expect(f.outcome).toBe('CREATED');
    const r = await t.gql(s.operator, `mutation($ids: [ID!]!) { forgetMemories(ids: $ids, confirm: true) { ... on BulkResult { changed } } }`, { ids: [f.memory.id] });
    expect(r.data.forgetMemories.changed).toBe(1);
    // not in the conversation any more: refused, not created again
    expect((await a.remember({ conversationId: c, quote })).__typename).toBe('QuoteNotFound');
    expect((await t.app.engram.store.listMessages(c)).map((m) => m.text)).toEqual(['[forgotten]\nI like tea.', '[forgotten]\nAnything else?']);
    await t.close();
    expect(filesHolding(dataDir, [secretWord, 'tattoo of a'])).toEqual([]);
    expect(filesHolding(dataDir, ['I like tea.']).length).toBeGreaterThan(0);
  });
});
