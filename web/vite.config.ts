import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * The memory page, built into web/dist and served by the Engram server at `/`
 * (src/http/static-assets.ts). Preact's JSX through esbuild: no framework plugin needed.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  publicDir: 'public',
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // Everything self-hosted: no inlined module-preload polyfill fetching elsewhere, no CDN.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    chunkSizeWarningLimit: 300,
  },
  server: { proxy: { '/graphql': { target: 'http://127.0.0.1:4000', ws: true } } },
});
