/**
 * PROTOCOL tests, not engine tests: a local node:http server that replays the REST
 * exchanges Qdrant's OpenAPI (1.18) documents — the JSON envelope `{ result, status,
 * time }`, error bodies `{ status: { error } }` with their HTTP statuses, 429 with
 * Retry-After — so the adapter's requests (paths, query parameters, bodies) can be
 * asserted and its handling of documented answers checked. It stores no points and
 * computes no distances: every answer a test needs about points is scripted by the test.
 * The only state kept is what the collection endpoints describe (whether the collection
 * exists, its vector parameters, payload indices and metadata), so that an init can be
 * answered the way the documentation says. What Qdrant actually does is judged by the
 * contract suite against a live server (`QDRANT_URL=… ENGINES=qdrant`, docs/engines.md).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Recorded {
  method: string;
  /** Path without the prefix. */
  path: string;
  /** Path as received (with the prefix). */
  rawPath: string;
  query: Record<string, string>;
  body: any;
}

export interface Answer {
  status?: number;
  headers?: Record<string, string>;
  /** JSON body (sent as is). */
  json?: unknown;
  /** Never answer: the client's timeout has to fire. */
  hang?: boolean;
}

/** One scripted answer for `METHOD /path` (consumed once, in order), optionally computed from the request. */
export interface Scripted {
  route: string;
  answer: Answer | ((req: Recorded) => Answer);
}

export const ok = (result: unknown): Answer => ({ status: 200, json: { result, status: 'ok', time: 0.000_2 } });
export const fail = (status: number, error: string, headers?: Record<string, string>): Answer => ({
  status, headers, json: { status: { error }, time: 0.000_1 },
});
export const update = (status: 'completed' | 'acknowledged' | 'wait_timeout', operationId = 7): Answer => ok({ operation_id: operationId, status });
/** Qdrant's documented 404 for a missing collection. */
export const noCollection = (name: string): Answer => fail(404, `Not found: Collection \`${name}\` doesn't exist!`);

export interface CollectionState {
  exists: boolean;
  size: number;
  distance: 'Cosine' | 'Euclid';
  payloadSchema: Record<string, { data_type: string; params?: unknown; points: number }>;
  metadata: Record<string, unknown>;
}

export class QdrantReplay {
  readonly requests: Recorded[] = [];
  /** Requests nothing answered (neither a script nor a collection endpoint): a test failure. */
  readonly unexpected: string[] = [];
  private readonly scripts: Scripted[] = [];
  private readonly hung = new Set<ServerResponse>();
  version = '1.18.3';

  private constructor(private readonly server: Server, readonly name: string, readonly prefix: string, readonly state: CollectionState) {}

  /** A server for collection `name`, optionally under a path prefix (a reverse proxy's). */
  static async start(name: string, opts: { prefix?: string; state?: Partial<CollectionState> } = {}): Promise<QdrantReplay> {
    const state: CollectionState = { exists: false, size: 4, distance: 'Cosine', payloadSchema: {}, metadata: {}, ...opts.state };
    let replay: QdrantReplay | null = null;
    const server = createServer((req, res) => void replay!.handle(req, res));
    replay = new QdrantReplay(server, name, opts.prefix ?? '', state);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return replay;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}${this.prefix}`;
  }

  /** Queues answers for the next matching requests. */
  script(...s: Scripted[]): this {
    this.scripts.push(...s);
    return this;
  }

  /** Requests whose `METHOD /path` is `route`. */
  sent(route: string): Recorded[] {
    return this.requests.filter((r) => `${r.method} ${r.path}` === route);
  }

  get pendingScripts(): string[] {
    return this.scripts.map((s) => s.route);
  }

  async close(): Promise<void> {
    for (const res of this.hung) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const u = new URL(req.url ?? '/', 'http://replay');
    const rawPath = u.pathname;
    const inPrefix = this.prefix === '' || rawPath === this.prefix || rawPath.startsWith(`${this.prefix}/`);
    const path = inPrefix ? rawPath.slice(this.prefix.length) || '/' : rawPath;
    const rec: Recorded = {
      method: req.method ?? 'GET', path, rawPath, query: Object.fromEntries(u.searchParams), body: text ? JSON.parse(text) : undefined,
    };
    this.requests.push(rec);
    const route = `${rec.method} ${rec.path}`;
    let answer: Answer | null = null;
    if (inPrefix) {
      const at = this.scripts.findIndex((s) => s.route === route);
      if (at >= 0) {
        const [s] = this.scripts.splice(at, 1);
        answer = typeof s.answer === 'function' ? s.answer(rec) : s.answer;
      } else {
        answer = this.documented(rec);
      }
    }
    if (!answer) {
      this.unexpected.push(`${route}${inPrefix ? '' : ' (outside the prefix)'}`);
      // What a server answers for a path it does not serve.
      answer = { status: 404, json: { status: { error: `no route ${rec.rawPath}` } } };
    }
    if (answer.hang) {
      this.hung.add(res);
      return;
    }
    res.writeHead(answer.status ?? 200, { 'content-type': 'application/json', ...(answer.headers ?? {}) });
    res.end(answer.json === undefined ? '' : JSON.stringify(answer.json));
  }

  /** The collection endpoints, answered as documented from the collection's description. */
  private documented(r: Recorded): Answer | null {
    const c = `/collections/${this.name}`;
    const s = this.state;
    if (r.method === 'GET' && r.path === '/') return { status: 200, json: { title: 'qdrant - vector search engine', version: this.version, commit: '0000000' } };
    if (r.method === 'GET' && r.path === `${c}/exists`) return ok({ exists: s.exists });
    if (r.method === 'GET' && r.path === c) return s.exists ? ok(this.info()) : noCollection(this.name);
    if (r.method === 'PUT' && r.path === c) {
      if (s.exists) return fail(409, `Wrong input: Collection \`${this.name}\` already exists!`);
      const v = r.body?.vectors ?? {};
      Object.assign(s, { exists: true, size: v.size, distance: v.distance, payloadSchema: {}, metadata: r.body?.metadata ?? {} });
      return ok(true);
    }
    if (r.method === 'DELETE' && r.path === c) {
      const existed = s.exists;
      Object.assign(s, { exists: false, payloadSchema: {}, metadata: {} });
      return ok(existed);
    }
    if (!s.exists && r.path.startsWith(`${c}/`)) return noCollection(this.name);
    if (r.method === 'PATCH' && r.path === c) {
      if (r.body?.metadata) s.metadata = { ...s.metadata, ...r.body.metadata };
      return ok(true);
    }
    if (r.method === 'PUT' && r.path === `${c}/index`) {
      const schema = r.body.field_schema;
      s.payloadSchema[r.body.field_name] = typeof schema === 'string'
        ? { data_type: schema, points: 0 }
        : { data_type: schema.type, params: schema, points: 0 };
      return update('completed');
    }
    return null;
  }

  private info(): unknown {
    const s = this.state;
    return {
      status: 'green', optimizer_status: 'ok', indexed_vectors_count: 0, points_count: 0, segments_count: 2,
      config: {
        params: { vectors: { size: s.size, distance: s.distance }, shard_number: 1, replication_factor: 1, write_consistency_factor: 1, on_disk_payload: true },
        hnsw_config: { m: 0, ef_construct: 100, full_scan_threshold: 10000, max_indexing_threads: 0, on_disk: false, payload_m: 16 },
        optimizer_config: {
          deleted_threshold: 0.2, vacuum_min_vector_number: 1000, default_segment_number: 0, max_segment_size: null,
          memmap_threshold: null, indexing_threshold: 10000, flush_interval_sec: 5, max_optimization_threads: null,
        },
        wal_config: { wal_capacity_mb: 32, wal_segments_ahead: 0 },
        quantization_config: null,
        metadata: s.metadata,
      },
      payload_schema: s.payloadSchema,
    };
  }
}

/** The payload schema of a collection Engram set up (its three indices). */
export const ENGRAM_INDICES: CollectionState['payloadSchema'] = {
  space_id: { data_type: 'keyword', params: { type: 'keyword', is_tenant: true }, points: 0 },
  status: { data_type: 'keyword', params: { type: 'keyword', enable_hnsw: false }, points: 0 },
  kind: { data_type: 'keyword', params: { type: 'keyword', enable_hnsw: false }, points: 0 },
};
