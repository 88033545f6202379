// Typed wrappers over MCPPool's inspector methods: the Tools, Resources and
// Prompts screens. MCP objects are the protocol's JSON.

import { backend } from './backend';
import { call } from './call';
import type {
  Completion,
  CompletionRef,
  ElicitationAction,
  GetPromptResult,
  LogLevel,
  Prompt,
  ReadResourceResult,
  ResourcePage,
  SavedRequest,
  TemplatePage,
  Tool,
  ToolCallOutcome,
  ToolCallRequest,
  ToolSelection,
} from './types';

/** listTools returns a server's tools ([] when it offers none). */
export const listTools = (server: string): Promise<Tool[]> => call(() => backend().mcp.ListTools(server));

/**
 * callTool runs a tool and resolves with its result; a tool failure is
 * result.isError. It rejects when the call itself failed: the server is
 * down, it timed out, or cancelCall stopped it (the message then contains
 * "cancelled"). Progress arrives as mcp:progress events with req.callId.
 */
export const callTool = (req: ToolCallRequest): Promise<ToolCallOutcome> => call(() => backend().mcp.CallTool(req));

/** cancelCall stops a running call; stopping a finished one does nothing. */
export const cancelCall = (callId: string): Promise<void> => call(() => backend().mcp.CancelCall(callId));

/** listResources returns one page of resources; pass nextCursor for the next. */
export const listResources = (server: string, cursor = ''): Promise<ResourcePage> =>
  call(() => backend().mcp.ListResources(server, cursor));

/** listResourceTemplates returns one page of resource templates. */
export const listResourceTemplates = (server: string, cursor = ''): Promise<TemplatePage> =>
  call(() => backend().mcp.ListResourceTemplates(server, cursor));

/** readResource reads one resource. */
export const readResource = (server: string, uri: string): Promise<ReadResourceResult> =>
  call(() => backend().mcp.ReadResource(server, uri));

/** subscribeResource asks a server to report changes of a resource (mcp:resource-updated). */
export const subscribeResource = (server: string, uri: string): Promise<void> =>
  call(() => backend().mcp.SubscribeResource(server, uri));

/** unsubscribeResource stops those reports. */
export const unsubscribeResource = (server: string, uri: string): Promise<void> =>
  call(() => backend().mcp.UnsubscribeResource(server, uri));

/** resourceSubscriptions lists the subscribed resources of a server. */
export const resourceSubscriptions = (server: string): Promise<string[]> =>
  call(() => backend().mcp.ResourceSubscriptions(server));

/** listPrompts returns a server's prompts. */
export const listPrompts = (server: string): Promise<Prompt[]> => call(() => backend().mcp.ListPrompts(server));

/** getPrompt gets a prompt with its arguments filled in. */
export const getPrompt = (server: string, name: string, args: Record<string, string>): Promise<GetPromptResult> =>
  call(() => backend().mcp.GetPrompt(server, name, args));

/**
 * answerElicitation answers a server's question (an mcp:elicitation event):
 * accept with the content, decline, or cancel. It rejects when the question
 * is no longer waiting (it timed out, or its call ended).
 */
export const answerElicitation = (
  id: string,
  action: ElicitationAction,
  content: Record<string, unknown> | null = null,
): Promise<void> => call(() => backend().mcp.AnswerElicitation(id, action, content));

/** complete asks the server for values of one argument, given what is typed and what is filled in. */
export async function complete(
  server: string,
  ref: CompletionRef,
  arg: string,
  value: string,
  filled: Record<string, string> = {},
): Promise<Completion> {
  const c = await call(() => backend().mcp.Complete(server, ref, arg, value, filled));
  // The server's own data, passed on as it sent it: a broken one may send null.
  return { ...c, values: c.values ?? [] };
}

/** toolSelection says which tools of a server models are offered, and their token cost. */
export const toolSelection = (server: string): Promise<ToolSelection> => call(() => backend().mcp.ToolSelection(server));

/** setToolEnabled turns a tool on or off for models; the server keeps running. */
export const setToolEnabled = (server: string, tool: string, enabled: boolean): Promise<ToolSelection> =>
  call(() => backend().mcp.SetToolEnabled(server, tool, enabled));

/** setLogLevel sets the lowest level of log message a server sends (shown in the logger). */
export const setLogLevel = (server: string, level: LogLevel): Promise<void> =>
  call(() => backend().mcp.SetLogLevel(server, level));

/** listSavedRequests returns a server's saved tool requests, by name. */
export const listSavedRequests = (server: string): Promise<SavedRequest[]> =>
  call(() => backend().mcp.ListSavedRequests(server));

/** saveRequest adds (id 0) or updates (rename, description, arguments) a saved request. */
export const saveRequest = (r: SavedRequest): Promise<SavedRequest> => call(() => backend().mcp.SaveRequest(r));

/** deleteSavedRequest removes a saved request. */
export const deleteSavedRequest = (id: number): Promise<void> => call(() => backend().mcp.DeleteSavedRequest(id));

let callSeq = 0;

/** newCallId returns an id no other call of this window uses. */
export function newCallId(): string {
  callSeq += 1;
  return `call-${Date.now().toString(36)}-${callSeq}`;
}
