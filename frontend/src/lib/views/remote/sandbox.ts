// The remote side of MCP-UI's remote DOM (issue 15). This runs inside a
// view's sandbox page — an opaque origin with no network, never the app —
// bundled into backend/apps/remotedom.js (npm run bundle:remote-dom). The
// server's script runs after it, with `root`, and builds its UI from the
// ui-* elements; @remote-dom/core watches the tree and describes every
// change, which goes to the app as a JSON-RPC notification. The app draws
// the tree with components of its own and never runs the script's code:
// an event the user causes there (a press) comes back here by the id of
// the listener, and runs in the sandbox.
import { RemoteMutationObserver } from '@remote-dom/core/elements';
import type { RemoteConnection, RemoteMutationRecord } from '@remote-dom/core';
import { CALL, MUTATE } from './elements';
import { Functions, defineRemoteElements } from './wire';

const fns = new Functions();

defineRemoteElements();

const connection: RemoteConnection = {
  mutate(records: readonly RemoteMutationRecord[]) {
    if (records.length === 0) return;
    window.parent.postMessage({ jsonrpc: '2.0', method: MUTATE, params: { records: fns.encode(records) } }, '*');
  },
  call() {
    // The app's components have no methods a script may call.
    return undefined;
  },
};

window.addEventListener('message', (e) => {
  if (e.source !== window.parent) return;
  const m = e.data as { method?: unknown; params?: { fn?: unknown; args?: unknown } } | null;
  if (!m || m.method !== CALL || typeof m.params?.fn !== 'number') return;
  fns.call(m.params.fn, Array.isArray(m.params.args) ? m.params.args : []);
});

const root = document.createElement('div');
root.id = 'root';
document.body.append(root);
new RemoteMutationObserver(connection).observe(root);
