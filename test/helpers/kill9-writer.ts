/**
 * Child process for test/process/kill9.test.ts: opens the store the way the server does
 * (PGlite data directory with its lock, or the PostgreSQL server), then writes spaces one
 * by one and prints `ack <id>` after each commit, until it is killed.
 */
import { randomUUID } from 'node:crypto';
import { PgliteClient } from '../../src/store/pglite-client.js';
import { PgClient } from '../../src/store/pg-client.js';
import { migrate } from '../../src/store/migrations.js';
import { SqlStore } from '../../src/store/sql-store.js';

const [target, tag] = process.argv.slice(2);
const db = target.startsWith('postgres') ? new PgClient(target, 2) : await PgliteClient.open(target, { owner: 'kill9-writer', dimensions: 512 });
await migrate(db, { dimensions: 512 });
const store = new SqlStore(db);
process.stdout.write('ready\n');
for (let i = 0; ; i++) {
  const id = `${tag}-${i}-${randomUUID()}`;
  await store.createSpace({ id, name: `kill9 ${i}`, sealed: true, timeZone: 'UTC' });
  process.stdout.write(`ack ${id}\n`);
}
