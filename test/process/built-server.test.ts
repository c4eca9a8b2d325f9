/**
 * What `npm start` runs: the server bundled from src/main.ts (scripts/bundle-server.mjs, run by
 * `npm ci`'s prepare; built again here from the source under test, into a directory of its own
 * beside dist/server), started on a fresh data
 * directory with the default embedder. Through HTTP and graphql-ws, as a client would: the admin
 * token it prints, a space and its tokens, a remember (the embedder's worker script, which the
 * bundle carries beside its chunks) reported to a subscription, a recall, the memory page, and
 * GraphiQL's page and assets (a package loaded at first use, outside the bundle); then a clean stop.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { childEnv, ROOT, startServer, type ServerProcess } from '../helpers/process.js';
import { httpGql, listen, say, until, wsClient } from '../helpers/live.js';
import type { Client } from 'graphql-ws';

describe('the bundled server (npm start)', () => {
  let root: string;
  let server: ServerProcess | null = null;
  let client: Client | null = null;

  // Built beside `npm start`'s own (dist/server), not over it: a start or bench meanwhile keeps its files.
  const out = `dist/.server-test-${process.pid}`;
  beforeAll(async () => {
    await promisify(execFile)(process.execPath, ['scripts/bundle-server.mjs', out], { cwd: ROOT, timeout: 240_000 });
    root = await mkdtemp(join(tmpdir(), 'engram-built-'));
    // (the helper kills a server that does not listen within its bound)
    server = await startServer(childEnv(join(root, 'data'), { ENGRAM_EMBEDDER: 'use-lite' }), 240_000, [`${out}/main.js`]);
  }, 600_000);
  afterAll(async () => {
    await client?.dispose();
    if (server && server.child.exitCode === null) await server.kill();
    if (root) await rm(root, { recursive: true, force: true });
    await rm(join(ROOT, out), { recursive: true, force: true });
  });

  it('remembers with the default embedder, reports it live, recalls it, serves its pages, and stops cleanly', { timeout: 600_000 }, async () => {
    const admin = server!.adminToken!;
    expect(admin).toMatch(/^egm_/);
    const url = server!.url;
    const space = (await httpGql(url, admin, `mutation { createSpace(name: "built", timeZone: "UTC") { ... on Space { id } } }`)).createSpace.id as string;
    const token = async (role: string) => (await httpGql(url, admin,
      `mutation($r: Role!, $s: ID) { createToken(role: $r, spaceId: $s) { ... on CreatedToken { secret } } }`, { r: role, s: space })).createToken.secret as string;
    const sp = { chat: await token('chat'), assistant: await token('assistant'), operator: await token('operator') };

    client = wsClient(url, sp.operator);
    const live = listen(client, `subscription { memoryEvents { kind memoryId } }`);
    const kept = await say(url, sp, 'My brother Owen lives in Bristol.');
    expect(kept.outcome).toBe('CREATED');
    const again = await say(url, sp, 'Owen, my brother, lives in Bristol.');
    expect(again).toEqual({ outcome: 'REINFORCED', id: kept.id });
    await until(() => live.events.some((e) => e.kind === 'REINFORCED' && e.memoryId === kept.id), 60_000, 'the reinforcement reported live');
    expect(live.events.find((e) => e.kind === 'CREATED')?.memoryId).toBe(kept.id);
    expect(live.errors).toEqual([]);

    const conv = (await httpGql(url, sp.chat, `mutation { openConversation { ... on Conversation { id } } }`)).openConversation.id as string;
    const recalled = await httpGql(url, sp.assistant, `query($c: ID!) { recall(conversationId: $c, query: "Where does my brother live?") {
      ... on RecallResult { statements { memory { id } } } ... on Error { message } } }`, { c: conv });
    expect(recalled.recall.statements?.[0]?.memory.id, JSON.stringify(recalled)).toBe(kept.id);

    const page = await fetch(url.replace(/graphql$/, ''));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const graphiql = await fetch(url, { headers: { accept: 'text/html' } });
    expect(graphiql.status).toBe(200);
    const html = await graphiql.text();
    const asset = /(?:src|href)="(\/graphiql\/[^"]+)"/.exec(html)?.[1];
    expect(asset, html.slice(0, 500)).toBeTruthy();
    expect((await fetch(new URL(asset!, url))).status).toBe(200);

    expect(await server!.stop()).toBe(0);
  });
});
