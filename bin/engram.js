#!/usr/bin/env node
// The `engram` command (package.json "bin"): `engram serve` starts the GraphQL server, any
// other command goes to the operator CLI (src/cli/index.ts; `engram --help` lists them).
// Runs the TypeScript sources through tsx, a runtime dependency, so there is no build step.
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { register } from 'tsx/esm/api';

const major = Number(process.versions.node.split('.')[0]);
if (major < 20) {
  process.stderr.write(`engram needs Node.js 20 or later (this is ${process.version})\n`);
  process.exit(1);
}
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cmd = process.argv[2];
register();
if (cmd === 'serve' || cmd === 'start') {
  await import(pathToFileURL(join(root, 'src', 'main.ts')).href);
} else {
  await import(pathToFileURL(join(root, 'src', 'cli', 'index.ts')).href);
}
