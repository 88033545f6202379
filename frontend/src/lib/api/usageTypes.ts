// The types of backend/usage (the bound UsageStats, SPEC E1, E2) and of the
// audit log, generated from Go (backend/contract), and the value lists the
// UI offers for its enums.
import type { AuditEntry, ExportBy } from './generated/contract';
import { allOf } from './values';

export type {
  AuditEntry,
  AuditPage,
  AuditQuery,
  ConversationUsageRow,
  ExportBy as UsageExportBy,
  Price,
  UsageQuery,
  UsageRow,
  UsageSummary,
  UsageTotals,
} from './generated/contract';

/** Where a tool call came from: a chat, the Tools screen, the command line. */
export type AuditSource = AuditEntry['source'];
/** How a tool call ended. */
export type AuditStatus = AuditEntry['status'];
/** Where a price comes from: shipped with the app, or set by the user. */
export type PriceSource = import('./generated/contract').Price['source'];

export const USAGE_EXPORT_BY = allOf<ExportBy>()(['day', 'provider', 'model', 'conversation', 'calls']);
export const AUDIT_SOURCES = allOf<AuditSource>()(['chat', 'tools', 'cli', 'view']);
export const AUDIT_STATUSES = allOf<AuditStatus>()(['ok', 'error', 'cancelled', 'declined', 'timeout']);
