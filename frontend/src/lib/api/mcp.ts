// Typed wrappers over the MCPPool service. Go sends nil slices as null;
// everything returned here has its arrays filled in.

import { backend } from './backend';
import { call } from './call';
import type {
  DetectedConfig,
  ImportPreview,
  ImportResult,
  PoolDefaults,
  RPCEntry,
  SecretPair,
  ServerSpec,
  ServerStatus,
  ServerView,
} from './types';

/** normalizeSpec fills in missing arrays and defaults of a spec from Go. */
export function normalizeSpec(s: Partial<ServerSpec> & { id: string }): ServerSpec {
  return {
    id: s.id,
    type: s.type ?? (s.url ? 'http' : 'stdio'),
    command: s.command ?? '',
    args: s.args ?? [],
    env: (s.env ?? []).map(normalizePair),
    cwd: s.cwd ?? '',
    url: s.url ?? '',
    headers: (s.headers ?? []).map(normalizePair),
    enabled: s.enabled ?? true,
    timeoutMs: s.timeoutMs ?? 0,
    maxConcurrency: s.maxConcurrency ?? 0,
    maxMessageBytes: s.maxMessageBytes ?? 0,
    protocolVersion: s.protocolVersion ?? '',
    roots: s.roots ?? [],
  };
}

function normalizePair(p: SecretPair): SecretPair {
  return { key: p.key, value: p.value ?? '', keep: !!p.keep, secret: !!p.secret, inFile: !!p.inFile };
}

/** revealSecret fetches the stored value of a server's secret env variable or header, when the user asks to see it. */
export const revealSecret = (server: string, kind: 'env' | 'header', name: string) =>
  call(() => backend().mcp.RevealSecret(server, kind, name));

/** moveSecretsToKeychain moves the secrets written in plain text in the config file into the OS keychain ([]: every server). */
export const moveSecretsToKeychain = (ids: string[]) => call(() => backend().mcp.MoveSecretsToKeychain(ids));

/** normalizeStatus fills in the fields Go leaves out of a status. */
export function normalizeStatus(s: Partial<ServerStatus> & { id: string }): ServerStatus {
  return {
    ...s,
    id: s.id,
    state: s.state ?? 'connecting',
    transport: s.transport ?? '',
    protocolVersion: s.protocolVersion ?? '',
    serverName: s.serverName ?? '',
    serverVersion: s.serverVersion ?? '',
    tools: s.tools ?? 0,
    resources: s.resources ?? 0,
    prompts: s.prompts ?? 0,
  };
}

function normalizeView(v: ServerView): ServerView {
  return { spec: normalizeSpec(v.spec), status: normalizeStatus({ ...v.status, id: v.status?.id || v.spec.id }) };
}

/** listServers returns every configured server with its status, in config order. */
export async function listServers(): Promise<ServerView[]> {
  const views = await call(() => backend().mcp.ListServers());
  return (views ?? []).map(normalizeView);
}

/** saveServer adds (originalId "") or updates a server and returns it as stored. */
export async function saveServer(originalId: string, spec: ServerSpec): Promise<ServerView> {
  return normalizeView(await call(() => backend().mcp.SaveServer(originalId, spec)));
}

export const removeServer = (id: string) => call(() => backend().mcp.RemoveServer(id));
/**
 * setEnabled turns a server on or off and returns it as stored; a server
 * turned on answers with its first start's outcome (failed: and why).
 */
export async function setEnabled(id: string, enabled: boolean): Promise<ServerView> {
  return normalizeView(await call(() => backend().mcp.SetEnabled(id, enabled)));
}
export const restartServer = (id: string) => call(() => backend().mcp.Restart(id));

/** chooseFolder opens the native folder dialog; "" means cancelled. */
export const chooseFolder = () => call(() => backend().mcp.ChooseFolder());

/** chooseImportFile opens the native file dialog; "" means cancelled. */
export const chooseImportFile = () => call(() => backend().mcp.ChooseImportFile());

/**
 * previewImport reads a config file once and shows everything its servers
 * would run or send; importServers(preview.token, ids) imports exactly those.
 */
export async function previewImport(path: string): Promise<ImportPreview> {
  return normalizePreview(await call(() => backend().mcp.PreviewImport(path)));
}

/** previewImportData previews a file dropped on the window: its name and text. */
export async function previewImportData(name: string, content: string): Promise<ImportPreview> {
  return normalizePreview(await call(() => backend().mcp.PreviewImportData(name, content)));
}

/** importServers imports the chosen ids of a preview ([] imports all of them); the file is not read again. */
export async function importServers(token: string, ids: string[]): Promise<ImportResult> {
  const r = await call(() => backend().mcp.Import(token, ids));
  return { added: r.added ?? [], replaced: r.replaced ?? [] };
}

// Go writes a nil slice as null.
function normalizePreview(p: ImportPreview): ImportPreview {
  return { ...p, items: (p.items ?? []).map((i) => ({ ...i, problems: i.problems ?? [] })) };
}

/** detectConfigs lists the MCP configs of Claude Desktop, Cursor, VS Code and Windsurf on this machine (SPEC F6). */
export async function detectConfigs(): Promise<DetectedConfig[]> {
  const found = (await call(() => backend().mcp.DetectConfigs())) ?? [];
  return found.map((d) => ({ ...d, servers: d.servers ?? [], configured: d.configured ?? [], broken: d.broken ?? [], error: d.error ?? '' }));
}

export async function rpcLog(): Promise<RPCEntry[]> {
  return (await call(() => backend().mcp.RPCLog())) ?? [];
}

export const clearRPCLog = () => call(() => backend().mcp.ClearRPCLog());
export const configFile = () => call(() => backend().mcp.ConfigFile());

/** serverDefaults returns the application-wide server defaults (the default timeout). */
export const serverDefaults = (): Promise<PoolDefaults> => call(() => backend().mcp.Defaults());
/** saveServerDefaults stores and applies the server defaults; it returns what was stored. */
export const saveServerDefaults = (d: PoolDefaults): Promise<PoolDefaults> => call(() => backend().mcp.SaveDefaults(d));
