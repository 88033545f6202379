// Typed wrappers over the MCPPool service. What Go returns is what the
// generated contract says: lists and maps are never null (checked in Go by
// backend/core's TestBoundResultsAreNotNull and the events' contract log).

import { backend } from './backend';
import { call } from './call';
import type {
  DetectedConfig,
  ImportPreview,
  ImportResult,
  PoolDefaults,
  RPCEntry,
  ServerSpec,
  ServerView,
} from './types';

/** revealSecret fetches the stored value of a server's secret env variable or header, when the user asks to see it. */
export const revealSecret = (server: string, kind: 'env' | 'header', name: string) =>
  call(() => backend().mcp.RevealSecret(server, kind, name));

/** moveSecretsToKeychain moves the secrets written in plain text in the config file into the OS keychain ([]: every server). */
export const moveSecretsToKeychain = (ids: string[]) => call(() => backend().mcp.MoveSecretsToKeychain(ids));

/** listServers returns every configured server with its status, in config order. */
export const listServers = (): Promise<ServerView[]> => call(() => backend().mcp.ListServers());

/** saveServer adds (originalId "") or updates a server and returns it as stored. */
export const saveServer = (originalId: string, spec: ServerSpec): Promise<ServerView> =>
  call(() => backend().mcp.SaveServer(originalId, spec));

export const removeServer = (id: string) => call(() => backend().mcp.RemoveServer(id));
/**
 * setEnabled turns a server on or off and returns it as stored; a server
 * turned on answers with its first start's outcome (failed: and why).
 */
export const setEnabled = (id: string, enabled: boolean): Promise<ServerView> => call(() => backend().mcp.SetEnabled(id, enabled));
export const restartServer = (id: string) => call(() => backend().mcp.Restart(id));

/** chooseFolder opens the native folder dialog; "" means cancelled. */
export const chooseFolder = () => call(() => backend().mcp.ChooseFolder());

/** chooseImportFile opens the native file dialog; "" means cancelled. */
export const chooseImportFile = () => call(() => backend().mcp.ChooseImportFile());

/**
 * previewImport reads a config file once and shows everything its servers
 * would run or send; importServers(preview.token, ids) imports exactly those.
 */
export const previewImport = (path: string): Promise<ImportPreview> => call(() => backend().mcp.PreviewImport(path));

/** previewImportData previews a file dropped on the window: its name and text. */
export const previewImportData = (name: string, content: string): Promise<ImportPreview> =>
  call(() => backend().mcp.PreviewImportData(name, content));

/** importServers imports the chosen ids of a preview ([] imports all of them); the file is not read again. */
export const importServers = (token: string, ids: string[]): Promise<ImportResult> => call(() => backend().mcp.Import(token, ids));

/** detectConfigs lists the MCP configs of Claude Desktop, Cursor, VS Code and Windsurf on this machine (SPEC F6). */
export const detectConfigs = (): Promise<DetectedConfig[]> => call(() => backend().mcp.DetectConfigs());

export const rpcLog = (): Promise<RPCEntry[]> => call(() => backend().mcp.RPCLog());

export const clearRPCLog = () => call(() => backend().mcp.ClearRPCLog());
export const configFile = () => call(() => backend().mcp.ConfigFile());

/** serverDefaults returns the application-wide server defaults (the default timeout). */
export const serverDefaults = (): Promise<PoolDefaults> => call(() => backend().mcp.Defaults());
/** saveServerDefaults stores and applies the server defaults; it returns what was stored. */
export const saveServerDefaults = (d: PoolDefaults): Promise<PoolDefaults> => call(() => backend().mcp.SaveDefaults(d));

/**
 * signIn signs in to a remote server that asked for it (OAuth): the
 * browser opens; it resolves once the user approved and the server
 * reconnects, or rejects with why. Each step arrives as mcp:sign-in-step.
 */
export const signIn = (id: string) => call(() => backend().mcp.SignIn(id));
/** signInStepByStep signs in as signIn does, waiting before each step for continueSignIn (the OAuth debugger). */
export const signInStepByStep = (id: string) => call(() => backend().mcp.SignInStepByStep(id));
/** continueSignIn lets a step-by-step sign-in's waiting step run. */
export const continueSignIn = (id: string) => call(() => backend().mcp.ContinueSignIn(id));
/** cancelSignIn stops waiting for the browser. */
export const cancelSignIn = (id: string) => call(() => backend().mcp.CancelSignIn(id));
/** signOut revokes the server's tokens where it allows and forgets them. */
export const signOut = (id: string) => call(() => backend().mcp.SignOut(id));
