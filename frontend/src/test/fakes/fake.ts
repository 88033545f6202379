// An in-memory backend for component tests and for running the frontend in
// a plain browser (`npm run dev` without Go). It behaves like MCPPool and
// the settings service closely enough to drive every screen, and records
// every call. Production code never imports it: main.ts loads it only
// behind `import.meta.env.DEV`, which the production build removes.

import { looksSecret, type PairKind } from '../../lib/util/secretLook';
import { uiOf } from '../../lib/views/toolUI';
import type { Backend, MCPPoolBackend, SettingsBackend } from '../../lib/api/backend';
import type {
  Notification,
  AppInfo,
  ElicitationRequest,
  GetPromptResult,
  DesktopStatus,
  KeychainStatus,
  Prompt,
  ReadResourceResult,
  SavedRequest,
  Resource,
  ResourceTemplate,
  Tool,
  ToolCallOutcome,
  ToolSelection,
  ToolCallRequest,
  DetectedConfig,
  ImportItem,
  ImportPreview,
  ImportResult,
  ShownValue,
  PoolDefaults,
  Prefs,
  RPCEntry,
  SecretPair,
  ServerSpec,
  ServerStatus,
  ServerView,
} from '../../lib/api/types';
import type { EventMap, EventName } from '../../lib/api/events';
import type { SignInStep as SignInStepPayload } from '../../lib/api/types';
import type { StartCause, StartRecord } from '../../lib/api/serverDetail';
import { FakeChat, demoChatReply, type FakeChatOptions } from './fakeChat';
import { FakeRemote, type FakeRemoteOptions } from './fakeRemote';
import { checkLink } from './fakeLinks';
import { FakeProviders, type FakeProvidersOptions } from './fakeProviders';
import { FakeUsage, demoUsage, type FakeUsageOptions } from './fakeUsage';

export interface FakeCall {
  method: string;
  args: unknown[];
}

export interface FakeOptions {
  /** Servers configured at start; their statuses default to connected. */
  servers?: Array<ServerSpec | ServerView>;
  /** Delay before a (re)started server reports connected; < 0 never. */
  connectDelayMs?: number;
  prefs?: Partial<Prefs>;
  info?: AppInfo;
  /** What KeychainStatus reports; ok by default. Missing fields are filled in. */
  keychain?: Partial<KeychainStatus>;
  /** What RecheckKeychain reports next ("Check again"); default: what KeychainStatus reports. */
  keychainRecheck?: Partial<KeychainStatus>;
  rpc?: RPCEntry[];
  /** What ChooseImportFile returns ("" = the user cancelled). */
  importFile?: string;
  /** What PreviewImport (and PreviewImportData) show, whatever the file; token is made up. */
  preview?: FakePreview;
  configFile?: string;
  /** Inspector: each server's tools, resources, templates and prompts. */
  tools?: Record<string, Tool[]>;
  resources?: Record<string, Resource[]>;
  templates?: Record<string, ResourceTemplate[]>;
  prompts?: Record<string, Prompt[]>;
  /** What ReadResource returns; default: the uri as text/plain. */
  readResult?: (server: string, uri: string) => ReadResourceResult;
  /** What GetPrompt returns; default: one user message naming the prompt and its arguments. */
  promptResult?: (server: string, name: string, args: Record<string, string>) => GetPromptResult;
  /** How CallTool answers; default: the arguments echoed as a text content after 1 ms. */
  callTool?: (req: ToolCallRequest, fake: FakeBackend) => Promise<ToolCallOutcome>;
  /** The ChatService: conversations, and how turns are played (see fakeChat.ts). */
  chat?: FakeChatOptions;
  /** Remote images: allowed hosts and what fetches return (see fakeRemote.ts). */
  remote?: FakeRemoteOptions;
  /** Saved tool requests at start. */
  saved?: SavedRequest[];
  /** Page size of ListResources and ListResourceTemplates (default 50). */
  pageSize?: number;
  /** The ProviderManager: providers, env variables, scripted models, Ollama (see fakeProviders.ts). */
  providers?: FakeProvidersOptions;
  /** The UsageStats: recorded LLM calls, prices, the audit log (see fakeUsage.ts). */
  usage?: FakeUsageOptions;
  /**
   * Start as on first run: the welcome (SPEC F6) has not been seen. By
   * default it has, so that it stays out of the way of other screens' tests.
   */
  firstRun?: boolean;
  /** What DetectConfigs finds ("configured" is filled in from the servers). */
  detected?: FakeDetected[];
  /** How long DetectConfigs takes (default 0). */
  detectDelayMs?: number;
}

/** spec builds a full ServerSpec from a few fields. */
export function spec(p: Partial<ServerSpec> & { id: string }): ServerSpec {
  return {
    type: p.url ? 'http' : 'stdio',
    command: '',
    args: [],
    env: [],
    cwd: '',
    url: '',
    headers: [],
    auth: '',
    oauth: [],
    enabled: true,
    timeoutMs: 0,
    maxConcurrency: 0,
    maxMessageBytes: 0,
    protocolVersion: '',
    ...p,
  };
}

/** A config the fake finds on the machine: configured is filled in per call, broken is [] unless given. */
export type FakeDetected = Omit<DetectedConfig, 'configured' | 'broken'> & { broken?: string[] };

/** The preview a fake returns: token and replaces are filled in per call. */
export type FakePreview = Omit<ImportPreview, 'token'>;

/** shown builds a ShownValue: plain text, or with { secret: true, length } a secret's hint. */
export function shown(text: string, p: Partial<ShownValue> = {}): ShownValue {
  return { text, secret: false, partial: false, length: 0, reads: [], ...p };
}

/** previewItem builds an import preview item from a few fields. */
export function previewItem(p: Partial<ImportItem> & { id: string }): ImportItem {
  const remote = p.transport === 'http' || p.transport === 'sse' || (p.url?.text ?? '') !== '';
  const command = p.command ?? shown('');
  const args = p.args ?? [];
  const url = p.url ?? shown('');
  return {
    transport: remote ? 'http' : 'stdio',
    summary: remote ? url.text : [command.text, ...args.map((a) => a.text)].join(' '),
    enabled: true,
    replaces: false,
    changes: [],
    command,
    args,
    cwd: shown(''),
    env: [],
    url,
    host: '',
    headers: [],
    roots: [],
    reads: [],
    inputs: [],
    warnings: [],
    line: 0,
    col: 0,
    problems: [],
    ...p,
  };
}

/** status builds a full ServerStatus from a few fields. */
export function status(p: Partial<ServerStatus> & { id: string }): ServerStatus {
  return {
    state: 'connected',
    transport: 'stdio',
    protocolVersion: '2025-11-25',
    serverName: `${p.id}-server`,
    serverVersion: '1.0.0',
    tools: 0,
    resources: 0,
    prompts: 0,
    ...p,
  };
}

/** rpcEntry builds an RPCEntry from a few fields. */
export function rpcEntry(p: Partial<RPCEntry> & { seq: number }): RPCEntry {
  return {
    server: 'everything',
    time: Date.UTC(2026, 0, 2, 3, 4, 5) + p.seq,
    direction: 'out',
    kind: 'request',
    method: 'tools/list',
    payload: JSON.stringify({ jsonrpc: '2.0', id: p.seq, method: p.method ?? 'tools/list' }),
    ...p,
  };
}

interface Stored {
  spec: ServerSpec; // with secret values
  status: ServerStatus;
}

const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

// withheld shows stored pairs as MCPPool.ListServers does: a pair in the
// keychain (secret) or a literal that looks secret is withheld, any other
// value is shown as it is.
function withheld(kind: PairKind, pairs: SecretPair[]): SecretPair[] {
  return pairs.map((p) => {
    if (p.secret) return { key: p.key, value: '', keep: true, secret: true, inFile: false };
    if (looksSecret(kind, p.key, p.value)) return { key: p.key, value: '', keep: true, secret: true, inFile: true };
    return { key: p.key, value: p.value, keep: false, secret: false, inFile: false };
  });
}

/** FakeBackend is an in-memory Backend that records its calls. */
export class FakeBackend implements Backend {
  readonly calls: FakeCall[] = [];
  readonly servers = new Map<string, Stored>();
  readonly uiStore = new Map<string, string>();
  readonly copied: string[] = [];
  /** The ChatService; its calls are recorded as "chat.<Method>"; turn() scripts a running turn. */
  readonly chat: FakeChat;
  /** The ProviderManager; its calls are recorded as "providers.<Method>". */
  readonly providers: FakeProviders;
  /** The UsageStats; its calls are recorded as "usage.<Method>". */
  readonly usage: FakeUsage;
  /** Remote-image grants and fetches of the settings service (see fakeRemote.ts). */
  readonly remote: FakeRemote;
  prefs: Prefs;
  info: AppInfo;
  keychain: KeychainStatus;
  #keychainRecheck: Partial<KeychainStatus> | undefined;
  rpc: RPCEntry[];
  importFile: string;
  preview: FakePreview | null;
  /** The configs of other clients DetectConfigs finds. */
  detected: FakeDetected[];
  detectDelayMs: number;
  configPath: string;
  connectDelayMs: number;
  tools: Record<string, Tool[]>;
  resources: Record<string, Resource[]>;
  templates: Record<string, ResourceTemplate[]>;
  prompts: Record<string, Prompt[]>;
  pageSize: number;
  /** Tools switched off for models, by server. */
  disabledTools: Record<string, string[]> = {};
  /** Subscribed resource URIs per server. */
  subscriptions: Record<string, string[]> = {};
  /** When set, SubscribeResource fails with this message. */
  subscribeError = '';
  /** Completion values by "kind:name:arg" (e.g. "prompt:greet:name"); filtered by prefix. */
  completions: Record<string, string[]> = {};
  /** What ChooseFolder returns ("" = the user cancelled). */
  folder = '';
  /** The server defaults (MCPPool.Defaults). */
  poolDefaults: PoolDefaults = { timeoutMs: 60_000 };
  /** When set, OpenDataFolder fails with this message. */
  openFolderError = '';
  /** Saved tool requests of every server. */
  saved: SavedRequest[];
  #savedSeq = 0;
  /** Questions asked with elicit() and not yet answered. */
  readonly pendingElicitations = new Set<string>();
  #readResult: NonNullable<FakeOptions['readResult']>;
  #views = 0;
  #viewServers = new Map<string, string>();
  #promptResult: NonNullable<FakeOptions['promptResult']>;
  #callTool: NonNullable<FakeOptions['callTool']>;
  /** Rejecters of running CallTool calls, by callId (CancelCall uses them). */
  #running = new Map<string, (reason: string) => void>();
  #failures = new Map<string, string>();
  #listeners = new Map<string, Set<(p: unknown) => void>>();
  #timers = new Set<ReturnType<typeof setTimeout>>();
  #seq = 0;
  // Previews by token, oldest first, at most 8 (as MCPPool keeps them).
  #previews: Array<{ token: string; file: string; items: ImportItem[] }> = [];
  #previewSeq = 0;

  constructor(o: FakeOptions = {}) {
    this.prefs = { theme: 'system', language: '', quitOnClose: false, notifyOff: null, ...o.prefs };
    this.keychain = fakeKeychain(o.keychain);
    this.#keychainRecheck = o.keychainRecheck;
    this.info = o.info ?? {
      version: '0.1.0',
      dataDir: '/home/dev/.config/mcpdesk',
      configFile: '/home/dev/.config/mcpdesk/mcp.config.json',
      databaseFile: '/home/dev/.config/mcpdesk/mcpdesk.db',
    };
    this.configPath = o.configFile ?? this.info.configFile;
    this.rpc = o.rpc ?? [];
    this.#seq = this.rpc.reduce((m, e) => Math.max(m, e.seq), 0);
    this.importFile = o.importFile ?? '';
    this.preview = o.preview ?? null;
    this.detected = structuredClone(o.detected ?? []);
    this.detectDelayMs = o.detectDelayMs ?? 0;
    // The welcome's flag (state/welcome.svelte.ts).
    if (!o.firstRun) this.uiStore.set('welcomeSeen', '1');
    this.connectDelayMs = o.connectDelayMs ?? 5;
    this.tools = o.tools ?? {};
    this.resources = o.resources ?? {};
    this.templates = o.templates ?? {};
    this.prompts = o.prompts ?? {};
    this.pageSize = o.pageSize ?? 50;
    this.providers = new FakeProviders(o.providers ?? {}, (m, a) => this.#record(m, a), () => this.keychain);
    this.usage = new FakeUsage(o.usage ?? {}, {
      record: (m, a) => this.#record(m, a),
      emit: (p) => this.emit('usage:changed', p),
      provider: (id) => this.providers.stored.get(id)?.p,
      conversationExists: (id) => this.chat.conversations.has(id),
    });
    this.chat = new FakeChat({ record: (m, a) => this.#record(`chat.${m}`, a), emit: (n, p) => this.emit(n, p) }, o.chat);
    this.remote = new FakeRemote(o.remote ?? {}, {
      record: (m, a) => this.#record(m, a),
      conversationTitle: (id) => this.chat.conversations.get(id)?.conversation.title,
    });
    this.saved = structuredClone(o.saved ?? []);
    this.#savedSeq = this.saved.reduce((m, r) => Math.max(m, r.id), 0);
    this.#readResult =
      o.readResult ?? ((_server, uri) => ({ contents: [{ uri, mimeType: 'text/plain', text: `contents of ${uri}` }] }));
    this.#promptResult =
      o.promptResult ??
      ((_server, name, args) => ({
        messages: [{ role: 'user', content: { type: 'text', text: `${name} ${JSON.stringify(args)}` } }],
      }));
    this.#callTool =
      o.callTool ??
      (async (req) => ({ result: { content: [{ type: 'text', text: JSON.stringify(req.arguments) }] }, durationMs: 1 }));
    for (const s of o.servers ?? []) {
      const v: ServerView = 'spec' in s ? s : { spec: s, status: status({ id: s.id, transport: s.type }) };
      const st = v.spec.enabled ? v.status : { ...v.status, state: 'disabled' as const };
      this.servers.set(v.spec.id, { spec: structuredClone(v.spec), status: st });
    }
  }

  /** failNext makes the next call of method reject with message. */
  failNext(method: string, message: string): void {
    this.#failures.set(method, message);
  }

  /** callsOf returns the argument lists of every call of method. */
  callsOf(method: string): unknown[][] {
    return this.calls.filter((c) => c.method === method).map((c) => c.args);
  }

  /** updateResource tells the UI a resource changed, as a server would after a subscription. */
  updateResource(server: string, uri: string, at = Date.now()): void {
    this.emit('mcp:resource-updated', { server, uri, at });
  }

  /** emit delivers one event to the subscribers, as the Wails runtime would. */
  emit<K extends EventName>(name: K, payload: EventMap[K]): void {
    for (const fn of [...(this.#listeners.get(name) ?? [])]) fn(payload);
  }

  #continueSignIn = new Map<string, () => void>();

  // #signIn emits the steps of a sign-in (waiting before each one for
  // ContinueSignIn when stepwise), then reports the server connected.
  async #signIn(id: string, stepwise: boolean): Promise<void> {
    if (!this.servers.has(id)) throw `server "${id}" not found`;
    const steps: Array<[SignInStepPayload['step'], string]> = [
      ['resource-metadata', 'GET http://127.0.0.1/.well-known/oauth-protected-resource/mcp'],
      ['server-metadata', 'Authorization server metadata of https://auth.example'],
      ['client', 'Registered as client-1'],
      ['authorize', 'Authorization request'],
      ['callback', 'Authorization code received'],
      ['token', 'Signed in'],
    ];
    let seq = 0;
    const emit = (step: SignInStepPayload['step'], status: SignInStepPayload['status'], title: string) =>
      this.emit('mcp:sign-in-step', { server: id, attempt: 1, seq: ++seq, step, status, title, rule: '', detail: '' });
    for (const [step, title] of steps) {
      if (stepwise && step !== 'callback') {
        emit(step, 'waiting', `Next: ${step} — press Continue`);
        await new Promise<void>((resolve) => this.#continueSignIn.set(id, resolve));
        this.#continueSignIn.delete(id);
      }
      emit(step, 'ok', title);
    }
    this.setStatus(id, {
      state: 'connected',
      error: undefined,
      signIn: { signedIn: true, issuer: 'https://auth.example', host: 'auth.example', account: 'ada@example.com', scope: '', expiresAt: Date.now() + 3600_000, renewable: true, client: 'dynamic' },
    });
  }

  /** setStatus changes a server's status and emits mcp:server-status. */
  setStatus(id: string, s: Partial<ServerStatus>): void {
    const stored = this.servers.get(id);
    const next = status({ ...(stored?.status ?? { id }), ...s, id });
    if (stored) stored.status = next;
    this.emit('mcp:server-status', next);
  }

  /** log appends JSON-RPC entries and emits them as one mcp:rpc-log batch. */
  log(...entries: Array<Omit<RPCEntry, 'seq'> & { seq?: number }>): RPCEntry[] {
    const full = entries.map((e) => ({ ...e, seq: e.seq ?? ++this.#seq }) as RPCEntry);
    for (const e of full) this.#seq = Math.max(this.#seq, e.seq);
    this.rpc.push(...full);
    this.emit('mcp:rpc-log', { entries: full });
    return full;
  }

  /** elicit asks a question as a server would (emits mcp:elicitation). */
  elicit(q: Omit<ElicitationRequest, 'timeoutMs'> & { timeoutMs?: number }): void {
    this.pendingElicitations.add(q.id);
    this.emit('mcp:elicitation', { timeoutMs: 300000, ...q });
  }

  /** dispose cancels pending timers. */
  dispose(): void {
    for (const t of this.#timers) clearTimeout(t);
    this.#timers.clear();
    this.#listeners.clear();
  }

  on(name: string, fn: (payload: unknown) => void): () => void {
    let set = this.#listeners.get(name);
    if (!set) this.#listeners.set(name, (set = new Set()));
    set.add(fn);
    return () => set.delete(fn);
  }

  listenerCount(name: string): number {
    return this.#listeners.get(name)?.size ?? 0;
  }

  async copyText(text: string): Promise<void> {
    this.copied.push(text);
  }

  /** Links opened with settings.OpenLink. */
  readonly opened: string[] = [];

  /** The window's size, on-top state and visibility, as quick chat left them. */
  readonly win = { w: 1280, h: 820, minW: 900, minH: 600, onTop: false, hidden: false, centered: 0 };

  /** While set, reading the window's size waits for it (a slow bridge). */
  sizeGate: Promise<void> | null = null;
  /** Set, reading the window's size fails with it. */
  sizeError: string | null = null;

  readonly window = {
    getSize: async () => {
      if (this.sizeGate) await this.sizeGate;
      if (this.sizeError) throw this.sizeError;
      return { w: this.win.w, h: this.win.h };
    },
    setSize: (w: number, h: number) => {
      this.win.w = w;
      this.win.h = h;
    },
    setMinSize: (w: number, h: number) => {
      this.win.minW = w;
      this.win.minH = h;
    },
    setAlwaysOnTop: (on: boolean) => {
      this.win.onTop = on;
    },
    center: () => {
      this.win.centered++;
    },
    hide: () => {
      this.win.hidden = true;
    },
  };

  // #preview shows the configured preview as the file at path and keeps it
  // under a new token.
  #preview(path: string): ImportPreview {
    if (!this.preview) throw `read ${path}: no such file or directory`;
    const p: ImportPreview = {
      ...structuredClone(this.preview),
      token: `fake-preview-${++this.#previewSeq}`,
      file: path,
      items: this.preview.items.map((i) => ({ ...structuredClone(i), replaces: this.servers.has(i.id) })),
    };
    this.#previews = [...this.#previews, { token: p.token, file: path, items: p.items }].slice(-8);
    return p;
  }

  #record(method: string, args: unknown[]): void {
    this.calls.push({ method, args: structuredClone(args) });
    const failure = this.#failures.get(method);
    if (failure !== undefined) {
      this.#failures.delete(method);
      throw failure; // Go errors arrive as plain strings.
    }
  }

  #later(ms: number, fn: () => void): void {
    if (ms < 0) return;
    const t = setTimeout(() => {
      this.#timers.delete(t);
      fn();
    }, ms);
    this.#timers.add(t);
  }

  #view(s: Stored): ServerView {
    return {
      spec: { ...structuredClone(s.spec), env: withheld('env', s.spec.env), headers: withheld('header', s.spec.headers) },
      status: structuredClone(s.status),
    };
  }

  /**
   * #connect (re)starts a server; the promise settles with its first
   * attempt's outcome, or at once when the fake never connects (as Go's
   * bounded wait answers "still connecting").
   */
  #connect(id: string, cause: StartCause = 'userRestart'): Promise<void> {
    const s = this.servers.get(id);
    if (!s) return Promise.resolve();
    if (!s.spec.enabled) {
      this.setStatus(id, { state: 'disabled', error: undefined, stderr: undefined, problem: undefined });
      return Promise.resolve();
    }
    this.starts.set(id, [{ time: Date.now(), cause }, ...(this.starts.get(id) ?? [])].slice(0, 20));
    this.setStatus(id, { state: 'connecting', transport: s.spec.type, error: undefined, stderr: undefined, problem: undefined });
    if (this.connectDelayMs < 0) return Promise.resolve();
    return new Promise((resolve) =>
      this.#later(this.connectDelayMs, () => {
        resolve();
        if (!this.servers.has(id)) return;
        if (s.spec.type === 'stdio' && /missing|does-not-exist/.test(s.spec.command)) {
          this.setStatus(id, {
            state: 'failed',
            error: `program "${s.spec.command}" not found on PATH (searched: /usr/local/bin:/usr/bin:/bin)`,
            stderr: '',
            problem: { code: 'programNotFound', program: s.spec.command },
          });
          return;
        }
        this.setStatus(id, {
          state: 'connected',
          protocolVersion: '2025-11-25',
          serverName: `${id}-server`,
          serverVersion: '1.0.0',
          tools: 3,
          resources: 1,
          prompts: 1,
        });
      }),
    );
  }

  /** Recent starts of each server, newest first (ServerDetail). */
  readonly starts = new Map<string, StartRecord[]>();
  /** Instructions each server gave (ServerDetail). */
  readonly instructions = new Map<string, string>();

  #changed(): void {
    this.emit('mcp:servers-changed', { ids: [...this.servers.keys()] });
  }

  #merge(what: string, pairs: SecretPair[], prev: SecretPair[]): SecretPair[] {
    const out: SecretPair[] = [];
    for (const p of pairs) {
      if (!p.key) throw `${what}: a name is required`;
      if (out.some((o) => o.key === p.key)) throw `${what} "${p.key}": given twice`;
      // Stored pairs keep their values; secret marks those in the keychain.
      let value = p.value;
      if (p.keep) {
        const old = prev.find((o) => o.key === p.key);
        if (!old) throw `${what} "${p.key}": no stored value to keep; enter a value`;
        value = old.value;
      }
      out.push({ key: p.key, value, keep: false, secret: !!p.secret });
    }
    return out;
  }

  readonly mcp: MCPPoolBackend = {
    ListServers: async () => {
      this.#record('ListServers', []);
      return [...this.servers.values()].map((s) => this.#view(s));
    },
    SaveServer: async (originalID, sp) => {
      this.#record('SaveServer', [originalID, sp]);
      const prev = originalID ? this.servers.get(originalID) : undefined;
      if (originalID && !prev) throw `server "${originalID}" not found`;
      if (!ID_PATTERN.test(sp.id)) throw `server "${sp.id}": field "id": invalid`;
      if (sp.id !== originalID && this.servers.has(sp.id)) throw `server "${sp.id}" already exists`;
      const stored: Stored = {
        spec: {
          ...structuredClone(sp),
          env: this.#merge('env', sp.env, prev?.spec.env ?? []),
          headers: this.#merge('header', sp.headers, prev?.spec.headers ?? []),
        },
        status: status({ id: sp.id, state: sp.enabled ? 'connecting' : 'disabled', transport: sp.type, tools: 0 }),
      };
      if (originalID && originalID !== sp.id) this.servers.delete(originalID);
      this.servers.set(sp.id, stored);
      this.#changed();
      await this.#connect(sp.id, originalID ? 'configChanged' : 'start');
      return this.#view(stored);
    },
    RemoveServer: async (id) => {
      this.#record('RemoveServer', [id]);
      if (!this.servers.delete(id)) throw `server "${id}" not found`;
      this.#changed();
    },
    SetEnabled: async (id, enabled) => {
      this.#record('SetEnabled', [id, enabled]);
      const s = this.servers.get(id);
      if (!s) throw `server "${id}" not found`;
      s.spec.enabled = enabled;
      this.#changed();
      await this.#connect(id, 'enabled');
      return this.#view(s);
    },
    ServerDetail: async (id) => {
      this.#record('ServerDetail', [id]);
      const s = this.servers.get(id);
      if (!s) throw `no server with id "${id}"`;
      const v = this.#view(s);
      const up = s.status.state === 'connected';
      return {
        ...v,
        capabilities: up
          ? {
              tools: s.status.tools > 0, toolsListChanged: true,
              resources: s.status.resources > 0, resourcesSubscribe: !!s.status.canSubscribe, resourcesListChanged: false,
              prompts: s.status.prompts > 0, promptsListChanged: false,
              logging: true, completions: false, tasks: false, experimental: [],
            }
          : null, // as Go sends it for a server that is not connected
        instructions: up ? (this.instructions.get(id) ?? '') : '',
        stderr: s.status.stderr ?? '',
        starts: structuredClone(this.starts.get(id) ?? []),
      };
    },
    Restart: async (id) => {
      this.#record('Restart', [id]);
      if (!this.servers.has(id)) throw `server "${id}" not found`;
      this.#connect(id);
    },
    // OAuth, as Go's MCPPool.SignIn does it against an authorization
    // server that approves at once: the steps, then connected.
    SignIn: async (id) => {
      this.#record('SignIn', [id]);
      await this.#signIn(id, false);
    },
    SignInStepByStep: async (id) => {
      this.#record('SignInStepByStep', [id]);
      await this.#signIn(id, true);
    },
    ContinueSignIn: async (id) => {
      this.#record('ContinueSignIn', [id]);
      this.#continueSignIn.get(id)?.();
    },
    SignOut: async (id) => {
      this.#record('SignOut', [id]);
      if (!this.servers.has(id)) throw `server "${id}" not found`;
      this.setStatus(id, {
        state: 'needs-sign-in',
        error: 'This server needs you to sign in.',
        signIn: { signedIn: false, issuer: '', host: '', account: '', scope: '', expiresAt: 0, renewable: false, client: '' },
      });
    },
    CancelSignIn: async (id) => {
      this.#record('CancelSignIn', [id]);
    },
    ChooseImportFile: async () => {
      this.#record('ChooseImportFile', []);
      return this.importFile;
    },
    ChooseFolder: async () => {
      this.#record('ChooseFolder', []);
      return this.folder;
    },
    PreviewImportData: async (name, content) => {
      this.#record('PreviewImportData', [name, content]);
      return this.#preview(name);
    },
    DetectConfigs: async () => {
      this.#record('DetectConfigs', []);
      if (this.detectDelayMs > 0) await new Promise((r) => this.#later(this.detectDelayMs, () => r(undefined)));
      return this.detected.map((d) => ({ broken: [], ...structuredClone(d), configured: d.servers.filter((id) => this.servers.has(id)) }));
    },
    PreviewImport: async (path) => {
      this.#record('PreviewImport', [path]);
      return this.#preview(path);
    },
    Import: async (token, ids) => {
      this.#record('Import', [token, ids]);
      const held = this.#previews.find((p) => p.token === token);
      if (!held) throw 'this import preview is no longer available (it was imported already, or too many files were previewed since): open the file again';
      // As Go: an entry with problems is shown, never imported.
      const good = held.items.filter((i) => i.problems.length === 0);
      ids ??= []; // null, as nil in Go: every good entry
      for (const id of ids) {
        if (good.some((i) => i.id === id)) continue;
        if (held.items.some((i) => i.id === id))
          throw `import from ${held.file}: server "${id}" has mistakes (see the preview) and cannot be imported; fix the file and open it again`;
        throw `import from ${held.file}: the file has no server "${id}"`;
      }
      const result: ImportResult = { added: [], replaced: [] };
      for (const item of good) {
        if (ids.length > 0 && !ids.includes(item.id)) continue;
        (this.servers.has(item.id) ? result.replaced : result.added).push(item.id);
        this.servers.set(item.id, {
          spec: spec({
            id: item.id,
            type: item.transport,
            command: item.command.text,
            args: item.args.map((a) => a.text),
            url: item.url.text,
            enabled: item.enabled,
          }),
          status: status({ id: item.id, state: 'connecting', transport: item.transport }),
        });
      }
      this.#previews = this.#previews.filter((p) => p.token !== token);
      this.#changed();
      for (const id of [...result.added, ...result.replaced]) this.#connect(id);
      return result;
    },
    RPCLog: async () => {
      this.#record('RPCLog', []);
      return structuredClone(this.rpc);
    },
    ClearRPCLog: async () => {
      this.#record('ClearRPCLog', []);
      this.rpc = [];
    },
    ConfigFile: async () => {
      this.#record('ConfigFile', []);
      return this.configPath;
    },
    ListTools: async (server) => {
      this.#record('ListTools', [server]);
      this.#known(server);
      // Go lists every tool with its trust reading (mcpdesk).
      return structuredClone(this.tools[server] ?? []).map((t) => ({ ...t, mcpdesk: t.mcpdesk ?? { hash: '', warnings: [] } }));
    },
    CallTool: async (req) => {
      this.#record('CallTool', [req]);
      this.#known(req.server);
      // A running call can be stopped with CancelCall, as in Go.
      return new Promise<ToolCallOutcome>((resolve, reject) => {
        this.#running.set(req.callId, reject);
        this.#callTool(req, this).then(
          (out) => {
            if (this.#running.delete(req.callId)) resolve(out);
          },
          (err) => {
            if (this.#running.delete(req.callId)) reject(err);
          },
        );
      });
    },
    // MCP Apps views: a page per showing of a ui:// resource; a view's
    // calls go to its own server, as in Go (backend/mcppool/views.go).
    OpenView: async (server, uri) => {
      this.#record('OpenView', [server, uri]);
      this.#known(server);
      if (!uri.startsWith('ui://')) throw `"${uri}" is not a ui:// resource`;
      const token = `fake-view-${++this.#views}`;
      this.#viewServers.set(token, server);
      return {
        token, server, uri, kind: 'mcp-app', url: '', path: `/mcpdesk-view/${token}`, csp: "default-src 'none'", allow: '',
        domains: { connect: [], resource: [], frame: [], baseUri: [] }, refused: [], prefersBorder: true, hash: 'f'.repeat(64), previousHash: '',
      };
    },
    OpenEmbeddedView: async (server, res) => {
      this.#record('OpenEmbeddedView', [server, res]);
      this.#known(server);
      if (!res.uri.startsWith('ui://')) throw `"${res.uri}" is not a ui:// resource`;
      const token = `fake-view-${++this.#views}`;
      this.#viewServers.set(token, server);
      const url = res.mimeType === 'text/uri-list' ? res.text.trim() : '';
      return {
        token, server, uri: res.uri, kind: url ? 'mcp-ui-url' : res.mimeType.startsWith('application/vnd.mcp-ui.remote-dom') ? 'mcp-ui-remote' : 'mcp-ui', url, path: `/mcpdesk-view/${token}`, csp: "default-src 'none'", allow: '',
        domains: { connect: [], resource: [], frame: [], baseUri: [] }, refused: [], prefersBorder: true, hash: 'f'.repeat(64), previousHash: '',
      };
    },
    SetViewStorage: async (token, items) => {
      this.#record('SetViewStorage', [token, items]);
      if (!this.#viewServers.has(token)) throw 'this view is no longer shown';
    },
    // The save dialog is the user's: the fake answers as if cancelled.
    SaveViewFile: async (token, file) => {
      this.#record('SaveViewFile', [token, file]);
      if (!this.#viewServers.has(token)) throw 'this view is no longer shown';
      return '';
    },
    CloseView: async (token) => {
      this.#record('CloseView', [token]);
      this.#viewServers.delete(token);
    },
    CallToolFromView: async (req) => {
      this.#record('CallToolFromView', [req]);
      const server = this.#viewServers.get(req.token);
      if (!server) throw 'this view is no longer shown';
      // As Go without stored policies: a call the user did not approve is sent back to ask.
      if (!req.userApproved) {
        const params = { server, tool: req.tool };
        throw JSON.stringify({ code: 'view.needsApproval', params, message: `the view's call of "${req.tool}" on server "${server}" needs your approval` });
      }
      return this.#callTool({ callId: req.callId, server, tool: req.tool, arguments: req.arguments }, this);
    },
    LogViewMessage: async (token, toView, payload) => {
      this.#record('LogViewMessage', [token, toView, payload]);
    },
    LogViewBlocked: async (token, what, why) => {
      this.#record('LogViewBlocked', [token, what, why]);
    },
    CancelCall: async (callId) => {
      this.#record('CancelCall', [callId]);
      const reject = this.#running.get(callId);
      if (reject) {
        this.#running.delete(callId);
        reject('call cancelled');
      }
    },
    ListResources: async (server, cursor) => {
      this.#record('ListResources', [server, cursor]);
      this.#known(server);
      const [page, next] = this.#page(this.resources[server] ?? [], cursor);
      return { resources: structuredClone(page), ...(next ? { nextCursor: next } : {}) };
    },
    ListResourceTemplates: async (server, cursor) => {
      this.#record('ListResourceTemplates', [server, cursor]);
      this.#known(server);
      const [page, next] = this.#page(this.templates[server] ?? [], cursor);
      return { resourceTemplates: structuredClone(page), ...(next ? { nextCursor: next } : {}) };
    },
    ReadResource: async (server, uri) => {
      this.#record('ReadResource', [server, uri]);
      this.#known(server);
      return this.#readResult(server, uri);
    },
    SubscribeResource: async (server, uri) => {
      this.#record('SubscribeResource', [server, uri]);
      this.#known(server);
      if (this.subscribeError) throw new Error(this.subscribeError);
      const list = (this.subscriptions[server] ??= []);
      if (!list.includes(uri)) list.push(uri);
    },
    UnsubscribeResource: async (server, uri) => {
      this.#record('UnsubscribeResource', [server, uri]);
      this.#known(server);
      this.subscriptions[server] = (this.subscriptions[server] ?? []).filter((u) => u !== uri);
    },
    ResourceSubscriptions: async (server) => {
      this.#record('ResourceSubscriptions', [server]);
      this.#known(server);
      return [...(this.subscriptions[server] ?? [])];
    },
    ListPrompts: async (server) => {
      this.#record('ListPrompts', [server]);
      this.#known(server);
      return structuredClone(this.prompts[server] ?? []);
    },
    Complete: async (server, ref, arg, value, filled) => {
      this.#record('Complete', [server, ref, arg, value, filled]);
      this.#known(server);
      const all = this.completions[`${ref.kind}:${ref.name}:${arg}`] ?? [];
      return { values: all.filter((v) => v.toLowerCase().startsWith(value.toLowerCase())) };
    },
    ToolSelection: async (server) => {
      this.#record('ToolSelection', [server]);
      this.#known(server);
      return this.#selection(server);
    },
    SetToolEnabled: async (server, tool, enabled) => {
      this.#record('SetToolEnabled', [server, tool, enabled]);
      this.#known(server);
      const off = new Set(this.disabledTools[server] ?? []);
      if (enabled) off.delete(tool);
      else off.add(tool);
      this.disabledTools[server] = [...off];
      return this.#selection(server);
    },
    SetLogLevel: async (server, level) => {
      this.#record('SetLogLevel', [server, level]);
      this.#known(server);
    },
    ListSavedRequests: async (server) => {
      this.#record('ListSavedRequests', [server]);
      return structuredClone(this.saved.filter((r) => r.server === server).sort((a, b) => a.name.localeCompare(b.name)));
    },
    SaveRequest: async (r) => {
      this.#record('SaveRequest', [r]);
      const name = r.name.trim();
      if (!name) throw 'give the request a name';
      if (this.saved.some((x) => x.server === r.server && x.name === name && x.id !== r.id))
        throw `save request: "${name}": a saved request with this name already exists for this server`;
      // As store.MaxSavedArguments (256 KB of JSON).
      const argBytes = new TextEncoder().encode(JSON.stringify(r.arguments ?? {})).length;
      if (argBytes > 256 << 10) throw `the arguments are too large to save: ${argBytes >> 10} KB as JSON, at most 256 KB`;
      const stored = { ...structuredClone(r), name, id: r.id || ++this.#savedSeq };
      this.saved = [...this.saved.filter((x) => x.id !== stored.id), stored];
      return structuredClone(stored);
    },
    DeleteSavedRequest: async (id) => {
      this.#record('DeleteSavedRequest', [id]);
      this.saved = this.saved.filter((x) => x.id !== id);
    },
    AnswerElicitation: async (id, action, content) => {
      this.#record('AnswerElicitation', [id, action, content]);
      if (action !== 'accept' && action !== 'decline' && action !== 'cancel') throw `answer must be accept, decline or cancel, not "${action}"`;
      if (!this.pendingElicitations.delete(id)) throw 'this question is no longer waiting for an answer';
      this.emit('mcp:elicitation-done', { id, action });
    },
    GetPrompt: async (server, name, args) => {
      this.#record('GetPrompt', [server, name, args]);
      this.#known(server);
      return this.#promptResult(server, name, args ?? {});
    },
    Defaults: async () => {
      this.#record('Defaults', []);
      return { ...this.poolDefaults };
    },
    RevealSecret: async (server, kind, name) => {
      this.#record('RevealSecret', [server, kind, name]);
      const s = this.servers.get(server);
      if (!s) throw `no server with id "${server}"`;
      const pair = (kind === 'env' ? s.spec.env : s.spec.headers).find((p) => p.key === name);
      if (!pair) throw `server "${server}" has no ${kind} "${name}"`;
      return pair.value;
    },
    MoveSecretsToKeychain: async (ids) => {
      this.#record('MoveSecretsToKeychain', [ids]);
      ids ??= []; // null, as nil in Go: every server
      for (const id of ids) if (!this.servers.has(id)) throw `no server with id "${id}"`;
      let moved = 0;
      for (const [id, s] of this.servers) {
        if (ids.length > 0 && !ids.includes(id)) continue;
        for (const [kind, pairs] of [['env', s.spec.env], ['header', s.spec.headers]] as const) {
          for (const p of pairs) {
            if (!p.secret && looksSecret(kind, p.key, p.value)) {
              p.secret = true;
              moved++;
            }
          }
        }
      }
      if (moved > 0) this.#changed();
      return moved;
    },
    SaveDefaults: async (d) => {
      this.#record('SaveDefaults', [d]);
      const timeoutMs = d.timeoutMs > 0 ? d.timeoutMs : 60_000;
      if (timeoutMs < 1000 || timeoutMs > 86_400_000)
        throw `save server defaults: the default server timeout must be from 1 s to 24 h (1000 to 86400000 ms), not ${timeoutMs} ms`;
      this.poolDefaults = { timeoutMs };
      return { ...this.poolDefaults };
    },
  };

  // #selection estimates like Go: JSON length of enabled definitions / 4.
  #selection(server: string): ToolSelection {
    const tools = this.tools[server] ?? [];
    const disabled = this.disabledTools[server] ?? [];
    // Tools only for views are never offered (backend/apps.UIOf).
    const forModel = tools.filter((t) => uiOf(t).visibility.includes('model'));
    const on = forModel.filter((t) => !disabled.includes(t.name));
    const chars = on.reduce((n, t) => n + JSON.stringify({ name: t.name, description: t.description, parameters: t.inputSchema }).length, 0);
    return {
      disabled: [...disabled], enabled: on.length, total: tools.length, viewOnly: tools.length - forModel.length,
      estimatedTokens: Math.ceil(chars / 4), warnAbove: 8000,
    };
  }

  // #known rejects calls for servers that are not configured, as Go does.
  #known(server: string): void {
    if (!this.servers.has(server)) throw `no server with id "${server}"`;
  }

  // #page cuts items into pages; the cursor is the index of the page's first item.
  #page<T>(items: T[], cursor: string): [T[], string] {
    const start = cursor ? Number(cursor) : 0;
    const end = start + this.pageSize;
    return [items.slice(start, end), end < items.length ? String(end) : ''];
  }

  /** What Notify showed, in order. */
  readonly notifications: Notification[] = [];

  readonly settings: SettingsBackend = {
    Notify: async (n: Notification) => {
      this.#record('Notify', [n]);
      if ((this.prefs.notifyOff ?? []).includes(n.kind)) return false;
      this.notifications.push(structuredClone(n));
      return true;
    },
    Info: async () => {
      this.#record('Info', []);
      return { ...this.info };
    },
    KeychainStatus: async () => {
      this.#record('KeychainStatus', []);
      return { ...this.keychain };
    },
    RecheckKeychain: async () => {
      this.#record('RecheckKeychain', []);
      if (this.#keychainRecheck) this.keychain = fakeKeychain(this.#keychainRecheck);
      this.keychain = { ...this.keychain, checkedAt: new Date().toISOString() };
      return { ...this.keychain };
    },
    Prefs: async () => {
      this.#record('Prefs', []);
      return { ...this.prefs };
    },
    SavePrefs: async (p) => {
      this.#record('SavePrefs', [p]);
      this.prefs = { ...p };
      return { ...p };
    },
    UIState: async (key) => {
      this.#record('UIState', [key]);
      return this.uiStore.get(key) ?? '';
    },
    SaveUIState: async (key, value) => {
      this.#record('SaveUIState', [key, value]);
      this.uiStore.set(key, value);
    },
    OpenDataFolder: async () => {
      this.#record('OpenDataFolder', []);
      if (this.openFolderError) throw this.openFolderError;
    },
    Desktop: async () => {
      this.#record('Desktop', []);
      return { ...this.desktop };
    },
    WindowReady: async () => {
      this.#record('WindowReady', []);
      // As Go does: what the launch asked for, sent at once.
      if (this.launchQuickChat) this.emit('window:quick-chat', { tray: true });
    },
    RemoteImageGrants: () => this.remote.list(),
    AllowRemoteImages: (scope, host) => this.remote.allow(scope, host),
    RevokeRemoteImages: (scope, host) => this.remote.revoke(scope, host),
    FetchRemoteImage: (scope, url) => this.remote.fetch(scope, url),
    OpenLink: async (url) => {
      this.#record('OpenLink', [url]);
      checkLink(url);
      this.opened.push(url);
    },
  };

  /** The app was launched with --quick-chat: WindowReady sends it. */
  launchQuickChat = false;
  /** What Settings → Desktop reports about the tray and the global shortcut. */
  desktop: DesktopStatus = { tray: true, hotkey: 'Ctrl+Alt+Space', hotkeyError: '', quickChatCommand: 'mcpdesk --quick-chat', notificationClicks: true };
}

/**
 * demoBackend returns a FakeBackend with a few servers and live JSON-RPC
 * traffic, for working on the UI in a plain browser.
 */
export function demoBackend(): FakeBackend {
  const b = new FakeBackend({
    connectDelayMs: 900,
    usage: demoUsage(),
    providers: {
      providers: [
        { id: 'openai-demo', name: 'OpenAI', preset: 'openai', keyInKeychain: true },
        { id: 'openrouter-demo', name: 'OpenRouter', preset: 'openrouter', keyEnv: 'OPENROUTER_API_KEY', headers: { 'X-Title': 'MCP Desk' } },
        { id: 'deepseek-demo', name: 'DeepSeek', preset: 'deepseek' },
      ],
      env: { OPENROUTER_API_KEY: 'demo' },
      ollama: { running: true, version: '0.12.3', url: 'http://localhost:11434' },
      defaultModel: { provider: 'openai-demo', model: 'gpt-4o' },
      fallbacks: [{ provider: 'openrouter-demo', model: 'anthropic/claude-sonnet-4' }],
    },
    importFile: '/home/dev/.config/Claude/claude_desktop_config.json',
    detected: [
      { client: 'claude', path: '/home/dev/.config/Claude/claude_desktop_config.json', servers: ['filesystem', 'memory', 'everything'], error: '' },
      { client: 'cursor', path: '/home/dev/.cursor/mcp.json', servers: [], error: '' },
      {
        client: 'vscode',
        path: '/home/dev/.config/Code/User/settings.json',
        servers: [],
        error: '/home/dev/.config/Code/User/settings.json:41:7: server "github": field "url": set either "command" (to start a local program) or "url" (to connect to a remote server), not both',
      },
    ],
    detectDelayMs: 300,
    preview: {
      file: '',
      format: 'claude',
      items: [
        previewItem({
          id: 'filesystem',
          command: shown('npx'),
          args: [shown('-y'), shown('@modelcontextprotocol/server-filesystem'), shown('${HOME}/projects', { reads: ['HOME'] })],
          reads: ['HOME'],
        }),
        previewItem({
          id: 'memory',
          command: shown('npx'),
          args: [shown('-y'), shown('@modelcontextprotocol/server-memory')],
          env: [
            { name: 'MEMORY_FILE_PATH', value: shown('/home/dev/memory.json') },
            { name: 'NODE_OPTIONS', value: shown('--max-old-space-size=512') },
          ],
          warnings: [{ code: 'nodeOptions', params: { name: 'NODE_OPTIONS' } }],
        }),
        previewItem({
          id: 'everything',
          command: shown('npx'),
          args: [shown('-y'), shown('@modelcontextprotocol/server-everything')],
          env: [{ name: 'API_KEY', value: shown('sk-…9f2c', { secret: true, length: 51 }) }],
          changes: [{ field: 'env', name: 'API_KEY', old: [], new: [shown('sk-…9f2c', { secret: true, length: 51 })] }],
        }),
        previewItem({
          id: 'github',
          transport: 'http',
          url: shown('https://api.githubcopilot.com/mcp/'),
          host: 'api.githubcopilot.com',
          headers: [{ name: 'Authorization', value: shown('Bearer ${GITHUB_TOKEN}', { reads: ['GITHUB_TOKEN'] }) }],
          reads: ['GITHUB_TOKEN'],
        }),
      ],
    },
    servers: [
      {
        spec: spec({ id: 'everything', command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'], env: [{ key: 'DEBUG', value: '1', keep: false }] }),
        status: status({ id: 'everything', serverName: 'mcp-servers/everything', serverVersion: '2026.8.31', tools: 12, resources: 7, prompts: 4 }),
      },
      {
        spec: spec({ id: 'github', type: 'http', url: 'https://api.githubcopilot.com/mcp/', headers: [{ key: 'Authorization', value: 'Bearer x', keep: false }] }),
        status: status({ id: 'github', transport: 'http', protocolVersion: '2026-07-28', serverName: 'github-mcp-server', serverVersion: '0.9.1', tools: 41, resources: 0, prompts: 2 }),
      },
      {
        spec: spec({ id: 'sqlite', command: 'uvx', args: ['mcp-server-sqlite', '--db-path', '~/data/app.db'] }),
        status: status({
          id: 'sqlite',
          state: 'restarting',
          error: 'server exited with status 1 during initialize',
          stderr: 'Traceback (most recent call last):\n  File "/home/dev/.local/bin/mcp-server-sqlite", line 8, in <module>\n    sys.exit(main())\nsqlite3.OperationalError: unable to open database file',
          attempt: 3,
          nextRetryMs: 8000,
        }),
      },
      { spec: spec({ id: 'weather', type: 'sse', url: 'http://localhost:8931/sse', enabled: false }), status: status({ id: 'weather', state: 'disabled', transport: 'sse', protocolVersion: '', serverName: '', serverVersion: '' }) },
    ],
  });
  const methods = ['tools/list', 'tools/call', 'resources/list', 'prompts/list', 'ping'];
  let n = 0;
  const tick = () => {
    const method = methods[n % methods.length];
    const server = n % 3 === 0 ? 'github' : 'everything';
    const id = String(1000 + n);
    const now = Date.now();
    b.log(
      { server, time: now, direction: 'out', kind: 'request', method, id, payload: JSON.stringify({ jsonrpc: '2.0', id: Number(id), method, params: method === 'tools/call' ? { name: 'echo', arguments: { message: 'hello ' + n } } : {} }) },
      { server, time: now + 12, direction: 'in', kind: n % 11 === 5 ? 'error' : 'response', method, id, latencyMs: 4 + (n * 7) % 90, payload: JSON.stringify(n % 11 === 5 ? { jsonrpc: '2.0', id: Number(id), error: { code: -32602, message: 'Invalid params' } } : { jsonrpc: '2.0', id: Number(id), result: { tools: [{ name: 'echo', description: 'Echoes back the input' }] } }) },
    );
    if (n % 4 === 0) b.log({ server: 'everything', time: now + 20, direction: 'in', kind: 'notification', method: 'notifications/message', payload: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'tick ' + n } }) });
    n++;
  };
  b.chat.reply = demoChatReply;
  for (let i = 0; i < 40; i++) tick();
  setInterval(tick, 2500);
  return b;
}

/** fakeKeychain fills in a KeychainStatus as Go's self-test reports it. */
function fakeKeychain(k: Partial<KeychainStatus> | undefined): KeychainStatus {
  const state = k?.state ?? (k?.available === false ? 'unavailable' : 'ok');
  return {
    state,
    available: state !== 'unavailable',
    reason: k?.reason ?? '',
    storedKeys: k?.storedKeys ?? 0,
    checkedAt: k?.checkedAt ?? new Date(Date.UTC(2026, 0, 2, 9)).toISOString(),
  };
}
