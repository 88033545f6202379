// Screens load the first time they are shown: their
// code and styles stay out of the window's memory until the user opens
// them (issue 16: the web process held every screen's code from the start).

import { tick, type Component } from 'svelte';

/** LazyScreen is one screen's component, loaded on first use and kept. */
export class LazyScreen {
  readonly #load: () => Promise<{ default: Component }>;
  #loading: Promise<void> | null = null;
  /** The component once loaded, else null. */
  component = $state<Component | null>(null);
  /** Why loading failed, else ''. */
  error = $state('');

  constructor(load: () => Promise<{ default: Component }>) {
    this.#load = load;
  }

  /** get starts loading (once) and returns the component when it is there. */
  get(): Component | null {
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

/** preloadScreens loads every screen now (the component tests, which switch screens synchronously). */
export function preloadScreens(): Promise<void[]> {
  return Promise.all(Object.values(screens).map((s) => s.load()));
}

/**
 * whenShown resolves once screen name is loaded and on the page (after the
 * caller switched to it): what scrolls or focuses inside it waits for it.
 */
export async function whenShown(name: LazyName): Promise<void> {
  await screens[name].load();
  await tick();
}
