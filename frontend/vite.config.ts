/// <reference types="vitest/config" />
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { svelteTesting } from '@testing-library/svelte/vite';
import { compileTable, packTable, type Source } from './src/lib/i18n/compile.ts';

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

// messages serves `virtual:messages/<locale>`: src/lib/i18n/<locale>.json
// compiled for the window (src/lib/i18n/compile.ts). A broken message fails
// the build and names its key.
function messages(): Plugin {
  const prefix = 'virtual:messages/';
  const dir = resolve(import.meta.dirname, 'src/lib/i18n');
  return {
    name: 'mcpdesk:messages',
    resolveId(id) {
      if (id.startsWith(prefix) && ['en', 'zh-CN'].includes(id.slice(prefix.length))) return `\0${id}`;
    },
    load(id) {
      if (!id.startsWith(`\0${prefix}`)) return;
      const locale = id.slice(prefix.length + 1);
      const file = resolve(dir, `${locale}.json`);
      this.addWatchFile(file);
      const table = compileTable(JSON.parse(readFileSync(file, 'utf8')) as Source, locale);
      // Each group as JSON text, parsed on first use (compile.ts, Packed).
      return `export default ${JSON.stringify(packTable(table))};`;
    },
  };
}

// Every message reaches the window compiled (messages), so the app's build
// links intl-messageformat without its ICU parser: the package's own
// "no-parser" entry, whose parse throws. Tests keep the parser; they check
// the tables with it.
const require = createRequire(import.meta.url);
const noParser = resolve(require.resolve('@formatjs/icu-messageformat-parser'), '../lib/no-parser.js');

export default defineConfig(({ command }) => ({
  plugins: [svelte(), svelteTesting(), keepGitkeep(), messages()],
  resolve: {
    alias: command === 'build' ? [{ find: /^@formatjs\/icu-messageformat-parser$/, replacement: noParser }] : [],
  },
  build: {
    outDir,
    emptyOutDir: true,
    target: 'es2022',
    reportCompressedSize: true,
    // Non-ASCII characters in the code are written as escapes: WebKit keeps
    // a script's text as one byte per character only when all of it fits.
    rolldownOptions: { output: { charset: 'ascii' } },
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
}));
