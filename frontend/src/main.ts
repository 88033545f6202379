import { mount } from 'svelte';
import './app.css';
import App from './App.svelte';
import { hasWails, openURL, setBackend } from './lib/api';
import { localeSettled } from './lib/i18n';
import { createStores } from './lib/state/context';
import { pagePrefs } from './lib/state/prefs.svelte';
import { installNavGuard } from './lib/util/navguard';

async function boot() {
  // First of all: whatever reaches the DOM, the window stays on the app's
  // page; links in rendered content open in the browser on a click.
  let linkFailed = (message: string) => console.warn(message);
  installNavGuard(window, { open: openURL, onerror: (m) => linkFailed(m) });
  // Without Go (a plain browser on `npm run dev`), use the in-memory demo
  // backend. The production build drops this branch and the fake with it.
  if (import.meta.env.DEV && !hasWails()) {
    const { demoBackend } = await import('./test/fakes/fake');
    const demo = demoBackend();
    // Reachable from the devtools console for trying states by hand.
    (window as { mcpdeskDemo?: unknown }).mcpdeskDemo = demo;
    setBackend(demo);
  }
  const stores = createStores();
  linkFailed = (m) => stores.toasts.error('links.openFailed', m);
  // The saved theme and language came with the page (settings.InlinePrefs):
  // applied now, before the first paint. Without them, ask Go, but never
  // wait long.
  const seeded = stores.prefs.seed(pagePrefs(document));
  stores.prefs.start();
  const briefly = () => new Promise((r) => setTimeout(r, 300));
  if (!seeded) await Promise.race([stores.prefs.load().catch(() => {}), briefly()]);
  // A language other than English loads its strings first: the interface
  // mounts in it, not in English for a moment (never waiting long either).
  await Promise.race([localeSettled(), briefly()]);
  mount(App, { target: document.getElementById('app')!, props: { stores } });
}

void boot();
