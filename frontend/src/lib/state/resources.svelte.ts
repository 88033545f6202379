import {
  listResources,
  listResourceTemplates,
  on,
  readResource,
  resourceSubscriptions,
  subscribeResource,
  unsubscribeResource,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplate,
} from '../api';
import { expandTemplate, templateVariables } from '../components/inspector/uriTemplate';

/** What the detail pane shows: a resource or a template. */
export type ResourceSelection = { kind: 'resource'; uri: string } | { kind: 'template'; name: string } | null;

/** A read of one URI: running, done or failed. */
export interface ReadState {
  uri: string;
  /** The resource's name (for downloads), when it came from the list. */
  name?: string;
  loading: boolean;
  result?: ReadResourceResult;
  error?: string;
}

/** Live updates of one subscribed resource: how many arrived, and the last one's time. */
export interface UpdateCount {
  count: number;
  at: number;
}

/** A paginated list: its items, the cursor of the next page, and its loading state. */
interface Paged<T> {
  items: T[];
  next: string;
  loading: boolean;
  /** A "Load more" page is on its way. */
  more: boolean;
  error: string;
  /** True once the first page arrived (or failed) for the current server. */
  loaded: boolean;
}

const emptyPaged = <T>(): Paged<T> => ({ items: [], next: '', loading: false, more: false, error: '', loaded: false });

/** A refresh fetches pages until it has as many items as were shown, up to this many pages. */
const MAX_REFRESH_PAGES = 20;

const matches = (q: string, ...fields: Array<string | undefined>) =>
  fields.some((f) => f !== undefined && f.toLowerCase().includes(q));

/**
 * ResourcesStore is the state of the Resources screen for one server at a
 * time: the paginated resource and template lists, the search, what is
 * selected, template arguments and the last read. Responses that arrive
 * after the server changed are dropped.
 */
export class ResourcesStore {
  #server = $state('');
  #resources = $state<Paged<Resource>>(emptyPaged());
  #templates = $state<Paged<ResourceTemplate>>(emptyPaged());
  #query = $state('');
  #selection = $state<ResourceSelection>(null);
  #args = $state<Record<string, Record<string, string>>>({});
  #read = $state<ReadState | null>(null);
  #subs = $state<string[]>([]);
  #subBusy = $state('');
  #subError = $state('');
  #updates = $state<Record<string, UpdateCount>>({});
  // gen changes with the server; a response of an older generation is dropped.
  #gen = 0;
  #readSeq = 0;
  // loads counts list fetches, so an older fetch never overwrites a newer one.
  #loads = { resources: 0, templates: 0 };
  #stale = true;

  #filtered = $derived.by(() => {
    const q = this.#query.trim().toLowerCase();
    if (!q) return { resources: this.#resources.items, templates: this.#templates.items };
    return {
      resources: this.#resources.items.filter((r) => matches(q, r.name, r.title, r.uri, r.description, r.mimeType)),
      templates: this.#templates.items.filter((t) => matches(q, t.name, t.title, t.uriTemplate, t.description, t.mimeType)),
    };
  });

  /** server is the server whose lists are held ("" before the first). */
  get server(): string {
    return this.#server;
  }

  get resources(): Paged<Resource> {
    return this.#resources;
  }

  get templates(): Paged<ResourceTemplate> {
    return this.#templates;
  }

  /** filtered is what the search leaves of the loaded resources and templates. */
  get filtered(): { resources: Resource[]; templates: ResourceTemplate[] } {
    return this.#filtered;
  }

  get query(): string {
    return this.#query;
  }

  /** empty is true once the held server is known to offer no resources and no templates. */
  get empty(): boolean {
    const r = this.resources;
    const t = this.templates;
    return r.loaded && t.loaded && !r.error && r.items.length === 0 && t.items.length === 0;
  }

  set query(q: string) {
    this.#query = q;
  }

  get selection(): ResourceSelection {
    return this.#selection;
  }

  get read(): ReadState | null {
    return this.#read;
  }

  /** subscriptions are the URIs of the held server the user subscribed to. */
  get subscriptions(): string[] {
    return this.#subs;
  }

  /** subscribed reports whether uri is subscribed. */
  subscribed(uri: string): boolean {
    return this.#subs.includes(uri);
  }

  /** subscribing is the URI whose subscription is being changed ("" when none). */
  get subscribing(): string {
    return this.#subBusy;
  }

  /** subscriptionError says why the last subscribe or unsubscribe failed. */
  get subscriptionError(): string {
    return this.#subError;
  }

  /** updates returns the live updates seen for uri since it was subscribed. */
  updates(uri: string): UpdateCount | undefined {
    return this.#updates[uri];
  }

  /** toggleSubscription subscribes to uri, or unsubscribes when it is subscribed. */
  async toggleSubscription(uri: string): Promise<void> {
    if (this.#subBusy) return;
    const server = this.#server;
    const gen = this.#gen;
    const on = !this.subscribed(uri);
    this.#subBusy = uri;
    this.#subError = '';
    try {
      if (on) await subscribeResource(server, uri);
      else await unsubscribeResource(server, uri);
      if (gen !== this.#gen) return;
      this.#subs = on ? [...this.#subs, uri] : this.#subs.filter((u) => u !== uri);
      if (on) delete this.#updates[uri];
    } catch (e) {
      if (gen === this.#gen) this.#subError = (e as Error).message;
    } finally {
      if (gen === this.#gen) this.#subBusy = '';
    }
  }

  async #loadSubscriptions(): Promise<void> {
    const gen = this.#gen;
    try {
      const subs = await resourceSubscriptions(this.#server);
      if (gen === this.#gen) this.#subs = subs ?? [];
    } catch {
      // A server that cannot subscribe has none; the button says why on use.
    }
  }

  /** selectedResource is the selected resource, if a resource is selected. */
  get selectedResource(): Resource | undefined {
    const s = this.#selection;
    return s?.kind === 'resource' ? this.#resources.items.find((r) => r.uri === s.uri) : undefined;
  }

  /** selectedTemplate is the selected template, if a template is selected. */
  get selectedTemplate(): ResourceTemplate | undefined {
    const s = this.#selection;
    return s?.kind === 'template' ? this.#templates.items.find((t) => t.name === s.name) : undefined;
  }

  /**
   * start follows mcp:list-changed while the screen is shown and returns the
   * cleanup. Lists held when the screen goes away are refreshed when it
   * comes back.
   */
  start(): () => void {
    const off = on('mcp:list-changed', (p) => {
      if (p.kind === 'resources' && p.server === this.#server && !this.#stale) void this.refresh();
    });
    return () => {
      off();
      this.#stale = true;
    };
  }

  /**
   * watchUpdates follows mcp:resource-updated for the life of the app, since
   * updates arrive while the user is on another screen (running the tool
   * that changed the resource, say). It returns the cleanup.
   */
  watchUpdates(): () => void {
    // A subscribed resource changed: count it, and read it again when it is
    // the one shown, keeping the old contents on screen until the new arrive.
    return on('mcp:resource-updated', (p) => {
      if (p.server !== this.#server) return;
      const prev = this.#updates[p.uri];
      this.#updates[p.uri] = { count: (prev?.count ?? 0) + 1, at: p.at };
      const r = this.#read;
      if (r && r.uri === p.uri && !r.loading) void this.readURI(r.uri, r.name, true);
    });
  }

  /**
   * show makes server the one whose lists are held. A new server starts
   * empty; a disconnected one keeps what it had and is refreshed once it is
   * connected again.
   */
  show(server: string, connected: boolean): void {
    if (server !== this.#server) {
      this.#gen++;
      this.#server = server;
      this.#resources = emptyPaged();
      this.#templates = emptyPaged();
      this.#selection = null;
      this.#read = null;
      this.#args = {};
      this.#query = '';
      this.#stale = true;
      this.#subs = [];
      this.#subError = '';
      this.#updates = {};
    }
    if (!server) return;
    if (!connected) {
      this.#stale = true;
      return;
    }
    if (this.#stale) {
      void this.refresh();
      void this.#loadSubscriptions();
    }
  }

  /** refresh reloads both lists from the first page, as far as they were loaded. */
  async refresh(): Promise<void> {
    this.#stale = false;
    await Promise.all([this.#reload('resources'), this.#reload('templates')]);
  }

  /** loadMore fetches the next page of resources. */
  loadMore(): Promise<void> {
    return this.#more('resources');
  }

  /** loadMoreTemplates fetches the next page of templates. */
  loadMoreTemplates(): Promise<void> {
    return this.#more('templates');
  }

  /** selectResource selects a resource and reads it. */
  selectResource(r: Resource): Promise<void> {
    this.#selection = { kind: 'resource', uri: r.uri };
    return this.readURI(r.uri, r.name);
  }

  /**
   * openURI selects the resource at uri of the held server and reads it,
   * whether or not the list shows it (a link inside another resource).
   */
  openURI(uri: string): Promise<void> {
    const known = this.resources.items.find((r) => r.uri === uri);
    this.#selection = { kind: 'resource', uri };
    return this.readURI(uri, known?.name);
  }

  /** selectTemplate selects a template; its argument values are kept per template. */
  selectTemplate(t: ResourceTemplate): void {
    this.#selection = { kind: 'template', name: t.name };
    if (this.#read?.uri !== this.expandedURI(t)) this.#read = null;
    this.#args[t.name] ??= Object.fromEntries(templateVariables(t.uriTemplate).map((v) => [v, '']));
  }

  /** templateArgs returns the values entered for a template's variables. */
  templateArgs(t: ResourceTemplate): Record<string, string> {
    return this.#args[t.name] ?? {};
  }

  setTemplateArg(t: ResourceTemplate, name: string, value: string): void {
    if (!this.#args[t.name]) this.#args[t.name] = {};
    this.#args[t.name][name] = value;
  }

  /** expandedURI fills a template with the entered values; empty ones are left out. */
  expandedURI(t: ResourceTemplate): string {
    const values: Record<string, string | undefined> = {};
    for (const [k, v] of Object.entries(this.#args[t.name] ?? {})) values[k] = v === '' ? undefined : v;
    return expandTemplate(t.uriTemplate, values);
  }

  /** readTemplate reads the URI a template expands to. */
  readTemplate(t: ResourceTemplate): Promise<void> {
    return this.readURI(this.expandedURI(t));
  }

  /**
   * readURI reads one URI of the held server; only the latest read is kept.
   * A quiet read (a live update) keeps the shown contents until the new ones arrive.
   */
  async readURI(uri: string, name?: string, quiet = false): Promise<void> {
    const server = this.#server;
    const gen = this.#gen;
    const seq = ++this.#readSeq;
    const prev = this.#read;
    this.#read = quiet && prev?.uri === uri ? { ...prev, loading: true } : { uri, name, loading: true };
    try {
      const result = await readResource(server, uri);
      if (gen !== this.#gen || seq !== this.#readSeq) return;
      this.#read = { uri, name, loading: false, result: { ...result, contents: result?.contents ?? [] } };
    } catch (e) {
      if (gen !== this.#gen || seq !== this.#readSeq) return;
      this.#read = { uri, name, loading: false, error: (e as Error).message };
    }
  }

  async #fetch(which: 'resources' | 'templates', cursor: string): Promise<{ items: unknown[]; next: string }> {
    if (which === 'resources') {
      const p = await listResources(this.#server, cursor);
      return { items: p?.resources ?? [], next: p?.nextCursor ?? '' };
    }
    const p = await listResourceTemplates(this.#server, cursor);
    return { items: p?.resourceTemplates ?? [], next: p?.nextCursor ?? '' };
  }

  #list(which: 'resources' | 'templates'): Paged<unknown> {
    return which === 'resources' ? this.#resources : this.#templates;
  }

  #set(which: 'resources' | 'templates', p: Paged<unknown>): void {
    if (which === 'resources') this.#resources = p as Paged<Resource>;
    else this.#templates = p as Paged<ResourceTemplate>;
  }

  async #reload(which: 'resources' | 'templates'): Promise<void> {
    const gen = this.#gen;
    const seq = ++this.#loads[which];
    const current = () => gen === this.#gen && seq === this.#loads[which];
    const before = this.#list(which);
    const want = before.items.length;
    this.#set(which, { ...before, loading: true, more: false });
    try {
      const items: unknown[] = [];
      let next = '';
      let pages = 0;
      do {
        const page = await this.#fetch(which, next);
        if (!current()) return;
        items.push(...page.items);
        next = page.next;
        pages++;
      } while (next && items.length < want && pages < MAX_REFRESH_PAGES);
      this.#set(which, { items, next, loading: false, more: false, error: '', loaded: true });
    } catch (e) {
      if (!current()) return;
      this.#set(which, { ...this.#list(which), loading: false, error: (e as Error).message, loaded: true });
    }
  }

  async #more(which: 'resources' | 'templates'): Promise<void> {
    const cur = this.#list(which);
    if (!cur.next || cur.more || cur.loading) return;
    const gen = this.#gen;
    const seq = ++this.#loads[which];
    const current = () => gen === this.#gen && seq === this.#loads[which];
    this.#set(which, { ...cur, more: true, error: '' });
    try {
      const page = await this.#fetch(which, cur.next);
      if (!current()) return;
      const now = this.#list(which);
      this.#set(which, { ...now, items: [...now.items, ...page.items], next: page.next, more: false });
    } catch (e) {
      if (!current()) return;
      this.#set(which, { ...this.#list(which), more: false, error: (e as Error).message });
    }
  }
}
