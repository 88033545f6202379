// Typed wrappers over the UsageStats service (SPEC E1, E2), as the
// generated contract types them (lists never null: backend/core's
// TestBoundResultsAreNotNull).

import { backend } from './backend';
import { call } from './call';
import type {
  AuditPage,
  AuditQuery,
  Price,
  UsageExportBy,
  UsageQuery,
  UsageSummary,
  UsageTotals,
} from './usageTypes';

/**
 * knownCost is what a group is known to cost: all of it, or — when some
 * calls have no price — what the priced ones cost; null when none has one.
 */
export function knownCost(t: UsageTotals): number | null {
  if (t.cost !== null) return t.cost;
  return t.costPartial ? t.pricedCost : null;
}

/** usageSummary aggregates the LLM calls q selects: totals, per day, provider, model and conversation. */
export const usageSummary = (q: UsageQuery): Promise<UsageSummary> => call(() => backend().usage.Summary(q));

/** conversationTotal is one conversation's running total. */
export const conversationTotal = (id: number): Promise<UsageTotals> => call(() => backend().usage.ConversationTotal(id));

/** usagePrices lists the pricing table: shipped defaults and the user's own prices. */
export const usagePrices = (): Promise<Price[]> => call(() => backend().usage.Prices());

/** setUsagePrice stores the user's price for one model and returns it as stored. */
export const setUsagePrice = (p: Price): Promise<Price> => call(() => backend().usage.SetPrice({ ...p, source: 'user' }));

/** resetUsagePrice drops the user's price: the shipped default (if any) applies again. */
export const resetUsagePrice = (provider: string, model: string): Promise<void> =>
  call(() => backend().usage.ResetPrice(provider, model));

/** usageCSV returns the CSV text of q grouped by `by`. */
export const usageCSV = (q: UsageQuery, by: UsageExportBy): Promise<string> => call(() => backend().usage.ExportCSV(q, by));

/** saveUsageCSV asks where to save the CSV and writes it; "" when the user cancelled. */
export const saveUsageCSV = (q: UsageQuery, by: UsageExportBy): Promise<string> =>
  call(() => backend().usage.SaveCSV(q, by));

/** auditLog returns one page of the tool-call audit log, newest first. */
export const auditLog = (q: AuditQuery): Promise<AuditPage> => call(() => backend().usage.Audit(q));
