import type { Snippet } from 'svelte';
import { saveUIState, uiState } from '../api';

export const SCREENS = ['chat', 'servers', 'tools', 'resources', 'prompts', 'usage', 'settings'] as const;
export type Screen = (typeof SCREENS)[number];

export const LOGGER_MIN = 120;
export const LOGGER_DEFAULT = 260;

/**
 * Layout is the shell's state: the current screen and the bottom panel
 * (SPEC B4). The bottom panel holds the JSON-RPC logger and, beside it, the
 * results of the screen above when that screen docks them there: list |
 * detail on top, logger | results below.
 */
export class Layout {
  #screen = $state<Screen>('servers');
  #loggerOpen = $state(false);
  #loggerHeight = $state(LOGGER_DEFAULT);
  #dockResults = $state(true);
  #dock = $state.raw<Snippet | null>(null);
  // What the user changed before the remembered state arrived wins.
  #changed = new Set<'screen' | 'loggerOpen' | 'loggerHeight' | 'dockResults'>();

  /** dockResults is true when results go in the bottom panel beside the logger. */
  get dockResults(): boolean {
    return this.#dockResults;
  }

  /** dock is what the current screen shows in the bottom panel, if anything. */
  get dock(): Snippet | null {
    return this.#dock;
  }

  /** bottomOpen is true when the bottom panel shows the logger, results or both. */
  get bottomOpen(): boolean {
    return this.#loggerOpen || this.#dock !== null;
  }

  /**
   * setDock puts a screen's results in the bottom panel (null takes them
   * out). A screen calls it from an $effect and clears it in the cleanup.
   */
  setDock(content: Snippet | null): void {
    this.#dock = content;
  }

  /** toggleDockResults moves results between the bottom panel and the detail pane. */
  toggleDockResults(on = !this.#dockResults): void {
    this.#changed.add('dockResults');
    this.#dockResults = on;
    void saveUIState('dockResults', String(on)).catch(() => {});
  }

  get screen(): Screen {
    return this.#screen;
  }

  get loggerOpen(): boolean {
    return this.#loggerOpen;
  }

  get loggerHeight(): number {
    return this.#loggerHeight;
  }

  /** load restores the remembered screen and logger state. */
  async load(): Promise<void> {
    const [screen, open, height, dock] = await Promise.all([
      uiState('screen').catch(() => ''),
      uiState('loggerOpen').catch(() => ''),
      uiState('loggerHeight').catch(() => ''),
      uiState('dockResults').catch(() => ''),
    ]);
    if (!this.#changed.has('dockResults') && dock) this.#dockResults = dock === 'true';
    if (!this.#changed.has('screen') && (SCREENS as readonly string[]).includes(screen)) this.#screen = screen as Screen;
    if (!this.#changed.has('loggerOpen') && open) this.#loggerOpen = open === 'true';
    const h = Number.parseInt(height, 10);
    if (!this.#changed.has('loggerHeight') && Number.isFinite(h) && h >= LOGGER_MIN) this.#loggerHeight = h;
  }

  go(screen: Screen): void {
    this.#changed.add('screen');
    if (this.#screen === screen) return;
    this.#screen = screen;
    void saveUIState('screen', screen).catch(() => {});
  }

  toggleLogger(open = !this.#loggerOpen): void {
    this.#changed.add('loggerOpen');
    this.#loggerOpen = open;
    void saveUIState('loggerOpen', String(open)).catch(() => {});
  }

  /** resizeLogger sets the height while dragging; commitLogger remembers it. */
  resizeLogger(height: number, max: number): void {
    this.#changed.add('loggerHeight');
    this.#loggerHeight = Math.round(Math.max(LOGGER_MIN, Math.min(height, Math.max(LOGGER_MIN, max))));
  }

  commitLogger(): void {
    void saveUIState('loggerHeight', String(this.#loggerHeight)).catch(() => {});
  }
}
