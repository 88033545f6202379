import { on, trustReport, type ChangedTool, type ServerTrust, type TrustReport } from '../api';

/**
 * TrustStore holds what changed since standing approvals were given (SPEC
 * G1): per server, a changed identity and the tools changed since they were
 * approved, and the approvals suspended by them. The Servers screen and the
 * Tools tab mark what it lists. It reloads when what it depends on may have
 * changed: a server's tools were re-listed, a server connected, the config
 * changed, an approval was answered. At most one load runs, and one waits.
 */
export class TrustStore {
  #report = $state<TrustReport>({ servers: [] });
  #error = $state('');
  #running = false;
  #again = false;

  /** start loads the report and follows what changes it; returns the cleanup. */
  start(): () => void {
    void this.load();
    const offs = [
      on('mcp:list-changed', (e) => {
        if (e.kind === 'tools') void this.load();
      }),
      on('mcp:server-status', (s) => {
        if (s.state === 'connected') void this.load();
      }),
      on('mcp:servers-changed', () => void this.load()),
      on('chat:approval-done', () => void this.load()),
    ];
    return () => offs.forEach((off) => off());
  }

  /** load fetches the report; a call while one runs loads once more after it. */
  async load(): Promise<void> {
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.#running = true;
    try {
      do {
        this.#again = false;
        try {
          this.#report = await trustReport();
          this.#error = '';
        } catch (e) {
          this.#error = (e as Error).message;
        }
      } while (this.#again);
    } finally {
      this.#running = false;
    }
  }

  get report(): TrustReport {
    return this.#report;
  }

  /** error is why the last load failed, "" when it did not. */
  get error(): string {
    return this.#error;
  }

  /** server returns what changed on a server since its tools were approved, if anything. */
  server(id: string): ServerTrust | undefined {
    return this.#report.servers.find((s) => s.server === id);
  }

  /** changed returns how a tool changed since it was approved, if it did. */
  changed(server: string, tool: string): ChangedTool | undefined {
    return this.server(server)?.tools.find((t) => t.tool === tool);
  }
}
