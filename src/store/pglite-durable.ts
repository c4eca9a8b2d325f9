/**
 * The embedded store's writes made durable (docs/limits.md, "The process's crash and the
 * machine's").
 *
 * PGlite 0.4.6 starts PostgreSQL with `-F` (`fsync = off`), and the file system it mounts for a
 * data directory on Node (Emscripten's NODEFS) has no `fsync` operation: a `fsync()` PostgreSQL
 * makes returns success without reaching the disk (`fdatasync()` is a stub in the WebAssembly
 * build; open upstream as electric-sql/pglite#1107). A machine's crash could then lose
 * acknowledged writes, or leave the cluster inconsistent.
 *
 * Here PostgreSQL runs with `fsync = on` and `wal_sync_method = fsync` (its `fsync()` calls, not the
 * stubbed `fdatasync()`), and NODEFS gains the missing `fsync` operation: the host's `fsync(2)` of
 * the file, or of the directory. The flushes are PostgreSQL's own, made where and in the order it
 * makes them on any operating system: the write-ahead log before a commit returns, the data files
 * and directories at a checkpoint. Nothing is flushed from outside.
 *
 * A data directory just created (pglite-client.ts: from a template, or by PGlite's own initdb) was
 * written by PGlite's loader, which flushes nothing: `syncTree` flushes it once, before the store
 * acknowledges anything.
 */
import { closeSync, fsyncSync, openSync } from 'node:fs';
import { open, readdir } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { NodeFS } from '@electric-sql/pglite/nodefs';

/** WASI's EIO: what PostgreSQL's `fsync()` returns when the host's flush failed (PostgreSQL then stops: data_sync_retry = off). */
const EIO = 29;

/** The parts of Emscripten's FS this reads (its own types are not exported by PGlite). */
interface EmNode { name: string; parent: EmNode; mode: number; mount: { opts: { root?: string } } }
interface EmStream { nfd?: number | null; node: EmNode }
interface EmFS {
  filesystems: { NODEFS: { stream_ops: { fsync?: (stream: EmStream) => number } } };
  isDir(mode: number): boolean;
  ErrnoError: new (errno: number) => Error;
}

/** The host path of a node of a NODEFS mount (as NODEFS's own `realPath` finds it). */
function hostPath(node: EmNode): string {
  const names: string[] = [];
  let n = node;
  while (n.parent !== n) {
    names.push(n.name);
    n = n.parent;
  }
  return join(n.mount.opts.root ?? '/', ...names.reverse());
}

function fsyncPath(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** PGlite's Node file system with a working `fsync` (files and directories); counts its flushes. */
export class DurableNodeFS extends NodeFS {
  /** Flushes made through PostgreSQL's `fsync()` so far, and the host path of the last few (tests). */
  readonly flushes = { count: 0, recent: [] as string[] };

  override async init(pg: PGlite, opts: Parameters<NodeFS['init']>[1]): ReturnType<NodeFS['init']> {
    const r = await super.init(pg, opts);
    const preRun = r.emscriptenOpts.preRun ?? [];
    r.emscriptenOpts.preRun = [...(Array.isArray(preRun) ? preRun : [preRun]), (mod: unknown) => {
      const FS = (mod as { FS: EmFS }).FS;
      FS.filesystems.NODEFS.stream_ops.fsync = (stream) => {
        // A directory has no host descriptor in NODEFS (only files are opened): opened here for its flush.
        const isFile = stream.nfd !== undefined && stream.nfd !== null;
        const path = hostPath(stream.node);
        try {
          if (isFile) fsyncSync(stream.nfd!);
          else if (FS.isDir(stream.node.mode)) fsyncPath(path);
        } catch {
          throw new FS.ErrnoError(EIO);
        }
        this.flushes.count++;
        this.flushes.recent.push(path);
        if (this.flushes.recent.length > 64) this.flushes.recent.shift();
        return 0;
      };
    }];
    return r;
  }
}

/** PGlite's start parameters with `fsync` on and the log flushed by `fsync()` (see above). */
export function durableStartParams(): string[] {
  return [...PGlite.defaultStartParams.filter((p) => p !== '-F'), '-c', 'wal_sync_method=fsync'];
}

/** Flushes every file and directory under `dir`, then `dir`'s entry in its parent: once, for a store just created. Returns how many it flushed. */
export async function syncTree(dir: string): Promise<number> {
  let n = 0;
  const flush = async (path: string) => {
    const h = await open(path, 'r');
    try {
      await h.sync();
      n++;
    } finally {
      await h.close();
    }
  };
  const walk = async (d: string): Promise<void> => {
    for (const e of await readdir(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) await walk(p);
      else if (e.isFile()) await flush(p);
    }
    await flush(d);
  };
  await walk(dir);
  if (relative(dirname(dir), dir) !== '') await flush(dirname(dir));
  return n;
}
