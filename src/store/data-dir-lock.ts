import { chmodSync, closeSync, mkdirSync, openSync, readFileSync, statSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { chmod, readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';

/**
 * One process owns an embedded store (docs/ownership.md). PGlite is PostgreSQL in one
 * process: a second process opening the same directory corrupts it. The owner holds
 * `<dataDir>/engram.lock` (created exclusively) naming its pid and, once it listens,
 * its URL; a lock whose pid is no longer alive is stale and taken over.
 */
export const LOCK_FILE = 'engram.lock';

export interface LockInfo {
  pid: number;
  /** What the owner is: 'server' (npm start) or a CLI command. */
  owner: string;
  startedAt: string;
  port?: number;
  url?: string;
}

export class DataDirLockedError extends Error {
  constructor(readonly dataDir: string, readonly holder: LockInfo) {
    super(
      `the data directory ${dataDir} is in use by ${holder.owner === 'server' ? 'the Engram server' : `\`engram ${holder.owner}\``} ` +
        `(pid ${holder.pid}${holder.port ? `, port ${holder.port}` : ''}${holder.url ? `, ${holder.url}` : ''}); ` +
        `one process owns an embedded store at a time`,
    );
    this.name = 'DataDirLockedError';
  }
}

/** Locks held by this process, by resolved directory (a second open in one process is refused too). */
const held = new Map<string, DataDirLock>();

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function readLock(dataDir: string): LockInfo | null {
  try {
    const info = JSON.parse(readFileSync(join(resolve(dataDir), LOCK_FILE), 'utf8')) as LockInfo;
    return typeof info.pid === 'number' ? info : null;
  } catch {
    return null;
  }
}

/** The live owner of a data directory, if any (a stale lock reads as none). */
export function lockHolder(dataDir: string): LockInfo | null {
  const dir = resolve(dataDir);
  const info = readLock(dir);
  if (!info) return null;
  if (info.pid === process.pid) return held.has(dir) ? info : null;
  return alive(info.pid) ? info : null;
}

export class DataDirLock {
  private released = false;
  private constructor(readonly dir: string, private info: LockInfo) {}

  /**
   * Creates the directory (0700) if needed and takes its lock, or throws
   * DataDirLockedError naming the live owner. A stale lock (its pid is gone: a crash,
   * kill -9) is replaced.
   */
  static acquire(dataDir: string, owner: string): DataDirLock {
    const dir = resolve(dataDir);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodSync(dir, 0o700);
    const path = join(dir, LOCK_FILE);
    const info: LockInfo = { pid: process.pid, owner, startedAt: new Date().toISOString() };
    for (let attempt = 0; attempt < 5; attempt++) {
      if (held.has(dir)) throw new DataDirLockedError(dir, held.get(dir)!.info);
      try {
        const fd = openSync(path, 'wx', 0o600);
        try {
          writeSync(fd, JSON.stringify(info) + '\n');
        } finally {
          closeSync(fd);
        }
        const lock = new DataDirLock(dir, info);
        held.set(dir, lock);
        return lock;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
      const current = readLock(dir);
      if (current && current.pid !== process.pid && alive(current.pid)) throw new DataDirLockedError(dir, current);
      if (!current) {
        // Being written right now by another starter, or garbage: a fresh file is someone's; an old one is junk.
        let age = Number.POSITIVE_INFINITY;
        try {
          age = Date.now() - statSync(path).mtimeMs;
        } catch {
          // gone meanwhile
        }
        if (age < 2_000) {
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
          continue;
        }
      }
      try {
        unlinkSync(path);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      }
    }
    const current = readLock(dir);
    throw new DataDirLockedError(dir, current ?? { pid: 0, owner: 'unknown', startedAt: '' });
  }

  /** Records where the owner listens (read by CLI commands that go through the server). */
  setAddress(port: number, url: string): void {
    if (this.released) return;
    this.info = { ...this.info, port, url };
    writeFileSync(join(this.dir, LOCK_FILE), JSON.stringify(this.info) + '\n', { mode: 0o600 });
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    held.delete(this.dir);
    const current = readLock(this.dir);
    if (current && current.pid === process.pid) {
      try {
        unlinkSync(join(this.dir, LOCK_FILE));
      } catch {
        // already gone
      }
    }
  }
}

/** The lock this process holds on a data directory (the server records its address in it). */
export function heldLock(dataDir: string): DataDirLock | null {
  return held.get(resolve(dataDir)) ?? null;
}

/**
 * Owner-only permissions on everything under a data directory: directories 0700,
 * files 0600 (the process umask is 077 for new ones; this also fixes a directory an
 * older version created 0755 / 0644). The directory itself is made 0700 at once, before this
 * returns, so nothing under it is reachable by another user while the rest is walked; the rest
 * goes through the thread pool (a cluster is ~2,000 files: walked synchronously, ~0.1 s of a
 * start's event loop). Never rejects.
 */
export function restrictPermissions(dir: string): Promise<void> {
  try {
    chmodSync(dir, 0o700);
  } catch {
    return Promise.resolve();
  }
  const walk = async (d: string): Promise<void> => {
    let entries: import('node:fs').Dirent[];
    try {
      entries = await readdir(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = join(d, e.name);
      try {
        if (e.isDirectory()) {
          await chmod(p, 0o700);
          await walk(p);
        } else if (e.isFile()) await chmod(p, 0o600);
      } catch {
        // removed meanwhile
      }
    }
  };
  return walk(dir);
}
