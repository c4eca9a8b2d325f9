/**
 * The memory page in a real browser: Debian's Chromium (playwright-core) against the real
 * server on the embedded default (PGlite in memory, port 0), pages allowed to reach only
 * that server. Changes are made through the API, as an assistant would, and through the
 * page, as an operator would.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { ensureWebBuilt, foreign, hasChromium, openBrowser, SCREENSHOTS, type Browser } from '../helpers/browser.js';

type Sp = Awaited<ReturnType<TestApp['space']>>;
let t: TestApp;
let origin: string;
let browser: Browser;
let a: Sp;
let b: Sp;

/** What the person typed, recorded by the chat side, kept word for word by the assistant. */
async function say(sp: Sp, text: string, type = 'FACT', extra: Record<string, unknown> = {}): Promise<{ id: string; outcome: string; conv: string }> {
  const conv = (await t.gql(sp.chat, `mutation { openConversation { ... on Conversation { id } } }`)).data.openConversation.id;
  await t.gql(sp.chat, `mutation($c: ID!, $x: String!) { recordMessage(conversationId: $c, role: USER, text: $x) { __typename } }`, { c: conv, x: text });
  const r = await t.gql(sp.assistant, `mutation($i: RememberInput!) { remember(input: $i) {
    __typename ... on RememberOutcome { outcome memory { id } } ... on Error { message } } }`, { i: { conversationId: conv, quote: text, type, ...extra } });
  expect(r.data.remember.__typename, JSON.stringify(r)).toBe('RememberOutcome');
  return { id: r.data.remember.memory.id, outcome: r.data.remember.outcome, conv };
}

async function openAs(token: string): Promise<Page> {
  const page = await browser.page();
  await page.goto(`${origin}/#token=${encodeURIComponent(token)}`);
  await page.locator('[data-testid=live].on').waitFor({ timeout: 30_000 });
  return page;
}

/** The text of an element (polled by expect.poll: the page updates by itself). */
const textOf = async (l: Locator) => ((await l.count()) ? (await l.first().textContent())?.trim() ?? '' : '');
const row = (page: Page, text: string) => page.locator('[data-testid=memory-row]', { hasText: text });

/**
 * docs/screenshots/<name>: written when missing or when ENGRAM_SCREENSHOTS=1 (after a UI
 * change); otherwise the run still takes it, into a temporary folder, so an ordinary test
 * run leaves the work tree clean (the dates on the page differ at every run).
 */
async function shot(page: Page, name: string): Promise<void> {
  const refresh = process.env.ENGRAM_SCREENSHOTS === '1' || !existsSync(join(SCREENSHOTS, name));
  const dir = refresh ? SCREENSHOTS : join(tmpdir(), 'engram-screenshots');
  mkdirSync(dir, { recursive: true });
  await page.locator('.toast').waitFor({ state: 'detached', timeout: 20_000 }).catch(() => {});
  await page.screenshot({ path: join(dir, name), fullPage: false });
}

describe.skipIf(!hasChromium)('the memory page in Chromium', () => {
  beforeAll(async () => {
    ensureWebBuilt();
    t = await createTestApp();
    const { port } = await t.app.start();
    origin = `http://127.0.0.1:${port}`;
    a = await t.space({ name: 'Hannah' });
    b = await t.space({ name: 'Someone else' });
    browser = await openBrowser(origin);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('serves the app and GraphiQL with references to no other host', async () => {
    for (const [path, accept] of [['/', 'text/html'], ['/graphql', 'text/html']] as const) {
      const res = await fetch(origin + path, { headers: { accept } });
      expect(res.status).toBe(200);
      const html = await res.text();
      const hosts = [...html.matchAll(/(?:src|href)\s*=\s*["']?((?:https?:)?\/\/[^"'\s>]+)/gi)].map((m) => m[1]);
      expect(hosts, path).toEqual([]);
      expect(html).not.toMatch(/unpkg|jsdelivr|cdnjs|googleapis/);
    }
  });

  it('GraphiQL renders its editor with the network limited to the Engram server', async () => {
    const page = await browser.page();
    const mine: string[] = [];
    page.on('request', (r) => { mine.push(r.url()); });
    await page.goto(`${origin}/graphql`);
    await page.locator('.graphiql-container').first().waitFor({ timeout: 60_000 });
    await page.locator('.graphiql-container .monaco-editor, .graphiql-container .CodeMirror').first().waitFor({ timeout: 60_000 });
    expect(mine.some((u) => u.includes('/graphiql/yoga-graphiql.js'))).toBe(true);
    expect(foreign(mine, origin)).toEqual([]);
    expect(browser.blocked).toEqual([]);
    await page.close();
  });

  let pages: [Page, Page];
  let reinforced: { id: string };

  it('two pages on one space: a remembered memory appears in both, a reinforcement updates the count in both', async () => {
    pages = [await openAs(a.operator), await openAs(a.operator)];
    for (const p of pages) {
      expect(p.url()).not.toContain('token=');
      expect(p.url()).toBe(`${origin}/#/`);
      await expect.poll(() => p.evaluate(() => sessionStorage.getItem('engram.token'))).toBe(a.operator);
      await p.locator('[data-testid=empty]').waitFor();
    }
    // The subscription is registered (graphql-ws acknowledges the connection, not the subscription):
    // a first memory shows it, then the timed one.
    await say(a, 'My brother Owen lives in Bristol.');
    for (const p of pages) await row(p, 'My brother Owen lives in Bristol.').waitFor({ timeout: 20_000 });

    const text = 'I grew up in Duluth, by the lake.';
    reinforced = await say(a, text);
    const start = Date.now();
    await Promise.all(pages.map((p) => row(p, text).waitFor({ timeout: 20_000 })));
    const appeared = Date.now() - start;
    for (const p of pages) await expect.poll(() => textOf(row(p, text).locator('[data-testid=count]'))).toBe('1');

    const again = await say(a, text);
    expect(again).toMatchObject({ outcome: 'REINFORCED', id: reinforced.id });
    await Promise.all(pages.map((p) => row(p, text).locator('[data-testid=count]').filter({ hasText: '2' }).waitFor({ timeout: 20_000 })));
    process.stdout.write(`[browser] a remembered memory appeared in both pages ${appeared} ms after remember returned\n`);
  });

  it('multi-select three, mute: they leave the active view in both pages, in one muteMemories request', async () => {
    const texts = ['I take the 7:15 train to work.', 'My dog is called Biscuit.', 'I prefer tea to coffee.'];
    for (const x of texts) await say(a, x);
    const [p1, p2] = pages;
    for (const p of pages) for (const x of texts) await row(p, x).waitFor({ timeout: 20_000 });
    await shot(p1, 'list.png');

    const mutes: string[] = [];
    const count = (r: { method(): string; postData(): string | null }) => {
      if (r.method() === 'POST' && /muteMemories\s*\(/.test(r.postData() ?? '') && !/unmuteMemories/.test(r.postData() ?? '')) mutes.push(r.postData()!);
    };
    browser.context.on('request', count);
    // Newest first: the three are the top rows. Click the first, shift-click the third.
    await row(p1, texts[2]).locator('td').nth(2).click();
    await row(p1, texts[0]).locator('td').nth(2).click({ modifiers: ['Shift'] });
    await expect.poll(() => textOf(p1.locator('[data-testid=selected-count]'))).toBe('3 selected');
    await p1.locator('[data-testid=bulk-mute]').click();
    for (const p of pages) for (const x of texts) await row(p, x).waitFor({ state: 'detached', timeout: 20_000 });
    browser.context.off('request', count);
    expect(mutes).toHaveLength(1);
    expect(JSON.parse(mutes[0]).variables.ids).toHaveLength(3);
    // Still there, muted, in the muted view.
    await p2.selectOption('select[aria-label=Status]', 'MUTED');
    for (const x of texts) await expect.poll(() => textOf(row(p2, x).locator('[data-testid=status]'))).toBe('Muted');
    await p2.selectOption('select[aria-label=Status]', 'ACTIVE');
    await row(p2, 'My brother Owen lives in Bristol.').waitFor();
  });

  it('forget with confirmation: the text is gone from the page and from memory(id)', async () => {
    const [p1, p2] = pages;
    const text = 'My old locker code was 4417.';
    const { id } = await say(a, text);
    await row(p1, text).waitFor({ timeout: 20_000 });
    await row(p1, text).locator('td').nth(2).click();
    await p1.locator('[data-testid=bulk-forget]').click();
    const dialog = p1.locator('[data-testid=confirm]');
    await expect.poll(() => textOf(dialog)).toContain('Forget 1 memory for good?');
    await expect.poll(() => textOf(dialog.locator('[data-testid=confirm-destructive]'))).toBe('Forget 1 for good');
    await dialog.locator('[data-testid=confirm-destructive]').click();
    for (const p of pages) await row(p, text).waitFor({ state: 'detached', timeout: 20_000 });
    for (const p of [p1, p2]) expect(await p.content()).not.toContain('4417');
    const r = await t.gql(a.operator, `query($id: ID!) { memory(id: $id) { __typename } }`, { id });
    expect(r.data.memory.__typename).toBe('NotFound');
  });

  it('cleanup sheet: the dry-run counts are what the confirmed run deletes', async () => {
    const p1 = pages[0];
    await say(a, 'I saw the physiotherapist on Monday morning.', 'APPOINTMENT', { startsAt: '2026-03-09T13:00:00Z', endsAt: '2026-03-09T14:00:00Z' });
    await say(a, 'The dentist checked my teeth last spring.', 'APPOINTMENT', { startsAt: '2026-04-02T09:00:00Z' });
    await say(a, 'I need to renew my passport.', 'TASK', { dueAt: '2026-03-20T00:00:00Z' });
    const upcoming = await say(a, 'My sister visits on the first of March next year.', 'APPOINTMENT', { startsAt: '2099-03-01T12:00:00Z' });
    const fact = await say(a, 'I am allergic to penicillin.');

    await p1.goto(`${origin}/#/cleanup`);
    const sheet = p1.locator('[data-testid=cleanup-sheet]');
    await sheet.waitFor();
    const confirm = sheet.locator('[data-testid=cleanup-confirm]');
    await expect.poll(() => confirm.isEnabled(), { timeout: 20_000 }).toBe(true);
    const dryTotal = Number(await sheet.locator('[data-testid=dry-total]').textContent());
    const dry = {
      APPOINTMENT: Number(await sheet.locator('[data-testid=dry-APPOINTMENT]').textContent()),
      TASK: Number(await sheet.locator('[data-testid=dry-TASK]').textContent()),
    };
    expect(dry).toEqual({ APPOINTMENT: 2, TASK: 1 });
    expect(dryTotal).toBe(3);
    await shot(p1, 'cleanup.png');
    await confirm.click();
    const done = sheet.locator('[data-testid=cleanup-done]');
    await done.waitFor({ timeout: 20_000 });
    expect(Number(await done.locator('[data-testid=done-total]').textContent())).toBe(dryTotal);
    expect(Number(await done.locator('[data-testid=done-APPOINTMENT]').textContent())).toBe(dry.APPOINTMENT);
    expect(Number(await done.locator('[data-testid=done-TASK]').textContent())).toBe(dry.TASK);
    // What was not selected is still there.
    for (const id of [upcoming.id, fact.id]) {
      expect((await t.gql(a.operator, `query($id: ID!) { memory(id: $id) { __typename } }`, { id })).data.memory.__typename).toBe('Memory');
    }
    await p1.goto(`${origin}/#/`);
  });

  it("a memory's page: wordings, the correction chain both ways, the explanation", async () => {
    const p1 = pages[0];
    const old = await say(a, 'My favourite colour is blue.');
    await say(a, 'my favourite colour is blue');
    const conv = (await t.gql(a.chat, `mutation { openConversation { ... on Conversation { id } } }`)).data.openConversation.id;
    const fix = 'Actually my favourite colour is orange, not blue.';
    await t.gql(a.chat, `mutation($c: ID!, $x: String!) { recordMessage(conversationId: $c, role: USER, text: $x) { __typename } }`, { c: conv, x: fix });
    const r = await t.gql(a.assistant, `mutation($m: ID!, $c: ID!, $q: String!) { correct(memoryId: $m, conversationId: $c, quote: $q) {
      __typename ... on Correction { memory { id } } } }`, { m: old.id, c: conv, q: fix });
    expect(r.data.correct.__typename).toBe('Correction');
    const newer = r.data.correct.memory.id as string;

    await p1.goto(`${origin}/#/memory/${encodeURIComponent(old.id)}`);
    const page = p1.locator('[data-testid=memory-page]');
    await page.waitFor({ timeout: 20_000 });
    await expect.poll(() => textOf(page.locator('[data-testid=memory-status]'))).toBe('Superseded');
    await expect.poll(() => page.locator('[data-testid=wordings] tbody tr').count()).toBe(2);
    await expect.poll(() => page.locator('[data-testid=chain] li').count()).toBe(2);
    await expect.poll(() => textOf(page)).toContain('Replaced by');
    expect((await page.locator('[data-testid=explanation]').textContent())!.length).toBeGreaterThan(10);
    await shot(p1, 'memory.png');
    // The other way: the correction's page names what it replaced.
    await page.locator('a', { hasText: fix }).first().click();
    await expect.poll(() => textOf(p1.locator('[data-testid=memory-quote]'))).toContain(fix);
    await expect.poll(() => textOf(p1.locator('[data-testid=memory-page]'))).toContain('Replaces');
    expect(p1.url()).toContain(encodeURIComponent(newer));
    await p1.goto(`${origin}/#/`);
  });

  it("a page signed in with space B's token never shows space A's memory", async () => {
    const pb = await openAs(b.operator);
    await pb.locator('[data-testid=empty]').waitFor();
    const mineB = await say(b, 'I keep bees on the roof.');
    await row(pb, 'I keep bees on the roof.').waitFor({ timeout: 20_000 });
    const secret = 'My bank PIN hint is the cat.';
    const inA = await say(a, secret);
    await row(pages[0], secret).waitFor({ timeout: 20_000 });
    // B's page got its own change after A's: had A's reached it, it would be there by now.
    await say(b, 'I keep bees on the roof.');
    await expect.poll(() => textOf(row(pb, 'I keep bees on the roof.').locator('[data-testid=count]')), { timeout: 20_000 }).toBe('2');
    expect(await pb.content()).not.toContain('bank PIN');
    await pb.fill('input[aria-label=Search]', 'bank PIN hint');
    await pb.press('input[aria-label=Search]', 'Enter');
    await expect.poll(() => textOf(pb.locator('.selection'))).toContain('Answers to');
    expect(await pb.content()).not.toContain('bank PIN hint is');
    await pb.goto(`${origin}/#/memory/${encodeURIComponent(inA.id)}`);
    await pb.locator('[data-testid=memory-missing]').waitFor({ timeout: 20_000 });
    expect(await pb.content()).not.toContain('bank PIN');
    expect(mineB.id).not.toBe(inA.id);
    expect(foreign(browser.requested, origin)).toEqual([]);
    expect(browser.blocked).toEqual([]);
  });

  it("inferences are reviewed in their own list, never mixed with the person's words", async () => {
    const p1 = pages[0];
    const { conv } = await say(a, 'I have been reading about Ramanujan all week.');
    const guess = 'The person probably likes number theory.';
    const r = await t.gql(a.assistant, `mutation($c: ID!, $x: String!, $b: String) { infer(conversationId: $c, text: $x, type: PREFERENCE, basis: $b) {
      __typename ... on Memory { id } } }`, { c: conv, x: guess, b: 'reading about Ramanujan' });
    expect(r.data.infer.__typename).toBe('Memory');
    await row(p1, 'I have been reading about Ramanujan all week.').waitFor({ timeout: 20_000 });
    expect(await p1.content()).not.toContain(guess);
    await p1.goto(`${origin}/#/inferences`);
    const inf = p1.locator('[data-testid=inference-row]', { hasText: guess });
    await inf.waitFor({ timeout: 20_000 });
    expect(await textOf(inf)).toContain('reading about Ramanujan');
    await inf.locator('button', { hasText: 'Accept' }).click();
    await inf.waitFor({ state: 'detached', timeout: 20_000 });
    const after = await t.gql(a.operator, `query($id: ID!) { memory(id: $id) { ... on Memory { review kind } } }`, { id: r.data.infer.id });
    expect(after.data.memory).toEqual({ review: 'ACCEPTED', kind: 'INFERENCE' });
    await p1.goto(`${origin}/#/`);
  });

  it('more rows load when the end of the list scrolls into view (cursor pagination)', async () => {
    const names = ['Alma', 'Bruno', 'Chiara', 'Dmitri', 'Esme', 'Farid', 'Greta', 'Hiro', 'Ines', 'Jonas', 'Kofi', 'Lena',
      'Mateo', 'Nadia', 'Oskar', 'Priya', 'Quinn', 'Rosa', 'Sven', 'Tomas', 'Uma', 'Viktor', 'Wanda', 'Xavi', 'Yara', 'Zeno'];
    const things = ['the violin', 'chess', 'the allotment', 'pottery', 'the night shift', 'rowing', 'Portuguese', 'the choir',
      'birdwatching', 'the bakery', 'karate', 'the library', 'sailing'];
    for (let i = 0; i < names.length; i++) await say(a, `${names[i]} from my book club took up ${things[i % things.length]} in ${1990 + i}.`);
    const total = (await t.gql(a.operator, `query { space { ... on Space { memoryCount } } }`)).data.space.memoryCount as number;
    expect(total).toBeGreaterThan(30);
    const page = await openAs(a.operator);
    const rows = page.locator('[data-testid=memory-row]');
    await expect.poll(() => rows.count(), { timeout: 20_000 }).toBe(30);
    await page.locator('.sentinel').scrollIntoViewIfNeeded();
    await expect.poll(() => rows.count(), { timeout: 20_000 }).toBe(total);
    await expect.poll(() => textOf(page.locator('.sentinel'))).toBe('End of the list.');
    await page.close();
  });

  it('an admin token chooses the space to look after', async () => {
    const page = await browser.page();
    await page.goto(`${origin}/#token=${encodeURIComponent(t.adminToken)}`);
    await page.locator('select[aria-label=Space]').waitFor({ timeout: 20_000 });
    const hannah = await page.locator('select[aria-label=Space] option', { hasText: 'Hannah' }).getAttribute('value');
    await page.selectOption('select[aria-label=Space]', hannah!);
    // Hannah's newest (the list is newest first; older ones are a scroll away).
    await row(page, 'Zeno from my book club').waitFor({ timeout: 20_000 });
    expect(await page.content()).not.toContain('I keep bees on the roof.');
    await page.close();
  });
});

if (!hasChromium) {
  describe('the memory page in Chromium', () => {
    it.skip('skipped: no Chromium at /usr/bin/chromium (apt-get install chromium; .ci/run installs it)', () => {});
  });
}
