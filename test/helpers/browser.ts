import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/**
 * Debian's Chromium driven by playwright-core (no browser download). `.ci/run` installs it
 * (apt-get install chromium); without it the browser suites skip with a notice.
 */
export const CHROMIUM = process.env.ENGRAM_CHROMIUM ?? '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) {
  process.stderr.write(`\n[browser tests] SKIPPED: no Chromium at ${CHROMIUM} (apt-get install chromium; .ci/run installs it)\n\n`);
}

const ROOT = join(import.meta.dirname, '../..');
export const WEB_DIST = join(ROOT, 'web/dist');
export const SCREENSHOTS = join(ROOT, 'docs/screenshots');

/** The app is built by `npm ci` (prepare); a checkout without it is built once here. */
export function ensureWebBuilt(): void {
  if (existsSync(join(WEB_DIST, 'index.html'))) return;
  execFileSync('npm', ['run', 'build:web'], { cwd: ROOT, stdio: 'inherit' });
}

/** Flags for a closed network and a root user (see the machine notes); a fresh profile each launch. */
const ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

export interface Browser {
  context: BrowserContext;
  /** Every URL the pages asked for, and those refused because they left the server. */
  requested: string[];
  blocked: string[];
  page(): Promise<Page>;
  close(): Promise<void>;
}

/**
 * A fresh Chromium profile whose pages may reach only `origin`: any other host is aborted
 * (and recorded), so a page that needs a CDN fails visibly.
 */
export async function openBrowser(origin: string): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), 'engram-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM, headless: true, args: ARGS, viewport: { width: 1200, height: 800 },
  });
  const requested: string[] = [];
  const blocked: string[] = [];
  context.on('request', (r) => { requested.push(r.url()); });
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    if (url.startsWith(origin + '/') || url === origin || url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
    blocked.push(url);
    return route.abort('blockedbyclient');
  });
  for (const p of context.pages()) await p.close();
  return {
    context, requested, blocked,
    page: () => context.newPage(),
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** The URLs a page asked for that are not on `origin` (data: and blob: are the page's own). */
export function foreign(urls: string[], origin: string): string[] {
  return urls.filter((u) => !(u.startsWith(origin + '/') || u === origin || u.startsWith('data:') || u.startsWith('blob:')));
}
