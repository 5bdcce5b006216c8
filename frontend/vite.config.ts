/// <reference types="vitest/config" />
import { defineConfig } from 'vite';

// Preact through esbuild's automatic JSX runtime: no framework plugin is
// needed (and @vitejs/plugin-react does not install with this npm).
export default defineConfig({
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  build: {
    outDir: 'dist',
    // dist/.gitignore is tracked so that go:embed always finds dist/;
    // scripts/clean.mjs empties the rest before a build.
    emptyOutDir: false,
    target: 'es2022',
    assetsDir: 'assets',
    sourcemap: false,
  },
  server: {
    proxy: { '/api': { target: 'http://127.0.0.1:8080', changeOrigin: false } },
  },
  test: {
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}'],
    // styles.css?raw is read by the contrast test
    css: { include: [/styles\.css/] },
  },
});
