/**
 * The paths the server answers for a browser (docs/web.md): the app at `/`, GraphiQL at the
 * endpoint, and nothing else. Found by an adversarial probe: any other path (`/package.json`,
 * `/src/app.ts`, a stale asset's address) answered 200 with Yoga's landing page, a page that loads
 * its icon from another host; and GraphiQL at `/graphql/` went without its content security policy
 * (so it could be framed).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const get = (path: string) => t.app.yoga.fetch(`http://engram.test${path}`, { headers: { accept: 'text/html' } });

describe('paths a browser asks for', () => {
  it('a path the server does not serve is 404, not a page', async () => {
    for (const path of ['/package.json', '/src/app.ts', '/assets/index-stale.js', '/graphiql/', '/index.html/', '/%ZZ']) {
      const r = await get(path);
      const body = await r.text();
      expect([path, r.status], body.slice(0, 80)).toEqual([path, 404]);
      expect(body).not.toMatch(/githubusercontent|Welcome to GraphQL Yoga/);
    }
  });

  it('GraphiQL carries its content security policy at the endpoint with or without a final slash', async () => {
    for (const path of ['/graphql', '/graphql/']) {
      const r = await get(path);
      expect([path, r.status, r.headers.get('content-type')]).toEqual([path, 200, expect.stringContaining('text/html')]);
      expect(await r.text()).toMatch(/GraphiQL/);
      expect(r.headers.get('content-security-policy'), path).toMatch(/frame-ancestors 'none'/);
    }
  });
});
