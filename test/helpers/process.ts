import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';

/** The repository root (child processes run the real entry points from here). */
export const ROOT = resolve(import.meta.dirname, '../..');
/**
 * `node --import tsx`: one process (the tsx binary would wrap node in a second one, and a kill -9
 * would miss it); with the suite's PGlite templates (test/helpers/child-templates.ts).
 */
const NODE = process.execPath;
export const TSX_ARGS = ['--import', 'tsx', '--import', './test/helpers/child-templates.ts'];

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Env for a child Engram: embedded store in `dataDir`, the fast builtin embedder, no server database. */
export function childEnv(dataDir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env, DATABASE_URL: '', ENGRAM_DATA_DIR: dataDir, ENGRAM_EMBEDDER: 'builtin', PORT: '0',
    LOG_LEVEL: 'warn', ENGRAM_ADMIN_TOKEN: '', ...extra,
  };
}

/** Runs `node --import tsx <args>` from the repository root to its exit; rejects (and kills it) after `timeoutMs`. */
function runToExit(args: string[], env: NodeJS.ProcessEnv, timeoutMs: number, timedOut: (run: Run) => string): Promise<Run> {
  return new Promise((res, rej) => {
    const child = spawn(NODE, [...TSX_ARGS, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const run: Run = { code: null, stdout: '', stderr: '' };
    child.stdout.on('data', (d) => (run.stdout += d));
    child.stderr.on('data', (d) => (run.stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      rej(new Error(timedOut(run)));
    }, timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      res({ ...run, code });
    });
  });
}

/**
 * Bounds for a child Engram, not races: they only stop a hung process. A CLI command or a server
 * start loads the code, PGlite and, for `eval`, WordNet and the rules; at load 20-28 on 2 cores
 * `engram eval pairs` on one pair went past 120 s.
 */
const CHILD_BOUND_MS = 600_000;

/** `npm run engram -- <args>`, the way README runs it (package.json's script: the `engram` command, bin/engram.js). */
export function cli(args: string[], env: NodeJS.ProcessEnv, timeoutMs = CHILD_BOUND_MS): Promise<Run> {
  return runToExit(['bin/engram.js', ...args], env, timeoutMs, (r) => `engram ${args.join(' ')} timed out: ${r.stderr}`);
}

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  adminToken: string | null;
  stdout(): string;
  stderr(): string;
  /** SIGTERM and wait for the exit (a clean stop). */
  stop(): Promise<number | null>;
  /** SIGKILL and wait for the exit. */
  kill(): Promise<void>;
}

/**
 * `npm start` (src/main.ts) as a child process; resolves once it listens. `args`: node's arguments
 * (the source through tsx, or the bundle `npm start` runs: test/process/built-server.test.ts).
 */
export function startServer(env: NodeJS.ProcessEnv, timeoutMs = CHILD_BOUND_MS, args = [...TSX_ARGS, 'src/main.ts']): Promise<ServerProcess> {
  return new Promise((res, rej) => {
    const child = spawn(NODE, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      rej(new Error(`server did not start: ${err}`));
    }, timeoutMs);
    child.stderr!.on('data', (d) => (err += d));
    child.stdout!.on('data', (d) => {
      out += d;
      const m = out.match(/GraphiQL at (\S+)\n/);
      if (!m) return;
      clearTimeout(timer);
      const token = out.match(/keep it:\n {2}(\S+)\n/)?.[1] ?? null;
      res({
        child, url: m[1], adminToken: token, stdout: () => out, stderr: () => err,
        async stop() {
          child.kill('SIGTERM');
          return exited;
        },
        async kill() {
          child.kill('SIGKILL');
          await exited;
        },
      });
    });
    void exited.then((code) => {
      clearTimeout(timer);
      rej(new Error(`server exited with ${code} before listening: ${err}`));
    });
  });
}

/** Waits for a child server that should refuse to start; returns its exit. */
export function runServerToExit(env: NodeJS.ProcessEnv, timeoutMs = CHILD_BOUND_MS): Promise<Run> {
  return runToExit(['src/main.ts'], env, timeoutMs, (r) => `second server kept running: ${r.stdout}`);
}

export async function gqlAt(url: string, token: string | null, query: string, variables: Record<string, unknown> = {}): Promise<any> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  return res.json();
}
