import { fireEvent, screen, waitFor, within } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Price, UsageQuery } from '../../api';
import type { FakeBackend, FakeOptions } from '../../../test/fakes/fake';
import type { FakeUsageCall } from '../../../test/fakes/fakeUsage';
import { setLocale } from '../../i18n';
import { go, renderApp } from '../../../test/app';
import { chartData, stack } from './chartData';
import { money } from './format';

// uPlot draws on a canvas, which jsdom lacks: record what it is given instead.
const plots = vi.hoisted(() => [] as Array<{ opts: { series: Array<{ label?: string; fill?: string }> }; data: number[][] }>);
vi.mock('uplot', () => ({
  default: class {
    static paths = { bars: () => () => null };
    constructor(opts: (typeof plots)[number]['opts'], data: number[][]) {
      plots.push({ opts, data });
    }
    setSize() {}
    destroy() {}
  },
}));

const at = (y: number, m: number, d: number, h = 10) => new Date(y, m - 1, d, h).getTime();
const NOW = new Date(2026, 2, 15, 12); // Sunday 15 March 2026, local time

const PROVIDERS: FakeOptions['providers'] = {
  providers: [
    { id: 'openai-1', name: 'OpenAI', preset: 'openai', keyInKeychain: true },
    { id: 'ds', name: 'DeepSeek', preset: 'deepseek', keyInKeychain: true },
    { id: 'local', name: 'LM Studio', preset: 'lmstudio' },
  ],
};

const CALLS: FakeUsageCall[] = [
  { time: at(2026, 3, 14), provider: 'openai-1', model: 'gpt-4o', conversationId: 1, title: 'Weather in Lisbon', promptTokens: 1000, completionTokens: 200, cachedTokens: 100 },
  { time: at(2026, 3, 15), provider: 'openai-1', model: 'gpt-4o-mini', conversationId: 2, title: 'Plan the release', promptTokens: 2000, completionTokens: 500 },
  { time: at(2026, 3, 10), provider: 'ds', model: 'deepseek-chat', conversationId: 1, title: 'Weather in Lisbon', promptTokens: 3000, completionTokens: 300, reasoningTokens: 40 },
  { time: at(2026, 3, 15), provider: 'local', model: 'qwen2.5-7b-instruct', conversationId: 2, title: 'Plan the release', promptTokens: 500, completionTokens: 50 },
  { time: at(2026, 1, 20), provider: 'openai-1', model: 'gpt-4o', conversationId: 3, title: 'Old one', promptTokens: 10000, completionTokens: 1000 },
];

const CONVERSATIONS: NonNullable<FakeOptions['chat']>['conversations'] = [
  { conversation: { id: 1, title: 'Weather in Lisbon', settings: { provider: 'openai-1', model: 'gpt-4o' } as never } },
  { conversation: { id: 2, title: 'Plan the release' } },
];

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
  plots.length = 0;
});

afterEach(() => {
  vi.useRealTimers();
});

async function openUsage(o: FakeOptions = {}) {
  const r = renderApp({ providers: PROVIDERS, usage: { calls: CALLS }, chat: { conversations: CONVERSATIONS }, ...o });
  await go(r.user, 'usage');
  // The screen is a chunk of its own, imported when first opened.
  await screen.findByTestId('usage-screen', {}, { timeout: 5000 });
  return r;
}

const summaries = (fake: FakeBackend) => fake.callsOf('usage.Summary').map((a) => a[0] as UsageQuery);
/** asked waits until Summary was called with a query matching q. */
const asked = (fake: FakeBackend, q: Partial<UsageQuery>) =>
  waitFor(() => expect(summaries(fake)).toContainEqual(expect.objectContaining(q)));
const card = (id: string) => screen.getByTestId(`usage-total-${id}`);
const rows = (table: string) => within(screen.getByTestId(table)).getAllByTestId('usage-row');

describe('Usage: totals, charts and breakdowns', () => {
  it('shows the last 30 days: totals, tokens and cost per day by provider, and tables', async () => {
    const { fake } = await openUsage();
    await waitFor(() => expect(card('input')).toHaveTextContent('6,500 prompt tokens'));
    expect(summaries(fake)[0]).toEqual({
      from: '2026-02-14',
      to: '2026-03-15',
      tzOffsetMinutes: -NOW.getTimezoneOffset() || 0,
      provider: '',
      model: '',
      conversationId: 0,
    });
    expect(card('input')).toHaveTextContent('6.5K');
    expect(card('output')).toHaveTextContent('1,050 completion tokens');
    expect(card('cached')).toHaveTextContent('100 served');
    expect(card('reasoning')).toHaveTextContent('40 output tokens');
    expect(card('calls')).toHaveTextContent('4 requests');
    // Known: gpt-4o 900×2.5 + 100×1.25 + 200×10; mini 2000×0.15 + 500×0.6; deepseek 3000×0.28 + 300×0.42 — per million.
    // LM Studio's call has no price: the total is what the others cost, marked partial.
    const cost = (2250 + 125 + 2000 + 300 + 300 + 840 + 126) / 1e6;
    expect(within(card('cost')).getByTestId('cost-amount')).toHaveTextContent(money(cost, 'en'));
    expect(within(card('cost')).getByTestId('cost-partial')).toHaveTextContent('partial');
    expect(screen.getByTestId('usage-meta')).toHaveTextContent('4 model calls · 2 conversations');

    // Both charts: one bar per day of the range, stacked by provider (Go
    // sends whole days: each provider's days are asked for with a filter).
    const tokens = screen.getByTestId('usage-chart-tokens-table');
    expect(within(tokens).getAllByRole('row')).toHaveLength(31);
    await waitFor(() =>
      expect(within(tokens).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Day', 'OpenAI', 'DeepSeek', 'LM Studio', 'Total']),
    );
    for (const provider of ['openai-1', 'ds', 'local']) await asked(fake, { from: '2026-02-14', provider });
    const mar15 = within(tokens).getAllByRole('row').at(-1)!;
    expect(within(mar15).getAllByRole('cell').map((c) => c.textContent)).toEqual(['2,500', '0', '550', '3,050']);
    await waitFor(() =>
      expect(plots.map((p) => p.opts.series.slice(1).map((s) => s.label))).toContainEqual(['LM Studio', 'DeepSeek', 'OpenAI']),
    );
    expect(plots.at(-1)!.data[0]).toHaveLength(30);
    expect(screen.getByTestId('usage-chart-cost-note')).toHaveTextContent('Not counted, no price set: LM Studio.');

    expect(rows('usage-by-provider').map((r) => r.getAttribute('data-key'))).toEqual(['openai-1', 'ds', 'local']);
    expect(rows('usage-by-model')).toHaveLength(4);
    const conv = rows('usage-by-conversation');
    expect(conv.map((r) => within(r).getByTestId('usage-open-conversation').textContent?.trim())).toEqual(['Weather in Lisbon', 'Plan the release']);
  });

  it('switches the charts to a split by model', async () => {
    const { user } = await openUsage();
    await screen.findByTestId('usage-chart-tokens-table');
    await user.click(screen.getByTestId('usage-split-model'));
    const heads = () => within(screen.getByTestId('usage-chart-tokens-table')).getAllByRole('columnheader').map((h) => h.textContent);
    await waitFor(() => expect(heads()).toEqual(['Day', 'deepseek-chat', 'gpt-4o-mini', 'gpt-4o', 'qwen2.5-7b-instruct', 'Total']));
  });

  it('says "no price set" instead of a cost when no call has a price, and starts a price for the model', async () => {
    const { fake, user } = await openUsage({ usage: { calls: [CALLS[3]] } });
    await waitFor(() => expect(within(card('cost')).getByTestId('cost-none')).toHaveTextContent('no price set'));
    expect(within(card('cost')).queryByTestId('cost-amount')).toBeNull();
    const model = rows('usage-by-model')[0];
    expect(within(model).getByTestId('usage-row-cost')).toHaveTextContent('no price set');

    await user.click(within(model).getByTestId('usage-set-price'));
    expect(screen.getByTestId('usage-tab-prices')).toHaveAttribute('aria-selected', 'true');
    const form = within(await screen.findByTestId('price-form'));
    expect(form.getByTestId('price-provider')).toHaveValue('local');
    expect(form.getByTestId('price-model')).toHaveValue('qwen2.5-7b-instruct');
    await user.type(form.getByTestId('price-input'), '0.1');
    await user.type(form.getByTestId('price-output'), '0.3');
    await user.click(form.getByTestId('price-save'));
    await waitFor(() => expect(fake.callsOf('usage.SetPrice')).toHaveLength(1));
    expect(fake.callsOf('usage.SetPrice')[0][0]).toEqual({
      provider: 'local',
      model: 'qwen2.5-7b-instruct',
      inputPerM: 0.1,
      cachedInputPerM: null,
      outputPerM: 0.3,
      source: 'user',
    } satisfies Price);
    await waitFor(() => expect(screen.queryByTestId('price-form')).toBeNull());
    const row = screen.getAllByTestId('price-row').find((r) => r.dataset.model === 'qwen2.5-7b-instruct')!;
    expect(row).toHaveAttribute('data-source', 'user');
    await user.click(screen.getByTestId('usage-tab-overview'));
    await waitFor(() => expect(within(card('cost')).getByTestId('cost-amount')).toHaveTextContent('$0.0001'));
  });

  it('sends the range presets and a custom range as from/to days', async () => {
    const { fake, user } = await openUsage();
    await screen.findByTestId('usage-total-input');
    await user.click(screen.getByTestId('usage-range-7d'));
    await asked(fake, { from: '2026-03-09', to: '2026-03-15', provider: '' });
    await user.click(screen.getByTestId('usage-range-today'));
    await asked(fake, { from: '2026-03-15', to: '2026-03-15', provider: '' });
    await waitFor(() => expect(card('calls')).toHaveTextContent('2 requests'));
    await user.click(screen.getByTestId('usage-range-month'));
    await asked(fake, { from: '2026-03-01', to: '2026-03-15', provider: '' });
    expect(screen.getByTestId('usage-range-month')).toHaveAttribute('aria-checked', 'true');

    await user.click(screen.getByTestId('usage-range-custom'));
    await fireEvent.change(screen.getByTestId('usage-from'), { target: { value: '2026-01-01' } });
    await asked(fake, { from: '2026-01-01', to: '2026-03-15', provider: '' });
    await waitFor(() => expect(card('calls')).toHaveTextContent('5 requests'));
    // A reversed range is flagged and not sent.
    const sent = summaries(fake).length;
    await fireEvent.change(screen.getByTestId('usage-to'), { target: { value: '2025-12-01' } });
    expect(await screen.findByRole('alert')).toHaveTextContent('The start is after the end');
    expect(summaries(fake)).toHaveLength(sent);
  });

  it('filters by provider and model', async () => {
    const { fake, user, stores } = await openUsage();
    await screen.findByTestId('usage-total-input');
    await user.selectOptions(screen.getByTestId('usage-filter-provider'), 'openai-1');
    await waitFor(() => expect(stores.usage.query).toMatchObject({ provider: 'openai-1', model: '' }));
    await asked(fake, { provider: 'openai-1', model: '' });
    const models = within(screen.getByTestId('usage-filter-model'))
      .getAllByRole('option')
      .map((o) => o.getAttribute('value'));
    expect(models).toEqual(['', 'gpt-4o', 'gpt-4o-mini']);
    await user.selectOptions(screen.getByTestId('usage-filter-model'), 'gpt-4o');
    await asked(fake, { provider: 'openai-1', model: 'gpt-4o' });
    await waitFor(() => expect(card('calls')).toHaveTextContent('1 requests'));
    await user.click(screen.getByTestId('usage-clear-filters'));
    await waitFor(() => expect(stores.usage.query).toMatchObject({ provider: '', model: '' }));
    await waitFor(() => expect(card('calls')).toHaveTextContent('4 requests'));
  });

  it('saves a CSV grouped the way the user picks and says where it went', async () => {
    const { fake, user } = await openUsage();
    await screen.findByTestId('usage-total-input');
    await user.click(screen.getByTestId('usage-export'));
    await user.click(screen.getByTestId('usage-export-model'));
    await waitFor(() => expect(fake.callsOf('usage.SaveCSV')).toHaveLength(1));
    const [q, by] = fake.callsOf('usage.SaveCSV')[0];
    expect(by).toBe('model');
    expect(q).toMatchObject({ from: '2026-02-14', to: '2026-03-15' });
    expect(await screen.findByTestId('toast')).toHaveTextContent('Saved to /home/user/Documents/mcpdesk-usage-by-model-2026-02-14-to-2026-03-15.csv');

    // Cancelled: no toast.
    fake.usage.savePath = '';
    await user.click(screen.getByTestId('usage-export'));
    await user.click(screen.getByTestId('usage-export-calls'));
    await waitFor(() => expect(fake.callsOf('usage.SaveCSV')).toHaveLength(2));
    expect(fake.callsOf('usage.SaveCSV')[1][1]).toBe('calls');
    expect(screen.getAllByTestId('toast')).toHaveLength(1);
  });

  it('reports a failed export with Go\'s message', async () => {
    const { fake, user } = await openUsage();
    await screen.findByTestId('usage-total-input');
    fake.failNext('usage.SaveCSV', 'write /ro/usage.csv: read-only file system');
    await user.click(screen.getByTestId('usage-export'));
    await user.click(screen.getByTestId('usage-export-day'));
    const toast = await screen.findByTestId('toast');
    expect(toast).toHaveAttribute('data-kind', 'error');
    expect(toast).toHaveTextContent('read-only file system');
  });

  it('opens a conversation in Chat from its row', async () => {
    const { fake, user, stores } = await openUsage();
    const conv = await waitFor(() => rows('usage-by-conversation')[0]);
    await user.click(within(conv).getByTestId('usage-open-conversation'));
    expect(screen.getByTestId('nav-chat')).toHaveAttribute('aria-current', 'page');
    await waitFor(() => expect(stores.chat.current?.id).toBe(1));
    expect(fake.callsOf('chat.Conversation')).toContainEqual([1]);
  });

  it('uses byDay rows that already carry provider and model without asking again', async () => {
    const { fake, user } = await openUsage({ usage: { calls: CALLS, splitDays: true } });
    const heads = () => within(screen.getByTestId('usage-chart-tokens-table')).getAllByRole('columnheader').map((h) => h.textContent);
    await waitFor(() => expect(heads()).toEqual(['Day', 'OpenAI', 'DeepSeek', 'LM Studio', 'Total']));
    await user.click(screen.getByTestId('usage-split-model'));
    await waitFor(() => expect(heads()).toEqual(['Day', 'deepseek-chat', 'gpt-4o-mini', 'gpt-4o', 'qwen2.5-7b-instruct', 'Total']));
    expect(summaries(fake).filter((q) => q.provider)).toEqual([]);
  });

  it('folds the providers past the sixth into Other', { timeout: 20000 }, async () => {
    const calls: FakeUsageCall[] = Array.from({ length: 9 }, (_, i) => ({
      time: at(2026, 3, 10 + (i % 5)),
      provider: `p${i + 1}`,
      model: 'm',
      promptTokens: 1000 * (9 - i),
      completionTokens: 0,
    }));
    const { fake } = await openUsage({ usage: { calls } });
    const heads = () => within(screen.getByTestId('usage-chart-tokens-table')).getAllByRole('columnheader').map((h) => h.textContent);
    await waitFor(() => expect(heads()).toEqual(['Day', 'p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'Other', 'Total']));
    expect(summaries(fake).filter((q) => q.provider).map((q) => q.provider)).toEqual(['p1', 'p2', 'p3', 'p4', 'p5', 'p6']);
    // p7 (Mar 11: 3,000), p8 (Mar 12: 2,000) and p9 (Mar 13: 1,000) are the rest.
    const other = within(screen.getByTestId('usage-chart-tokens-table'))
      .getAllByRole('row')
      .slice(1)
      .map((r) => within(r).getAllByRole('cell').at(-2)!.textContent);
    expect(other.slice(-5)).toEqual(['3,000', '2,000', '1,000', '0', '0']);
  });

  it('names calls outside a conversation and deleted conversations, which do not open', async () => {
    const calls: FakeUsageCall[] = [
      { time: at(2026, 3, 14), provider: 'openai-1', model: 'gpt-4o', promptTokens: 100, completionTokens: 10 },
      { time: at(2026, 3, 14), provider: 'openai-1', model: 'gpt-4o', conversationId: 9, title: 'Gone', promptTokens: 50, completionTokens: 5 },
      { time: at(2026, 3, 14), provider: 'openai-1', model: 'gpt-4o', conversationId: 1, title: 'Weather in Lisbon', promptTokens: 10, completionTokens: 1 },
    ];
    await openUsage({ usage: { calls } });
    await waitFor(() => expect(rows('usage-by-conversation')).toHaveLength(3));
    const names = rows('usage-by-conversation').map((r) => within(r).getByRole('rowheader').textContent?.trim());
    expect(names).toEqual(['No conversation', 'Deleted conversation #9', 'Weather in Lisbon']);
    expect(screen.getAllByTestId('usage-open-conversation')).toHaveLength(1);
  });

  it('reloads when usage:changed says new calls were recorded', async () => {
    const { fake } = await openUsage();
    await waitFor(() => expect(card('calls')).toHaveTextContent('4 requests'));
    fake.usage.recordCall({ time: at(2026, 3, 15, 11), provider: 'openai-1', model: 'gpt-4o', conversationId: 1, promptTokens: 10, completionTokens: 5 });
    await waitFor(() => expect(card('calls')).toHaveTextContent('5 requests'));
  });
});

describe('Usage: empty states', () => {
  it('before any chat: explains that usage appears after chatting and offers to start one', async () => {
    const { user } = await openUsage({ usage: {} });
    const empty = await screen.findByTestId('usage-empty');
    expect(empty).toHaveTextContent('No usage yet');
    expect(empty).toHaveTextContent('Usage appears after you chat');
    await user.click(within(empty).getByTestId('usage-start-chat'));
    expect(screen.getByTestId('nav-chat')).toHaveAttribute('aria-current', 'page');
  });

  it('with usage outside the range: says so and offers a wider range', async () => {
    const { fake, user } = await openUsage({ usage: { calls: [CALLS[4]] } });
    await user.click(await screen.findByTestId('usage-range-today'));
    const empty = await screen.findByTestId('usage-empty-range');
    expect(empty).toHaveTextContent('Nothing in this range');
    await user.click(within(empty).getByTestId('usage-empty-30d'));
    await asked(fake, { from: '2026-02-14', to: '2026-03-15' });
    expect(screen.queryByTestId('usage-empty')).toBeNull();
  });
});

describe('Usage: prices', () => {
  it('lists defaults and user prices, edits one and resets one', async () => {
    const { fake, user } = await openUsage({
      usage: { calls: CALLS, userPrices: [{ provider: 'openai', model: 'gpt-4o', inputPerM: 2, cachedInputPerM: 1, outputPerM: 8 }] },
    });
    await user.click(screen.getByTestId('usage-tab-prices'));
    await waitFor(() => expect(screen.getAllByTestId('price-row').length).toBeGreaterThan(3));
    const row = (model: string) => screen.getAllByTestId('price-row').find((r) => r.dataset.model === model)!;
    expect(row('gpt-4o')).toHaveAttribute('data-source', 'user');
    expect(within(row('gpt-4o')).getByTestId('price-source')).toHaveTextContent('Yours');
    expect(row('gpt-4o')).toHaveTextContent('Every OpenAI provider');
    expect(within(row('deepseek-chat')).getByTestId('price-source')).toHaveTextContent('Default');
    expect(within(row('deepseek-chat')).queryByTestId('price-reset')).toBeNull();
    // The unpriced model of the range is listed with a button.
    expect(screen.getByTestId('prices-unpriced')).toHaveTextContent('qwen2.5-7b-instruct');

    // Edit a default: provider and model stay fixed.
    await user.click(within(row('deepseek-chat')).getByTestId('price-edit'));
    const form = within(screen.getByTestId('price-form'));
    expect(form.getByTestId('price-model')).toBeDisabled();
    await user.clear(form.getByTestId('price-output'));
    await user.type(form.getByTestId('price-output'), '2');
    await user.click(form.getByTestId('price-save'));
    await waitFor(() => expect(fake.callsOf('usage.SetPrice')).toHaveLength(1));
    expect(fake.callsOf('usage.SetPrice')[0][0]).toMatchObject({ provider: 'deepseek', model: 'deepseek-chat', inputPerM: 0.28, cachedInputPerM: 0.028, outputPerM: 2 });
    expect(await screen.findByTestId('toast')).toHaveTextContent('Price of deepseek-chat saved');

    // Reset the user's gpt-4o price, after confirming.
    await user.click(within(row('gpt-4o')).getByTestId('price-reset'));
    await user.click(await screen.findByTestId('confirm-ok'));
    await waitFor(() => expect(fake.callsOf('usage.ResetPrice')).toEqual([['openai', 'gpt-4o']]));
    await waitFor(() => expect(row('gpt-4o')).toHaveAttribute('data-source', 'default'));
  });

  it('adds a price and shows Go\'s refusal in the form', async () => {
    const { fake, user } = await openUsage();
    await user.click(screen.getByTestId('usage-tab-prices'));
    await user.click(await screen.findByTestId('prices-add'));
    const form = within(screen.getByTestId('price-form'));
    expect(form.getByTestId('price-save')).toBeDisabled();
    await user.type(form.getByTestId('price-provider'), 'mistral');
    await user.type(form.getByTestId('price-model'), 'mistral-large-latest');
    await user.type(form.getByTestId('price-input'), '2');
    await user.type(form.getByTestId('price-cached'), '0.5');
    await user.type(form.getByTestId('price-output'), '6');
    fake.failNext('usage.SetPrice', 'price of mistral-large-latest: store: database is locked');
    await user.click(form.getByTestId('price-save'));
    expect(await form.findByTestId('price-form-error')).toHaveTextContent('database is locked');
    await user.click(form.getByTestId('price-save'));
    await waitFor(() => expect(screen.queryByTestId('price-form')).toBeNull());
    expect(fake.callsOf('usage.SetPrice').at(-1)![0]).toMatchObject({ provider: 'mistral', model: 'mistral-large-latest', inputPerM: 2, cachedInputPerM: 0.5, outputPerM: 6 });
  });
});

describe('Usage: running total in the chat header', () => {
  it('shows the open conversation\'s estimated cost from ConversationTotal', async () => {
    const { fake, user, stores } = await openUsage();
    await go(user, 'chat');
    await stores.chat.open(1);
    // gpt-4o (4,375) + deepseek-chat (966) millionths of a dollar.
    await waitFor(() => expect(screen.getByTestId('chat-usage-cost')).toHaveTextContent(`≈ ${money(0.005341, 'en')}`));
    expect(fake.callsOf('usage.ConversationTotal')).toContainEqual([1]);
    await stores.chat.open(2);
    await waitFor(() => expect(screen.getByTestId('chat-usage-cost')).toHaveTextContent('partial'));
  });
});

describe('Usage in Chinese', () => {
  it('translates the screen', async () => {
    setLocale('zh-CN');
    await openUsage({ usage: { calls: [CALLS[3]] }, prefs: { theme: 'system', language: 'zh-CN' } });
    expect(screen.getByTestId('usage-tab-overview')).toHaveTextContent('用量');
    expect(screen.getByTestId('usage-tab-audit')).toHaveTextContent('审计日志');
    expect(screen.getByTestId('usage-tab-prices')).toHaveTextContent('价格');
    await waitFor(() => expect(card('cost')).toHaveTextContent('未设置价格'));
    expect(screen.getByTestId('usage-range-7d')).toHaveTextContent('7 天');
    expect(screen.getByTestId('usage-export')).toHaveTextContent('导出 CSV');
  });

  it('explains the empty screen in Chinese', async () => {
    setLocale('zh-CN');
    await openUsage({ usage: {}, prefs: { theme: 'system', language: 'zh-CN' } });
    expect(await screen.findByTestId('usage-empty')).toHaveTextContent('开始聊天后即可看到用量');
  });
});

describe('chart data', () => {
  const row = (day: string, provider: string, model: string, tokens: number, cost: number | null) => ({
    key: `${day}|${provider}|${model}`,
    label: day,
    day,
    provider,
    model,
    calls: 1,
    promptTokens: tokens,
    completionTokens: 0,
    cachedTokens: 0,
    reasoningTokens: 0,
    cost,
    pricedCost: cost ?? 0,
    unpricedCalls: cost === null ? 1 : 0,
    costPartial: false,
  });

  it('fills every day, orders series by tokens and folds the rest into Other', () => {
    const days = ['2026-03-01', '2026-03-02', '2026-03-03'];
    const rows = [row('2026-03-01', 'a', 'm1', 10, 1), row('2026-03-03', 'b', 'm2', 30, null), row('2026-03-03', 'c', 'm3', 5, 0.5), row('2026-03-02', 'd', 'm4', 1, 0)];
    const d = chartData(rows, days, 'provider', (k) => k.toUpperCase(), 'Other', 3);
    expect(d.series.map((s) => [s.label, s.tokens, s.cost, s.unpriced])).toEqual([
      ['B', [0, 0, 30], [0, 0, 0], true],
      ['A', [10, 0, 0], [1, 0, 0], false],
      ['Other', [0, 1, 5], [0, 0, 0.5], false],
    ]);
    expect(new Set(d.series.map((s) => s.color)).size).toBe(3);
  });

  it('stacks running sums, top of the stack first', () => {
    expect(stack([[1, 2], [3, 4], [5, 6]])).toEqual([[9, 12], [4, 6], [1, 2]]);
  });
});
