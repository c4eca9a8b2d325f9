import { describe, expect, it } from 'vitest';
import {
  cosine,
  dot,
  l2,
  normalize,
  parseVector,
  similarity,
  toPgVectorText,
  VectorFormatError,
  type VectorFormatReason,
} from '../../src/core/vectors.js';

/** A deterministic 1536-d vector, like an OpenAI embedding. */
function vec1536(seed: number): number[] {
  let s = seed;
  return Array.from({ length: 1536 }, () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648 - 0.5;
  });
}

function reasonOf(fn: () => unknown): VectorFormatReason | 'no error' {
  try {
    fn();
    return 'no error';
  } catch (err) {
    expect(err).toBeInstanceOf(VectorFormatError);
    return (err as VectorFormatError).reason;
  }
}

describe('parseVector', () => {
  it('parses a 1536-d vector arriving as pgvector text into 1536 numbers, and compares it', () => {
    const v = vec1536(7);
    const text = toPgVectorText(v);
    expect(text.length).toBeGreaterThan(1536); // the text's length is not the dimension
    const parsed = parseVector(text, 1536);
    expect(parsed).toBeInstanceOf(Float32Array);
    expect(parsed.length).toBe(1536);
    expect(cosine(parsed, v)).toBeCloseTo(1, 6);
    expect(cosine(parsed, parsed)).toBeCloseTo(1, 6);
    const perturbed = v.map((x, i) => x + (i % 7 === 0 ? 0.1 : -0.02));
    const c = cosine(parseVector(toPgVectorText(perturbed), 1536), parsed);
    expect(c).toBeLessThan(1);
    expect(c).toBeGreaterThan(0.9);
  });

  it('tolerates spaces in the text form and accepts arrays and typed arrays', () => {
    expect(Array.from(parseVector(' [ 1, -2.5 ,3e-1 ] '))).toEqual([1, -2.5, Math.fround(0.3)]);
    expect(Array.from(parseVector([1, 2, 3], 3))).toEqual([1, 2, 3]);
    expect(Array.from(parseVector(new Float64Array([0.5, 0.25])))).toEqual([0.5, 0.25]);
    expect(Array.from(parseVector(new Int8Array([1, -1])))).toEqual([1, -1]);
  });

  it('returns a copy, never the caller\'s array', () => {
    const f = new Float32Array([1, 2]);
    const p = parseVector(f);
    p[0] = 9;
    expect(f[0]).toBe(1);
  });

  it('refuses bad input with the right reason', () => {
    expect(reasonOf(() => parseVector('[1,2,3]', 1536))).toBe('dimension');
    expect(() => parseVector('[1,2,3]', 1536)).toThrow('expected 1536 dimensions, got 3');
    expect(reasonOf(() => parseVector([1, 2], 3))).toBe('dimension');
    expect(reasonOf(() => parseVector('{1,2,3}'))).toBe('malformed');
    expect(reasonOf(() => parseVector('1,2,3'))).toBe('malformed');
    expect(reasonOf(() => parseVector('[1,,3]'))).toBe('malformed');
    expect(reasonOf(() => parseVector('[1,abc]'))).toBe('malformed');
    expect(reasonOf(() => parseVector([1, '2']))).toBe('malformed');
    expect(reasonOf(() => parseVector(null))).toBe('malformed');
    expect(reasonOf(() => parseVector({ length: 2 }))).toBe('malformed');
    expect(reasonOf(() => parseVector(42))).toBe('malformed');
    expect(reasonOf(() => parseVector('[]'))).toBe('empty');
    expect(reasonOf(() => parseVector([]))).toBe('empty');
    expect(reasonOf(() => parseVector(new Float32Array(0)))).toBe('empty');
    expect(reasonOf(() => parseVector([1, Number.NaN]))).toBe('not-finite');
    expect(reasonOf(() => parseVector([1, Infinity]))).toBe('not-finite');
    expect(reasonOf(() => parseVector('[1,NaN]'))).toBe('not-finite');
    expect(reasonOf(() => parseVector([1e39]))).toBe('not-finite'); // overflows float32
  });
});

describe('vector arithmetic', () => {
  const a = [1, 0, 0];
  const b = [0, 1, 0];
  const c = [1, 1, 0];

  it('computes dot, cosine and l2 on known vectors', () => {
    expect(dot([1, 2, 3], [4, 5, 6])).toBe(32);
    expect(cosine(a, b)).toBe(0);
    expect(cosine(a, a)).toBe(1);
    expect(cosine(a, c)).toBeCloseTo(Math.SQRT1_2, 12);
    expect(cosine(a, [-1, 0, 0])).toBe(-1);
    expect(cosine([0, 0, 0], a)).toBe(0);
    expect(l2(a, b)).toBeCloseTo(Math.SQRT2, 12);
    expect(l2([0, 0], [3, 4])).toBe(5);
  });

  it('refuses vectors of different dimensions', () => {
    expect(reasonOf(() => cosine([1, 2], [1, 2, 3]))).toBe('dimension');
  });

  it('normalises to a unit copy and keeps a zero vector zero', () => {
    const v = [3, 4];
    const n = normalize(v);
    expect(Array.from(n)).toEqual([Math.fround(0.6), Math.fround(0.8)]);
    expect(v).toEqual([3, 4]);
    expect(Array.from(normalize([0, 0]))).toEqual([0, 0]);
  });

  it('similarity is higher for closer vectors under both metrics', () => {
    expect(similarity(a, c, 'cosine')).toBeGreaterThan(similarity(a, b, 'cosine'));
    expect(similarity(a, c, 'l2')).toBeGreaterThan(similarity(a, b, 'l2'));
    expect(similarity([0, 0], [3, 4], 'l2')).toBe(-5);
  });

  it('writes pgvector text that parses back', () => {
    expect(toPgVectorText([1, -0.5, 2])).toBe('[1,-0.5,2]');
    expect(Array.from(parseVector(toPgVectorText(new Float32Array([0.1, 0.2]))))).toEqual([
      Math.fround(0.1),
      Math.fround(0.2),
    ]);
    expect(reasonOf(() => toPgVectorText([Number.NaN]))).toBe('not-finite');
  });
});
