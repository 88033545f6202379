// The in-memory ChatService of FakeBackend: conversations and messages in
// maps, and helpers that script a turn the way Go's agent loop emits it
// (backend/events/chat.go): the user message, a model step, the assistant
// message streamed as deltas, tool calls with approvals, tool results,
// usage, errors, and exactly one chat:done per turn.
//
//   const { turnId } = await fake.chat.Send({ conversationId: 1, text: 'hi', attachments: [] });
//   const t = fake.chat.turn();            // the running turn
//   t.assistant(); t.delta('Hello'); t.finish(); t.done();

import type { ChatServiceBackend } from '../../lib/api/backend';
import type {
  Attachment,
  ToolCost,
  ApprovalDecision,
  OfferedTool,
  ChatApprovalPayload,
  ApprovalPolicies,
  ChatSamplingPayload,
  ChatSettings,
  ChatStepPayload,
  Conversation,
  ConversationSettings,
  ConversationSummary,
  DoneReason,
  Message,
  SearchHit,
  TokenUsage,
  ToolCall,
  SendResult,
} from '../../lib/api/chatTypes';
import { SNIPPET_END, SNIPPET_START } from '../../lib/api/chatTypes';
import type { EventMap, EventName } from '../../lib/api/events';
import type { ToolAnnotations } from '../../lib/api/types';
import type { TrustChange, TrustReport, TrustWarning } from '../../lib/api/trustTypes';

/** What FakeChat needs from FakeBackend: call recording (and scripted failures) and events. */
export interface FakeChatHost {
  record(method: string, args: unknown[]): void;
  emit<K extends EventName>(name: K, payload: EventMap[K]): void;
}

export interface FakeChatOptions {
  /** Conversations at start, with their messages. */
  conversations?: Array<{ conversation: Partial<Conversation> & { id: number }; messages?: Array<Partial<Message>> }>;
  /** What AvailableTools offers. */
  tools?: OfferedTool[];
  /** The model a conversation gets when created without one. */
  defaultModel?: { provider: string; model: string };
  /** Plays every turn that Send, Regenerate and EditAndResend start; without it tests drive turns with turn(). */
  reply?: (turn: FakeTurn, text: string) => void | Promise<void>;
  policies?: Omit<ApprovalPolicies, 'suspended'> & Partial<Pick<ApprovalPolicies, 'suspended'>>;
  /** What Trust reports (SPEC G1); default: nothing changed. */
  trust?: TrustReport;
}

const iso = (ms = Date.now()) => new Date(ms).toISOString();

/** settings builds full ConversationSettings from a few fields. */
export function chatSettingsOf(p: Partial<ConversationSettings> = {}): ConversationSettings {
  return { provider: '', model: '', systemPrompt: '', temperature: null, servers: null, tools: null, maxSteps: null, ...p };
}

/** message builds a full Message from a few fields. */
export function chatMessage(p: Partial<Message> & { id: number }): Message {
  return {
    conversationId: 1,
    seq: p.id,
    role: 'user',
    content: '',
    reasoning: '',
    toolCalls: [],
    toolCallId: '',
    attachments: [],
    hidden: false,
    status: 'complete',
    error: '',
    model: '',
    usage: null,
    createdAt: iso(Date.UTC(2026, 0, 2, 3, 4, 5)),
    updatedAt: iso(Date.UTC(2026, 0, 2, 3, 4, 5)),
    versionGroup: 0,
    version: 1,
    selectedVersion: 0,
    versions: 0,
    ...p,
  };
}

interface Stored {
  conversation: Conversation;
  /** The messages shown: the path of the selected answer versions. */
  messages: Message[];
  /** Answer versions by user message id: what followed it in each version (Go keeps them in one table). */
  versions?: Map<number, Message[][]>;
  /** The highest seq handed out, versions not shown included. */
  seqHigh?: number;
}

/** FakeTurn scripts one running turn of a conversation, emitting Go's events. */
export class FakeTurn {
  /** The assistant message being written (the last one assistant() started). */
  messageId = 0;
  step = 0;

  constructor(
    readonly chat: FakeChat,
    readonly conversationId: number,
    readonly turnId: string,
  ) {}

  #base() {
    return { conversationId: this.conversationId, turnId: this.turnId };
  }

  #message(id = this.messageId): Message {
    const m = this.chat.messages(this.conversationId).find((x) => x.id === id);
    if (!m) throw new Error(`fake chat: no message ${id} in conversation ${this.conversationId}`);
    return m;
  }

  /** emitStep emits chat:step (phase model by default). */
  emitStep(p: Partial<ChatStepPayload> = {}): void {
    if (!p.phase || p.phase === 'model') this.step++;
    this.chat.host.emit('chat:step', { ...this.#base(), step: this.step, maxSteps: 10, phase: 'model', model: this.chat.modelOf(this.conversationId), ...p });
  }

  /** assistant starts a model step: chat:step, then the new (streaming) assistant message. */
  assistant(p: Partial<Message> = {}): number {
    this.emitStep();
    const m = this.chat.append(this.conversationId, { role: 'assistant', status: 'streaming', model: this.chat.modelOf(this.conversationId), ...p });
    this.messageId = m.id;
    this.chat.host.emit('chat:message', { ...this.#base(), message: structuredClone(m), seq: this.chat.eventSeq() });
    return m.id;
  }

  /** delta streams text (and/or reasoning) of the assistant message. */
  delta(text: string, reasoning = ''): void {
    if (!this.messageId) this.assistant();
    const m = this.#message();
    m.content += text;
    m.reasoning += reasoning;
    this.chat.host.emit('chat:delta', {
      ...this.#base(),
      messageId: m.id,
      ...(text ? { text } : {}),
      ...(reasoning ? { reasoning } : {}),
    });
  }

  /** finish ends the model step: chat:usage (when given), then the whole message. */
  finish(p: { usage?: TokenUsage; status?: Message['status']; error?: string } = {}): void {
    const m = this.#message();
    m.status = p.status ?? 'complete';
    m.error = p.error ?? m.error;
    if (p.usage) {
      const [provider, model] = this.chat.modelOf(this.conversationId).split('/');
      m.usage = { ...p.usage };
      this.chat.host.emit('chat:usage', { ...this.#base(), messageId: m.id, provider, model, usage: { ...p.usage } });
    }
    m.updatedAt = iso();
    this.chat.host.emit('chat:message', { ...this.#base(), message: structuredClone(m), seq: this.chat.eventSeq() });
  }

  /** reply is assistant + one delta per chunk + finish. */
  reply(chunks: string | string[], usage?: TokenUsage): number {
    const id = this.assistant();
    for (const c of typeof chunks === 'string' ? [chunks] : chunks) this.delta(c);
    this.finish({ usage });
    return id;
  }

  /** toolCall adds a call to the assistant message (status pending by default). */
  toolCall(c: Partial<ToolCall> & { id: string; server: string; tool: string; args?: Record<string, unknown> }): ToolCall {
    const m = this.#message();
    const { args, ...rest } = c;
    const call: ToolCall = {
      name: `${c.server}__${c.tool}`,
      arguments: JSON.stringify(args ?? {}),
      status: 'pending',
      ...rest,
    };
    m.toolCalls = [...m.toolCalls.filter((x) => x.id !== call.id), call];
    this.updateCall(call.id, {});
    return call;
  }

  /** updateCall changes a call and emits chat:tool-call (with progress when given). */
  updateCall(callId: string, changes: Partial<ToolCall>, progress?: { progress: number; total?: number; message?: string }): void {
    const { m, call } = this.chat.findCall(this.conversationId, callId);
    Object.assign(call, changes);
    this.chat.host.emit('chat:tool-call', {
      ...this.#base(),
      messageId: m.id,
      call: structuredClone(call),
      seq: this.chat.eventSeq(),
      ...(progress ? { progress: { callId, ...progress } } : {}),
    });
  }

  /** askApproval sets a call pending and emits chat:approval; returns the approval id. */
  askApproval(
    callId: string,
    p: {
      title?: string;
      description?: string;
      annotations?: ToolAnnotations;
      inputSchema?: unknown;
      change?: TrustChange;
      warnings?: TrustWarning[];
    } = {},
  ): string {
    const { m, call } = this.chat.findCall(this.conversationId, callId);
    this.updateCall(callId, { status: 'pending' });
    const id = `appr-${callId}`;
    const a: ChatApprovalPayload = {
      id,
      ...this.#base(),
      messageId: m.id,
      callId,
      server: call.server,
      tool: call.tool,
      annotations: p.annotations ?? {},
      arguments: JSON.parse(call.arguments || '{}'),
      inputSchema: p.inputSchema ?? { type: 'object' },
      definitionHash: '0'.repeat(64),
      ...(p.change ? { change: p.change } : {}),
      ...(p.warnings ? { warnings: p.warnings } : {}),
      ...(p.title ? { title: p.title } : {}),
      ...(p.description ? { description: p.description } : {}),
    };
    this.chat.approvals.set(id, a);
    this.chat.host.emit('chat:approval', structuredClone(a));
    return id;
  }

  /** toolResult ends a call with a CallToolResult: chat:tool-call, then the tool message. */
  toolResult(callId: string, result: unknown, durationMs = 12): void {
    const isError = !!(result as { isError?: boolean }).isError;
    this.updateCall(callId, { status: isError ? 'error' : 'done', result, durationMs });
    const tool = this.chat.append(this.conversationId, {
      role: 'tool',
      toolCallId: callId,
      content: JSON.stringify(result),
    });
    this.chat.host.emit('chat:message', { ...this.#base(), message: structuredClone(tool), seq: this.chat.eventSeq() });
  }

  /** fail ends a call with an error (the call failed or timed out). */
  fail(callId: string, error: string, durationMs = 30000): void {
    this.updateCall(callId, { status: 'error', error, durationMs });
  }

  /** error emits chat:error. */
  error(kind: string, message: string, partial = false): void {
    this.chat.host.emit('chat:error', {
      ...this.#base(),
      ...(this.messageId ? { messageId: this.messageId } : {}),
      kind,
      message,
      ...(partial ? { partial } : {}),
    });
  }

  /** sample emits chat:sampling for this conversation; returns its id. */
  sample(server: string, request: Record<string, unknown>): string {
    const id = `samp-${this.chat.nextId()}`;
    const s: ChatSamplingPayload = { id, conversationId: this.conversationId, server, request, model: this.chat.modelOf(this.conversationId) };
    this.chat.sampling.set(id, s);
    this.chat.host.emit('chat:sampling', structuredClone(s));
    return id;
  }

  /** done ends the turn: open approvals expire, then chat:done. */
  done(reason: DoneReason = 'stop'): void {
    this.chat.endTurn(this.conversationId, this.turnId, reason, this.step);
  }
}

/** FakeChat is FakeBackend's ChatService. */
export class FakeChat implements ChatServiceBackend {
  readonly conversations = new Map<number, Stored>();
  /** Open approval questions, by id. */
  readonly approvals = new Map<string, ChatApprovalPayload>();
  /** Open sampling requests, by id. */
  readonly sampling = new Map<string, ChatSamplingPayload>();
  /** Running turns by conversation. */
  readonly turns = new Map<number, FakeTurn>();
  tools: OfferedTool[];
  policies: ApprovalPolicies;
  trust: TrustReport;
  settings: ChatSettings = { maxSteps: 10, toolTimeoutMs: 60000, approvalDefault: 'ask', toolSearch: 'auto' };
  defaultModel: { provider: string; model: string };
  reply: FakeChatOptions['reply'];
  /** What SaveExport returns; null = a path in the documents folder, "" = the user cancelled. */
  exportPath: string | null = null;
  #seq = 0;

  constructor(
    readonly host: FakeChatHost,
    o: FakeChatOptions = {},
  ) {
    this.tools = structuredClone(o.tools ?? []);
    this.policies = { suspended: [], ...structuredClone(o.policies ?? { alwaysAllow: [], autoServers: [], never: [] }) };
    this.trust = structuredClone(o.trust ?? { servers: [] });
    this.defaultModel = o.defaultModel ?? { provider: 'openai', model: 'gpt-4o' };
    this.reply = o.reply;
    const given = (o.conversations ?? []).flatMap((c) => [c.conversation.id, ...(c.messages ?? []).map((m) => m.id ?? 0)]);
    this.#seq = Math.max(0, ...given);
    for (const c of o.conversations ?? []) {
      const conversation: Conversation = {
        title: '',
        pinned: false,
        createdAt: iso(Date.UTC(2026, 0, 2)),
        updatedAt: iso(Date.UTC(2026, 0, 2)),
        ...c.conversation,
        settings: chatSettingsOf({ ...this.defaultModel, ...c.conversation.settings }),
      };
      const messages = (c.messages ?? []).map((m, i) => chatMessage({ id: 0, seq: i + 1, ...m, conversationId: c.conversation.id }));
      for (const m of messages) if (!m.id) m.id = this.nextId();
      this.conversations.set(c.conversation.id, { conversation, messages });
    }
  }

  nextId(): number {
    return ++this.#seq;
  }

  #eventSeq = 0;
  /** eventSeq numbers chat:message and chat:tool-call events, as Go's engine does. */
  eventSeq(): number {
    return ++this.#eventSeq;
  }

  /** messages returns the stored messages of a conversation (live objects). */
  messages(conversationId: number): Message[] {
    return this.#get(conversationId).messages;
  }

  /** turn returns the running turn of a conversation (default: the only or last one running). */
  turn(conversationId?: number): FakeTurn {
    const t = conversationId !== undefined ? this.turns.get(conversationId) : [...this.turns.values()].at(-1);
    if (!t) throw new Error('fake chat: no turn is running');
    return t;
  }

  modelOf(conversationId: number): string {
    const s = this.#get(conversationId).conversation.settings;
    return `${s.provider}/${s.model}`;
  }

  #get(id: number): Stored {
    const s = this.conversations.get(id);
    if (!s) throw `conversation ${id}: conversation not found`;
    return s;
  }

  /** append stores a new message at the end of a conversation. */
  append(conversationId: number, p: Partial<Message>): Message {
    const s = this.#get(conversationId);
    const tip = [...s.messages].reverse().find((x) => x.role === 'user');
    s.seqHigh = Math.max(s.seqHigh ?? 0, s.messages.at(-1)?.seq ?? 0) + 1;
    const m = chatMessage({
      ...p,
      id: this.nextId(),
      conversationId,
      seq: s.seqHigh,
      createdAt: iso(),
      updatedAt: iso(),
      versionGroup: tip?.id ?? 0,
      version: tip?.selectedVersion || 1,
      ...(p.role === 'user' ? { selectedVersion: 1, versions: 1 } : {}),
    });
    s.messages.push(m);
    s.conversation.updatedAt = iso();
    return m;
  }

  findCall(conversationId: number, callId: string): { m: Message; call: ToolCall } {
    for (const m of this.#get(conversationId).messages) {
      const call = m.toolCalls.find((c) => c.id === callId);
      if (call) return { m, call };
    }
    throw new Error(`fake chat: no tool call ${callId}`);
  }

  endTurn(conversationId: number, turnId: string, reason: DoneReason, steps: number): void {
    for (const a of [...this.approvals.values()]) {
      if (a.turnId !== turnId) continue;
      this.approvals.delete(a.id);
      this.host.emit('chat:approval-done', { id: a.id, conversationId, outcome: 'expired' });
    }
    if (this.turns.get(conversationId)?.turnId === turnId) this.turns.delete(conversationId);
    this.host.emit('chat:done', { conversationId, turnId, reason, steps });
    this.host.emit('chat:conversations', { conversationId });
  }

  #start(conversationId: number, userMessage: Message, text: string): SendResult {
    if (this.turns.has(conversationId)) throw 'a reply is still being written in this conversation; stop it first';
    const turnId = `turn-${this.nextId()}`;
    const t = new FakeTurn(this, conversationId, turnId);
    this.turns.set(conversationId, t);
    if (this.reply) {
      const reply = this.reply;
      // After Go's call returned, as the real turn runs on its own goroutine.
      void Promise.resolve().then(() => reply(t, text));
    }
    return { turnId, userMessage: structuredClone(userMessage) };
  }

  #summary(s: Stored): ConversationSummary {
    const visible = s.messages.filter((m) => !m.hidden && (m.role === 'user' || m.role === 'assistant') && m.content);
    const last = visible.at(-1)?.content.replace(/\s+/g, ' ').trim() ?? '';
    return {
      id: s.conversation.id,
      title: s.conversation.title,
      provider: s.conversation.settings.provider,
      model: s.conversation.settings.model,
      pinned: s.conversation.pinned,
      messageCount: s.messages.length,
      preview: last.length > 160 ? last.slice(0, 159) + '…' : last,
      createdAt: s.conversation.createdAt,
      updatedAt: s.conversation.updatedAt,
    };
  }

  #markdown(s: Stored): string {
    const lines = [`# ${s.conversation.title || 'Untitled'}`, ''];
    for (const m of s.messages) {
      if (m.hidden || m.role === 'tool' || m.role === 'system') continue;
      lines.push(`## ${m.role === 'user' ? 'User' : 'Assistant'}`, '', m.content, '');
    }
    return lines.join('\n');
  }

  // ---- ChatServiceBackend

  ListConversations = async (limit: number, offset: number): Promise<ConversationSummary[]> => {
    this.host.record('ListConversations', [limit, offset]);
    const all = [...this.conversations.values()].sort(
      (a, b) =>
        Number(b.conversation.pinned) - Number(a.conversation.pinned) ||
        b.conversation.updatedAt.localeCompare(a.conversation.updatedAt) ||
        b.conversation.id - a.conversation.id,
    );
    return all.slice(offset, offset + (limit > 0 ? limit : 50)).map((s) => this.#summary(s));
  };

  NewConversation = async (input: { title: string; settings: ConversationSettings }): Promise<Conversation> => {
    this.host.record('NewConversation', [input]);
    const settings = chatSettingsOf(input.settings);
    if (!settings.provider && !settings.model) Object.assign(settings, this.defaultModel);
    if (!settings.provider || !settings.model) throw 'new conversation: choose a model';
    const id = this.nextId();
    const conversation: Conversation = { id, title: input.title.trim(), settings, pinned: false, createdAt: iso(), updatedAt: iso() };
    this.conversations.set(id, { conversation, messages: [] });
    this.host.emit('chat:conversations', { conversationId: id });
    return structuredClone(conversation);
  };

  Conversation = async (id: number) => {
    this.host.record('Conversation', [id]);
    const s = this.#get(id);
    return {
      conversation: structuredClone(s.conversation),
      messages: structuredClone(s.messages),
      running: this.turns.get(id)?.turnId ?? '',
      approvals: structuredClone([...this.approvals.values()].filter((a) => a.conversationId === id)),
      sampling: structuredClone([...this.sampling.values()].filter((a) => a.conversationId === id)),
    };
  };

  Rename = async (id: number, title: string): Promise<void> => {
    this.host.record('Rename', [id, title]);
    this.#get(id).conversation.title = title.trim();
    this.host.emit('chat:conversations', { conversationId: id });
  };

  Delete = async (id: number): Promise<void> => {
    this.host.record('Delete', [id]);
    this.#get(id);
    this.conversations.delete(id);
    this.host.emit('chat:conversations', { conversationId: id });
  };

  UpdateSettings = async (id: number, settings: ConversationSettings): Promise<Conversation> => {
    this.host.record('UpdateSettings', [id, settings]);
    const s = this.#get(id);
    s.conversation.settings = chatSettingsOf(settings);
    return structuredClone(s.conversation);
  };

  Search = async (query: string, limit: number): Promise<SearchHit[]> => {
    this.host.record('Search', [query, limit]);
    const terms = query.split(/\s+/).filter(Boolean).map((t) => t.toLowerCase());
    if (terms.length === 0) return [];
    const hits: SearchHit[] = [];
    const pattern = new RegExp(terms.map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'gi');
    for (const s of this.conversations.values()) {
      // As Go: every answer version is searched, not only the ones shown.
      const kept = [...(s.versions?.values() ?? [])].flat(2).filter((m) => !s.messages.includes(m));
      for (const m of [...s.messages, ...kept]) {
        if (m.hidden || !terms.every((t) => m.content.toLowerCase().includes(t))) continue;
        const text = m.content.replace(/\s+/g, ' ').trim();
        hits.push({
          conversationId: s.conversation.id,
          conversationTitle: s.conversation.title,
          messageId: m.id,
          role: m.role,
          snippet: text.replace(pattern, (x) => SNIPPET_START + x + SNIPPET_END),
          createdAt: m.createdAt,
          version: m.version || 1,
          versions: Math.max(m.version || 1, s.versions?.get(m.versionGroup)?.length ?? 1),
        });
      }
    }
    return hits.slice(0, limit > 0 ? limit : 50);
  };

  Export = async (id: number, format: 'md' | 'json'): Promise<string> => {
    this.host.record('Export', [id, format]);
    const s = this.#get(id);
    return format === 'json' ? JSON.stringify(s, null, 2) : this.#markdown(s);
  };

  SaveExport = async (id: number, format: 'md' | 'json'): Promise<string> => {
    this.host.record('SaveExport', [id, format]);
    const s = this.#get(id);
    return this.exportPath ?? `/home/dev/Documents/${s.conversation.title || 'conversation'}.${format}`;
  };

  /** What AddAttachment stored, by hash (as Go: images, text files and PDFs; anything else refused). */
  readonly attachments = new Map<string, Attachment>();

  AddAttachment = async (name: string, data: string): Promise<Attachment> => {
    this.host.record('AddAttachment', [name, data.length]);
    const bytes = atob(data);
    const ext = name.split('.').pop()?.toLowerCase() ?? '';
    const image = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp' }[ext];
    let a: Attachment;
    if (image) a = { name, mimeType: image, kind: 'image', hash: '', size: bytes.length, width: 1, height: 1 };
    else if (ext === 'pdf') a = { name, mimeType: 'application/pdf', kind: 'pdf', hash: '', size: bytes.length, textHash: 't'.repeat(64), pages: 1 };
    else if (/^[\t\n\r\x20-\x7e\u00a0-\uffff]*$/.test(bytes)) a = { name, mimeType: 'text/plain', kind: 'text', hash: '', size: bytes.length };
    else throw `${name} is application/octet-stream: MCP Desk attaches images (PNG, JPEG, WebP, GIF), PDFs and text files`;
    let h = 0;
    for (let i = 0; i < bytes.length; i++) h = (h * 31 + bytes.charCodeAt(i)) >>> 0;
    a.hash = h.toString(16).padStart(64, '0');
    this.attachments.set(a.hash, a);
    return structuredClone(a);
  };

  /** What the offered tools cost, as Go estimates it (a quarter of their JSON). */
  ToolCost = async (settings: ConversationSettings): Promise<ToolCost> => {
    this.host.record('ToolCost', [settings]);
    const tools = this.tools.filter((t) => settings.servers === null || settings.servers.includes(t.server));
    const tokens = Math.ceil(tools.reduce((n, t) => n + JSON.stringify(t).length + 32, 0) / 4);
    const searching = this.settings.toolSearch === 'on' || (this.settings.toolSearch !== 'off' && (tools.length > 30 || tokens > 8000));
    return { tools: tools.length, tokens, searchTokens: tools.length ? 120 : 0, searching };
  };

  /** As Go's llm.TakesImages, for the families the UI tests use. */
  ModelTakesImages = async (ref: { provider: string; model: string }): Promise<boolean> => !/^(gpt-3\.5|llama3\.1|deepseek-chat)/.test(ref.model);

  Send = async (input: { conversationId: number; text: string; attachments: Attachment[] }): Promise<SendResult> => {
    this.host.record('Send', [input]);
    this.#get(input.conversationId);
    if (this.turns.has(input.conversationId)) throw 'a reply is still being written in this conversation; stop it first';
    for (const a of input.attachments) if (!this.attachments.has(a.hash)) throw `the attached file "${a.name}" is no longer stored: attach it again`;
    const m = this.append(input.conversationId, { role: 'user', content: input.text, attachments: structuredClone(input.attachments) });
    const started = this.#start(input.conversationId, m, input.text);
    this.host.emit('chat:message', { conversationId: input.conversationId, turnId: started.turnId, message: structuredClone(m), seq: this.eventSeq() });
    this.host.emit('chat:conversations', { conversationId: input.conversationId });
    return started;
  };

  Stop = async (conversationId: number): Promise<void> => {
    this.host.record('Stop', [conversationId]);
    const t = this.turns.get(conversationId);
    if (!t) return;
    for (const m of this.messages(conversationId)) {
      let changed = false;
      for (const c of m.toolCalls) {
        if (c.status === 'pending' || c.status === 'approved' || c.status === 'running') {
          c.status = 'cancelled';
          changed = true;
        }
      }
      if (m.status === 'streaming') {
        m.status = 'interrupted';
        changed = true;
      }
      if (changed) this.host.emit('chat:message', { conversationId, turnId: t.turnId, message: structuredClone(m), seq: this.eventSeq() });
    }
    t.done('cancelled');
  };

  Regenerate = async (conversationId: number): Promise<SendResult> => {
    this.host.record('Regenerate', [conversationId]);
    const s = this.#get(conversationId);
    const user = [...s.messages].reverse().find((m) => m.role === 'user');
    if (!user) throw 'regenerate: the conversation has no message to answer';
    // As Go: the answer shown becomes a kept version, a new one starts.
    const vs = this.#versionsOf(s, user);
    vs.push([]);
    s.messages = s.messages.filter((m) => m.seq <= user.seq);
    user.selectedVersion = vs.length;
    user.versions = vs.length;
    return this.#start(conversationId, user, user.content);
  };

  // #versionsOf stores what follows user as its selected version and
  // returns every version of its answer.
  #versionsOf(s: Stored, user: Message): Message[][] {
    s.versions ??= new Map();
    const at = s.messages.indexOf(user);
    const tail = s.messages.slice(at + 1);
    const vs = s.versions.get(user.id) ?? [];
    const sel = user.selectedVersion || 1;
    if (tail.length || vs.length) vs[sel - 1] = tail;
    s.versions.set(user.id, vs);
    return vs;
  }

  SelectVersion = async (conversationId: number, userMessageId: number, version: number) => {
    this.host.record('SelectVersion', [conversationId, userMessageId, version]);
    if (this.turns.has(conversationId)) throw 'a reply is still running in this conversation; stop it or wait for it to finish';
    const s = this.#get(conversationId);
    const user = s.messages.find((m) => m.id === userMessageId && m.role === 'user');
    if (!user) throw `message not found: ${userMessageId} is not a message of yours in conversation ${conversationId}`;
    this.#select(s, user, version);
    return this.Conversation(conversationId);
  };

  #select(s: Stored, user: Message, version: number): void {
    const vs = this.#versionsOf(s, user);
    if (version < 1 || version > Math.max(vs.length, 1)) {
      throw `answer version not found: the answer to message ${user.id} has no version ${version}`;
    }
    s.messages = [...s.messages.slice(0, s.messages.indexOf(user) + 1), ...(vs[version - 1] ?? [])];
    user.selectedVersion = version;
  }

  RevealMessage = async (conversationId: number, messageId: number) => {
    this.host.record('RevealMessage', [conversationId, messageId]);
    const s = this.#get(conversationId);
    if (!this.turns.has(conversationId)) this.#reveal(s, messageId);
    return this.Conversation(conversationId);
  };

  // As Go (store.SetViewContext): the call's view context, in its own conversation only.
  SetViewContext = async (conversationId: number, messageId: number, callId: string, text: string) => {
    this.host.record('SetViewContext', [conversationId, messageId, callId, text]);
    this.#toolCall(conversationId, messageId, callId).viewContext = text;
  };

  // As Go (store.SetViewStorage): a JSON object of strings, in its own conversation only.
  SetViewStorage = async (conversationId: number, messageId: number, callId: string, items: string) => {
    this.host.record('SetViewStorage', [conversationId, messageId, callId, items]);
    this.#toolCall(conversationId, messageId, callId).viewStorage = items;
  };

  // As Go: a "this conversation" policy for the tool (the fake keeps no policies for views).
  AllowViewTool = async (conversationId: number, server: string, tool: string) => {
    this.host.record('AllowViewTool', [conversationId, server, tool]);
    this.#get(conversationId);
  };

  // As Go (store.SetWidgetState): JSON of at most 16 KB, in its own conversation only.
  SetWidgetState = async (conversationId: number, messageId: number, callId: string, state: string) => {
    this.host.record('SetWidgetState', [conversationId, messageId, callId, state]);
    if (state !== '') {
      let ok = state.length <= 16 << 10;
      try {
        JSON.parse(state);
      } catch {
        ok = false;
      }
      if (!ok) throw 'the widget state is not JSON of at most 16 KB';
    }
    this.#toolCall(conversationId, messageId, callId).widgetState = state;
  };

  // As Go (store.editViewCall): a tool call of a message of the conversation.
  #toolCall(conversationId: number, messageId: number, callId: string) {
    const m = this.#get(conversationId).messages.find((x) => x.id === messageId);
    if (!m) throw `message ${messageId}: not found`;
    const c = m.toolCalls?.find((x) => x.id === callId);
    if (!c) throw `tool call "${callId}" in message ${messageId}: not found`;
    return c;
  }

  #reveal(s: Stored, messageId: number): void {
    if (s.messages.some((m) => m.id === messageId)) return;
    for (const [userId, vs] of s.versions ?? []) {
      const v = vs.findIndex((tail) => tail.some((m) => m.id === messageId));
      if (v < 0) continue;
      this.#reveal(s, userId);
      const user = s.messages.find((m) => m.id === userId);
      if (user) this.#select(s, user, v + 1);
      return;
    }
    throw `message not found: ${messageId}`;
  }

  EditAndResend = async (conversationId: number, messageId: number, text: string): Promise<SendResult> => {
    this.host.record('EditAndResend', [conversationId, messageId, text]);
    const s = this.#get(conversationId);
    const old = s.messages.find((m) => m.id === messageId && m.role === 'user');
    if (!old) throw `message ${messageId}: message not found`;
    // As Go: every version of its answer goes, and what followed them.
    const gone = [old.id, ...s.messages.filter((m) => m.seq > old.seq && m.role === 'user').map((m) => m.id)];
    while (gone.length) {
      const id = gone.pop()!;
      for (const m of (s.versions?.get(id) ?? []).flat()) if (m.role === 'user') gone.push(m.id);
      s.versions?.delete(id);
    }
    s.messages = s.messages.filter((m) => m.seq < old.seq);
    const m = this.append(conversationId, { role: 'user', content: text });
    const started = this.#start(conversationId, m, text);
    this.host.emit('chat:message', { conversationId, turnId: started.turnId, message: structuredClone(m), seq: this.eventSeq() });
    return started;
  };

  Approve = async (id: string, d: ApprovalDecision): Promise<void> => {
    this.host.record('Approve', [id, d]);
    const a = this.approvals.get(id);
    if (!a) throw 'this approval is no longer waiting for an answer';
    this.approvals.delete(id);
    this.host.emit('chat:approval-done', { id, conversationId: a.conversationId, outcome: d.action === 'run' ? 'run' : 'cancel' });
    const t = this.turns.get(a.conversationId);
    // As Go: no policy is "once", which the audit and the call record as the user's answer.
    const approval = d.policy === 'never' ? 'never' : d.policy === 'once' || d.policy === '' ? 'user' : d.policy === 'server' ? 'server-auto' : d.policy;
    t?.updateCall(
      a.callId,
      d.action === 'run'
        ? { status: 'running', approval, ...(d.arguments ? { arguments: JSON.stringify(d.arguments) } : {}) }
        : { status: 'declined', approval },
    );
  };

  RetryToolCall = async (conversationId: number, messageId: number, callId: string): Promise<SendResult> => {
    this.host.record('RetryToolCall', [conversationId, messageId, callId]);
    const s = this.#get(conversationId);
    if (this.turns.has(conversationId)) throw 'a reply is still being written in this conversation; stop it first';
    const at = s.messages.findIndex((m) => m.id === messageId && m.role === 'assistant');
    if (at < 0) throw `retry: message ${messageId} is not a reply in conversation ${conversationId}`;
    const call = s.messages[at].toolCalls.find((c) => c.id === callId);
    if (!call) throw `retry: message ${messageId} has no tool call "${callId}"`;
    if (call.status !== 'error' && call.status !== 'cancelled')
      throw `retry: the call is ${call.status}; only failed, timed-out or cancelled calls can be retried`;
    if (s.messages.slice(at + 1).some((m) => m.role === 'user')) throw 'retry: only calls of the latest reply can be retried';
    const user = [...s.messages.slice(0, at)].reverse().find((m) => m.role === 'user');
    if (!user) throw 'retry: no user message';
    s.messages = s.messages.slice(0, at + 1);
    this.host.emit('chat:conversations', { conversationId });
    const started = this.#start(conversationId, user, user.content);
    this.turns.get(conversationId)?.updateCall(callId, { status: 'running', error: '' });
    return started;
  };

  AnswerSampling = async (id: string, d: { approve: boolean; request?: Record<string, unknown> }): Promise<void> => {
    this.host.record('AnswerSampling', [id, d]);
    const s = this.sampling.get(id);
    if (!s) throw 'this request is no longer waiting for an answer';
    this.sampling.delete(id);
    this.host.emit('chat:sampling-done', { id, conversationId: s.conversationId, outcome: d.approve ? 'approved' : 'rejected' });
  };

  Policies = async (): Promise<ApprovalPolicies> => {
    this.host.record('Policies', []);
    return structuredClone(this.policies);
  };

  RevokePolicy = async (kind: 'always' | 'server' | 'never', server: string, tool: string): Promise<void> => {
    this.host.record('RevokePolicy', [kind, server, tool]);
    const p = this.policies;
    if (kind === 'server') p.autoServers = p.autoServers.filter((s) => s !== server);
    else if (kind === 'always') p.alwaysAllow = p.alwaysAllow.filter((r) => r.server !== server || r.tool !== tool);
    else p.never = p.never.filter((r) => r.server !== server || r.tool !== tool);
    p.suspended = p.suspended.filter((s) => s.kind !== kind || s.server !== server || (kind !== 'server' && s.tool !== tool));
  };

  Trust = async (): Promise<TrustReport> => {
    this.host.record('Trust', []);
    return structuredClone(this.trust);
  };

  Settings = async (): Promise<ChatSettings> => {
    this.host.record('Settings', []);
    return { ...this.settings };
  };

  SaveSettings = async (s: ChatSettings): Promise<ChatSettings> => {
    this.host.record('SaveSettings', [s]);
    if (s.maxSteps < 1) throw 'chat settings: the step limit must be at least 1';
    this.settings = { ...s };
    return { ...s };
  };

  AvailableTools = async (servers: string[] | null): Promise<OfferedTool[]> => {
    this.host.record('AvailableTools', [servers]);
    return structuredClone(servers === null ? this.tools : this.tools.filter((t) => servers.includes(t.server)));
  };
}

/**
 * demoChatReply answers every message in the browser-only demo: some
 * thinking, a markdown answer with a table and code, and one tool call that
 * asks for approval.
 */
export async function demoChatReply(t: FakeTurn, text: string): Promise<void> {
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  t.assistant();
  for (const w of 'The user wants a demo. I will show markdown, then call a tool.'.split(' ')) {
    t.delta('', w + ' ');
    await sleep(20);
  }
  const answer = `You said: **${text.replace(/[*_`]/g, '')}**\n\n| Feature | Status |\n| --- | --- |\n| Markdown | ✅ |\n| Code | ✅ |\n\n- [x] stream\n- [ ] approve the tool call below\n\n\`\`\`ts\nfunction greet(name: string): string {\n  return \`Hello, \${name}!\`;\n}\n\`\`\`\n\nLet me echo it back with a tool.`;
  for (const w of answer.match(/.{1,6}/gs) ?? []) {
    t.delta(w);
    await sleep(12);
  }
  t.toolCall({ id: `c${t.chat.nextId()}`, server: 'everything', tool: 'echo', args: { message: text } });
  const call = t.chat.messages(t.conversationId).at(-1)!.toolCalls.at(-1)!;
  t.finish({ usage: { promptTokens: 812, completionTokens: 164, cachedTokens: 0, reasoningTokens: 14 } });
  t.askApproval(call.id, {
    description: 'Echoes back the input',
    annotations: { readOnlyHint: true },
    inputSchema: { type: 'object', properties: { message: { type: 'string', description: 'Message to echo' } }, required: ['message'] },
  });
  // Wait for the answer, then finish like Go does.
  for (let i = 0; i < 600 && t.chat.approvals.size > 0; i++) await sleep(100);
  const { call: after } = t.chat.findCall(t.conversationId, call.id);
  if (after.status === 'running') {
    await sleep(400);
    t.toolResult(call.id, { content: [{ type: 'text', text: `Echo: ${JSON.parse(after.arguments).message}` }] }, 380);
  }
  if (!t.chat.turns.has(t.conversationId)) return;
  t.reply(after.status === 'declined' ? 'Okay — I will not run it.' : 'Done: the tool echoed your message.', {
    promptTokens: 1020,
    completionTokens: 18,
    cachedTokens: 768,
    reasoningTokens: 0,
  });
  t.done();
}
