// Types of trust pinning (SPEC G1): backend/trust, the identity facts of
// backend/mcpconfig and the report of backend/chat/trust.go, generated from
// Go (backend/contract).
import type { TrustChange, TrustWarning } from './generated/contract';

export type {
  ChangedTool,
  DiffSpan,
  IdentityFacts,
  SchemaChange,
  ServerChange,
  ServerTrust,
  SuspendedPolicy,
  ToolChange,
  ToolTrust,
  TrustChange,
  TrustReport,
  TrustWarning,
} from './generated/contract';

/** The kind of a suspicious-definition warning. */
export type TrustWarningKind = TrustWarning['kind'];
/** A standing approval that pinning suspends when its tool or server changes. */
export type PinnedPolicy = TrustChange['policy'];
