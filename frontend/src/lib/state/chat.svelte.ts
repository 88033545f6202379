import {
  answerSampling,
  approve,
  deleteConversation,
  editAndResend,
  exportConversation,
  getConversation,
  newConversation,
  normalizeMessage,
  normalizeSettings,
  on,
  regenerate,
  renameConversation,
  retryToolCall,
  revealMessage,
  selectVersion,
  saveExport,
  send,
  stopTurn,
  updateSettings,
  type ApprovalDecision,
  type Attachment,
  type ChatApprovalPayload,
  type Progress,
  type ChatSamplingPayload,
  type ChatStepPayload,
  type Conversation,
  type ConversationSettings,
  type ConversationSummary,
  type ConversationView,
  type DoneReason,
  type ExportFormat,
  type Message,
  type SamplingAnswer,
  type SearchHit,
  type TokenUsage,
  type ToolCall,
  type SendResult,
} from '../api';
import { ConversationList } from './chatList.svelte';
import { nextFrame, type Schedule } from '../util/frames';
import { TurnState, type ErrorNote } from './chatTurns.svelte';

export { PAGE_SIZE, SEARCH_DELAY } from './chatList.svelte';
export type { ErrorNote } from './chatTurns.svelte';

const zeroUsage = (): TokenUsage => ({ promptTokens: 0, completionTokens: 0, cachedTokens: 0, reasoningTokens: 0 });

/** addUsage returns a + b. */
export function addUsage(a: TokenUsage | null | undefined, b: TokenUsage | null | undefined): TokenUsage {
  const x = a ?? zeroUsage();
  const y = b ?? zeroUsage();
  return {
    promptTokens: x.promptTokens + y.promptTokens,
    completionTokens: x.completionTokens + y.completionTokens,
    cachedTokens: x.cachedTokens + y.cachedTokens,
    reasoningTokens: x.reasoningTokens + y.reasoningTokens,
  };
}

/** titleFrom makes a conversation title from the first message: its first line, at most 60 characters. */
export function titleFrom(text: string): string {
  const line = text.trim().split('\n')[0].replace(/\s+/g, ' ').trim();
  return line.length > 60 ? line.slice(0, 59).trimEnd() + '…' : line;
}

/** isVisible reports whether a message is shown in the transcript (user and assistant, not hidden). */
export const isVisible = (m: Message): boolean => !m.hidden && (m.role === 'user' || m.role === 'assistant');

/**
 * ChatStore is the Chat screen's state (SPEC D1–D7). It holds the open
 * conversation's transcript, kept live from chat:* events, and owns the
 * sidebar (ConversationList: conversations and search) and the turns
 * (TurnState: what runs where, the questions waiting for the user, the
 * errors), answering the screen's questions about the open conversation.
 *
 * Streaming: chat:delta text goes into a plain buffer and is applied to
 * the reactive message at most once per animation frame, so a reply of
 * thousands of deltas re-renders a few dozen times, not thousands.
 * Terminal events (the whole message, done) apply the buffer first, so
 * nothing is lost or reordered.
 */
export class ChatStore {
  /** The sidebar: conversations, page by page, and the search. */
  readonly sidebar = new ConversationList((id, title) => {
    if (this.#current?.id === id && this.#current.title !== title) this.#current.title = title;
  });
  /** The turns of every conversation and what waits for the user. */
  readonly turns = new TurnState();

  #current = $state<Conversation | null>(null);
  #messages = $state<Message[]>([]);
  #loading = $state(false);
  #loadError = $state('');
  #focus = $state<{ messageId: number; n: number } | null>(null);
  #draft = $state<ConversationSettings>(normalizeSettings({}));
  #compose = $state<{ text: string; n: number } | null>(null);

  #buffer = new Map<number, { text: string; reasoning: string }>();
  // The seq of the newest event applied, per message ('m' + id) and per
  // tool call ('c' + id). Events can arrive out of order (in a browser the
  // development server writes each one on its own): an older one that
  // arrives later is dropped, or it would put back an old state for good.
  #applied = new Map<string, number>();
  #cancelFlush: (() => void) | null = null;
  #schedule: Schedule;
  #opening = 0;
  #focusN = 0;

  /** flushes counts how often buffered deltas were applied (a test hook for the throttling). */
  flushes = 0;

  #sidebar: boolean;

  /** sidebar false: a store of one conversation (a column of a comparison), which keeps no conversation list. */
  constructor(o: { schedule?: Schedule; sidebar?: boolean } = {}) {
    this.#schedule = o.schedule ?? nextFrame;
    this.#sidebar = o.sidebar ?? true;
  }

  // ---- sidebar

  get list(): ConversationSummary[] {
    return this.sidebar.list;
  }

  get listLoaded(): boolean {
    return this.sidebar.loaded;
  }

  get listError(): string {
    return this.sidebar.error;
  }

  /** hasMore is true when the last page was full: more conversations may follow. */
  get hasMore(): boolean {
    return this.sidebar.hasMore;
  }

  get query(): string {
    return this.sidebar.query;
  }

  /** hits are the search results for query; null while no search is shown. */
  get hits(): SearchHit[] | null {
    return this.sidebar.hits;
  }

  get searching(): boolean {
    return this.sidebar.searching;
  }

  get searchError(): string {
    return this.sidebar.searchError;
  }

  // ---- the open conversation

  /** current is the open conversation; null for a new chat not sent yet. */
  get current(): Conversation | null {
    return this.#current;
  }

  /** messages are every message of the open conversation, tool and hidden ones included, by seq. */
  get messages(): Message[] {
    return this.#messages;
  }

  get loading(): boolean {
    return this.#loading;
  }

  get loadError(): string {
    return this.#loadError;
  }

  /** focus is the message to scroll to (from a search hit); n changes on every request. */
  get focus(): { messageId: number; n: number } | null {
    return this.#focus;
  }

  /** compose is text another screen handed to the composer ("Use in chat"); n changes on every hand-over. */
  get compose(): { text: string; n: number } | null {
    return this.#compose;
  }

  /**
   * useInComposer hands text to the chat composer (it is added to what is
   * typed there); call layout.go('chat') to show it. The Prompts screen's
   * "Use in chat" (SPEC B3, D8) uses it.
   */
  useInComposer(text: string): void {
    this.#compose = { text, n: (this.#compose?.n ?? 0) + 1 };
  }

  /** settings are the open conversation's settings, or the new chat's. */
  get settings(): ConversationSettings {
    return this.#current?.settings ?? this.#draft;
  }

  /** runningTurn is the open conversation's running turn id, "" when none runs. */
  get runningTurn(): string {
    return this.#current ? this.turns.runningIn(this.#current.id) : '';
  }

  get running(): boolean {
    return this.runningTurn !== '';
  }

  /** stopping is true after Stop until the turn ends. */
  get stopping(): boolean {
    return !!this.#current && this.turns.stoppingIn(this.#current.id) && this.running;
  }

  /** isRunning reports whether a conversation has a running turn. */
  isRunning(conversationId: number): boolean {
    return this.turns.runningIn(conversationId) !== '';
  }

  /** approvals are the open conversation's tool calls waiting for the user, oldest first. */
  get approvals(): ChatApprovalPayload[] {
    return this.turns.approvalsIn(this.#current?.id);
  }

  /** waitingTotal counts every question waiting for the user, in any conversation or none. */
  get waitingTotal(): number {
    return this.turns.waitingTotal;
  }

  /** waitingIn counts the questions (approvals, sampling) waiting in a conversation. */
  waitingIn(conversationId: number): number {
    return this.turns.waitingIn(conversationId);
  }

  /** sampling are the open conversation's sampling requests waiting for the user. */
  get sampling(): ChatSamplingPayload[] {
    return this.turns.samplingIn(this.#current?.id);
  }

  /** allSampling are every sampling request waiting, of any conversation or none (a call from the Tools screen). */
  get allSampling(): ChatSamplingPayload[] {
    return this.turns.allSampling;
  }

  /** errors are the open conversation's chat:error notes, oldest first. */
  get errors(): ErrorNote[] {
    return this.turns.errorsIn(this.#current?.id);
  }

  /** step is the last chat:step of the open conversation's running turn. */
  get step(): ChatStepPayload | null {
    const id = this.#current?.id;
    return id !== undefined && this.running ? this.turns.stepIn(id) : null;
  }

  /** stepLimit is how many steps the open conversation's last turn made when its step limit stopped it; 0 otherwise. */
  get stepLimit(): number {
    return this.#current && !this.running ? this.turns.limitedIn(this.#current.id) : 0;
  }

  /** progressOf returns the last progress of a running tool call. */
  progressOf(callId: string): Progress | undefined {
    return this.turns.progressOf(callId);
  }

  /** callStartedAt returns when a call was first seen running (ms since epoch), for its elapsed time. */
  callStartedAt(callId: string): number | undefined {
    return this.turns.callStartedAt(callId);
  }

  /** usage sums the token usage of the open conversation's messages. */
  get usage(): TokenUsage | null {
    let total: TokenUsage | null = null;
    for (const m of this.#messages) if (m.usage) total = addUsage(total, m.usage);
    return total;
  }

  /** lastAssistantId is the id of the last visible assistant message (the one Regenerate replaces). */
  get lastAssistantId(): number {
    for (let i = this.#messages.length - 1; i >= 0; i--) {
      const m = this.#messages[i];
      if (m.role === 'assistant' && !m.hidden) return m.id;
      if (m.role === 'user') return 0;
    }
    return 0;
  }

  // ---- lifecycle

  /** start follows the chat events and loads the sidebar; returns the cleanup. */
  start(): () => void {
    const offs = [
      on('chat:message', (p) => {
        if (p.conversationId !== this.#current?.id) return;
        this.#applyMessage(p.message, p.seq);
      }),
      on('chat:delta', (p) => {
        if (p.conversationId !== this.#current?.id) return;
        // A message already stored whole holds every delta: one delivered
        // after it (events can cross on the way) would add its text twice.
        const known = this.#find(p.messageId);
        if (known && known.status !== 'streaming') return;
        const b = this.#buffer.get(p.messageId);
        if (b) {
          b.text += p.text ?? '';
          b.reasoning += p.reasoning ?? '';
        } else this.#buffer.set(p.messageId, { text: p.text ?? '', reasoning: p.reasoning ?? '' });
        this.#cancelFlush ??= this.#schedule(() => {
          this.#cancelFlush = null;
          this.flush();
        });
      }),
      on('chat:tool-input', (p) => {
        // A call being written, shown until the message brings it whole.
        if (p.conversationId !== this.#current?.id) return;
        const m = this.#find(p.messageId);
        const have = m?.toolCalls.find((c) => c.id === p.call.id);
        if (m && (!have || have.status === 'streaming')) this.#applyCall(p.messageId, p.call);
      }),
      on('chat:tool-call', (p) => {
        if (p.conversationId === this.#current?.id && !this.#newer('c' + p.call.id, p.seq)) return;
        this.turns.toolCall(p.call, p.progress);
        if (p.conversationId !== this.#current?.id) return;
        this.#applyCall(p.messageId, p.call);
      }),
      on('chat:approval', (a) => this.turns.approval(a)),
      on('chat:approval-done', (d) => this.turns.approvalDone(d.id)),
      on('chat:sampling', (s) => this.turns.samplingRequest(s)),
      on('chat:sampling-done', (d) => this.turns.samplingDone(d.id)),
      on('chat:step', (s) => this.turns.step(s)),
      on('chat:usage', (u) => {
        if (u.conversationId !== this.#current?.id) return;
        this.flush();
        const m = this.#find(u.messageId);
        if (!m) return;
        // A finished message already counts its calls; a streaming one
        // adds each call as it ends.
        if (!m.usage) m.usage = { ...u.usage };
        else if (m.status === 'streaming') m.usage = addUsage(m.usage, u.usage);
      }),
      on('chat:error', (e) => this.turns.error(e)),
      on('chat:done', (d) => this.#done(d.conversationId, d.turnId, d.reason, d.steps)),
      on('chat:conversations', () => {
        if (this.#sidebar) void this.loadList();
      }),
    ];
    if (this.#sidebar) void this.loadList();
    return () => {
      offs.forEach((off) => off());
      this.#cancelFlush?.();
      this.#cancelFlush = null;
      this.sidebar.stop();
    };
  }

  /** flush applies the buffered deltas now. */
  flush(): void {
    if (this.#buffer.size === 0) return;
    this.flushes++;
    for (const [id, b] of this.#buffer) {
      let m = this.#find(id);
      if (!m && this.#current) {
        // A delta before its message: show it at the end until the message arrives.
        this.#insert(
          normalizeMessage({
            id,
            conversationId: this.#current.id,
            seq: (this.#messages.at(-1)?.seq ?? 0) + 1,
            role: 'assistant',
            status: 'streaming',
          }),
        );
        m = this.#find(id);
      }
      if (!m) continue;
      if (b.text) m.content += b.text;
      if (b.reasoning) m.reasoning += b.reasoning;
    }
    this.#buffer.clear();
  }

  // ---- sidebar actions

  /** loadList reloads the first page of conversations (more = append the next page); calls coalesce. */
  loadList(more = false): Promise<void> {
    return this.sidebar.load(more);
  }

  /** setQuery searches all messages after a short pause; "" goes back to the list. */
  setQuery(q: string): void {
    this.sidebar.setQuery(q);
  }

  /** open shows a conversation (at a message, when given: a search hit). */
  async open(id: number, messageId = 0): Promise<void> {
    if (this.#current?.id === id && !this.#loadError) {
      if (messageId && !this.#find(messageId)) {
        // A search hit in an answer version not shown: switch to it.
        const seq = ++this.#opening;
        try {
          const v = await revealMessage(id, messageId);
          if (seq === this.#opening) this.#showVersions(v);
        } catch (e) {
          this.#loadError = (e as Error).message;
          return;
        }
      }
      if (messageId) this.#focusOn(messageId);
      return;
    }
    const seq = ++this.#opening;
    this.#buffer.clear();
    this.#applied.clear();
    this.#loading = true;
    this.#loadError = '';
    this.#current = this.sidebar.find(id) ? this.#placeholder(id) : null;
    this.#messages = [];
    try {
      const v = messageId ? await revealMessage(id, messageId) : await getConversation(id);
      if (seq !== this.#opening) return;
      this.#current = v.conversation;
      this.#messages = v.messages;
      this.turns.opened(id, v);
      if (messageId) this.#focusOn(messageId);
    } catch (e) {
      if (seq !== this.#opening) return;
      this.#loadError = (e as Error).message;
    } finally {
      if (seq === this.#opening) this.#loading = false;
    }
  }

  #placeholder(id: number): Conversation {
    const s = this.sidebar.find(id)!;
    return {
      id,
      title: s.title,
      pinned: s.pinned,
      createdAt: s.createdAt,
      updatedAt: s.updatedAt,
      settings: normalizeSettings({ provider: s.provider, model: s.model }),
    };
  }

  /** newChat shows an empty conversation; it is created when the first message is sent. */
  newChat(settings?: Partial<ConversationSettings>): void {
    ++this.#opening;
    this.#buffer.clear();
    this.#applied.clear();
    const prev = this.#current?.settings ?? this.#draft;
    this.#draft = normalizeSettings({
      provider: prev.provider,
      model: prev.model,
      servers: prev.servers,
      tools: prev.tools,
      ...settings,
    });
    this.#current = null;
    this.#messages = [];
    this.#loading = false;
    this.#loadError = '';
  }

  /** rename gives a conversation a new title. */
  async rename(id: number, title: string): Promise<void> {
    await renameConversation(id, title.trim());
    this.sidebar.renamed(id, title.trim());
    if (this.#current?.id === id) this.#current.title = title.trim();
  }

  /** remove deletes a conversation; the open one closes to a new chat. */
  async remove(id: number): Promise<void> {
    await deleteConversation(id);
    this.sidebar.removed(id);
    if (this.#current?.id === id) this.newChat();
  }

  // ---- conversation actions

  /** setSettings changes the open conversation's settings (stored at once), or the new chat's. */
  async setSettings(changes: Partial<ConversationSettings>): Promise<void> {
    const next = normalizeSettings($state.snapshot({ ...this.settings, ...changes }) as ConversationSettings);
    const c = this.#current;
    if (!c) {
      this.#draft = next;
      return;
    }
    const prev = c.settings;
    c.settings = next;
    try {
      const stored = await updateSettings(c.id, next);
      if (this.#current?.id === stored.id) this.#current.settings = stored.settings;
    } catch (e) {
      if (this.#current?.id === c.id) this.#current.settings = prev;
      throw e;
    }
  }

  /**
   * send sends the user's text, creating the conversation first for a new
   * chat. It resolves once the turn started; the reply streams as events.
   */
  async send(text: string, attachments: Attachment[] = []): Promise<void> {
    const body = text.trim();
    if (!body && attachments.length === 0) return;
    let c = this.#current;
    if (!c) {
      const seq = ++this.#opening;
      c = await newConversation(titleFrom(body || attachments.map((a) => a.name ?? '').join(', ')), $state.snapshot(this.#draft) as ConversationSettings);
      if (seq === this.#opening) {
        this.#current = c;
        this.#messages = [];
      }
      if (this.#sidebar) void this.loadList();
    }
    const id = c.id;
    this.turns.clearErrors(id);
    const started = await send(id, body, attachments);
    this.#started(id, started);
  }

  /** stop cancels the open conversation's running turn. */
  async stop(): Promise<void> {
    const c = this.#current;
    if (!c || !this.running) return;
    this.turns.stopping(c.id);
    try {
      await stopTurn(c.id);
    } catch (e) {
      this.turns.unstopped(c.id);
      throw e;
    }
  }

  /** regenerate asks the model again; the new answer is a new version, the old ones are kept. */
  async regenerate(): Promise<void> {
    const c = this.#current;
    if (!c) return;
    const before = new Set(this.#messages.map((m) => m.id));
    this.turns.clearErrors(c.id);
    const started = await regenerate(c.id);
    this.#cut(before, (m) => m.seq > started.userMessage.seq);
    this.#started(c.id, started);
  }

  /**
   * versionsOf returns the answer versions an assistant message belongs to
   * (null when its answer has only one): the user message they answer, the
   * version shown and how many there are.
   */
  versionsOf(m: Message): { userMessageId: number; selected: number; total: number } | null {
    if (m.role !== 'assistant' || !m.versionGroup) return null;
    const user = this.#find(m.versionGroup);
    if (!user || user.versions < 2) return null;
    return { userMessageId: user.id, selected: user.selectedVersion || 1, total: user.versions };
  }

  /** selectVersion shows another version of an answer (from 1); the next turns build on it. */
  async selectVersion(userMessageId: number, version: number): Promise<void> {
    const c = this.#current;
    if (!c || this.running) return;
    const seq = ++this.#opening;
    const v = await selectVersion(c.id, userMessageId, version);
    if (seq === this.#opening) this.#showVersions(v);
  }

  // #showVersions replaces the transcript with the one Go returned after
  // switching answer versions.
  #showVersions(v: ConversationView): void {
    this.#buffer.clear();
    this.#current = v.conversation;
    this.#messages = v.messages;
  }

  /** editAndResend replaces a user message (and everything after it) and asks again. */
  async editAndResend(messageId: number, text: string): Promise<void> {
    const c = this.#current;
    if (!c || !text.trim()) return;
    const before = new Set(this.#messages.map((m) => m.id));
    const old = this.#find(messageId);
    this.turns.clearErrors(c.id);
    const started = await editAndResend(c.id, messageId, text.trim());
    const seq = Math.min(started.userMessage.seq, old?.seq ?? Infinity);
    this.#cut(before, (m) => m.id === messageId || (m.seq >= seq && m.id !== started.userMessage.id));
    this.#started(c.id, started);
  }

  /**
   * retry runs a failed or cancelled tool call of the latest reply again;
   * the turn continues from it, and what followed the reply is replaced.
   */
  async retry(messageId: number, callId: string): Promise<void> {
    const c = this.#current;
    if (!c) return;
    const before = new Set(this.#messages.map((m) => m.id));
    const reply = this.#find(messageId);
    const started = await retryToolCall(c.id, messageId, callId);
    if (reply) this.#cut(before, (m) => m.seq > reply.seq);
    this.#started(c.id, started);
  }

  /** lastUserSeq is the seq of the last user message: the messages after it are the latest reply. */
  get lastUserSeq(): number {
    for (let i = this.#messages.length - 1; i >= 0; i--) if (this.#messages[i].role === 'user') return this.#messages[i].seq;
    return 0;
  }

  /** approve answers a tool approval; the card goes away at once. */
  async approve(id: string, decision: ApprovalDecision): Promise<void> {
    this.turns.approvalDone(id);
    await approve(id, decision);
  }

  /** answerSampling answers a sampling request; the card goes away at once. */
  async answerSampling(id: string, decision: SamplingAnswer): Promise<void> {
    this.turns.samplingDone(id);
    await answerSampling(id, decision);
  }

  /** dismissError hides one error note. */
  dismissError(key: number): void {
    this.turns.dismissError(key);
  }

  /** exportText returns the open conversation as Markdown or JSON. */
  exportText(format: ExportFormat): Promise<string> {
    if (!this.#current) return Promise.resolve('');
    return exportConversation(this.#current.id, format);
  }

  /** saveExport asks where to save the open conversation and writes it; "" = cancelled. */
  saveExport(format: ExportFormat): Promise<string> {
    if (!this.#current) return Promise.resolve('');
    return saveExport(this.#current.id, format);
  }

  // ---- internals

  #find(id: number): Message | undefined {
    return this.#messages.find((m) => m.id === id);
  }

  #focusOn(messageId: number): void {
    let target = this.#find(messageId);
    // A tool result is shown inside the assistant message that called it.
    if (target?.role === 'tool') {
      const callId = target.toolCallId;
      target = this.#messages.find((m) => m.toolCalls.some((c) => c.id === callId)) ?? target;
    }
    this.#focus = { messageId: target?.id ?? messageId, n: ++this.#focusN };
  }

  #started(conversationId: number, t: SendResult): void {
    this.turns.started(conversationId, t.turnId);
    if (this.#current?.id === conversationId) this.#applyMessage(t.userMessage);
    if (this.#sidebar) void this.loadList();
  }

  // #cut drops messages that were shown before a regenerate or an edit
  // and that the backend cut; messages of the new turn that arrived
  // meanwhile stay.
  #cut(before: Set<number>, drop: (m: Message) => boolean): void {
    this.#messages = this.#messages.filter((m) => !(before.has(m.id) && drop(m)));
  }

  // #newer records seq for key and reports whether it is newer than what
  // was applied there (an event without a seq always is).
  #newer(key: string, seq?: number): boolean {
    if (!seq) return true;
    if ((this.#applied.get(key) ?? 0) > seq) return false;
    this.#applied.set(key, seq);
    return true;
  }

  #applyMessage(m: Message, seq?: number): void {
    const existing = this.#find(m.id);
    if (!this.#newer('m' + m.id, seq)) return;
    if (seq && existing) {
      // A call whose own event was newer than this message keeps that state.
      m.toolCalls = m.toolCalls.map((c) => {
        const shown = existing.toolCalls.find((x) => x.id === c.id);
        return shown && !this.#newer('c' + c.id, seq) ? shown : c;
      });
    } else if (seq) for (const c of m.toolCalls) this.#newer('c' + c.id, seq);
    if (m.status === 'streaming') {
      if (existing) {
        // Deltas may be ahead of a snapshot of the message being written.
        this.flush();
        if (existing.content.length > m.content.length && existing.content.startsWith(m.content)) m.content = existing.content;
        if (existing.reasoning.length > m.reasoning.length && existing.reasoning.startsWith(m.reasoning)) m.reasoning = existing.reasoning;
      }
    } else {
      // The whole message holds every delta.
      this.#buffer.delete(m.id);
    }
    if (existing) {
      const i = this.#messages.indexOf(existing);
      this.#messages[i] = m;
    } else this.#insert(m, seq);
  }

  // #insert adds a message in its place by seq. Announced (with the event's
  // seq), a new message numbered at or before shown ones that were
  // announced before it means the history was cut there (a regenerate or
  // an edit, in this window or another): those go. Shown ones announced
  // after it stay: events can cross on the way, so a turn's reply may come
  // before its user message. A message from a call's result (no seq) cuts
  // nothing; the caller cuts what the call replaced.
  #insert(m: Message, seq?: number): void {
    const cut = (x: Message) => !!seq && x.seq >= m.seq && (this.#applied.get('m' + x.id) ?? 0) < seq;
    const at = this.#messages.findIndex((x) => x.seq > m.seq || cut(x));
    if (at < 0) {
      this.#messages.push(m);
      return;
    }
    const kept = this.#messages.filter((x) => !cut(x));
    const i = kept.findIndex((x) => x.seq > m.seq);
    kept.splice(i < 0 ? kept.length : i, 0, m);
    this.#messages = kept;
  }

  #applyCall(messageId: number, call: ToolCall): void {
    const m = this.#find(messageId);
    if (!m) return;
    const i = m.toolCalls.findIndex((c) => c.id === call.id);
    if (i >= 0) m.toolCalls[i] = call;
    else m.toolCalls.push(call);
  }

  #done(conversationId: number, turnId: string, reason: DoneReason, steps: number): void {
    this.flush();
    this.turns.done(conversationId, turnId, reason, steps);
    if (this.#current?.id !== conversationId) return;
    // Go sends every message whole when the turn ends; should one have
    // been missed, do not leave it looking alive.
    for (const m of this.#messages) {
      if (m.status === 'streaming') m.status = reason === 'stop' || reason === 'max_steps' ? 'complete' : 'interrupted';
      for (const c of m.toolCalls) {
        if (c.status === 'pending' || c.status === 'approved' || c.status === 'running') c.status = 'cancelled';
      }
      // A call still being written when the turn ended never became one.
      m.toolCalls = m.toolCalls.filter((c) => c.status !== 'streaming');
    }
  }
}
