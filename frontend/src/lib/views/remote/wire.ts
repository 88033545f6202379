// The sandbox's half of the wire (issue 15): mutations leave the sandbox
// as JSON, so the functions in them — the event listeners of the script's
// elements — are kept here and sent as {[FN]: id}; the app calls one back
// by its id (tree.ts). Anything else JSON cannot carry is dropped.
import { RemoteElement } from '@remote-dom/core/elements';
import { FN, REMOTE_ELEMENTS } from './elements';

type Fn = (...args: unknown[]) => unknown;

export class Functions {
  readonly #fns = new Map<number, Fn>();
  readonly #ids = new WeakMap<Fn, number>();
  #next = 0;

  /** encode makes v JSON, functions kept by id. */
  encode(v: unknown, depth = 0): unknown {
    if (typeof v === 'function') {
      let id = this.#ids.get(v as Fn);
      if (id === undefined) {
        id = ++this.#next;
        this.#ids.set(v as Fn, id);
        this.#fns.set(id, v as Fn);
      }
      return { [FN]: id };
    }
    if (v === null || typeof v === 'string' || typeof v === 'boolean') return v;
    if (typeof v === 'number') return Number.isFinite(v) ? v : null;
    if (depth > 32 || typeof v !== 'object') return null;
    if (Array.isArray(v)) return v.map((x) => this.encode(x, depth + 1));
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = this.encode(x, depth + 1);
    return out;
  }

  /** call runs the function of id with args; an unknown id does nothing. */
  call(id: number, args: unknown[]): void {
    this.#fns.get(id)?.(...args);
  }
}

/** defineRemoteElements defines MCP-UI's ui-* elements as remote elements (in the sandbox). */
export function defineRemoteElements(): void {
  for (const def of REMOTE_ELEMENTS) {
    if (customElements.get(def.tagName)) continue;
    customElements.define(
      def.tagName,
      class extends RemoteElement {
        static get remoteAttributes() {
          return def.remoteAttributes;
        }
        static get remoteEvents() {
          return def.remoteEvents;
        }
      },
    );
  }
}
