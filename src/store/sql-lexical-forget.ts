import type { ForgetRewrites, HeardQuery, LexicalHit, LexicalStats, Tx } from '../ports/memory-store.js';
import type { MemoryKind, MemoryStatus } from '../core/types.js';
import { MESSAGES_OF_MEMORIES, arr, type Row } from './sql-rows.js';
import { SqlPostingsHeld } from './sql-postings-held.js';
import { GENERIC_PLAN } from './sql-client.js';
import { INVISIBLE_FORMAT_CLASS } from '../core/sentences.js';

/**
 * A message's text as the quote check reads it (src/core/sentences.ts: `normalizeForQuote`):
 * letters composed (NFC), invisible format characters left out, in SQL. A copy of a forgotten
 * sentence typed with a zero-width space inside a word, or in decomposed letters, holds none of
 * the wording's pieces literally: it was left unredacted, and (the check reading past both) the
 * forgotten sentence could be kept again from it (found by a probe). Only a text that needs it is
 * rewritten (`is nfc normalized` and the pattern are quick checks).
 */
const QUOTE_FORM = (col: string) =>
  `case when ${col} is nfc normalized and ${col} !~ E'${INVISIBLE_FORMAT_CLASS}' then ${col} else regexp_replace(normalize(${col}, nfc), E'${INVISIBLE_FORMAT_CLASS}', '', 'g') end`;

/** A memory kind, written into a statement's text (`lexicalStats`). */
const KIND_LITERAL = /^[A-Z]+$/;

/** The terms BM25 scores: word keys of letters and digits only, once each. */
const searchTerms = (keys: string[]): string[] => [...new Set(keys.filter((t) => /^[\p{L}\p{N}]+$/u.test(t)))];

/** The SqlStore's lexical search (BM25 over the postings) and forget-for-good. */
export class SqlLexicalForget extends SqlPostingsHeld {
  /**
   * Lexical candidates ranked by BM25 over the space's lexicon (word keys of every
   * wording, the source message, entities and themes), computed in SQL from the
   * postings table the lexicon's triggers maintain (migration 4), identically on
   * PGlite and a server.
   */
  async lexicalSearch(spaceId: string, keys: string[], k: number, kind: MemoryKind, statuses: MemoryStatus[], given?: LexicalStats): Promise<LexicalHit[]> {
    const terms = searchTerms(keys);
    if (terms.length === 0 || k <= 0) return [];
    // Okapi BM25 (k1 1.2, b 0.75) from the postings (migration 4): N and the average
    // length are the (space, kind) totals over every status, df a row per term (migration
    // 13); the score is one aggregate over the query terms' postings (index range scans
    // on (space, kind, term)). Statuses are filtered after scoring (they change, postings
    // do not): the best `window` rows are scored, and ranked again with the filter inside in
    // the rare case the window could have cut off rows and fewer than k of it pass. Each term's
    // share is counted in units of 1e-12 (a whole number: float8 sums of whole numbers below 2^53
    // are exact, so while a score is below ~9,000 — a question of fewer than ~280 words), so a
    // memory's score does not depend on the order the plan adds its terms in: equal documents
    // tie exactly, and the tie goes to the memory id, whatever the plan.
    const stats = given ?? (await this.lexicalStats(spaceId, terms, [kind])).get(kind)!;
    const n = stats.docs;
    if (n === 0) return [];
    const avgdl = Math.max(1, stats.totalLen / n);
    const found = terms.filter((t) => (stats.df.get(t) ?? 0) > 0);
    if (found.length === 0) return [];
    const idf = found.map((t) => { const df = stats.df.get(t)!; return Math.log(1 + (n - df + 0.5) / (df + 0.5)); });
    const scoredSql = (filtered: boolean) => `with top as (
         select p.memory_id, sum(round(1e12::float8 * w.idf * p.tf * 2.2::float8 / (p.tf + 1.2::float8 * (0.25::float8 + 0.75::float8 * p.len / $5::float8)))) / 1e12::float8 as score
         from memory_terms p join unnest($3::text[], $4::float8[]) as w(term, idf) on w.term = p.term
         ${filtered ? 'join memory_state s on s.memory_id = p.memory_id and s.status = any($7::text[])' : ''}
         where p.space_id = $1 and p.kind = $2 and p.term = any($3::text[])
         group by p.memory_id
         order by score desc, p.memory_id limit $6
       ), hits as (
         select top.memory_id, top.score, row_number() over (order by top.score desc, top.memory_id) as rn
         from top join memory_state s on s.memory_id = top.memory_id and s.status = any($7::text[])
       )
       select memory_id, score from hits where rn <= $8 order by rn`;
    const args = [spaceId, kind, found, idf, avgdl];
    // Statuses are checked on the best `window` rows only, in SQL: only the first k that pass come back.
    const window = Math.max(2 * k, 32);
    const scored = async (filtered: boolean, limit: number) => (await this.db.query<Row>(scoredSql(filtered), [...args, limit, statuses, k])).rows;
    // The postings held in the process, when every term's are current (the embedded store): the same window, scored here.
    // (should reading them fail, the statement scores, as it did before they were held)
    const held = await this.heldWindow(spaceId, kind, found, stats, idf, avgdl, window).catch((e: unknown) => {
      this.log?.warn({ cause: String(e) }, 'lexical search: postings not read into the process; scored by the statement');
      return null;
    });
    let rows = held ? await this.withStatus(held, statuses, k) : await scored(false, window);
    // The memories scored are at most the terms' document frequencies summed: below the window, it cut nothing off.
    const scoredAtMost = found.reduce((sum, t) => sum + stats.df.get(t)!, 0);
    if (rows.length < k && scoredAtMost > window) rows = await scored(true, k);
    return rows.slice(0, k).map((x) => ({ memoryId: x.memory_id as string, rank: Number(x.score) }));
  }

  /**
   * The window's memories with one of `statuses`, best first, the first k (the statement's `hits`):
   * their statuses read k and an eighth first (most memories have a wanted status), the rest of
   * the window only if fewer than k of those had.
   */
  private async withStatus(window: { memoryId: string; score: number }[], statuses: MemoryStatus[], k: number): Promise<Row[]> {
    const wanted = new Set<string>(statuses);
    const kept: Row[] = [];
    for (let from = 0, upto = k + Math.ceil(k / 8) + 2; from < window.length && kept.length < k; from = upto, upto = window.length) {
      const batch = window.slice(from, upto);
      const r = await this.db.query<{ ids: string[] | null; statuses: string[] | null }>(
        `${GENERIC_PLAN}select array_agg(status) as statuses, array_agg(memory_id) as ids from memory_state where memory_id = any($1::text[])`,
        [batch.map((w) => w.memoryId)],
      );
      const status = new Map((r.rows[0]?.ids ?? []).map((id, j) => [id, r.rows[0]!.statuses![j]!]));
      for (const w of batch) if (kept.length < k && wanted.has(status.get(w.memoryId) ?? '')) kept.push({ memory_id: w.memoryId, score: w.score });
    }
    return kept;
  }

  async lexicalStats(spaceId: string, keys: string[], kinds: MemoryKind[], heard?: HeardQuery): Promise<Map<MemoryKind, LexicalStats>> {
    // Per kind: the (space, kind) totals over every status, whether the space holds that kind at all
    // (an index probe), df, one row per term (migration 13: kept by the lexicon's triggers), and which
    // of the heard keys some memory of the kind with one of its statuses holds (an index probe per key,
    // once per kind). Each kind is its own branch with the kind written in it: a kind read from a
    // joined column made the planner scan every memory of the space for the existence check, once per
    // term (~5x slower at 10K memories); a kind as a parameter left the plan made once (GENERIC_PLAN:
    // planning cost PGlite 1.4 ms a recall) scanning every memory for the kind a space seldom holds.
    const params: unknown[] = [spaceId, searchTerms(keys), [...new Set(heard?.keys ?? [])]];
    const branch = (kind: MemoryKind) => {
      if (!KIND_LITERAL.test(kind)) throw new Error(`not a memory kind: ${kind}`);
      const k = `'${kind}'::text`;
      const st = `$${params.push(heard?.statuses[kind] ?? [])}::text[]`;
      return `select ${k} as kind, (select docs from lexicon_stats where space_id = $1 and kind = ${k}) as docs,
         (select total_len from lexicon_stats where space_id = $1 and kind = ${k}) as total_len,
         exists (select 1 from memories m where m.space_id = $1 and m.kind = ${k}) as present,
         array(select h.term from unnest($3::text[]) as h(term)
               where exists (select 1 from memory_terms p join memory_state s on s.memory_id = p.memory_id
                             where p.space_id = $1 and p.kind = ${k} and p.term = h.term and s.status = any(${st}))) as heard,
         t.term, d.df, d.ver::text as ver
       from (select 1) one left join unnest($2::text[]) as t(term) on true
         left join lateral (select d.df, d.ver from lexicon_df d where d.space_id = $1 and d.kind = ${k} and d.term = t.term) d on true`;
    };
    if (kinds.length === 0) return new Map();
    const r = await this.db.query<Row>(GENERIC_PLAN + kinds.map(branch).join('\n       union all\n       '), params);
    const out = new Map<MemoryKind, LexicalStats>();
    for (const x of r.rows) {
      const kind = x.kind as MemoryKind;
      let s = out.get(kind);
      if (!s) {
        out.set(kind, s = { present: !!x.present, docs: Number(x.docs ?? 0), totalLen: Number(x.total_len ?? 0), df: new Map(), heard: new Set(arr(x.heard)), ver: new Map() });
      }
      if (x.term != null && Number(x.df) > 0) {
        s.df.set(x.term as string, Number(x.df));
        s.ver!.set(x.term as string, x.ver as string);
      }
    }
    return out;
  }

  /**
   * What else a forget touches (before it runs): surviving memories said in a message being
   * rewritten (their context quotes it), and surviving memories said in the message right after
   * one (their lexicon holds it as the preceding message).
   */
  async forgetNeighbours(tx: Tx, spaceId: string, ids: readonly string[], messageIds: readonly string[]): Promise<{
    siblings: { id: string; quote: string; context: string }[]; followers: string[];
  }> {
    if (messageIds.length === 0) return { siblings: [], followers: [] };
    const q = this.q(tx);
    const sib = await q.query<Row>(
      `select m.id, m.quote, m.context from memories m
       where m.space_id = $2 and m.message_id = any($3::text[]) and not (m.id = any($1::text[])) and m.context is not null`,
      [ids, spaceId, messageIds],
    );
    const fol = await q.query<{ memory_id: string }>(
      `select distinct x.memory_id from mentions x
       where x.space_id = $2 and not (x.memory_id = any($1::text[])) and x.message_id in (
         select (select n.id from messages n where n.conversation_id = g.conversation_id and n.seq > g.seq order by n.seq limit 1)
         from messages g where g.id = any($3::text[]))`,
      [ids, spaceId, messageIds],
    );
    return {
      siblings: sib.rows.map((x) => ({ id: x.id, quote: x.quote, context: x.context })),
      followers: fol.rows.map((x) => x.memory_id),
    };
  }

  async forgottenMessages(tx: Tx, spaceId: string, ids: readonly string[], piecesOf: (wording: string) => string[]): Promise<{
    wordings: string[]; pieces: string[][]; messages: { id: string; text: string }[];
  }> {
    const q = this.q(tx);
    const w = await q.query<{ quote: string }>(
      `select quote from mentions where memory_id = any($1::text[]) and space_id = $2
       union select quote from memories where id = any($1::text[]) and space_id = $2`,
      [ids, spaceId],
    );
    const wordings = w.rows.map((x) => x.quote);
    const perWording = wordings.map(piecesOf);
    const pieces = perWording.flatMap((ps, i) => ps.map((piece) => ({ i, piece })));
    // One statement: the messages the memories were said in, and every message of the space (its
    // conversations' index) holding every piece of some wording, read as the quote check reads it
    // (composed, past invisible format characters: `QUOTE_FORM`); which sentences hold one is decided after.
    const r = await q.query<{ id: string; text: string }>(
      `select g.id, g.text from messages g
       where g.space_id = $2 and g.id in (${MESSAGES_OF_MEMORIES})
       union
       select g.id, g.text from conversations c join messages g on g.conversation_id = c.id
       cross join lateral (select ${QUOTE_FORM('g.text')} as text) f
       where c.space_id = $2 and g.space_id = $2 and exists (
         select 1 from unnest($3::int[], $4::text[]) as p(w, piece) group by p.w having bool_and(strpos(f.text, p.piece) > 0))`,
      [ids, spaceId, pieces.map((p) => p.i), pieces.map((p) => p.piece)],
    );
    return { wordings, pieces: perWording, messages: r.rows.map((x) => ({ id: x.id, text: x.text })) };
  }

  async relinkPastForgotten(tx: Tx, spaceId: string, ids: readonly string[]): Promise<string[]> {
    // One statement: from each forgotten memory, its replacements are followed (through forgotten
    // ones, a bounded walk) to the first that stays; the memories it replaced point there instead
    // (the partial indexes on the links find them). Without one, the link is cleared, as the
    // delete's `on delete set null` would: the status stays, nothing is current again.
    const r = await this.q(tx).query<{ memory_id: string }>(
      `with recursive walk(start, cur, depth) as (
         select s.memory_id, coalesce(s.superseded_by, s.corrected_by), 1
           from memory_state s where s.memory_id = any($1::text[]) and s.space_id = $2
         union all
         select w.start, coalesce(s.superseded_by, s.corrected_by), w.depth + 1
           from walk w join memory_state s on s.memory_id = w.cur
          where w.cur = any($1::text[]) and w.depth < 100
       ), next as (
         select start, cur from walk where cur is not null and not (cur = any($1::text[]))
       )
       update memory_state p set
         superseded_by = case when p.superseded_by = any($1::text[]) then (select n.cur from next n where n.start = p.superseded_by limit 1) else p.superseded_by end,
         corrected_by = case when p.corrected_by = any($1::text[]) then (select n.cur from next n where n.start = p.corrected_by limit 1) else p.corrected_by end,
         updated_at = now()
       where p.space_id = $2 and (p.superseded_by = any($1::text[]) or p.corrected_by = any($1::text[])) and not (p.memory_id = any($1::text[]))
       returning p.memory_id`,
      [ids, spaceId],
    );
    return r.rows.map((x) => x.memory_id);
  }

  /**
   * A statement that deletes a space's words (a forget, a sealed space's drop): the space's
   * postings held in the process are let go before it and again after it (a search's postings
   * read before it ran may have been put back meanwhile); read again when asked.
   */
  private async lettingGoOfPostings<T>(spaceId: string, write: () => Promise<T>): Promise<T> {
    this.postings?.dropSpace(spaceId);
    const done = await write();
    this.postings?.dropSpace(spaceId);
    return done;
  }

  /** A sealed space dropped: its postings held leave the process with it, as a forget's do. */
  override async dropSpace(id: string, tx: Tx): Promise<void> {
    await this.lettingGoOfPostings(id, () => super.dropSpace(id, tx));
  }

  /**
   * Forget for good, through the database's SECURITY DEFINER function (migration 5):
   * removes the memories (their mentions, state, vectors and lexicon rows go with them),
   * rewrites the messages they were said in (forgotten sentences redacted; a message
   * with nothing else is deleted) and the contexts of memories said in those messages.
   * The function refuses any rewrite that adds a word. Only this path deletes content.
   */
  async forget(tx: Tx, spaceId: string, ids: readonly string[], rewrites: ForgetRewrites = { messages: [], contexts: [] }): Promise<string[]> {
    const r = await this.lettingGoOfPostings(spaceId, () => this.q(tx).query<{ id: string }>(
      `select engram_forget($1, $2::text[], $3::text[], $4::text[], $5::text[], $6::text[]) as id`,
      [spaceId, ids, rewrites.messages.map((m) => m.id), rewrites.messages.map((m) => m.text),
        rewrites.contexts.map((c) => c.id), rewrites.contexts.map((c) => c.context)],
    ));
    // (in the forget's transaction: the erasure it owes outlives this process, src/store/sql-store-base.ts)
    if (r.rows.length) await this.oweErasure(tx);
    return r.rows.map((x) => x.id);
  }
}
