/**
 * UseLiteEmbedder with the real model (no mocks). Loading takes ~0.5-2 s.
 * Offline: during init every fetch of an http(s) URL throws, and the test
 * asserts none was attempted; running the file under `unshare -n` also passes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddingError } from '../../src/ports/embedder.js';
import { prepareText, UseLiteEmbedder } from '../../src/embed/use-lite-embedder.js';

const cos = (a: Float32Array, b: Float32Array): number => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
};
const norm = (a: Float32Array): number => Math.sqrt(cos(a, a));

describe('UseLiteEmbedder', () => {
  // Inline: the offline check watches this thread's fetch (the worker mode is tested in test/reliability).
  const embedder = new UseLiteEmbedder({ batchSize: 4, thread: 'inline' });
  const networkAttempts: string[] = [];

  beforeAll(async () => {
    const realFetch = globalThis.fetch;
    globalThis.fetch = (async (input: unknown, init?: unknown) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : String((input as { url?: string })?.url ?? input);
      if (/^https?:/i.test(url)) {
        networkAttempts.push(url);
        throw new Error(`network access during init: ${url}`);
      }
      return realFetch(input as Parameters<typeof fetch>[0], init as Parameters<typeof fetch>[1]);
    }) as typeof fetch;
    try {
      // Concurrent inits share one load.
      await Promise.all([embedder.init(), embedder.init(), embedder.init()]);
    } finally {
      globalThis.fetch = realFetch;
    }
  }, 60_000);

  afterAll(async () => {
    await embedder.close();
  });

  it('declares its identity without doing I/O in the constructor', () => {
    const fresh = new UseLiteEmbedder();
    expect(fresh.id).toBe('use-lite-512@1');
    expect(fresh.dimensions).toBe(512);
    const t = fresh.thresholds;
    expect(t.topic).toBeLessThan(t.related);
    expect(t.related).toBeLessThan(t.close);
    expect(t.close).toBeLessThanOrEqual(1);
    expect(t.recallFloor).toBeGreaterThan(0);
  });

  it('loads the model without touching the network', () => {
    expect(networkAttempts).toEqual([]);
  });

  it('returns one 512-d unit vector per text, in order, including empty strings', async () => {
    const texts = ['I have a peanut allergy.', '', '   ', 'My brother Owen lives in Bristol.', '!!!'];
    const vs = await embedder.embed(texts);
    expect(vs).toHaveLength(texts.length);
    for (const v of vs) {
      expect(v).toBeInstanceOf(Float32Array);
      expect(v.length).toBe(512);
      expect(Math.abs(norm(v) - 1)).toBeLessThan(1e-5);
      expect(v.every(Number.isFinite)).toBe(true);
    }
    expect(await embedder.embed([])).toEqual([]);
  });

  it('is deterministic, and batched results equal single results', async () => {
    const texts = [
      "I'm allergic to peanuts.",
      'I have a peanut allergy.',
      'The meeting was moved to Thursday.',
      'We rescheduled the meeting for Thursday.',
      'I love dogs.',
      'The stock market fell today.',
      'Remind me to call the plumber.',
    ];
    // batchSize 4: seven texts run as two forward passes.
    const batched = await embedder.embed(texts);
    const again = await embedder.embed(texts);
    for (let i = 0; i < texts.length; i++) {
      const [single] = await embedder.embed([texts[i]]);
      expect(cos(batched[i], single)).toBeGreaterThan(1 - 1e-6);
      expect(Array.from(again[i])).toEqual(Array.from(batched[i]));
    }
  });

  it('scores a paraphrase above an unrelated pair', async () => {
    const [a, b, c, d, e] = await embedder.embed([
      "I'm allergic to peanuts.",
      'I have a peanut allergy.',
      'My brother Owen lives in Bristol.',
      'What is my dog called?',
      "My dog's name is Biscuit.",
    ]);
    const paraphrase = cos(a, b);
    const unrelated = cos(a, c);
    expect(paraphrase).toBeGreaterThan(0.8);
    expect(unrelated).toBeLessThan(0.4);
    expect(paraphrase - unrelated).toBeGreaterThan(0.4);
    // A question finds its answer above the recall floor; an unrelated statement stays below.
    expect(cos(d, e)).toBeGreaterThan(embedder.thresholds.recallFloor);
    expect(cos(d, c)).toBeLessThan(embedder.thresholds.recallFloor);
  });

  it('treats all-caps text like its lower-case form', async () => {
    expect(prepareText('I PREFER TEA OVER COFFEE.')).toBe('i prefer tea over coffee.');
    expect(prepareText('Book the MOT for the car.')).toBe('Book the MOT for the car.');
    const [a, b] = await embedder.embed(['My brother Owen lives in Bristol.', 'MY BROTHER OWEN LIVES IN BRISTOL.']);
    expect(cos(a, b)).toBeGreaterThan(0.85);
  });

  it('runs concurrent embed calls correctly', async () => {
    const texts = ['I speak French.', 'I speak Spanish.', 'I like jazz.'];
    const [x, y, z] = await Promise.all(texts.map((t) => embedder.embed([t])));
    const all = await embedder.embed(texts);
    expect(cos(x[0], all[0])).toBeGreaterThan(1 - 1e-6);
    expect(cos(y[0], all[1])).toBeGreaterThan(1 - 1e-6);
    expect(cos(z[0], all[2])).toBeGreaterThan(1 - 1e-6);
  });

  it('rejects non-string input with EmbeddingError', async () => {
    await expect(embedder.embed([42 as unknown as string])).rejects.toBeInstanceOf(EmbeddingError);
  });

  it('can be closed and initialised again', async () => {
    const other = new UseLiteEmbedder();
    const [before] = await other.embed(['I grew up in Duluth.']);
    await other.close();
    const [after] = await other.embed(['I grew up in Duluth.']);
    expect(cos(before, after)).toBeGreaterThan(1 - 1e-6);
    await other.close();
  }, 60_000);
});
