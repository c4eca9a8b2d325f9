/**
 * Lexical recall's BM25 index (migration 4): the postings and per-space totals that
 * triggers on memory_lexicon maintain, and `SqlStore.lexicalSearch` scoring from them.
 * On both databases. The scores are checked against an independent BM25 computed here
 * from the lexicon's own tsvectors; the postings against the lexicon after every kind
 * of write (insert, reinforcement, lexicon rewrite, status change, forget, bulk load).
 */
import { describe, expect, it } from 'vitest';
import { testAppOn } from '../helpers/app.js';
import { testDatabases } from '../helpers/db.js';
import { parseTsvector } from '../../src/store/sql-store.js';
import { openConversation, recordMessage } from '../../src/memory/conversations.js';
import { remember } from '../../src/memory/remember.js';
import { changeStatus, forget } from '../../src/memory/statuses.js';
import { createSpace } from '../../src/memory/spaces.js';
import { lexicalKeys, lexicalText } from '../../src/memory/lexical.js';
import { normalizeText } from '../../src/core/normalize.js';
import type { Actor } from '../../src/memory/deps.js';
import { insertBatch } from '../../bench/preload.js';

const SAID = [
  'My sister Ana lives in Lisbon.',
  'I play the cello on Sundays.',
  'My dog Biscuit is afraid of thunder.',
  'I am allergic to peanuts.',
  'Ana and I went hiking near Sintra last spring.',
  'I work as a nurse at the city hospital.',
  'My favourite dish is grilled sardines from Lisbon.',
  'I have been learning Portuguese for two years.',
];

/** Okapi BM25 (k1 1.2, b 0.75) over the given documents, written independently of the SQL. */
function referenceBm25(docs: Map<string, Map<string, number>>, terms: string[]): Map<string, number> {
  const n = docs.size;
  const lens = new Map([...docs].map(([id, tf]) => [id, [...tf.values()].reduce((a, b) => a + b, 0)]));
  const avg = [...lens.values()].reduce((a, b) => a + b, 0) / n;
  const out = new Map<string, number>();
  for (const term of new Set(terms)) {
    const df = [...docs.values()].filter((tf) => tf.has(term)).length;
    if (df === 0) continue;
    const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
    for (const [id, tf] of docs) {
      const f = tf.get(term) ?? 0;
      if (!f) continue;
      out.set(id, (out.get(id) ?? 0) + (idf * f * 2.2) / (f + 1.2 * (0.25 + (0.75 * lens.get(id)!) / avg)));
    }
  }
  return out;
}

/** The word keys recall would ask for (lemmas, derivations: "thunder" is asked as its key). */
const keysOf = (...words: string[]) => words.flatMap((w) => lexicalKeys(w));

for (const target of testDatabases()) {
  describe(`lexical postings and BM25 (${target.name})`, () => {
    const app = testAppOn(target);
    const deps = () => app.deps;
    const chat = (spaceId: string): Actor => ({ role: 'chat', tokenId: null, spaceId });

    async function spaceWith(sentences: string[]) {
      const space = await createSpace(deps(), { name: 'lexical test' });
      const c = await openConversation(deps(), space.id);
      const ids: string[] = [];
      for (const s of sentences) {
        await recordMessage(deps(), chat(space.id), { conversationId: c.id, role: 'USER', text: s });
        const r = await remember(deps(), chat(space.id), { conversationId: c.id, quote: s, type: 'FACT' });
        ids.push(r.memory.id);
      }
      return { spaceId: space.id, conversationId: c.id, ids };
    }

    /** The lexicon's documents of a space as term → frequency maps (what the postings must mirror). */
    async function lexicon(spaceId: string): Promise<Map<string, Map<string, number>>> {
      const r = await app.db.query<{ memory_id: string; doc: string }>(
        `select l.memory_id, l.doc::text as doc from memory_lexicon l join memories m on m.id = l.memory_id
         where l.space_id = $1 and m.kind = 'STATEMENT'`, [spaceId]);
      return new Map(r.rows.map((x) => [x.memory_id, parseTsvector(x.doc)]));
    }

    /** Postings and totals equal what the lexicon says, row for row. */
    async function expectPostingsMatchLexicon(spaceId: string): Promise<void> {
      const docs = await lexicon(spaceId);
      const want: string[] = [];
      let totalLen = 0;
      let nonEmpty = 0;
      for (const [id, tf] of docs) {
        const len = [...tf.values()].reduce((a, b) => a + b, 0);
        if (tf.size) { nonEmpty++; totalLen += len; }
        for (const [term, f] of tf) want.push(`${id} ${term} ${f} ${len}`);
      }
      const got = await app.db.query<{ memory_id: string; term: string; tf: number; len: number }>(
        `select memory_id, term, tf, len from memory_terms where space_id = $1 and kind = 'STATEMENT'`, [spaceId]);
      expect(got.rows.map((x) => `${x.memory_id} ${x.term} ${x.tf} ${x.len}`).sort()).toEqual(want.sort());
      const st = await app.db.query<{ docs: number; total_len: string }>(
        `select docs, total_len from lexicon_stats where space_id = $1 and kind = 'STATEMENT'`, [spaceId]);
      expect({ docs: Number(st.rows[0]?.docs ?? 0), totalLen: Number(st.rows[0]?.total_len ?? 0) }).toEqual({ docs: nonEmpty, totalLen });
      // Document frequencies (migration 13): one row per term some document holds, none for a term no document holds.
      const df = new Map<string, number>();
      for (const tf of docs.values()) for (const term of tf.keys()) df.set(term, (df.get(term) ?? 0) + 1);
      const gotDf = await app.db.query<{ term: string; df: number }>(
        `select term, df from lexicon_df where space_id = $1 and kind = 'STATEMENT'`, [spaceId]);
      expect(gotDf.rows.map((x) => `${x.term} ${x.df}`).sort()).toEqual([...df].map(([t, n]) => `${t} ${n}`).sort());
    }

    it('scores BM25 exactly as an independent computation over the lexicon does', async () => {
      const { spaceId } = await spaceWith(SAID);
      await expectPostingsMatchLexicon(spaceId);
      const docs = await lexicon(spaceId);
      for (const words of [['lisbon'], ['ana', 'lisbon', 'sister'], ['cello', 'sundays'], ['nothingsaid'], ['lisbon', 'nothingsaid', 'hiking']]) {
        const keys = keysOf(...words);
        expect(keys.length).toBeGreaterThan(0);
        const ref = [...referenceBm25(docs, keys)].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
        const hits = await deps().store.lexicalSearch(spaceId, keys, 10, 'STATEMENT', ['ACTIVE']);
        expect(hits.map((h) => h.memoryId)).toEqual(ref.map(([id]) => id));
        hits.forEach((h, i) => expect(h.rank).toBeCloseTo(ref[i][1], 9));
      }
      // A query word that was never said finds nothing; an unrelated space sees none of this one.
      expect(await deps().store.lexicalSearch(spaceId, keysOf('nothingsaid'), 10, 'STATEMENT', ['ACTIVE'])).toEqual([]);
      const other = await spaceWith(['I collect old stamps.']);
      expect(await deps().store.lexicalSearch(other.spaceId, keysOf('lisbon'), 10, 'STATEMENT', ['ACTIVE'])).toEqual([]);
    });

    it('keeps postings in step with reinforcement, lexicon rewrites, status changes and forget', async () => {
      const { spaceId, conversationId, ids } = await spaceWith(SAID.slice(0, 4));
      // A restatement adds its wording to the reinforced memory's document.
      const again = 'My sister Ana lives in Lisbon, Portugal.';
      await recordMessage(deps(), chat(spaceId), { conversationId, role: 'USER', text: again });
      const r = await remember(deps(), chat(spaceId), { conversationId, quote: again, type: 'FACT' });
      expect(r.outcome).toBe('REINFORCED');
      await expectPostingsMatchLexicon(spaceId);
      expect((await deps().store.lexicalSearch(spaceId, keysOf('portugal'), 10, 'STATEMENT', ['ACTIVE'])).map((h) => h.memoryId)).toEqual([ids[0]]);

      await app.t.app.engram.deps.store.transaction((tx) => deps().store.setLexicon(tx, [{ memoryId: ids[1], text: 'viola viola tuesdays' }]));
      await expectPostingsMatchLexicon(spaceId);
      // (the next memory still has "cello" from the message before its own: its context)
      const cello = await deps().store.lexicalSearch(spaceId, keysOf('cello'), 10, 'STATEMENT', ['ACTIVE']);
      expect(cello.map((h) => h.memoryId)).not.toContain(ids[1]);
      expect((await deps().store.lexicalSearch(spaceId, keysOf('viola'), 10, 'STATEMENT', ['ACTIVE'])).map((h) => h.memoryId)).toEqual([ids[1]]);

      const admin: Actor = { role: 'admin', tokenId: null, spaceId: null };
      await changeStatus(deps(), admin, spaceId, 'mute', [ids[2]]);
      expect((await deps().store.lexicalSearch(spaceId, keysOf('thunder'), 10, 'STATEMENT', ['ACTIVE'])).map((h) => h.memoryId)).not.toContain(ids[2]);
      expect((await deps().store.lexicalSearch(spaceId, keysOf('thunder'), 10, 'STATEMENT', ['MUTED'])).map((h) => h.memoryId)).toEqual([ids[2]]);
      await expectPostingsMatchLexicon(spaceId);

      await forget(deps(), admin, spaceId, [ids[0], ids[3]], true);
      await expectPostingsMatchLexicon(spaceId);
      const left = await app.db.query<{ n: number }>(`select count(*)::int as n from memory_terms where memory_id = any($1::text[])`, [[ids[0], ids[3]]]);
      expect(Number(left.rows[0].n)).toBe(0);
      expect(await deps().store.lexicalSearch(spaceId, keysOf('lisbon'), 10, 'STATEMENT', ['ACTIVE'])).toEqual([]);
    });

    it('when the best matches are filtered out by status, still returns the best k of the rest', async () => {
      // 700 documents share a word; the 600 shortest (best BM25) are muted, beyond the over-fetch of 500.
      const space = await createSpace(deps(), { name: 'lexical bulk' });
      const rows = Array.from({ length: 700 }, (_, i) => {
        const quote = i < 600 ? `Zebra number ${i}.` : `A zebra crossed the long dusty road near the river bend, number ${i}.`;
        const vector = new Float32Array(deps().embedder.dimensions);
        vector[i % vector.length] = 1;
        return { id: `lex-${space.id}-${i}`, spaceId: space.id, type: 'FACT', quote, normalized: normalizeText(quote), lexical: lexicalText([quote]), vector };
      });
      await deps().store.transaction((tx) => insertBatch(deps(), tx as never, rows, new Date('2025-01-01T00:00:00Z')));
      await expectPostingsMatchLexicon(space.id);
      const admin: Actor = { role: 'admin', tokenId: null, spaceId: null };
      await changeStatus(deps(), admin, space.id, 'mute', rows.slice(0, 600).map((r) => r.id));
      const hits = await deps().store.lexicalSearch(space.id, keysOf('zebra'), 10, 'STATEMENT', ['ACTIVE']);
      expect(hits).toHaveLength(10);
      expect(hits.every((h) => Number(h.memoryId.split('-').pop()) >= 600)).toBe(true);
      const docs = await lexicon(space.id);
      const active = new Map([...docs].filter(([id]) => Number(id.split('-').pop()) >= 600));
      // Statistics stay those of the whole space (every status); only the result set is filtered.
      const ref = [...referenceBm25(docs, keysOf('zebra'))].filter(([id]) => active.has(id))
        .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 10);
      expect(hits.map((h) => h.memoryId)).toEqual(ref.map(([id]) => id));
    });

    it('scores a memory the same whatever order its terms are added in: equal documents tie, the tie goes to the id', async () => {
      // Many documents share four query words at several term frequencies and lengths; asked with
      // the words in two orders (the postings are joined, and summed, in another order), every
      // score must be the same to the last bit, and documents with the same words the same score.
      const space = await createSpace(deps(), { name: 'lexical order' });
      const words = ['harbour', 'lantern', 'meadow', 'orchard'];
      const rows = Array.from({ length: 240 }, (_, i) => {
        const extra = Array.from({ length: i % 7 }, (__, j) => `filler${j}`).join(' ');
        const quote = `${words.map((w, j) => Array.from({ length: 1 + ((i + j) % 3) }, () => w).join(' ')).join(' ')} ${extra} number${i % 40}.`;
        const vector = new Float32Array(deps().embedder.dimensions);
        vector[i % vector.length] = 1;
        return { id: `ord-${space.id}-${String(i).padStart(3, '0')}`, spaceId: space.id, type: 'FACT', quote, normalized: normalizeText(quote), lexical: lexicalText([quote]), vector };
      });
      await deps().store.transaction((tx) => insertBatch(deps(), tx as never, rows, new Date('2025-01-01T00:00:00Z')));
      const ask = (ws: string[]) => deps().store.lexicalSearch(space.id, keysOf(...ws), 100, 'STATEMENT', ['ACTIVE']);
      const a = await ask(words);
      const b = await ask([...words].reverse());
      const c = await ask([words[2]!, words[0]!, words[3]!, words[1]!]);
      expect(a).toHaveLength(100);
      expect(b).toEqual(a);
      expect(c).toEqual(a);
      // documents with the same words (i and i + 210 share i % 7, i % 3 and so their words) score alike, tied by id
      const byId = new Map(a.map((h) => [h.memoryId, h.rank]));
      for (let i = 0; i + 210 < 240; i++) {
        const x = byId.get(rows[i]!.id);
        const y = byId.get(rows[i + 210]!.id);
        if (x !== undefined && y !== undefined) expect(y).toBe(x);
      }
      for (let i = 1; i < a.length; i++) {
        if (a[i]!.rank === a[i - 1]!.rank) expect(a[i]!.memoryId > a[i - 1]!.memoryId).toBe(true);
        else expect(a[i]!.rank).toBeLessThan(a[i - 1]!.rank);
      }
    });
  });
}
