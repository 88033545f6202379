import { saveUIState, uiState } from '../api';

export const SCREENS = ['chat', 'servers', 'tools', 'resources', 'prompts', 'usage', 'settings'] as const;
export type Screen = (typeof SCREENS)[number];

export const LOGGER_MIN = 120;
export const LOGGER_DEFAULT = 260;

/** Layout is the shell's state: current screen and the logger panel. */
export class Layout {
  #screen = $state<Screen>('servers');
  #loggerOpen = $state(false);
  #loggerHeight = $state(LOGGER_DEFAULT);
  // What the user changed before the remembered state arrived wins.
  #changed = new Set<'screen' | 'loggerOpen' | 'loggerHeight'>();

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
    const [screen, open, height] = await Promise.all([
      uiState('screen').catch(() => ''),
      uiState('loggerOpen').catch(() => ''),
      uiState('loggerHeight').catch(() => ''),
    ]);
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
