/// <reference types="vitest/config" />
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { svelteTesting } from '@testing-library/svelte/vite';

const outDir = resolve(import.meta.dirname, 'dist');

// keepGitkeep recreates dist/.gitkeep after every build. Vite empties dist,
// but Go embeds it with `//go:embed all:frontend/dist`, which fails on a
// fresh clone unless the placeholder is committed.
function keepGitkeep(): Plugin {
  return {
    name: 'mcpdesk:keep-gitkeep',
    apply: 'build',
    closeBundle() {
      mkdirSync(outDir, { recursive: true });
      writeFileSync(resolve(outDir, '.gitkeep'), '');
    },
  };
}

export default defineConfig({
  plugins: [svelte(), svelteTesting(), keepGitkeep()],
  build: {
    outDir,
    emptyOutDir: true,
    target: 'es2022',
    reportCompressedSize: true,
  },
  server: { strictPort: false },
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['src/test/setup.ts'],
    include: ['src/**/*.test.ts'],
    restoreMocks: true,
    // A bound, not a speed check: whole-app tests render the full UI in
    // jsdom, and on 2 busy cores one can take longer than vitest's 5 s.
    testTimeout: 20000,
  },
});
