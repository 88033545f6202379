import type { Snippet } from 'svelte';
import { saveUIState, uiState } from '../api';

export const SCREENS = ['chat', 'servers', 'tools', 'resources', 'prompts', 'usage', 'settings'] as const;
export type Screen = (typeof SCREENS)[number];

export const LOGGER_MIN = 120;
export const LOGGER_DEFAULT = 260;
/** Room the bottom panel always leaves to the screen above it. */
export const SCREEN_MIN = 200;

/**
 * defaultLoggerHeight is the bottom panel's height before the user sets
 * one: 40 % of a tall window (at most 560 px), never less than 260 px, so
 * structured results fit without scrolling on a 1080 px screen.
 */
export function defaultLoggerHeight(windowHeight: number): number {
  return Math.round(Math.max(LOGGER_DEFAULT, Math.min(windowHeight * 0.4, 560)));
}

const windowHeight = () => (typeof innerHeight === 'number' && innerHeight > 0 ? innerHeight : 800);

/**
 * Layout is the shell's state: the current screen and the bottom panel
 * (SPEC B4). The bottom panel holds the JSON-RPC logger and, beside it, the
 * results of the screen above when that screen docks them there: list |
 * detail on top, logger | results below.
 */
export class Layout {
  #screen = $state<Screen>('servers');
  #loggerOpen = $state(false);
  // null until the user sets a height (or one is remembered): then it follows the window.
  #loggerHeight = $state<number | null>(null);
  #windowHeight = $state(windowHeight());
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

  /**
   * loggerHeight is the bottom panel's height: the one the user set, or the
   * default for the window's height; never so tall that less than
   * SCREEN_MIN is left above it.
   */
  get loggerHeight(): number {
    const h = this.#loggerHeight ?? defaultLoggerHeight(this.#windowHeight);
    return Math.round(Math.max(LOGGER_MIN, Math.min(h, this.#windowHeight - SCREEN_MIN)));
  }

  /** setWindowHeight tells the layout the window's height changed. */
  setWindowHeight(height: number): void {
    if (height > 0) this.#windowHeight = height;
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
