// The in-memory UsageStats of FakeBackend (fake.ts). It keeps a ledger of
// LLM calls and aggregates it the way backend/usage does — local days from
// the query's tzOffsetMinutes, a cost only from a known price (null as soon
// as a call of a group has none; pricedCost is what the priced ones cost) —
// plus a pricing table and a tool-call audit log. Its calls are recorded as
// "usage.<Method>".

import type { UsageStatsBackend } from '../../lib/api/backend';
import type { UsageChangedPayload } from '../../lib/api/events';
import type { Approval } from '../../lib/api/chatTypes';
import { AUDIT_SOURCES, AUDIT_STATUSES } from '../../lib/api/usageTypes';
import type {
  AuditEntry,
  AuditPage,
  AuditQuery,
  ConversationUsageRow,
  Price,
  UsageExportBy,
  UsageQuery,
  UsageRow,
  UsageSummary,
  UsageTotals,
} from '../../lib/api/usageTypes';

/** FakeUsageCall is one recorded LLM call. */
export interface FakeUsageCall {
  /** RFC 3339 or Unix milliseconds. */
  time: string | number;
  provider: string;
  model: string;
  conversationId?: number;
  title?: string;
  promptTokens: number;
  completionTokens: number;
  cachedTokens?: number;
  reasoningTokens?: number;
}

export interface FakeUsageOptions {
  calls?: FakeUsageCall[];
  /** The shipped default prices; default FAKE_DEFAULT_PRICES. */
  prices?: Array<Omit<Price, 'source'>>;
  /** Prices the user set, at start. */
  userPrices?: Array<Omit<Price, 'source'>>;
  /** Tool calls in the audit log (any order; Audit returns newest first). */
  audit?: AuditEntry[];
  /** What SaveCSV returns; null = a path in the documents folder, "" = the user cancelled. */
  savePath?: string | null;
  /** byDay rows per day, provider and model (the brief's first shape) instead of Go's one row per day. */
  splitDays?: boolean;
}

/** FAKE_DEFAULT_PRICES stands for the table backend/usage ships (US$ per million tokens). */
export const FAKE_DEFAULT_PRICES: ReadonlyArray<Omit<Price, 'source'>> = [
  { provider: 'openai', model: 'gpt-4o', inputPerM: 2.5, cachedInputPerM: 1.25, outputPerM: 10 },
  { provider: 'openai', model: 'gpt-4o-mini', inputPerM: 0.15, cachedInputPerM: 0.075, outputPerM: 0.6 },
  { provider: 'openai', model: 'gpt-4.1', inputPerM: 2, cachedInputPerM: 0.5, outputPerM: 8 },
  { provider: 'deepseek', model: 'deepseek-chat', inputPerM: 0.28, cachedInputPerM: 0.028, outputPerM: 0.42 },
  { provider: 'deepseek', model: 'deepseek-reasoner', inputPerM: 0.28, cachedInputPerM: 0.028, outputPerM: 0.42 },
  { provider: 'anthropic', model: 'claude-sonnet-4', inputPerM: 3, cachedInputPerM: 0.3, outputPerM: 15 },
];

/** auditEntry builds an AuditEntry from a few fields. */
export function auditEntry(p: Partial<AuditEntry> & { id: number }): AuditEntry {
  return {
    time: new Date(Date.UTC(2026, 0, 2, 3, 4, 5) + p.id * 60_000).toISOString(),
    source: 'chat',
    conversationId: 0,
    server: 'everything',
    tool: 'echo',
    arguments: JSON.stringify({ message: `hello ${p.id}` }),
    argumentsTruncated: false,
    durationMs: 12,
    status: 'ok',
    output: `hello ${p.id}`,
    outputTruncated: false,
    error: '',
    approval: 'user',
    definitionHash: '',
    ...p,
  };
}

/** What FakeUsage needs of the rest of FakeBackend. */
export interface FakeUsageHost {
  record: (method: string, args: unknown[]) => void;
  emit: (payload: UsageChangedPayload) => void;
  /** Who a provider id is: its display name and the preset it was made from. */
  provider: (id: string) => { name: string; preset: string } | undefined;
  /** Whether a conversation still exists. */
  conversationExists: (id: number) => boolean;
}

const zero = (): UsageTotals => ({
  calls: 0,
  promptTokens: 0,
  completionTokens: 0,
  cachedTokens: 0,
  reasoningTokens: 0,
  cost: 0,
  pricedCost: 0,
  unpricedCalls: 0,
  costPartial: false,
});

const ms = (t: string | number) => (typeof t === 'number' ? t : Date.parse(t));
const DAY_MS = 86_400_000;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** localDay is the YYYY-MM-DD of t at the given offset east of UTC. */
export function localDay(t: string | number, offsetMinutes: number): string {
  return new Date(ms(t) + offsetMinutes * 60_000).toISOString().slice(0, 10);
}

const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);

/** byCost orders rows as Go does: most expensive first, then most tokens, then by key. */
const byCost = (a: UsageRow, b: UsageRow) =>
  b.pricedCost - a.pricedCost || b.promptTokens + b.completionTokens - (a.promptTokens + a.completionTokens) || a.key.localeCompare(b.key);

/**
 * FakeUsage is FakeBackend's UsageStats, shaped like backend/usage: byDay
 * holds every day of the range, one row per day (splitDays adds provider
 * and model to them instead, one row per day, provider and model); cost is
 * null as soon as a call has no price, pricedCost what the priced ones cost.
 */
export class FakeUsage implements UsageStatsBackend {
  calls: FakeUsageCall[];
  defaults: Array<Omit<Price, 'source'>>;
  user: Array<Omit<Price, 'source'>>;
  audit: AuditEntry[];
  savePath: string | null;
  splitDays: boolean;
  #host: FakeUsageHost;
  #record: (method: string, args: unknown[]) => void;

  constructor(o: FakeUsageOptions, host: FakeUsageHost) {
    this.calls = structuredClone(o.calls ?? []);
    this.defaults = structuredClone(o.prices ?? [...FAKE_DEFAULT_PRICES]);
    this.user = structuredClone(o.userPrices ?? []);
    this.audit = structuredClone(o.audit ?? []);
    this.savePath = o.savePath ?? null;
    this.splitDays = !!o.splitDays;
    this.#host = host;
    this.#record = (m, a) => host.record(`usage.${m}`, a);
  }

  /** recordCall adds a model call to the ledger and emits usage:changed, as Go does after each call. */
  recordCall(c: FakeUsageCall): void {
    this.calls.push(structuredClone(c));
    this.#host.emit({ conversationId: c.conversationId ?? 0 });
  }

  /** recordToolCall adds a tool call to the audit log (Go emits nothing for it). */
  recordToolCall(e: AuditEntry): void {
    this.audit.push(structuredClone(e));
  }

  // #price finds the price of a call: the provider's own first, then its preset's.
  #price(provider: string, model: string): Omit<Price, 'source'> | undefined {
    const preset = this.#host.provider(provider)?.preset ?? '';
    const m = model.toLowerCase();
    for (const who of [provider, preset]) {
      if (!who) continue;
      const same = (x: Omit<Price, 'source'>) => x.provider === who && x.model.toLowerCase() === m;
      const p = this.user.find(same) ?? this.defaults.find(same);
      if (p) return p;
    }
    return undefined;
  }

  #cost(c: FakeUsageCall): number | null {
    const p = this.#price(c.provider, c.model);
    if (!p) return null;
    const cached = Math.min(c.cachedTokens ?? 0, c.promptTokens);
    return ((c.promptTokens - cached) * p.inputPerM + cached * (p.cachedInputPerM ?? p.inputPerM) + c.completionTokens * p.outputPerM) / 1e6;
  }

  #add(t: UsageTotals, c: FakeUsageCall): void {
    t.calls++;
    t.promptTokens += c.promptTokens;
    t.completionTokens += c.completionTokens;
    t.cachedTokens += c.cachedTokens ?? 0;
    t.reasoningTokens += c.reasoningTokens ?? 0;
    const cost = this.#cost(c);
    if (cost === null) t.unpricedCalls++;
    else t.pricedCost = Math.round((t.pricedCost + cost) * 1e9) / 1e9;
    t.cost = t.unpricedCalls === 0 ? t.pricedCost : null;
    t.costPartial = t.unpricedCalls > 0 && t.unpricedCalls < t.calls;
  }

  // #span resolves a query's days as Go does: an empty "to" is today, an empty "from" 29 days before it.
  #span(q: UsageQuery): { from: string; to: string } {
    const to = q.to || localDay(Date.now(), q.tzOffsetMinutes);
    const from = q.from || addDays(to, -29);
    if (!DAY.test(from)) throw `from "${from}": want a date as YYYY-MM-DD`;
    if (!DAY.test(to)) throw `to "${to}": want a date as YYYY-MM-DD`;
    if (from > to) throw `from ${from} is after to ${to}`;
    if (Date.parse(to) - Date.parse(from) >= 3660 * DAY_MS) throw `the range ${from} … ${to} is longer than 3660 days`;
    return { from, to };
  }

  #select(q: UsageQuery, from: string, to: string): FakeUsageCall[] {
    return this.calls.filter((c) => {
      const day = localDay(c.time, q.tzOffsetMinutes);
      return (
        day >= from &&
        day <= to &&
        (!q.provider || c.provider === q.provider) &&
        (!q.model || c.model === q.model) &&
        (!q.conversationId || c.conversationId === q.conversationId)
      );
    });
  }

  #group<R extends UsageRow>(calls: FakeUsageCall[], keyOf: (c: FakeUsageCall) => string, rowOf: (c: FakeUsageCall, key: string) => Omit<R, keyof UsageTotals>): R[] {
    const rows = new Map<string, R>();
    for (const c of calls) {
      const key = keyOf(c);
      let r = rows.get(key);
      if (!r) rows.set(key, (r = { ...zero(), ...rowOf(c, key) } as R));
      this.#add(r, c);
    }
    return [...rows.values()];
  }

  #summary(q: UsageQuery, conversations = 100): UsageSummary {
    const { from, to } = this.#span(q);
    const calls = this.#select(q, from, to);
    const totals = zero();
    for (const c of calls) this.#add(totals, c);
    const name = (id: string) => this.#host.provider(id)?.name ?? id;
    const preset = (id: string) => this.#host.provider(id)?.preset ?? '';
    const day = (c: FakeUsageCall) => localDay(c.time, q.tzOffsetMinutes);
    let byDay: UsageRow[];
    if (this.splitDays) {
      byDay = this.#group(
        calls,
        (c) => `${day(c)}|${c.provider}|${c.model}`,
        (c, key) => ({ key, label: day(c), day: day(c), provider: c.provider, model: c.model }),
      ).sort((a, b) => a.key.localeCompare(b.key));
    } else {
      const per = new Map(this.#group(calls, day, (_c, key) => ({ key, label: key, day: key })).map((r) => [r.key, r]));
      byDay = [];
      for (let d = from; d <= to; d = addDays(d, 1)) byDay.push(per.get(d) ?? { ...zero(), key: d, label: d, day: d });
    }
    const byProvider = this.#group(calls, (c) => c.provider, (c, key) => ({ key, label: name(c.provider), provider: c.provider, preset: preset(c.provider) })).sort(byCost);
    const byModel = this.#group(
      calls,
      (c) => `${c.provider}/${c.model}`,
      (c, key) => ({ key, label: `${name(c.provider)} · ${c.model}`, provider: c.provider, preset: preset(c.provider), model: c.model }),
    ).sort(byCost);
    const all = this.#group<ConversationUsageRow>(
      calls,
      (c) => String(c.conversationId ?? 0),
      (c, key) => {
        const id = c.conversationId ?? 0;
        const deleted = id !== 0 && !this.#host.conversationExists(id);
        const title = deleted ? '' : (c.title ?? '');
        const label = id === 0 ? 'No conversation' : deleted ? `Deleted conversation #${id}` : title || `Untitled conversation #${id}`;
        return { key, label, conversationId: id, title, deleted };
      },
    ).sort(byCost);
    const unpriced = byModel.filter((r) => r.unpricedCalls > 0).map((r) => r.label).sort();
    return {
      from,
      to,
      tzOffsetMinutes: q.tzOffsetMinutes,
      totals,
      byDay,
      byProvider,
      byModel,
      byConversation: conversations > 0 ? all.slice(0, conversations) : all,
      conversations: all.length,
      unpriced,
    };
  }

  #prices(): Price[] {
    const user = this.user.map((p): Price => ({ ...p, source: 'user' }));
    const defaults = this.defaults
      .filter((d) => !this.user.some((u) => u.provider === d.provider && u.model.toLowerCase() === d.model.toLowerCase()))
      .map((p): Price => ({ ...p, source: 'default' }));
    return [...user, ...defaults].sort((a, b) => a.provider.localeCompare(b.provider) || a.model.toLowerCase().localeCompare(b.model.toLowerCase()));
  }

  #csv(q: UsageQuery, by: UsageExportBy): string {
    const s = this.#summary(q, 0);
    const head = 'key,calls,prompt_tokens,completion_tokens,cached_tokens,reasoning_tokens,cost_usd';
    const line = (key: string, t: UsageTotals) =>
      [JSON.stringify(key), t.calls, t.promptTokens, t.completionTokens, t.cachedTokens, t.reasoningTokens, t.cost ?? ''].join(',');
    if (by === 'calls') {
      const { from, to } = this.#span(q);
      return [head, ...this.#select(q, from, to).map((c) => line(`${c.provider}/${c.model}`, { ...zero(), calls: 1, ...c, cost: this.#cost(c) }))].join('\n') + '\n';
    }
    const rows = { day: s.byDay, provider: s.byProvider, model: s.byModel, conversation: s.byConversation }[by];
    if (!rows) throw `export by "${by}": want day, provider, model, conversation or calls`;
    return [head, ...rows.map((r) => line(r.key, r))].join('\n') + '\n';
  }

  Summary = async (q: UsageQuery): Promise<UsageSummary> => {
    this.#record('Summary', [q]);
    return this.#summary(q);
  };

  ConversationTotal = async (id: number): Promise<UsageTotals> => {
    this.#record('ConversationTotal', [id]);
    if (id <= 0) throw 'conversation total: no conversation id';
    const totals = zero();
    for (const c of this.calls) if (c.conversationId === id) this.#add(totals, c);
    return totals;
  };

  Prices = async (): Promise<Price[]> => {
    this.#record('Prices', []);
    return this.#prices();
  };

  SetPrice = async (p: Price): Promise<Price> => {
    this.#record('SetPrice', [p]);
    const provider = p.provider.trim();
    const model = p.model.trim();
    if (!provider || !model) throw 'a price needs a provider (or preset) and a model';
    const bad = (v: number | null) => v !== null && !(v >= 0 && v <= 100_000);
    if (bad(p.inputPerM) || bad(p.outputPerM) || bad(p.cachedInputPerM)) throw 'prices are USD per million tokens, from 0 to 100000';
    const stored = { provider, model, inputPerM: p.inputPerM, cachedInputPerM: p.cachedInputPerM, outputPerM: p.outputPerM };
    this.user = [...this.user.filter((u) => !(u.provider === provider && u.model.toLowerCase() === model.toLowerCase())), stored];
    return { ...stored, source: 'user' };
  };

  ResetPrice = async (provider: string, model: string): Promise<void> => {
    this.#record('ResetPrice', [provider, model]);
    // Resetting a price the user never set is not an error.
    this.user = this.user.filter((u) => !(u.provider === provider.trim() && u.model.toLowerCase() === model.trim().toLowerCase()));
  };

  ExportCSV = async (q: UsageQuery, by: UsageExportBy): Promise<string> => {
    this.#record('ExportCSV', [q, by]);
    return this.#csv(q, by);
  };

  SaveCSV = async (q: UsageQuery, by: UsageExportBy): Promise<string> => {
    this.#record('SaveCSV', [q, by]);
    const { from, to } = this.#span(q);
    return this.savePath ?? `/home/user/Documents/mcpdesk-usage-by-${by}-${from}-to-${to}.csv`;
  };

  Audit = async (q: AuditQuery): Promise<AuditPage> => {
    this.#record('Audit', [q]);
    if (q.status && !AUDIT_STATUSES.includes(q.status)) throw `status "${q.status}": want ok, error, cancelled, declined or timeout`;
    if (q.source && !AUDIT_SOURCES.includes(q.source)) throw `source "${q.source}": want chat, tools or cli`;
    const text = q.text.toLowerCase();
    const day = (t: string) => localDay(t, q.tzOffsetMinutes);
    const args = (e: AuditEntry) => (typeof e.arguments === 'string' ? e.arguments : JSON.stringify(e.arguments));
    const all = this.audit
      .filter(
        (e) =>
          (!q.from || day(e.time) >= q.from) &&
          (!q.to || day(e.time) <= q.to) &&
          (!q.server || e.server === q.server) &&
          (!q.tool || e.tool === q.tool) &&
          (!q.status || e.status === q.status) &&
          (!q.source || e.source === q.source) &&
          (!text || [e.tool, args(e), e.output, e.error ?? ''].some((s) => s.toLowerCase().includes(text))),
      )
      .sort((a, b) => Date.parse(b.time) - Date.parse(a.time) || b.id - a.id);
    const limit = q.limit > 0 ? Math.min(q.limit, 1000) : 100;
    return { entries: structuredClone(all.slice(q.offset, q.offset + limit)), total: all.length };
  };
}

/** demoUsage is a month of calls and tool calls, for working on the UI in a plain browser. */
export function demoUsage(now = Date.now()): FakeUsageOptions {
  const models = [
    { provider: 'openai-demo', model: 'gpt-4o', w: 5 },
    { provider: 'openai-demo', model: 'gpt-4o-mini', w: 8 },
    { provider: 'deepseek-demo', model: 'deepseek-chat', w: 4 },
    { provider: 'openrouter-demo', model: 'anthropic/claude-sonnet-4', w: 2 },
  ];
  const titles = ['Refactor the importer', 'Weather in Lisbon', 'Summarise the issue tracker', 'SQL for monthly revenue', 'Plan the release'];
  const calls: FakeUsageCall[] = [];
  let seed = 7;
  const rnd = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
  for (let d = 34; d >= 0; d--) {
    const n = Math.floor(rnd() * 9);
    for (let i = 0; i < n; i++) {
      const m = models[Math.floor(rnd() * models.length)];
      const conv = 1 + Math.floor(rnd() * titles.length);
      const prompt = Math.floor(800 + rnd() * 9000 * m.w);
      calls.push({
        time: now - d * 86_400_000 - Math.floor(rnd() * 36_000_000),
        provider: m.provider,
        model: m.model,
        conversationId: conv,
        title: titles[conv - 1],
        promptTokens: prompt,
        completionTokens: Math.floor(100 + rnd() * 1500),
        cachedTokens: Math.floor(prompt * rnd() * 0.5),
        reasoningTokens: m.model.includes('reasoner') ? Math.floor(rnd() * 800) : 0,
      });
    }
  }
  const tools = [
    ['everything', 'echo', { message: 'hello' }],
    ['github', 'search_issues', { q: 'is:open label:bug', per_page: 20 }],
    ['everything', 'add', { a: 2, b: 40 }],
    ['sqlite', 'read_query', { query: 'SELECT count(*) FROM orders' }],
  ] as const;
  const statuses = ['ok', 'ok', 'ok', 'ok', 'error', 'declined', 'timeout', 'cancelled'] as const;
  const approvals: Approval[] = ['user', 'conversation', 'always', 'server-auto', 'never', 'validation'];
  const audit: AuditEntry[] = [];
  for (let i = 1; i <= 137; i++) {
    const [server, tool, args] = tools[i % tools.length];
    const status = statuses[Math.floor(rnd() * statuses.length)];
    const source = i % 9 === 0 ? 'cli' : i % 4 === 0 ? 'tools' : 'chat';
    audit.push(
      auditEntry({
        id: i,
        time: new Date(now - (137 - i) * 3_600_000 * 5).toISOString(),
        source,
        conversationId: source === 'chat' ? 1 + (i % titles.length) : undefined,
        server,
        tool,
        arguments: JSON.stringify(args),
        durationMs: Math.floor(rnd() * 2400),
        status,
        output: status === 'ok' ? JSON.stringify({ content: [{ type: 'text', text: `result ${i}` }] }) : '',
        outputTruncated: status === 'ok' && i % 11 === 0,
        ...(status === 'error' ? { error: 'MCP error -32602: Invalid params' } : status === 'timeout' ? { error: 'no answer within 60 s' } : {}),
        approval: source === 'cli' ? 'cli' : status === 'declined' ? 'user' : approvals[i % approvals.length],
      }),
    );
  }
  return { calls, audit };
}
