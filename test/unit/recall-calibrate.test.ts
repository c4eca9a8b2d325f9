import { describe, expect, it } from 'vitest';
import { calibrate, DEFAULT_TUNING } from '../../src/memory/recall.js';

type F = { score: number; v: number | null; l: number | null };
const fresh = (): Map<string, F> => new Map<string, F>([
  ['near', { score: 0, v: 0.8, l: null }],
  ['last', { score: 0, v: 0.3, l: null }],
  ['both', { score: 0, v: 0.5, l: 2 }],
  ['cut', { score: 0, v: null, l: 2 }],
]);

describe('calibrated fusion', () => {
  it('credits a lexical hit cut off by a full vector window with the window\'s last cosine', () => {
    const full = fresh();
    calibrate(full, 0.4, DEFAULT_TUNING, true);
    // same BM25 as "both"; its cosine is at most the last one in the window (0.3), credited as 0.3
    const sv = (0.3 - 0.2) / (0.8 - 0.2);
    expect(full.get('cut')!.score).toBeCloseTo(DEFAULT_TUNING.calibratedVector * sv + DEFAULT_TUNING.calibratedLexical, 9);
    expect(full.get('cut')!.score).toBeCloseTo(full.get('last')!.score + DEFAULT_TUNING.calibratedLexical, 9);
    expect(full.get('cut')!.score).toBeLessThan(full.get('both')!.score);
  });

  it('gives nothing for the cosine when the window held every memory (the hit has no vector)', () => {
    const partial = fresh();
    calibrate(partial, 0.4, DEFAULT_TUNING, false);
    expect(partial.get('cut')!.score).toBeCloseTo(DEFAULT_TUNING.calibratedLexical, 9);
    expect(partial.get('near')!.score).toBeCloseTo(DEFAULT_TUNING.calibratedVector, 9);
  });
});
