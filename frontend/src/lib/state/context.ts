import { getContext, setContext } from 'svelte';
import { Dialogs } from './dialogs.svelte';
import { Layout } from './layout.svelte';
import { PrefsStore } from './prefs.svelte';
import { RPCLogStore } from './rpclog.svelte';
import { ServersStore } from './servers.svelte';
import { Toasts } from './toasts.svelte';

/** Stores are the app's shared state, created once by App and passed by context. */
export interface Stores {
  servers: ServersStore;
  rpclog: RPCLogStore;
  prefs: PrefsStore;
  layout: Layout;
  toasts: Toasts;
  dialogs: Dialogs;
}

export const STORES_KEY = Symbol('mcpdesk.stores');

export function createStores(): Stores {
  return {
    servers: new ServersStore(),
    rpclog: new RPCLogStore(),
    prefs: new PrefsStore(),
    layout: new Layout(),
    toasts: new Toasts(),
    dialogs: new Dialogs(),
  };
}

export function provideStores(s: Stores): Stores {
  return setContext(STORES_KEY, s);
}

/** stores returns the shared state; call it during component initialisation. */
export function stores(): Stores {
  const s = getContext<Stores | undefined>(STORES_KEY);
  if (!s) throw new Error('stores() used outside <App> (no stores in context)');
  return s;
}
