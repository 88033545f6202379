// The detail of one server (mcp.ServerDetail): what it declared, its
// instructions, its standard error and its recent starts.

import { backend } from './backend';
import { call } from './call';
import type { ServerSpec, ServerStatus } from './types';

/** Why a server was (re)started (mcp.StartRecord.Cause). */
export type StartCause = 'start' | 'userRestart' | 'configChanged' | 'enabled' | 'retry' | 'connectionLost';

/** One start of a server (mcp.StartRecord). */
export interface StartRecord {
  /** Unix milliseconds. */
  time: number;
  cause: StartCause;
  /** The error behind an automatic restart (secrets redacted). */
  detail?: string;
}

/** What a server declared it offers (mcp.ServerCapabilities). */
export interface ServerCapabilities {
  tools: boolean;
  toolsListChanged: boolean;
  resources: boolean;
  resourcesSubscribe: boolean;
  resourcesListChanged: boolean;
  prompts: boolean;
  promptsListChanged: boolean;
  logging: boolean;
  completions: boolean;
  tasks: boolean;
  /** Names of its experimental and extension capabilities. */
  experimental: string[];
}

/** Everything the detail view of one server shows (mcp.ServerDetail). */
export interface ServerDetail {
  spec: ServerSpec;
  status: ServerStatus;
  /** Absent while the server is not connected. */
  capabilities?: ServerCapabilities | null;
  /** As the server sent them: sanitise before rendering. */
  instructions: string;
  stderr: string;
  /** Newest first. */
  starts: StartRecord[];
}

/** serverDetail returns the detail of one server; rejects with Go's message for an unknown id. */
export async function serverDetail(id: string): Promise<ServerDetail> {
  const d = await call(() => backend().mcp.ServerDetail(id));
  return { ...d, instructions: d.instructions ?? '', stderr: d.stderr ?? '', starts: d.starts ?? [] };
}
