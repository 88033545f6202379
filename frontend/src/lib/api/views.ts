// Typed wrappers over MCPPool's MCP Apps methods (issue 15): a view's
// sandbox page, the tools a view may call, and the view lane of the logger.

import { backend } from './backend';
import { call } from './call';
import type { EmbeddedUI, ToolCallOutcome, ViewFile, ViewPage, ViewToolCall } from './types';

/** openView reads a ui:// resource of a server and makes a sandbox page for it. */
export const openView = (server: string, uri: string): Promise<ViewPage> => call(() => backend().mcp.OpenView(server, uri));

/** openEmbeddedView makes a sandbox page for an MCP-UI resource a tool of server returned. */
export const openEmbeddedView = (server: string, res: EmbeddedUI): Promise<ViewPage> => call(() => backend().mcp.OpenEmbeddedView(server, res));

/** setViewStorage gives a page, before it is framed, the localStorage its view kept when last shown. */
export const setViewStorage = (token: string, items: string): Promise<void> => call(() => backend().mcp.SetViewStorage(token, items));

/** saveViewFile asks where to save a file a view offers and writes it there ("" when cancelled). */
export const saveViewFile = (token: string, file: ViewFile): Promise<string> => call(() => backend().mcp.SaveViewFile(token, file));

/** closeView forgets the page of a view that went away. */
export const closeView = (token: string): Promise<void> => call(() => backend().mcp.CloseView(token));

/**
 * callToolFromView runs a tools/call a view asked for, on the view's own
 * server and only for tools offered to views; it rejects anything else.
 */
export const callToolFromView = (req: ViewToolCall): Promise<ToolCallOutcome> => call(() => backend().mcp.CallToolFromView(req));

/** logViewMessage puts one message between a view and MCP Desk in the logger's view lane. */
export const logViewMessage = (token: string, toView: boolean, payload: string): Promise<void> =>
  call(() => backend().mcp.LogViewMessage(token, toView, payload));

/** logViewBlocked notes in the logger what MCP Desk refused a view, and why. */
export const logViewBlocked = (token: string, what: string, why: string): Promise<void> =>
  call(() => backend().mcp.LogViewBlocked(token, what, why));
