// Screens load the first time they are shown: their
// code and styles stay out of the window's memory until the user opens
// them (issue 16: the web process held every screen's code from the start).

import { tick, type Component } from 'svelte';

/** LazyScreen is one screen's (or dialog's) component, loaded on first use and kept; P are its props. */
export class LazyScreen<P extends Record<string, any> = Record<string, never>> {
  readonly #load: () => Promise<{ default: Component<P> }>;
  #loading: Promise<void> | null = null;
  readonly #onError?: (message: string) => void;
  /** The component once loaded, else null. */
  component = $state<Component<P> | null>(null);
  /** Why loading failed, else ''. */
  error = $state('');

  constructor(load: () => Promise<{ default: Component<P> }>, onError?: (message: string) => void) {
    this.#load = load;
    this.#onError = onError;
  }

  /** get starts loading (once) and returns the component when it is there. */
  get(): Component<P> | null {
    void this.load();
    return this.component;
  }

  /** load loads the component; later calls share the first. */
  load(): Promise<void> {
    this.#loading ??= this.#load().then(
      (m) => {
        this.component = m.default;
        this.error = '';
      },
      (e: unknown) => {
        this.#loading = null; // the next visit tries again
        this.error = e instanceof Error ? e.message : String(e);
        this.#onError?.(this.error);
      },
    );
    return this.#loading;
  }
}

export const screens = {
  chat: new LazyScreen(() => import('../chat/ChatScreen.svelte')),
  quick: new LazyScreen(() => import('../quick/QuickChat.svelte')),
  servers: new LazyScreen(() => import('../servers/ServersScreen.svelte')),
  settings: new LazyScreen(() => import('../settings/SettingsScreen.svelte')),
  tools: new LazyScreen(() => import('../tools/ToolsScreen.svelte')),
  resources: new LazyScreen(() => import('../resources/ResourcesScreen.svelte')),
  prompts: new LazyScreen(() => import('../prompts/PromptsScreen.svelte')),
  usage: new LazyScreen(() => import('../usage/UsageScreen.svelte')),
  dock: new LazyScreen(() => import('./BottomDock.svelte')),
};

export type LazyName = keyof typeof screens;

/**
 * dialogFailure is the last dialog that could not be loaded (its error,
 * else ''): the window says so in a toast (App.svelte), as a host has no
 * room of its own to.
 */
export const dialogFailure = $state({ error: '' });

/** lazy makes the LazyScreen of a dialog, which takes props. */
function lazy<P extends Record<string, any>>(load: () => Promise<{ default: Component<P> }>): LazyScreen<P> {
  return new LazyScreen<P>(load, (error) => (dialogFailure.error = error));
}

/**
 * Dialogs load when first opened, like screens: the window's hosts (a
 * server's sampling request or question, the welcome's import) and the
 * Servers screen keep only a host from the start. Their code — markdown,
 * the JSON tree, the schema validator, the server form — stays out of the
 * window's memory until then.
 */
export const lazyDialogs = {
  sampling: lazy(() => import('../chat/SamplingCard.svelte')),
  elicitation: lazy(() => import('../elicitation/ElicitationDialog.svelte')),
  import: lazy(() => import('../servers/ImportDialog.svelte')),
  serverForm: lazy(() => import('../servers/ServerForm.svelte')),
  serverDetail: lazy(() => import('../servers/ServerDetail.svelte')),
};

/** preloadScreens loads every screen and dialog now (the component tests, which switch screens synchronously). */
export function preloadScreens(): Promise<void[]> {
  return Promise.all([...Object.values(screens), ...Object.values(lazyDialogs)].map((s) => s.load()));
}

/**
 * whenShown resolves once screen name is loaded and on the page (after the
 * caller switched to it): what scrolls or focuses inside it waits for it.
 */
export async function whenShown(name: LazyName): Promise<void> {
  await screens[name].load();
  await tick();
}
