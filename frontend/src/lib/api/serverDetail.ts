// The detail of one server (mcp.ServerDetail): what it declared, its
// instructions, its standard error and its recent starts.

import { backend } from './backend';
import { call } from './call';
import type { ServerDetail, StartRecord } from './generated/contract';

export type { ServerCapabilities, ServerDetail, StartRecord } from './generated/contract';
/** Why a server (re)started. */
export type StartCause = StartRecord['cause'];

/** serverDetail returns the detail of one server; rejects with Go's message for an unknown id. */
export function serverDetail(id: string): Promise<ServerDetail> {
  return call(() => backend().mcp.ServerDetail(id));
}
