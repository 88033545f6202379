import type {
  ChatApprovalPayload,
  ChatErrorPayload,
  ChatSamplingPayload,
  ChatStepPayload,
  ConversationView,
  DoneReason,
  Progress,
  ToolCall,
} from '../api';

/** ErrorNote is one chat:error shown in the conversation's banner. */
export interface ErrorNote extends ChatErrorPayload {
  /** Unique within the session; the banner's key. */
  key: number;
}

/**
 * TurnState follows the turns running in every conversation, from the
 * chat events: which turn runs where, Stop pressed, the last step, tool
 * calls' progress and start times, the questions waiting for the user
 * (tool approvals, sampling requests) and the errors to show. ChatStore
 * owns one and asks it about the open conversation.
 */
export class TurnState {
  #running = $state<Record<number, string>>({});
  #stopping = $state<Record<number, boolean>>({});
  #approvals = $state<ChatApprovalPayload[]>([]);
  #sampling = $state<ChatSamplingPayload[]>([]);
  #errors = $state<ErrorNote[]>([]);
  #steps = $state<Record<number, ChatStepPayload>>({});
  #progress = $state<Record<string, Progress>>({});
  #callStarts = $state<Record<string, number>>({});
  // Conversations whose last turn stopped at the step limit: how many steps it made.
  #limited = $state<Record<number, number>>({});
  // Turns that ended: an event of theirs arriving late starts nothing.
  #finished = new Set<string>();
  #errorKey = 0;

  /** runningIn is a conversation's running turn id, "" when none runs. */
  runningIn(conversationId: number): string {
    return this.#running[conversationId] ?? '';
  }

  /** stoppingIn is true after Stop until the turn ends. */
  stoppingIn(conversationId: number): boolean {
    return !!this.#stopping[conversationId];
  }

  /** approvalsIn are a conversation's tool calls waiting for the user, oldest first. */
  approvalsIn(conversationId: number | undefined): ChatApprovalPayload[] {
    return this.#approvals.filter((a) => a.conversationId === conversationId);
  }

  /** samplingIn are a conversation's sampling requests waiting for the user. */
  samplingIn(conversationId: number | undefined): ChatSamplingPayload[] {
    return this.#sampling.filter((s) => s.conversationId === conversationId);
  }

  /** allSampling are every sampling request waiting, of any conversation or none. */
  get allSampling(): ChatSamplingPayload[] {
    return this.#sampling;
  }

  /** waitingTotal counts every question waiting for the user. */
  get waitingTotal(): number {
    return this.#approvals.length + this.#sampling.length;
  }

  /** waitingIn counts the questions (approvals, sampling) waiting in a conversation. */
  waitingIn(conversationId: number): number {
    return this.approvalsIn(conversationId).length + this.samplingIn(conversationId).length;
  }

  /** errorsIn are a conversation's chat:error notes, oldest first. */
  errorsIn(conversationId: number | undefined): ErrorNote[] {
    return this.#errors.filter((e) => e.conversationId === conversationId);
  }

  /** stepIn is the last chat:step of a conversation's turn. */
  stepIn(conversationId: number): ChatStepPayload | null {
    return this.#steps[conversationId] ?? null;
  }

  /** limitedIn is how many steps a conversation's last turn made when the step limit stopped it; 0 otherwise. */
  limitedIn(conversationId: number): number {
    return this.#limited[conversationId] ?? 0;
  }

  /** progressOf returns the last progress of a running tool call. */
  progressOf(callId: string): Progress | undefined {
    return this.#progress[callId];
  }

  /** callStartedAt returns when a call was first seen running (ms since epoch). */
  callStartedAt(callId: string): number | undefined {
    return this.#callStarts[callId];
  }

  // ---- what happened

  /** started notes a turn Go started (Send, Regenerate, …). */
  started(conversationId: number, turnId: string): void {
    if (!this.#finished.has(turnId)) this.#running[conversationId] = turnId;
    delete this.#stopping[conversationId];
    delete this.#limited[conversationId];
  }

  /** opened takes what Go says runs and waits in a conversation just loaded. */
  opened(conversationId: number, v: ConversationView): void {
    if (v.running && !this.#finished.has(v.running)) this.#running[conversationId] = v.running;
    else delete this.#running[conversationId];
    for (const a of v.approvals) this.approval(a);
    for (const s of v.sampling) this.samplingRequest(s);
  }

  /** stopping marks Stop pressed; unstopped takes it back when Stop failed. */
  stopping(conversationId: number): void {
    this.#stopping[conversationId] = true;
  }

  unstopped(conversationId: number): void {
    delete this.#stopping[conversationId];
  }

  step(s: ChatStepPayload): void {
    if (!this.#finished.has(s.turnId)) this.#running[s.conversationId] = s.turnId;
    this.#steps[s.conversationId] = s;
  }

  toolCall(call: ToolCall, progress?: Progress): void {
    if (progress) this.#progress[call.id] = progress;
    if (call.status === 'running' && this.#callStarts[call.id] === undefined) this.#callStarts[call.id] = Date.now();
  }

  approval(a: ChatApprovalPayload): void {
    if (!this.#approvals.some((x) => x.id === a.id)) this.#approvals.push(a);
  }

  /** approvalDone drops an answered (or expired) approval. */
  approvalDone(id: string): void {
    const i = this.#approvals.findIndex((a) => a.id === id);
    if (i >= 0) this.#approvals.splice(i, 1);
  }

  samplingRequest(s: ChatSamplingPayload): void {
    if (!this.#sampling.some((x) => x.id === s.id)) this.#sampling.push(s);
  }

  /** samplingDone drops an answered (or expired) sampling request. */
  samplingDone(id: string): void {
    const i = this.#sampling.findIndex((s) => s.id === id);
    if (i >= 0) this.#sampling.splice(i, 1);
  }

  error(e: ChatErrorPayload): void {
    const dup = this.#errors.some((x) => x.turnId === e.turnId && x.kind === e.kind && x.message === e.message);
    if (!dup) this.#errors.push({ ...e, key: ++this.#errorKey });
  }

  /** clearErrors forgets a conversation's errors (a new turn starts). */
  clearErrors(conversationId: number): void {
    this.#errors = this.#errors.filter((e) => e.conversationId !== conversationId);
  }

  /** dismissError hides one error note. */
  dismissError(key: number): void {
    this.#errors = this.#errors.filter((e) => e.key !== key);
  }

  /** done ends a turn: it runs no more, and its questions go; a turn the step limit stopped is remembered. */
  done(conversationId: number, turnId: string, reason: DoneReason = 'stop', steps = 0): void {
    if (reason === 'max_steps') this.#limited[conversationId] = steps;
    this.#finished.add(turnId);
    if (this.#finished.size > 200) this.#finished.delete(this.#finished.values().next().value!);
    if (!this.#running[conversationId] || this.#running[conversationId] === turnId) delete this.#running[conversationId];
    delete this.#stopping[conversationId];
    delete this.#steps[conversationId];
    this.#approvals = this.#approvals.filter((a) => a.turnId !== turnId);
  }
}
