import type { MemoryKind } from '../core/types.js';
import type { LexicalStats } from '../ports/memory-store.js';
import { SqlMemoryReads } from './sql-memory-reads.js';
import { GENERIC_PLAN } from './sql-client.js';
import { bm25Window, PostingsCache, type TermPostings } from './postings-cache.js';

/** A term's postings as `heldWindow` and `loadPostings` read them (`d`: its lexicon_df row). */
interface PostingsRow { term: string; ver: string; ids: string[]; tf: number[]; len: number[] }
const POSTINGS = `d.ver::text as ver, array_agg(p.memory_id) as ids, array_agg(p.tf) as tf, array_agg(p.len) as len`;
const POSTINGS_JOIN = `join memory_terms p on p.space_id = $1 and p.kind = $2 and p.term = d.term`;
/** A (space, kind)'s key in the maps of reads under way. */
const kindKey = (spaceId: string, kind: MemoryKind) => `${spaceId}\u0000${kind}`;
const termPostings = (x: PostingsRow): TermPostings => ({ ver: x.ver, ids: x.ids, tf: Int32Array.from(x.tf), len: Int32Array.from(x.len) });
/** Terms read per statement by a space's first search. */
const LOAD_TERMS = 1_000;

/** Spaces (of one kind) past this many memories have their postings read shortly after start (`warmPostings`). */
const WARM_POSTINGS_ABOVE = 1_000;

/**
 * The SqlStore's postings held in the process (postings-cache.ts; docs/recall.md, "Postings held"):
 * where one process holds the store (PGlite), or where erasures made by any instance reach this one
 * (a server whose erasure listener runs), BM25 sums its window from them (`heldWindow`, for
 * sql-lexical-forget.ts) instead of scoring by the statement.
 */
export class SqlPostingsHeld extends SqlMemoryReads {
  /** Postings held in the process where one process holds the store, or erasures reach it (postings-cache.ts); null elsewhere. */
  private heldPostings: PostingsCache | null | undefined;
  private readonly postingsLoads = new Map<string, Promise<void>>();
  protected get postings(): PostingsCache | null {
    if (this.heldPostings === undefined) this.heldPostings = this.oneStatementAtATime ? new PostingsCache() : null;
    return this.heldPostings;
  }

  /**
   * On a server: postings are held in this process from now on, because erasures made by any
   * instance reach `letGoOf` (src/store/pg-erasures.ts, started by the container).
   */
  holdPostings(): void {
    if (!this.postings) this.heldPostings = new PostingsCache();
  }

  /** A space's words erased (by any instance), or everything (null: erasures may have been missed). */
  letGoOf(spaceId: string | null): void {
    if (spaceId === null) this.postings?.dropAll();
    else this.postings?.dropSpace(spaceId);
  }

  /**
   * BM25's best `window` from the postings held in the process (postings-cache.ts), null where
   * none are held or a term's could not be read as of the statistics' `ver` (written meanwhile:
   * the statement scores instead). Terms not held, or held as of another `ver`, are read first,
   * all in one statement.
   */
  protected async heldWindow(
    spaceId: string, kind: MemoryKind, terms: string[], stats: LexicalStats, idf: number[], avgdl: number, window: number,
  ): Promise<{ memoryId: string; score: number }[] | null> {
    const cache = this.postings;
    const ver = stats.ver;
    if (!cache || !ver || terms.some((t) => !ver.has(t))) return null;
    const held = () => terms.map((t) => cache.get(spaceId, kind, t, ver.get(t)!));
    let postings = held();
    // On a server, postings are read after the answer, never in a search's path: a search lacking any scores by the
    // statement (at 100K memories, a common term's postings cost more to read than the statement's whole answer).
    if (postings.some((p) => !p) && !this.oneStatementAtATime) {
      this.readAfterAnswer(cache, spaceId, kind, terms.filter((_, i) => !postings[i]), stats.docs);
      return null;
    }
    // The space's first search reads every term's postings (while they fit the bound): a term missing after that was written since.
    if (postings.some((p) => !p) && !cache.loadedAll(spaceId, kind)) {
      await this.loadPostings(cache, spaceId, kind, stats.docs);
      postings = held();
    }
    const missing = terms.filter((_, i) => !postings[i]);
    if (missing.length > 0) {
      for (const x of await this.readTerms(cache, spaceId, kind, missing)) {
        if (x.ver === ver.get(x.term)) postings[terms.indexOf(x.term)] = x.postings;
      }
      if (postings.some((p) => !p)) return null;
    }
    return bm25Window(postings as TermPostings[], idf, avgdl, window);
  }

  /** The terms' postings, read in one statement and held. */
  private async readTerms(cache: PostingsCache, spaceId: string, kind: MemoryKind, terms: string[]): Promise<{ term: string; ver: string; postings: TermPostings }[]> {
    const generation = cache.generation(spaceId);
    const r = await this.db.query<PostingsRow>(
      `${GENERIC_PLAN}select d.term, ${POSTINGS} from lexicon_df d ${POSTINGS_JOIN}
       where d.space_id = $1 and d.kind = $2 and d.term = any($3::text[])
       group by d.term, d.ver`,
      [spaceId, kind, terms],
    );
    return r.rows.map((x) => {
      const postings = termPostings(x);
      cache.put(spaceId, kind, x.term, postings, generation);
      return { term: x.term, ver: x.ver, postings };
    });
  }

  /** Per (space, kind), the terms a server's searches lacked, waiting for the read after their answers. */
  private readonly lacking = new Map<string, Set<string>>();

  /**
   * On a server, after the answer (`afterAnswer`: the store's close waits for it): the space's every
   * term on its first search (while they fit the bound, a thousand terms a statement), then the
   * terms a search lacked (written since), those of searches meanwhile gathered into one read.
   */
  private readAfterAnswer(cache: PostingsCache, spaceId: string, kind: MemoryKind, terms: string[], docs: number): void {
    const key = kindKey(spaceId, kind);
    // A whole read under way (a first search's, the warm-up's): the terms are read with it, or asked for again.
    if (this.postingsLoads.has(key)) return;
    // Read whole again once the space has more than doubled since (read early in a bulk load, by
    // the warm-up or a first search, most of its terms are older than the statistics then).
    if (!cache.loadedAll(spaceId, kind) || cache.grewPast(spaceId, kind, docs)) {
      this.afterAnswer(this.loadPostings(cache, spaceId, kind, docs));
      return;
    }
    const waiting = this.lacking.get(key);
    if (waiting) {
      for (const t of terms) waiting.add(t);
      return;
    }
    const wanted = new Set(terms);
    this.lacking.set(key, wanted);
    this.afterAnswer((async () => {
      await new Promise((done) => setImmediate(done));
      this.lacking.delete(key);
      await this.readTerms(cache, spaceId, kind, [...wanted]);
    })());
  }

  /**
   * Every term's postings in the (space, kind), a thousand terms a statement, the event loop free
   * between (once at a time). A space past the bound counts as read too: its searches read the
   * terms they lack instead of trying the whole space again (until terms are let go for room).
   */
  private loadPostings(cache: PostingsCache, spaceId: string, kind: MemoryKind, docs: number, stopped = () => false): Promise<void> {
    const key = kindKey(spaceId, kind);
    let loading = this.postingsLoads.get(key);
    if (!loading) {
      loading = (async () => {
        const generation = cache.generation(spaceId);
        for (let after = ''; ;) {
          const r = await this.db.query<PostingsRow>(
            `${GENERIC_PLAN}select d.term, ${POSTINGS}
             from (select term, ver from lexicon_df where space_id = $1 and kind = $2 and term > $3 order by term limit ${LOAD_TERMS}) d
               ${POSTINGS_JOIN}
             group by d.term, d.ver order by d.term`,
            [spaceId, kind, after],
          );
          // Past the bound, the space is not held whole: each search reads the terms it lacks.
          if (!cache.fits(r.rows.reduce((n, x) => n + x.ids.length, 0), r.rows.length)) break;
          for (const x of r.rows) cache.put(spaceId, kind, x.term, termPostings(x), generation);
          if (r.rows.length < LOAD_TERMS) break;
          after = r.rows[r.rows.length - 1]!.term;
          await new Promise((done) => setImmediate(done));
          // (a warm-up stopped: what was read stays, each term as of its version; the space is not read whole)
          if (stopped()) return;
        }
        cache.markLoaded(spaceId, kind, generation, docs);
      })().finally(() => this.postingsLoads.delete(key));
      this.postingsLoads.set(key, loading);
    }
    return loading;
  }

  /**
   * Shortly after start (the container, in the background, after the vector mirror's warm-up): the
   * postings of the (space, kind)s of more than `above` memories, largest first, while they fit the
   * bound, so a restart's first searches there find them held. On a server a space's first search
   * would otherwise start the read after its answer (~3 s at 100K memories, competing with the next
   * requests); on PGlite it would wait for it. Returns the (space, kind)s read. Nothing where
   * postings are not held (a server whose erasure listener is down).
   */
  async warmPostings(stopped: () => boolean, above = WARM_POSTINGS_ABOVE): Promise<number> {
    const cache = this.postings;
    if (!cache) return 0;
    const r = await this.db.query<{ space_id: string; kind: MemoryKind; docs: number; total_len: string }>(
      `select space_id, kind, docs, total_len::text from lexicon_stats where docs > $1 order by docs desc, space_id, kind`, [above]);
    let read = 0;
    for (const x of r.rows) {
      if (stopped()) break;
      // A space's postings are at most its words (total_len); one past the bound is read by its searches instead.
      if (cache.loadedAll(x.space_id, x.kind) || !cache.fits(Number(x.total_len), 0)) continue;
      await this.loadPostings(cache, x.space_id, x.kind, Number(x.docs), stopped);
      read++;
    }
    return read;
  }
}
