// Typed wrappers over the UsageStats service (SPEC E1, E2). Go sends nil
// slices as null and may leave optional fields out; everything returned
// here has them filled in.

import { backend } from './backend';
import { call } from './call';
import type {
  AuditPage,
  AuditQuery,
  ConversationUsageRow,
  Price,
  UsageExportBy,
  UsageQuery,
  UsageRow,
  UsageSummary,
  UsageTotals,
} from './usageTypes';

const num = (n: unknown): number => (typeof n === 'number' && Number.isFinite(n) ? n : 0);

/** normalizeTotals fills in missing counts; a missing or non-numeric cost is null (no price). */
export function normalizeTotals(t: Partial<UsageTotals> | null | undefined): UsageTotals {
  const cost = typeof t?.cost === 'number' && Number.isFinite(t.cost) ? t.cost : null;
  return {
    calls: num(t?.calls),
    promptTokens: num(t?.promptTokens),
    completionTokens: num(t?.completionTokens),
    cachedTokens: num(t?.cachedTokens),
    reasoningTokens: num(t?.reasoningTokens),
    cost,
    pricedCost: typeof t?.pricedCost === 'number' && Number.isFinite(t.pricedCost) ? t.pricedCost : (cost ?? 0),
    unpricedCalls: num(t?.unpricedCalls),
    costPartial: !!t?.costPartial,
  };
}

/**
 * knownCost is what a group is known to cost: all of it, or — when some
 * calls have no price — what the priced ones cost; null when none has one.
 */
export function knownCost(t: UsageTotals): number | null {
  if (t.cost !== null) return t.cost;
  return t.costPartial ? t.pricedCost : null;
}

function normalizeRow(r: Partial<UsageRow>): UsageRow {
  return {
    ...normalizeTotals(r),
    key: r.key ?? '',
    label: r.label || r.key || '',
    ...(r.day ? { day: r.day } : {}),
    ...(r.provider ? { provider: r.provider } : {}),
    ...(r.preset ? { preset: r.preset } : {}),
    ...(r.model ? { model: r.model } : {}),
  };
}

/** normalizeSummary fills in what Go may send as null. */
export function normalizeSummary(s: Partial<UsageSummary> | null | undefined): UsageSummary {
  const byConversation = (s?.byConversation ?? []).map(
    (r): ConversationUsageRow => ({ ...normalizeRow(r), conversationId: num(r.conversationId), title: r.title ?? '', deleted: !!r.deleted }),
  );
  return {
    from: s?.from ?? '',
    to: s?.to ?? '',
    tzOffsetMinutes: num(s?.tzOffsetMinutes),
    totals: normalizeTotals(s?.totals),
    byDay: (s?.byDay ?? []).map(normalizeRow),
    byProvider: (s?.byProvider ?? []).map(normalizeRow),
    byModel: (s?.byModel ?? []).map(normalizeRow),
    byConversation,
    conversations: Math.max(num(s?.conversations), byConversation.length),
    unpriced: [...(s?.unpriced ?? [])],
  };
}

/** usageSummary aggregates the LLM calls q selects: totals, per day, provider, model and conversation. */
export async function usageSummary(q: UsageQuery): Promise<UsageSummary> {
  return normalizeSummary(await call(() => backend().usage.Summary(q)));
}

/** conversationTotal is one conversation's running total. */
export async function conversationTotal(id: number): Promise<UsageTotals> {
  return normalizeTotals(await call(() => backend().usage.ConversationTotal(id)));
}

const normalizePrice = (p: Price): Price => ({
  provider: p.provider ?? '',
  model: p.model ?? '',
  inputPerM: num(p.inputPerM),
  cachedInputPerM: typeof p.cachedInputPerM === 'number' && Number.isFinite(p.cachedInputPerM) ? p.cachedInputPerM : null,
  outputPerM: num(p.outputPerM),
  source: p.source === 'user' ? 'user' : 'default',
});

/** usagePrices lists the pricing table: shipped defaults and the user's own prices. */
export async function usagePrices(): Promise<Price[]> {
  return ((await call(() => backend().usage.Prices())) ?? []).map(normalizePrice);
}

/** setUsagePrice stores the user's price for one model and returns it as stored. */
export async function setUsagePrice(p: Price): Promise<Price> {
  return normalizePrice(await call(() => backend().usage.SetPrice({ ...p, source: 'user' })));
}

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
