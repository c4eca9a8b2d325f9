/** Turns text into fingerprints. Thresholds belong to the embedder that made the vectors. */
export interface RecognitionThresholds {
  /** Score at or above which two memories are the same (tier CLOSE). */
  close: number;
  /** Lower edge of the RELATED band: same type and a shared entity or theme required. */
  related: number;
  /** Below this a candidate is not about the same thing at all (used by the correction rules). */
  topic: number;
  /** Relevance floor for recall: vector-only hits below this are not returned. */
  recallFloor: number;
}

export interface Embedder {
  /** Stable id, part of every stored vector's identity (e.g. "builtin-sif-100d@1"). */
  readonly id: string;
  readonly dimensions: number;
  /** Calibrated defaults for vectors made by this embedder (see docs/calibration.md). */
  readonly thresholds: RecognitionThresholds;
  /** Loads weights; constructors do no I/O. */
  init(): Promise<void>;
  /** One unit-length vector per text, in order. Throws EmbeddingError on failure. */
  embed(texts: string[]): Promise<Float32Array[]>;
  /**
   * Lets go of the texts held from earlier calls (a cache of recent texts): a forget for good, here
   * or in another instance, takes its words out of every process (docs/erasure.md, "Every process").
   */
  letGo?(): void;
  close(): Promise<void>;
}

export class EmbeddingError extends Error {
  constructor(message: string, override readonly cause?: unknown) {
    super(message);
    this.name = 'EmbeddingError';
  }
}
