import { detectConfigs, previewImport, saveUIState, uiState, type DetectedConfig, type ImportPreview, type ImportResult } from '../api';

/** WELCOME_SEEN is the UI-state key set once the welcome has been dismissed. */
export const WELCOME_SEEN = 'welcomeSeen';

/**
 * Welcome is the first-run welcome (SPEC F6): whether it is open, and the
 * MCP configs of other clients it found on this machine. It opens by
 * itself once — no server configured, never dismissed — and again from
 * Settings.
 */
export class Welcome {
  #open = $state(false);
  #configs = $state<DetectedConfig[] | null>(null);
  #detecting = $state(false);
  #error = $state('');
  #imported = $state<Record<string, number>>({});
  #checked = false;

  get open(): boolean {
    return this.#open;
  }

  /** configs are the configs found, null before the first detection answered. */
  get configs(): DetectedConfig[] | null {
    return this.#configs;
  }

  /** detecting is true while the machine is searched. */
  get detecting(): boolean {
    return this.#detecting;
  }

  /** error is why the search failed; "" when it did not. */
  get error(): string {
    return this.#error;
  }

  /** imported counts the servers imported from each file (by path) since the welcome opened. */
  get imported(): Record<string, number> {
    return this.#imported;
  }

  /**
   * firstRun opens the welcome when this is the first run: no server is
   * configured and the welcome was never dismissed. With servers it is
   * marked as seen, so that removing them later does not bring it back.
   * Only the first call does anything.
   */
  async firstRun(hasServers: boolean): Promise<void> {
    if (this.#checked) return;
    this.#checked = true;
    // When the flag cannot be read, do not risk showing the welcome every time.
    const seen = await uiState(WELCOME_SEEN).catch(() => 'unknown');
    if (seen) return;
    if (hasServers) this.#markSeen();
    else this.show();
  }

  /** show opens the welcome and searches the machine again. */
  show(): void {
    this.#checked = true;
    this.#open = true;
    this.#imported = {};
    void this.detect();
  }

  /** dismiss closes the welcome for good; Settings can show it again. */
  dismiss(): void {
    this.#open = false;
    this.#markSeen();
  }

  /** detect searches the machine for other clients' configs; what was found stays on show meanwhile. */
  async detect(): Promise<void> {
    this.#detecting = true;
    this.#error = '';
    try {
      this.#configs = await detectConfigs();
    } catch (e) {
      this.#error = (e as Error).message;
    } finally {
      this.#detecting = false;
    }
  }

  /** preview reads a found file for the import dialog. */
  preview(path: string): Promise<ImportPreview> {
    return previewImport(path);
  }

  /** imported records an import from path and refreshes which servers are configured. */
  noteImported(path: string, r: ImportResult): void {
    this.#imported[path] = (this.#imported[path] ?? 0) + r.added.length + r.replaced.length;
    void this.detect();
  }

  #markSeen(): void {
    void saveUIState(WELCOME_SEEN, '1').catch(() => {});
  }
}
