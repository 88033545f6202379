// The usage half of the contract with Go: backend/usage's bound types,
// store.AuditEntry and the usage:changed payload, field by field.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { UsageChangedPayload } from './events';
import { auditLog, conversationTotal, knownCost, normalizeSummary, setBackend, usagePrices, usageSummary } from './index';
import { AUDIT_SOURCES, AUDIT_STATUSES } from './usageTypes';
import type {
  AuditEntry,
  AuditPage,
  AuditQuery,
  ConversationUsageRow,
  Price,
  UsageQuery,
  UsageRow,
  UsageSummary,
  UsageTotals,
} from './usageTypes';

const GO = (file: string) => readFileSync(join(import.meta.dirname, '../../../../backend', file), 'utf8');
const GO_USAGE = ['usage/summary.go', 'usage/pricing.go', 'usage/audit.go'].map(GO).join('\n');
const GO_STORE_AUDIT = GO('store/audit.go');
const GO_EVENTS = GO('events/usage.go');

/** goJSONFields returns the json field names of a Go struct. */
function goJSONFields(struct: string, src: string): string[] {
  const body = new RegExp(`type ${struct} struct \\{([\\s\\S]*?)\\n\\}`).exec(src)?.[1] ?? '';
  return [...body.matchAll(/json:"([^",]+)/g)].map((m) => m[1]).sort();
}

const keys = (v: object) => Object.keys(v).sort();

describe('usage contract with backend/usage and store/audit.go', () => {
  const totals: Required<UsageTotals> = {
    calls: 0, promptTokens: 0, completionTokens: 0, cachedTokens: 0, reasoningTokens: 0, cost: null, pricedCost: 0, unpricedCalls: 0, costPartial: false,
  };
  const row: Required<UsageRow> = { ...totals, key: '', label: '', day: '', provider: '', preset: '', model: '' };
  const conv: Required<Omit<ConversationUsageRow, 'day' | 'provider' | 'preset' | 'model'>> = {
    ...totals, key: '', label: '', conversationId: 0, title: '', deleted: false,
  };
  const summary: Required<UsageSummary> = {
    from: '', to: '', tzOffsetMinutes: 0, totals, byDay: [], byProvider: [], byModel: [], byConversation: [], conversations: 0, unpriced: [],
  };
  const query: Required<UsageQuery> = { from: '', to: '', tzOffsetMinutes: 0, provider: '', model: '', conversationId: 0 };
  const price: Required<Price> = { provider: '', model: '', inputPerM: 0, cachedInputPerM: null, outputPerM: 0, source: 'user' };
  const auditQuery: Required<AuditQuery> = {
    from: '', to: '', tzOffsetMinutes: 0, server: '', tool: '', status: '', source: '', text: '', limit: 0, offset: 0,
  };
  const page: Required<AuditPage> = { entries: [], total: 0 };
  const entry: Required<AuditEntry> = {
    id: 0, time: '', source: 'chat', conversationId: 0, server: '', tool: '', arguments: '', argumentsTruncated: false, durationMs: 0,
    status: 'ok', output: '', outputTruncated: false, error: '', approval: '', definitionHash: '',
  };
  const changed: Required<UsageChangedPayload> = { conversationId: 0 };

  it.each([
    ['UsageQuery', query, GO_USAGE],
    ['Totals', totals, GO_USAGE],
    ['Row', row, GO_USAGE],
    ['ConversationRow', conv, GO_USAGE],
    ['UsageSummary', summary, GO_USAGE],
    ['Price', price, GO_USAGE],
    ['AuditQuery', auditQuery, GO_USAGE],
    ['AuditPage', page, GO_USAGE],
    ['AuditEntry', entry, GO_STORE_AUDIT],
    ['UsageChangedPayload', changed, GO_EVENTS],
  ] as Array<[string, object, string]>)('%s has the same fields', (struct, value, src) => {
    expect(keys(value)).toEqual(goJSONFields(struct, src));
  });

  it('names the same audit statuses and sources', () => {
    const consts = (names: string) => [...GO_STORE_AUDIT.matchAll(new RegExp(`\\s(?:${names})\\s+= "([^"]+)"`, 'g'))].map((m) => m[1]).sort();
    expect(consts('AuditOK|AuditError|AuditCancelled|AuditDeclined|AuditTimeout')).toEqual([...AUDIT_STATUSES].sort());
    expect(consts('AuditChat|AuditTools|AuditCLI')).toEqual([...AUDIT_SOURCES].sort());
  });
});

describe('usage api', () => {
  afterEach(() => {
    setBackend(null);
    delete (window as { go?: unknown }).go;
  });

  it('calls window.go.usage.UsageStats and fills in what Go leaves null', async () => {
    const Summary = vi.fn(async () => ({ totals: { calls: 2, cost: null, pricedCost: 0.5, unpricedCalls: 1, costPartial: true }, byDay: null, byProvider: null, byModel: null, byConversation: null, unpriced: null }));
    const ConversationTotal = vi.fn(async () => ({ calls: 1, cost: 0.25 }));
    const Prices = vi.fn(async () => [{ provider: 'openai', model: 'gpt-4o', inputPerM: 2.5, cachedInputPerM: null, outputPerM: 10, source: 'default' }]);
    const Audit = vi.fn(async () => ({ entries: [], total: 0 })); // Go sends [] (usage.TestEmptyListsAreArraysNotNull)
    (window as { go?: unknown }).go = { usage: { UsageStats: { Summary, ConversationTotal, Prices, Audit } } };
    const q: UsageQuery = { from: '2026-03-01', to: '2026-03-15', tzOffsetMinutes: 60, provider: '', model: '', conversationId: 0 };
    const s = await usageSummary(q);
    expect(Summary).toHaveBeenCalledWith(q);
    expect(s.byDay).toEqual([]);
    expect(s.unpriced).toEqual([]);
    expect(s.totals).toMatchObject({ cost: null, pricedCost: 0.5, costPartial: true, promptTokens: 0 });
    expect(knownCost(s.totals)).toBe(0.5);
    expect(await conversationTotal(7)).toMatchObject({ cost: 0.25, pricedCost: 0.25, unpricedCalls: 0 });
    expect(ConversationTotal).toHaveBeenCalledWith(7);
    expect((await usagePrices())[0]).toMatchObject({ cachedInputPerM: null, source: 'default' });
    expect(await auditLog({ from: '', to: '', tzOffsetMinutes: 0, server: '', tool: '', status: '', source: '', text: '', limit: 50, offset: 0 })).toEqual({ entries: [], total: 0 });
  });

  it('knownCost: all of it, a lower bound when partial, null without any price', () => {
    const s = normalizeSummary({});
    expect(knownCost({ ...s.totals, cost: 1 })).toBe(1);
    expect(knownCost({ ...s.totals, cost: null, pricedCost: 0.3, costPartial: true })).toBe(0.3);
    expect(knownCost({ ...s.totals, cost: null, pricedCost: 0, costPartial: false })).toBeNull();
  });
});
