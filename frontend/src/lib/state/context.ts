import { getContext, setContext } from 'svelte';
import { ChatStore } from './chat.svelte';
import { Dialogs } from './dialogs.svelte';
import { Elicitations } from './elicitations.svelte';
import { InspectorServer } from './inspectorServer.svelte';
import { Layout } from './layout.svelte';
import { PrefsStore } from './prefs.svelte';
import { PromptsStore } from './prompts.svelte';
import { ProvidersStore } from './providers.svelte';
import { ResourcesStore } from './resources.svelte';
import { RPCLogStore } from './rpclog.svelte';
import { ServersStore } from './servers.svelte';
import { Toasts } from './toasts.svelte';
import { ToolsStore } from './tools.svelte';
import { ToolSelections } from './toolSelection.svelte';
import { UsageStore } from './usage.svelte';
import { AuditStore } from './audit.svelte';
import { Shortcuts } from './shortcuts.svelte';
import { Welcome } from './welcome.svelte';
import { QuickChat } from './quickChat.svelte';
import { Notifications } from './notifications.svelte';
import { Compare } from './compare.svelte';
import { TrustStore } from './trust.svelte';
import { RemoteImages } from './remoteImages.svelte';
import { SignIns } from './signIn.svelte';

/** Stores are the app's shared state, created once by App and passed by context. */
export interface Stores {
  servers: ServersStore;
  rpclog: RPCLogStore;
  prefs: PrefsStore;
  layout: Layout;
  toasts: Toasts;
  dialogs: Dialogs;
  tools: ToolsStore;
  /** The server the inspector screens (Tools, Resources, Prompts) show: one choice for all. */
  inspectorServer: InspectorServer;
  resources: ResourcesStore;
  prompts: PromptsStore;
  /** Which tools models are offered, per server, and their token cost. */
  toolSelections: ToolSelections;
  /** Servers' questions waiting for the user (elicitation). */
  elicitations: Elicitations;
  /** Conversations, the open one's live transcript, and tool approvals and sampling requests waiting for the user. */
  chat: ChatStore;
  /** LLM providers, their models, the default and fallback models, and the model picker's groups. */
  providers: ProvidersStore;
  /** Token usage and estimated cost, the pricing table, CSV export (the Usage screen). */
  usage: UsageStore;
  /** The tool-call audit log: filters, the page on show, open rows. */
  audit: AuditStore;
  /** The keyboard shortcuts' help overlay, and the screens that carry out shortcuts (SPEC F5). */
  shortcuts: Shortcuts;
  /** The first-run welcome and the other clients' MCP configs it found (SPEC F6). */
  welcome: Welcome;
  /** The window's quick-chat mode (tray, global shortcut, --quick-chat). */
  quick: QuickChat;
  /** Desktop notifications while the window is away, and their clicks (issue 16). */
  notifications: Notifications;
  /** Models side by side: one prompt, two or three models, a column each (issue 16). */
  compare: Compare;
  /** What changed since standing approvals were given, and the approvals it suspended (SPEC G1). */
  trust: TrustStore;
  /** Which hosts may show images where, and the images fetched through Go (issue 11). */
  remoteImages: RemoteImages;
  /** OAuth sign-ins to remote servers: waiting, failed, and each one's steps (issue 14). */
  signIns: SignIns;
}

export const STORES_KEY = Symbol('mcpdesk.stores');

export function createStores(): Stores {
  const servers = new ServersStore();
  const chat = new ChatStore();
  const layout = new Layout();
  return {
    servers,
    rpclog: new RPCLogStore(),
    prefs: new PrefsStore(),
    layout,
    toasts: new Toasts(),
    dialogs: new Dialogs(),
    tools: new ToolsStore(),
    inspectorServer: new InspectorServer(servers),
    resources: new ResourcesStore(),
    prompts: new PromptsStore(),
    elicitations: new Elicitations(),
    chat,
    toolSelections: new ToolSelections(),
    providers: new ProvidersStore(),
    usage: new UsageStore(),
    audit: new AuditStore(),
    shortcuts: new Shortcuts(),
    welcome: new Welcome(),
    quick: new QuickChat(chat),
    notifications: new Notifications(chat, layout),
    compare: new Compare(),
    trust: new TrustStore(),
    remoteImages: new RemoteImages(),
    signIns: new SignIns(),
  };
}

export function provideStores(s: Stores): Stores {
  return setContext(STORES_KEY, s);
}

/** stores returns the shared state; call it during component initialisation. */
export function stores(): Stores {
  const s = getContext<Stores | undefined>(STORES_KEY);
  if (!s) throw new Error('stores() used outside <App> (no stores in context)');
  return s;
}
