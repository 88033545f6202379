import { setToolEnabled, toolSelection, type ToolSelection } from '../api';

/**
 * ToolSelections holds, per server, which tools models are offered and the
 * token estimate of their definitions (SPEC A6). The inspector can still
 * run a tool that is off.
 */
export class ToolSelections {
  #by = $state<Record<string, ToolSelection>>({});
  #error = $state('');

  get(server: string): ToolSelection | undefined {
    return this.#by[server];
  }

  get error(): string {
    return this.#error;
  }

  enabled(server: string, tool: string): boolean {
    return !(this.#by[server]?.disabled ?? []).includes(tool);
  }

  async load(server: string): Promise<void> {
    try {
      this.#by[server] = await toolSelection(server);
      this.#error = '';
    } catch (e) {
      this.#error = (e as Error).message;
    }
  }

  async set(server: string, tool: string, on: boolean): Promise<void> {
    this.#by[server] = await setToolEnabled(server, tool, on);
  }
}
