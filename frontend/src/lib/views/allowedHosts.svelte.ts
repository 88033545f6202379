// The hosts whose pages the user allowed MCP-UI resources to show, for
// this session of the app (an external page is framed only after that).
import { SvelteSet } from 'svelte/reactivity';

class AllowedHosts {
  #hosts = new SvelteSet<string>();

  has(host: string): boolean {
    return this.#hosts.has(host.toLowerCase());
  }

  allow(host: string): void {
    this.#hosts.add(host.toLowerCase());
  }
}

export const allowedHosts = new AllowedHosts();
