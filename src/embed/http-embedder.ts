/**
 * Embeddings from any OpenAI-compatible HTTP endpoint (OpenAI, Azure-style
 * proxies, Ollama, vLLM, LM Studio...): POST {baseUrl}/embeddings with
 * {model, input: string[]}. Thresholds are not knowable from here, so the
 * configuration must pass the ones calibrated for that model.
 */
import type { Embedder, RecognitionThresholds } from '../ports/embedder.js';
import { EmbeddingError } from '../ports/embedder.js';
import { normalize, parseVector, VectorFormatError } from '../core/vectors.js';

/** Settings of an OpenAI-compatible embedder. */
export interface OpenAICompatibleConfig {
  /** e.g. "https://api.openai.com/v1" (no trailing /embeddings). */
  baseUrl: string;
  model: string;
  /** Sent as "Authorization: Bearer <apiKey>" when given. */
  apiKey?: string;
  dimensions: number;
  thresholds: RecognitionThresholds;
  /** Per-request timeout (default 30 s). */
  timeoutMs?: number;
  /** Texts per request (default 96). */
  batchSize?: number;
  /** Overrides the id (default "openai:<model>@<dimensions>"). */
  id?: string;
  /** For tests: a fetch implementation. */
  fetch?: typeof fetch;
}

interface EmbeddingResponse {
  data?: Array<{ embedding?: unknown; index?: number }>;
}

/** Calls an OpenAI-compatible /embeddings endpoint; vectors come back unit-length. */
export class OpenAICompatibleEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions: number;
  readonly thresholds: RecognitionThresholds;
  private readonly url: string;
  private readonly fetchFn: typeof fetch;

  constructor(private readonly config: OpenAICompatibleConfig) {
    this.id = config.id ?? `openai:${config.model}@${config.dimensions}`;
    this.dimensions = config.dimensions;
    this.thresholds = { ...config.thresholds };
    this.url = `${config.baseUrl.replace(/\/+$/, '')}/embeddings`;
    this.fetchFn = config.fetch ?? fetch;
  }

  /** Nothing to load: the first embed() is the connectivity check. */
  async init(): Promise<void> {}

  async embed(texts: string[]): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    const size = this.config.batchSize ?? 96;
    for (let i = 0; i < texts.length; i += size) out.push(...(await this.request(texts.slice(i, i + size))));
    return out;
  }

  private async request(input: string[]): Promise<Float32Array[]> {
    if (input.length === 0) return [];
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.config.apiKey) headers.authorization = `Bearer ${this.config.apiKey}`;
    let res: Response;
    try {
      res = await this.fetchFn(this.url, {
        method: 'POST',
        headers,
        body: JSON.stringify({ model: this.config.model, input }),
        signal: AbortSignal.timeout(this.config.timeoutMs ?? 30_000),
      });
    } catch (err) {
      const name = (err as Error).name;
      const why = name === 'TimeoutError' || name === 'AbortError' ? `timed out after ${this.config.timeoutMs ?? 30_000} ms` : (err as Error).message;
      throw new EmbeddingError(`embedding request to ${this.url} failed: ${why}`, err);
    }
    if (!res.ok) {
      // The body usually says why (bad key, unknown model); keep it short, never echo the key.
      const body = (await res.text().catch(() => '')).slice(0, 300);
      throw new EmbeddingError(`embedding request to ${this.url} failed: HTTP ${res.status} ${body}`.trim());
    }
    let json: EmbeddingResponse;
    try {
      json = (await res.json()) as EmbeddingResponse;
    } catch (err) {
      throw new EmbeddingError(`embedding response from ${this.url} is not JSON`, err);
    }
    const data = json.data;
    if (!Array.isArray(data) || data.length !== input.length) {
      throw new EmbeddingError(
        `embedding response from ${this.url} has ${Array.isArray(data) ? data.length : 'no'} vectors for ${input.length} texts`,
      );
    }
    // The API may answer out of order; "index" says which input each vector belongs to.
    const ordered = data.every((d) => typeof d.index === 'number') ? [...data].sort((a, b) => a.index! - b.index!) : data;
    return ordered.map((d, i) => {
      try {
        return normalize(parseVector(d.embedding, this.dimensions));
      } catch (err) {
        if (err instanceof VectorFormatError) {
          throw new EmbeddingError(`embedding ${i} from ${this.url} is unusable: ${err.message}`, err);
        }
        throw err;
      }
    });
  }

  async close(): Promise<void> {}
}
