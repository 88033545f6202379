// Typed wrappers over the ChatService (SPEC D1–D6). What Go returns is what
// the generated contract says: lists and maps are never null (checked in Go
// by backend/core's TestBoundResultsAreNotNull). A turn (send,
// regenerate, editAndResend, retryToolCall) returns at once; what it does
// arrives as chat:* events (see events.ts).

import { backend } from './backend';
import { call } from './call';
import type {
  ApprovalDecision,
  OfferedTool,
  ApprovalPolicies,
  ChatSettings,
  Conversation,
  ConversationSettings,
  ConversationSummary,
  ConversationView,
  ExportFormat,
  Message,
  PolicyKind,
  SamplingAnswer,
  SearchHit,
  SendResult,
  Attachment,
  ToolCost,
} from './chatTypes';
import type { TrustReport } from './trustTypes';
import type { ModelRef } from './providerTypes';

/** normalizeSettings builds full conversation settings from some (a new chat's, a change). */
export function normalizeSettings(s: Partial<ConversationSettings> | null | undefined): ConversationSettings {
  return {
    provider: s?.provider ?? '',
    model: s?.model ?? '',
    systemPrompt: s?.systemPrompt ?? '',
    temperature: s?.temperature ?? null,
    servers: s?.servers ?? null,
    tools: s?.tools ?? null,
    maxSteps: s?.maxSteps ?? null,
  };
}

/** normalizeMessage builds a full message from some fields (one the UI shows before Go sent it). */
export function normalizeMessage(m: Partial<Message> & { id: number }): Message {
  return {
    conversationId: 0,
    seq: 0,
    role: 'assistant',
    createdAt: '',
    updatedAt: '',
    ...m,
    content: m.content ?? '',
    reasoning: m.reasoning ?? '',
    toolCalls: m.toolCalls ?? [],
    toolCallId: m.toolCallId ?? '',
    attachments: m.attachments ?? [],
    hidden: !!m.hidden,
    status: m.status || 'complete',
    error: m.error ?? '',
    model: m.model ?? '',
    usage: m.usage ?? null,
    versionGroup: m.versionGroup ?? 0,
    version: m.version || 1,
    selectedVersion: m.selectedVersion ?? 0,
    versions: m.versions ?? 0,
  };
}

/** listConversations returns one page of the sidebar: pinned first, then most recent activity. */
export const listConversations = (limit = 100, offset = 0): Promise<ConversationSummary[]> =>
  call(() => backend().chat.ListConversations(limit, offset));

/** newConversation creates a conversation; empty provider and model mean the default model. */
export const newConversation = (title: string, settings: ConversationSettings): Promise<Conversation> =>
  call(() => backend().chat.NewConversation({ title, settings }));

/** getConversation returns a conversation with its messages, its running turn and its open questions. */
export const getConversation = (id: number): Promise<ConversationView> =>
  call(() => backend().chat.Conversation(id));

/** selectVersion shows a version (from 1) of the answer to a user message; the next turns build on it. */
export const selectVersion = (conversationId: number, userMessageId: number, version: number): Promise<ConversationView> =>
  call(() => backend().chat.SelectVersion(conversationId, userMessageId, version));

/** setViewContext keeps what a tool call's MCP Apps view gives the model ("" clears it). */
export const setViewContext = (conversationId: number, messageId: number, callId: string, text: string): Promise<void> =>
  call(() => backend().chat.SetViewContext(conversationId, messageId, callId, text));

/** allowViewTool lets views' calls of a tool run without asking for the rest of a conversation. */
export const allowViewTool = (conversationId: number, server: string, tool: string): Promise<void> =>
  call(() => backend().chat.AllowViewTool(conversationId, server, tool));

/** keepViewStorage keeps what a tool call's view keeps in its localStorage ("" clears it); the model never sees it. */
export const keepViewStorage = (conversationId: number, messageId: number, callId: string, items: string): Promise<void> =>
  call(() => backend().chat.SetViewStorage(conversationId, messageId, callId, items));

/** setWidgetState keeps an Apps SDK widget's state (JSON; "" clears it) with its tool call. */
export const setWidgetState = (conversationId: number, messageId: number, callId: string, state: string): Promise<void> =>
  call(() => backend().chat.SetWidgetState(conversationId, messageId, callId, state));

/** revealMessage opens a conversation at a message, switching to the answer versions that lead to it (a search hit). */
export const revealMessage = (conversationId: number, messageId: number): Promise<ConversationView> =>
  call(() => backend().chat.RevealMessage(conversationId, messageId));

export const renameConversation = (id: number, title: string): Promise<void> => call(() => backend().chat.Rename(id, title));
export const deleteConversation = (id: number): Promise<void> => call(() => backend().chat.Delete(id));

/** updateSettings stores a conversation's settings and returns it as stored. */
export const updateSettings = (id: number, settings: ConversationSettings): Promise<Conversation> =>
  call(() => backend().chat.UpdateSettings(id, settings));

/** searchMessages searches every message; each hit's snippet marks matches with SNIPPET_START … SNIPPET_END. */
export const searchMessages = (query: string, limit = 50): Promise<SearchHit[]> => call(() => backend().chat.Search(query, limit));

/** exportConversation returns the conversation as Markdown or JSON text. */
export const exportConversation = (id: number, format: ExportFormat): Promise<string> =>
  call(() => backend().chat.Export(id, format));

/** saveExport asks where to save the export and writes it; "" means the user cancelled. */
export const saveExport = (id: number, format: ExportFormat): Promise<string> => call(() => backend().chat.SaveExport(id, format));

/** send starts a turn with the user's text; it returns at once. */
export const send = (conversationId: number, text: string, attachments: Attachment[] = []): Promise<SendResult> =>
  call(() => backend().chat.Send({ conversationId, text, attachments }));

/** ATTACHMENT_PATH + hash is where the window reads an attached image (Go's attach.Path). */
export const ATTACHMENT_PATH = '/mcpdesk-attachment/';

/** base64Of reads a file's bytes as base64 (without the data: prefix). */
function base64Of(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(String(r.result).replace(/^data:[^,]*,/, ''));
    r.onerror = () => reject(r.error ?? new Error('the file could not be read'));
    r.readAsDataURL(file);
  });
}

/** addAttachment checks and stores a file the user attaches; its reference goes with send. */
export const addAttachment = async (name: string, file: Blob): Promise<Attachment> => {
  const data = await base64Of(file);
  return call(() => backend().chat.AddAttachment(name, data));
};

/** toolCost is what a conversation's tools cost each model call, in estimated tokens, with and without tool search. */
export const toolCost = (settings: ConversationSettings): Promise<ToolCost> => call(() => backend().chat.ToolCost(settings));

/** modelTakesImages is false for a model known to see no images (Ollama says so per model; others by name). */
export const modelTakesImages = (ref: ModelRef): Promise<boolean> => call(() => backend().chat.ModelTakesImages(ref));

/** stopTurn cancels the running turn: the stream and every call in flight. */
export const stopTurn = (conversationId: number): Promise<void> => call(() => backend().chat.Stop(conversationId));

/** regenerate asks again for the last answer, as a new version; the versions before are kept. */
export const regenerate = (conversationId: number): Promise<SendResult> =>
  call(() => backend().chat.Regenerate(conversationId));

/** editAndResend replaces a user message (and all after it) and asks again. */
export const editAndResend = (conversationId: number, messageId: number, text: string): Promise<SendResult> =>
  call(() => backend().chat.EditAndResend(conversationId, messageId, text));

/** approve answers a chat:approval. It rejects when the question is no longer open. */
export const approve = (id: string, decision: ApprovalDecision): Promise<void> => call(() => backend().chat.Approve(id, decision));

/** retryToolCall runs a failed or timed-out call again and continues the turn. */
export const retryToolCall = (conversationId: number, messageId: number, callId: string): Promise<SendResult> =>
  call(() => backend().chat.RetryToolCall(conversationId, messageId, callId));

/** answerSampling approves (optionally edited) or rejects a chat:sampling. */
export const answerSampling = (id: string, decision: SamplingAnswer): Promise<void> =>
  call(() => backend().chat.AnswerSampling(id, decision));

/** chatPolicies returns the remembered approval policies. */
export const chatPolicies = (): Promise<ApprovalPolicies> => call(() => backend().chat.Policies());

/** trustReport lists what changed since standing approvals were given, and the approvals it suspended (SPEC G1). */
export const trustReport = (): Promise<TrustReport> => call(() => backend().chat.Trust());

export const revokePolicy = (kind: PolicyKind, server: string, tool = ''): Promise<void> =>
  call(() => backend().chat.RevokePolicy(kind, server, tool));

export const chatSettings = (): Promise<ChatSettings> => call(() => backend().chat.Settings());
/** saveChatSettings stores the application-wide chat settings and returns what was stored. */
export const saveChatSettings = (s: ChatSettings): Promise<ChatSettings> => call(() => backend().chat.SaveSettings(s));

/** availableTools lists the tools of the given servers (null = every enabled server). */
export const availableTools = (servers: string[] | null): Promise<OfferedTool[]> => call(() => backend().chat.AvailableTools(servers));
