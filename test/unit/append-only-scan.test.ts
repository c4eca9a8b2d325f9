/**
 * Issue 3, append-only: no code path may edit or delete content. Scans the SQL in
 * every .ts file under src/ and adapters/ for statements that update or delete
 * memories, mentions or messages (or truncate anything, or delete the spaces and
 * conversations they cascade from) outside the one allowed path: the database's
 * SECURITY DEFINER functions `engram_forget` and `engram_drop_sealed_space`
 * (src/store/migration-privileges.ts, issue 13; `engram_forget` replaced by migration 21 in
 * src/store/migration-erasure.ts), which the store's `forget` and `dropSpace` call. The database triggers and privileges refuse it too (test/store/system-of-record.test.ts,
 * test/store/service-role.test.ts); this fails the build before that.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SCANNED = ['src', 'adapters'];

/**
 * The one file and the methods in it where content may be deleted or changed: forget for
 * good, the context scrub inside it (a memory that stays loses the forgotten sentences of
 * its source message), and the sealed-space drop.
 */
const ALLOWED: Record<string, string[]> = {};
/** Files that are the allowed path as a whole: the SQL of the database functions themselves. */
const ALLOWED_FILES = new Set(['src/store/migration-privileges.ts', 'src/store/migration-erasure.ts']);

const CONTENT = `(?:only\\s+)?(?:"?public"?\\s*\\.\\s*)?"?(?:memories|mentions|messages)"?(?![\\w])`;
const CASCADING = `(?:"?public"?\\s*\\.\\s*)?"?(?:spaces|conversations)"?(?![\\w])`;
export const PATTERNS: Array<{ name: string; re: RegExp }> = [
  { name: 'update of a content table', re: new RegExp(`\\bupdate\\s+${CONTENT}`, 'gi') },
  { name: 'delete from a content table', re: new RegExp(`\\bdelete\\s+from\\s+${CONTENT}`, 'gi') },
  { name: 'delete that cascades into content', re: new RegExp(`\\bdelete\\s+from\\s+${CASCADING}`, 'gi') },
  { name: 'truncate', re: /\btruncate\s+(?:table\s+)?(?:only\s+)?(?!on\b)["\w.]+/gi },
];

function tsFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...tsFiles(p));
    else if (name.endsWith('.ts')) out.push(p);
  }
  return out;
}

/** Blanks out comments (keeping line breaks and offsets) so that prose about SQL is not SQL. */
export function stripComments(src: string): string {
  return src.replace(/\/\*[\s\S]*?\*\/|(^|[^:'"`\\])\/\/[^\n]*/g, (m, lead: string | undefined) => {
    const keep = lead ?? '';
    const body = m.slice(keep.length);
    return keep + body.replace(/[^\n]/g, ' ');
  });
}

/** Line ranges [start, end] of the bodies of the named methods (brace-matched). */
export function methodRanges(src: string, names: string[]): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  for (const name of names) {
    const re = new RegExp(`^\\s*(?:public\\s+|private\\s+)?(?:async\\s+)?${name}\\s*\\(`, 'gm');
    for (let m = re.exec(src); m; m = re.exec(src)) {
      const open = src.indexOf('{', src.indexOf(')', m.index));
      let depth = 0;
      let end = open;
      for (let i = open; i < src.length; i++) {
        if (src[i] === '{') depth++;
        else if (src[i] === '}' && --depth === 0) {
          end = i;
          break;
        }
      }
      ranges.push([lineOf(src, m.index), lineOf(src, end)]);
    }
  }
  return ranges;
}

function lineOf(src: string, offset: number): number {
  let n = 1;
  for (let i = 0; i < offset; i++) if (src.charCodeAt(i) === 10) n++;
  return n;
}

/** Every offending statement of one file, as "file:line: kind: text". */
export function scanSource(file: string, source: string): string[] {
  const src = stripComments(source);
  if (ALLOWED_FILES.has(file)) return [];
  const allowed = ALLOWED[file] ? methodRanges(src, ALLOWED[file]) : [];
  const found: string[] = [];
  for (const { name, re } of PATTERNS) {
    re.lastIndex = 0;
    for (let m = re.exec(src); m; m = re.exec(src)) {
      const line = lineOf(src, m.index);
      if (allowed.some(([a, b]) => line >= a && line <= b)) continue;
      found.push(`${file}:${line}: ${name}: ${m[0].replace(/\s+/g, ' ')}`);
    }
  }
  return found.sort();
}

describe('append-only scan', () => {
  it('finds no SQL that edits or deletes content outside forget / dropSpace in src/ and adapters/', () => {
    const files = SCANNED.flatMap((d) => {
      try {
        return tsFiles(join(ROOT, d));
      } catch {
        return [];
      }
    });
    expect(files.length).toBeGreaterThan(20);
    expect(files.map((f) => relative(ROOT, f))).toContain('src/store/sql-store.ts');
    const offending = files.flatMap((f) => scanSource(relative(ROOT, f).split('\\').join('/'), readFileSync(f, 'utf8')));
    expect(offending, `content must never be edited or deleted outside forget for good:\n${offending.join('\n')}`).toEqual([]);
  });

  it('the allowed path exists and is where the deletes are (the scan is not vacuous)', () => {
    const sql = stripComments(readFileSync(join(ROOT, 'src/store/migration-privileges.ts'), 'utf8'));
    const hits = PATTERNS.flatMap(({ re }) => [...sql.matchAll(new RegExp(re.source, re.flags))]);
    expect(hits.length).toBeGreaterThanOrEqual(4);
    expect(sql).toMatch(/function engram_forget\([\s\S]*security definer/);
    expect(sql).toMatch(/function engram_drop_sealed_space\([\s\S]*security definer/);
    // migration 21 replaces engram_forget: still the function of the allowed path, still security definer
    const erasure = stripComments(readFileSync(join(ROOT, 'src/store/migration-erasure.ts'), 'utf8'));
    expect(erasure).toMatch(/function engram_forget\([\s\S]*security definer/);
    // The store's parts (sql-store.ts and the files its class is split into).
    const storeDir = join(ROOT, 'src/store');
    const store = readdirSync(storeDir).filter((f) => /^sql-.*\.ts$/.test(f))
      .map((f) => stripComments(readFileSync(join(storeDir, f), 'utf8'))).join('\n');
    expect(store).toContain('engram_forget(');
    expect(store).toContain('engram_drop_sealed_space(');
  });

  describe('the scanner itself', () => {
    it.each([
      [`await q.query("UPDATE memories SET quote = 'x' where id = $1")`],
      ['const sql = `update\n   memories set quote = $2`;'],
      [`db.query('update public.mentions set quote = $1')`],
      [`db.query('UPDATE ONLY "messages" SET text = $1')`],
      [`db.query('delete from memories where id = $1')`],
      ['db.query(`DELETE\n FROM mentions`)'],
      [`db.query('delete from messages')`],
      [`db.query('truncate table memory_events')`],
      [`db.query('TRUNCATE memories CASCADE')`],
      [`db.query('delete from spaces where id = $1')`],
    ])('flags %j', (code) => {
      expect(scanSource('src/x.ts', `// header\n${code}\n`)).toHaveLength(1);
      expect(scanSource('src/x.ts', `// header\n${code}\n`)[0]).toMatch(/^src\/x\.ts:2: /);
    });

    it.each([
      [`db.query('update memory_state set status = $1')`],
      [`db.query('delete from memory_vectors where memory_id = $1')`],
      [`db.query('delete from memory_events where space_id = $1')`],
      [`// we never update memories here\nconst a = 1;`],
      [`/* delete from memories is forbidden */`],
      [`create trigger memories_no_truncate before truncate on memories for each statement`],
      [`create trigger t before update on memories for each row`],
      [`const url = 'http://example.com/update memories';`.replace('update memories', 'x')],
    ])('ignores %j', (code) => {
      expect(scanSource('src/x.ts', code)).toEqual([]);
    });

    it('allows deletes only in the database functions (src/store/migration-privileges.ts), not in any store method', () => {
      const store = [
        'class S {',
        '  async forget(tx: Tx) {',
        "    await q.query('delete from memories where id = any($1)');",
        '  }',
        '  async dropSpace(id: string) {',
        "    await q.query('delete from spaces where id = $1');",
        '  }',
        '  async other() {',
        "    await q.query('delete from mentions');",
        '  }',
        '}',
      ].join('\n');
      expect(scanSource('src/store/sql-store.ts', store)).toHaveLength(3);
      expect(scanSource('src/store/other-store.ts', store)).toHaveLength(3);
      expect(scanSource('src/store/migration-privileges.ts', store)).toEqual([]);
    });
  });
});
