// Bundles the remote side of MCP-UI's remote DOM (src/lib/views/remote/
// sandbox.ts) into one script for Go to put in a remote-DOM view's sandbox
// page (backend/apps/remotedom.js, committed; the bindings test layer
// checks it is up to date): `npm run bundle:remote-dom`.
import { resolve } from 'node:path';
import { defineConfig } from 'vite';

export default defineConfig({
  build: {
    outDir: resolve(import.meta.dirname, '../backend/apps/remotedom'),
    emptyOutDir: true,
    target: 'es2022',
    minify: true,
    reportCompressedSize: false,
    lib: {
      entry: resolve(import.meta.dirname, 'src/lib/views/remote/sandbox.ts'),
      formats: ['iife'],
      name: 'mcpdeskRemoteDom',
      fileName: () => 'remotedom.js',
    },
  },
});
