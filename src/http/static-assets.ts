import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { extname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'graphql-yoga';

/**
 * Everything a browser needs, served by Engram itself (one process, no CDN):
 * - the web app built from `web/` (Vite's `web/dist`): `/` and its files;
 * - GraphiQL's assets under `/graphiql/`, taken from @graphql-yoga/render-graphiql (the
 *   same GraphiQL Yoga loads from a public CDN by default), so `/graphql` works offline.
 * A Yoga plugin: it answers GET/HEAD for these paths before Yoga's own routing, and the
 * in-process `yoga.fetch` serves them too. Every other request goes on to GraphQL.
 */

// src/http/ under tsx, dist/server/ bundled (npm start): web/dist of the checkout either way.
export const DEFAULT_WEB_DIR = fileURLToPath(new URL('../../web/dist', import.meta.url));

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json',
  '.woff2': 'font/woff2',
};

/** The app page may load nothing from another origin (the build references only its own files). */
export const APP_CSP = [
  "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:",
  "connect-src 'self'", "font-src 'self'", "object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'",
  "form-action 'self'",
].join('; ');

/** GraphiQL's bundle builds its workers from same-origin scripts and styles itself inline. */
export const GRAPHIQL_CSP = [
  "default-src 'self'", "script-src 'self' 'unsafe-inline' 'unsafe-eval'", "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:", "font-src 'self' data:", "worker-src 'self' blob:", "connect-src 'self'",
  "object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'",
].join('; ');

interface Asset { body: Buffer; type: string; etag: string; cache: string }

function asset(body: Buffer | string, type: string, cache: string): Asset {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  return { body: bytes, type, cache, etag: `"${createHash('sha1').update(bytes).digest('base64url')}"` };
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

/** The built app's files, read once: a fixed map of URL paths (no path from a request touches the disk). */
export function loadWebAssets(webDir: string): Map<string, Asset> {
  const out = new Map<string, Asset>();
  if (!existsSync(join(webDir, 'index.html'))) return out;
  for (const file of walk(webDir)) {
    const url = '/' + relative(webDir, file).split(sep).join('/');
    // Vite names what it bundles by content hash: cached for good. The page itself: always revalidated.
    const cache = url.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache';
    out.set(url, asset(readFileSync(file), TYPES[extname(file)] ?? 'application/octet-stream', cache));
  }
  const index = out.get('/index.html');
  if (index) out.set('/', index);
  return out;
}

const NOT_BUILT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Engram</title></head>
<body><h1>Engram</h1><p>The web app is not built: run <code>npm run build:web</code> (it runs on <code>npm ci</code>),
then reload. GraphiQL is at <a href="/graphql">/graphql</a>.</p></body></html>`;

const GRAPHIQL_FILES = {
  'yoga-graphiql.js': ['js', 'text/javascript; charset=utf-8'],
  'graphiql.css': ['css', 'text/css; charset=utf-8'],
  'editor.worker.js': ['editorWorkerService', 'text/javascript; charset=utf-8'],
  'json.worker.js': ['jsonWorker', 'text/javascript; charset=utf-8'],
  'graphql.worker.js': ['graphqlWorker', 'text/javascript; charset=utf-8'],
} as const;

let graphiqlAssets: Promise<Map<string, Asset>> | null = null;

/** GraphiQL's bundle (about 9 MB of strings): loaded on the first request for it, not at start. */
function loadGraphiQLAssets(): Promise<Map<string, Asset>> {
  graphiqlAssets ??= import('@graphql-yoga/render-graphiql/graphiql').then((m) => {
    const out = new Map<string, Asset>();
    const cache = 'public, max-age=3600';
    for (const [name, [key, type]] of Object.entries(GRAPHIQL_FILES)) out.set(`/graphiql/${name}`, asset(m[key], type, cache));
    const icon = /^data:([^;]+);base64,(.*)$/s.exec(m.favicon);
    if (icon) out.set('/graphiql/favicon.ico', asset(Buffer.from(icon[2], 'base64'), icon[1], cache));
    return out;
  });
  return graphiqlAssets;
}

const WORKERS: Record<string, string> = { editorWorkerService: 'editor.worker.js', json: 'json.worker.js', graphql: 'graphql.worker.js' };

/**
 * Yoga's `renderGraphiQL`: the page Yoga would render, with every script, style, worker and
 * icon from this server instead of a CDN. The options are Yoga's (endpoint, subscriptions
 * protocol, ...), written as JSON that cannot close the script element.
 */
export function renderLocalGraphiQL(opts: Record<string, unknown> = {}): string {
  const json = JSON.stringify(opts).replace(/</g, '\\u003c');
  const title = String(opts.title ?? 'Engram GraphiQL').replace(/[<>&"]/g, '');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<link rel="icon" href="/graphiql/favicon.ico"><link rel="stylesheet" href="/graphiql/graphiql.css"></head>
<body id="body" class="no-focus-outline"><noscript>You need to enable JavaScript to run GraphiQL.</noscript><div id="root"></div>
<script>var w=${JSON.stringify(WORKERS)};self.MonacoEnvironment={globalAPI:false,getWorkerUrl:function(_m,label){return '/graphiql/'+(w[label]||w.editorWorkerService)}}</script>
<script src="/graphiql/yoga-graphiql.js"></script>
<script>YogaGraphiQL.renderYogaGraphiQL(document.getElementById('root'),${json})</script>
</body></html>`;
}

function respond(fetchAPI: { Response: typeof Response }, request: Request, a: Asset, extra: Record<string, string> = {}): Response {
  const headers: Record<string, string> = {
    'content-type': a.type, 'cache-control': a.cache, etag: a.etag, 'x-content-type-options': 'nosniff', ...extra,
  };
  if (request.headers.get('if-none-match') === a.etag) return new fetchAPI.Response(null, { status: 304, headers });
  return new fetchAPI.Response(request.method === 'HEAD' ? null : (a.body as unknown as BodyInit), { status: 200, headers });
}

export interface StaticAssetsOptions {
  /** The built web app (default: web/dist beside src/). */
  webDir?: string;
}

/** The Yoga plugin serving the app at `/` and GraphiQL's assets under `/graphiql/`. */
export function useStaticAssets(opts: StaticAssetsOptions = {}): Plugin {
  const web = loadWebAssets(opts.webDir ?? DEFAULT_WEB_DIR);
  return {
    async onRequest({ request, url, fetchAPI, endResponse }) {
      if (request.method !== 'GET' && request.method !== 'HEAD') return;
      const path = url.pathname;
      if (path.startsWith('/graphiql/')) {
        const a = (await loadGraphiQLAssets()).get(path);
        if (a) endResponse(respond(fetchAPI, request, a));
        return;
      }
      const a = web.get(path);
      if (a) {
        endResponse(respond(fetchAPI, request, a, a.type.startsWith('text/html')
          ? { 'content-security-policy': APP_CSP, 'referrer-policy': 'no-referrer' } : {}));
      } else if (path === '/' || path === '/index.html') {
        endResponse(new fetchAPI.Response(NOT_BUILT, { status: 200, headers: { 'content-type': 'text/html; charset=utf-8' } }));
      }
    },
    onResponse({ request, response }) {
      // GraphiQL's page (Yoga renders it at the GraphQL endpoint for a browser's GET, with or without a
      // final slash: at `/graphql/` it went without a policy), and any other page without one: no other
      // origin either.
      if (request.method === 'GET' && response.headers.get('content-type')?.startsWith('text/html')
        && !response.headers.has('content-security-policy')) {
        response.headers.set('content-security-policy', GRAPHIQL_CSP);
      }
    },
  };
}
