/**
 * The embedder's batcher (src/embed/batcher.ts): concurrent texts coalesced into passes, recent
 * texts answered from its cache, and a forget (`letGo`) that leaves no text behind, not even one
 * of a pass that was running when it came.
 */
import { describe, expect, it } from 'vitest';
import { EmbedBatcher } from '../../src/embed/batcher.js';

/** An encoder whose passes end when the test says (`finish`), each text's vector its length. */
function heldEncoder() {
  const passes: { texts: string[]; finish(): void }[] = [];
  const encode = (texts: string[]) => new Promise<Float32Array[]>((resolve) => {
    passes.push({ texts, finish: () => resolve(texts.map((t) => Float32Array.of(t.length))) });
  });
  return { passes, encode };
}
const settle = () => new Promise((done) => setImmediate(done));

describe('EmbedBatcher', () => {
  it('coalesces texts asked while a pass runs into the next, and answers a repeated text from its cache', async () => {
    const { passes, encode } = heldEncoder();
    const b = new EmbedBatcher(encode, 8, 16);
    const first = b.embed(['a']);
    const later = b.embed(['bb', 'ccc', 'bb']);
    expect(passes.map((p) => p.texts)).toEqual([['a']]);
    passes[0]!.finish();
    await settle();
    expect(passes.map((p) => p.texts)).toEqual([['a'], ['bb', 'ccc']]);
    passes[1]!.finish();
    expect((await first).map((v) => v[0])).toEqual([1]);
    expect((await later).map((v) => v[0])).toEqual([2, 3, 2]);
    expect((await b.embed(['ccc']))[0]![0]).toBe(3);
    expect(b.passes).toBe(2);
  });

  it('a forget empties the cache, and a pass under way when it came caches nothing', async () => {
    const { passes, encode } = heldEncoder();
    const b = new EmbedBatcher(encode, 8, 16);
    const kept = b.embed(['my sister lives in Lisbon']);
    passes[0]!.finish();
    await kept;
    const running = b.embed(['my PIN is 4321']);
    b.letGo();
    passes[1]!.finish();
    // its caller is answered as usual
    expect((await running)[0]![0]).toBe('my PIN is 4321'.length);
    // neither text is answered from the cache now: each costs a pass
    const again = b.embed(['my PIN is 4321', 'my sister lives in Lisbon']);
    for (let i = 2; i < 4; i++) {
      await settle();
      passes[i]?.finish();
    }
    await again;
    expect(passes.slice(2).flatMap((p) => p.texts).sort()).toEqual(['my PIN is 4321', 'my sister lives in Lisbon']);
    // after the forget, texts are cached again
    const n = passes.length;
    await b.embed(['my PIN is 4321']);
    expect(passes).toHaveLength(n);
  });
});
