// The usage API: what the wrappers call and what they fill in.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { auditLog, conversationTotal, knownCost, setBackend, usagePrices, usageSummary } from './index';
import type { UsageQuery } from './usageTypes';

describe('usage api', () => {
  afterEach(() => {
    setBackend(null);
    delete (window as { go?: unknown }).go;
  });

  it('calls window.go.usage.UsageStats and hands back what Go returns', async () => {
    const totals = { calls: 2, promptTokens: 0, completionTokens: 0, cachedTokens: 0, reasoningTokens: 0, cost: null, pricedCost: 0.5, unpricedCalls: 1, costPartial: true };
    const summary = { from: '', to: '', tzOffsetMinutes: 60, totals, byDay: [], byProvider: [], byModel: [], byConversation: [], conversations: 0, unpriced: [] };
    const Summary = vi.fn(async () => summary);
    const ConversationTotal = vi.fn(async () => ({ ...totals, calls: 1, cost: 0.25, pricedCost: 0.25, unpricedCalls: 0, costPartial: false }));
    const Prices = vi.fn(async () => [{ provider: 'openai', model: 'gpt-4o', inputPerM: 2.5, cachedInputPerM: null, outputPerM: 10, source: 'default' }]);
    const Audit = vi.fn(async () => ({ entries: [], total: 0 }));
    (window as { go?: unknown }).go = { usage: { UsageStats: { Summary, ConversationTotal, Prices, Audit } } };
    const q: UsageQuery = { from: '2026-03-01', to: '2026-03-15', tzOffsetMinutes: 60, provider: '', model: '', conversationId: 0 };
    const s = await usageSummary(q);
    expect(Summary).toHaveBeenCalledWith(q);
    expect(s).toEqual(summary);
    expect(knownCost(s.totals)).toBe(0.5);
    expect(await conversationTotal(7)).toMatchObject({ cost: 0.25, pricedCost: 0.25, unpricedCalls: 0 });
    expect(ConversationTotal).toHaveBeenCalledWith(7);
    expect((await usagePrices())[0]).toMatchObject({ cachedInputPerM: null, source: 'default' });
    expect(await auditLog({ from: '', to: '', tzOffsetMinutes: 0, server: '', tool: '', status: '', source: '', text: '', limit: 50, offset: 0 })).toEqual({ entries: [], total: 0 });
  });

  it('knownCost: all of it, a lower bound when partial, null without any price', () => {
    const t = { calls: 1, promptTokens: 0, completionTokens: 0, cachedTokens: 0, reasoningTokens: 0, cost: null, pricedCost: 0, unpricedCalls: 0, costPartial: false };
    expect(knownCost({ ...t, cost: 1 })).toBe(1);
    expect(knownCost({ ...t, cost: null, pricedCost: 0.3, costPartial: true })).toBe(0.3);
    expect(knownCost({ ...t, cost: null, pricedCost: 0, costPartial: false })).toBeNull();
  });
});
