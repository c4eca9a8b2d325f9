/** Helpers for tests of what the service leaves on disk (a data directory's permissions). */
import { chmodSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Calls `visit` on `dir`, then on every directory and file under it, depth first. */
function walkTree(dir: string, visit: (path: string, isDir: boolean) => void): void {
  visit(dir, true);
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) walkTree(p, visit);
    else if (e.isFile()) visit(p, false);
  }
}

/** The permission bits (octal, as `ls` shows them) found on the directories and on the files under `dir`, itself included. */
export function modes(dir: string): { dirs: Set<string>; files: Set<string> } {
  const dirs = new Set<string>();
  const files = new Set<string>();
  walkTree(dir, (p, isDir) => (isDir ? dirs : files).add((statSync(p).mode & 0o777).toString(8)));
  return { dirs, files };
}

/** Sets every directory under `dir` (itself included) to `dirMode` and every file to `fileMode`. */
export function setModes(dir: string, dirMode: number, fileMode: number): void {
  walkTree(dir, (p, isDir) => chmodSync(p, isDir ? dirMode : fileMode));
}
