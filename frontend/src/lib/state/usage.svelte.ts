import {
  knownCost,
  on,
  resetUsagePrice,
  saveUsageCSV,
  setUsagePrice,
  usageCSV,
  usagePrices,
  usageSummary,
  type Price,
  type UsageExportBy,
  type UsageQuery,
  type UsageRow,
  type UsageSummary,
} from '../api';

/** A date range chosen by name; "custom" uses the from/to the user typed. */
export type RangePreset = 'today' | '7d' | '30d' | 'month' | 'custom';
export const RANGE_PRESETS: readonly RangePreset[] = ['today', '7d', '30d', 'month', 'custom'];

/** What the Usage screen shows: the overview, the pricing table, or the tool-call audit log. */
export type UsageTab = 'overview' | 'prices' | 'audit';
export const USAGE_TABS: readonly UsageTab[] = ['overview', 'audit', 'prices'];

/** How the charts split tokens and cost: by provider or by model. */
export type ChartSplit = 'provider' | 'model';

/** isoDay is the local calendar day of d as YYYY-MM-DD. */
export function isoDay(d: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
}

/** presetRange is the from/to days of a named range ending today ("custom" → the last 30 days). */
export function presetRange(p: Exclude<RangePreset, 'custom'> | 'custom', now: Date): { from: string; to: string } {
  const to = isoDay(now);
  const back = (days: number) => isoDay(new Date(now.getFullYear(), now.getMonth(), now.getDate() - days));
  switch (p) {
    case 'today':
      return { from: to, to };
    case '7d':
      return { from: back(6), to };
    case 'month':
      return { from: isoDay(new Date(now.getFullYear(), now.getMonth(), 1)), to };
    default:
      return { from: back(29), to };
  }
}

/** tzOffsetMinutes is this machine's offset from UTC, east positive (UTC+8 → 480). */
export const tzOffsetMinutes = (now: Date): number => -now.getTimezoneOffset() || 0;

/** The provider of chart rows that sum every group without a series of its own. */
export const OTHER_PROVIDER = '\u0000rest';

/** At most this many series per chart (the last one may be the rest). */
export const MAX_SERIES = 7;

/** A model used in the range that has no price (or not for every call). */
export interface UnpricedModel {
  provider: string;
  model: string;
}

const REFRESH_DELAY = 300;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * UsageStore is the Usage screen's state (SPEC E1): the range and filters,
 * the summary they select, the chart split, the pricing table and CSV
 * export. The screen calls load() when shown and start() to follow
 * usage:changed (and finished chat turns) while it is.
 */
export class UsageStore {
  #tab = $state<UsageTab>('overview');
  #preset = $state<RangePreset>('30d');
  #from = $state('');
  #to = $state('');
  #provider = $state('');
  #model = $state('');
  #split = $state<ChartSplit>('provider');
  #summary = $state<UsageSummary | null>(null);
  #loading = $state(false);
  #error = $state('');
  #everUsed = $state<boolean | null>(null);
  #prices = $state<Price[]>([]);
  #pricesLoaded = $state(false);
  #pricesError = $state('');
  #draft = $state<Partial<Price> | null>(null);
  #splitRows = $state<UsageRow[] | null>(null);
  #splitSeq = 0;
  #seq = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #now: () => Date;

  constructor(now: () => Date = () => new Date()) {
    this.#now = now;
    const r = presetRange('30d', now());
    this.#from = r.from;
    this.#to = r.to;
  }

  /** tab is the part of the screen on show. */
  get tab(): UsageTab {
    return this.#tab;
  }

  /** show switches the Usage screen to a tab (Settings links to the audit log this way). */
  show(tab: UsageTab): void {
    this.#tab = tab;
  }

  get preset(): RangePreset {
    return this.#preset;
  }

  /** from and to are the range's first and last day, YYYY-MM-DD. */
  get from(): string {
    return this.#from;
  }

  get to(): string {
    return this.#to;
  }

  get provider(): string {
    return this.#provider;
  }

  get model(): string {
    return this.#model;
  }

  get split(): ChartSplit {
    return this.#split;
  }

  setSplit(s: ChartSplit): void {
    if (s === this.#split) return;
    this.#split = s;
    const sum = this.#summary;
    if (sum) void this.#loadSplit(this.query, sum);
  }

  /**
   * chartRows are the range's days split by the chart split: each row a
   * day of one provider (or model), or of the rest (OTHER_PROVIDER). Go's
   * summary has one row per day, so the top groups' days are asked for
   * with a filter each; until they arrive (or if that fails) the rows are
   * whole days, without a provider.
   */
  get chartRows(): UsageRow[] {
    const s = this.#summary;
    if (!s) return [];
    if (s.byDay.some((r) => r.provider)) return s.byDay;
    return this.#splitRows ?? s.byDay;
  }

  async #loadSplit(q: UsageQuery, s: UsageSummary): Promise<void> {
    const seq = ++this.#splitSeq;
    const split = this.#split;
    this.#splitRows = null;
    if (s.byDay.some((r) => r.provider)) return;
    const groups = [...(split === 'provider' ? s.byProvider : s.byModel)].sort(
      (a, b) => b.promptTokens + b.completionTokens - (a.promptTokens + a.completionTokens),
    );
    const tag = (r: UsageRow, g: UsageRow): UsageRow => ({
      ...r,
      key: `${r.day}|${g.provider ?? ''}|${split === 'model' ? (g.model ?? '') : ''}`,
      provider: g.provider ?? '',
      ...(split === 'model' && g.model ? { model: g.model } : {}),
    });
    if (groups.length === 1) {
      this.#splitRows = s.byDay.map((r) => tag(r, groups[0]));
      return;
    }
    if (groups.length === 0) return;
    const top = groups.length > MAX_SERIES ? groups.slice(0, MAX_SERIES - 1) : groups;
    const rest = groups.slice(top.length);
    let parts: UsageSummary[];
    try {
      parts = await Promise.all(
        top.map((g) => usageSummary({ ...q, provider: g.provider ?? '', model: split === 'model' ? (g.model ?? '') : q.model })),
      );
    } catch {
      return; // the charts show whole days
    }
    if (seq !== this.#splitSeq) return;
    const rows = parts.flatMap((p, i) => p.byDay.map((r) => tag(r, top[i])));
    if (rest.length) {
      const restUnpriced = rest.some((g) => g.unpricedCalls > 0);
      for (const d of s.byDay) {
        const same = parts.map((p) => p.byDay.find((r) => r.day === d.day)).filter((r) => !!r);
        const sum = (f: (r: UsageRow) => number) => f(d) - same.reduce((n, r) => n + f(r), 0);
        const promptTokens = sum((r) => r.promptTokens);
        const completionTokens = sum((r) => r.completionTokens);
        if (promptTokens + completionTokens <= 0) continue;
        const cost = Math.max(0, sum((r) => knownCost(r) ?? 0));
        rows.push({
          key: `${d.day}|${OTHER_PROVIDER}`,
          label: d.label,
          day: d.day,
          provider: OTHER_PROVIDER,
          calls: sum((r) => r.calls),
          promptTokens,
          completionTokens,
          cachedTokens: sum((r) => r.cachedTokens),
          reasoningTokens: sum((r) => r.reasoningTokens),
          cost: restUnpriced ? null : cost,
          pricedCost: cost,
          unpricedCalls: restUnpriced ? 1 : 0,
          costPartial: restUnpriced,
        });
      }
    }
    this.#splitRows = rows;
  }

  /** query is what Summary and the CSV export are asked for. */
  get query(): UsageQuery {
    return {
      from: this.#from,
      to: this.#to,
      tzOffsetMinutes: tzOffsetMinutes(this.#now()),
      provider: this.#provider,
      model: this.#model,
      conversationId: 0,
    };
  }

  /** summary is the last answer for query; null before the first. */
  get summary(): UsageSummary | null {
    return this.#summary;
  }

  get loading(): boolean {
    return this.#loading;
  }

  get error(): string {
    return this.#error;
  }

  /**
   * everUsed says whether any call was ever recorded (asked only when the
   * range shows none): false means "no usage yet", null not known.
   */
  get everUsed(): boolean | null {
    return this.#everUsed;
  }

  /** filtered is true when a provider or model filter is set. */
  get filtered(): boolean {
    return !!(this.#provider || this.#model);
  }

  /**
   * setRange picks a named range (from/to follow today) or a custom one.
   * A custom range with a missing or reversed day keeps the previous one.
   */
  setRange(preset: RangePreset, from?: string, to?: string): void {
    if (preset === 'custom') {
      const f = from ?? this.#from;
      const t = to ?? this.#to;
      this.#preset = 'custom';
      if (!DAY.test(f) || !DAY.test(t) || f > t) return;
      this.#from = f;
      this.#to = t;
    } else {
      const r = presetRange(preset, this.#now());
      this.#preset = preset;
      this.#from = r.from;
      this.#to = r.to;
    }
    void this.load();
  }

  /** setFilter narrows to one provider and/or model ("" = all). */
  setFilter(f: { provider?: string; model?: string }): void {
    if (f.provider !== undefined) {
      if (f.provider !== this.#provider && f.model === undefined) this.#model = '';
      this.#provider = f.provider;
    }
    if (f.model !== undefined) this.#model = f.model;
    void this.load();
  }

  clearFilters(): void {
    this.#provider = '';
    this.#model = '';
    void this.load();
  }

  /** load fetches the summary of query; a later load wins over an earlier one still running. */
  async load(): Promise<void> {
    // A named range follows the calendar: "today" is today even after midnight.
    if (this.#preset !== 'custom') {
      const r = presetRange(this.#preset, this.#now());
      this.#from = r.from;
      this.#to = r.to;
    }
    const q = this.query;
    const seq = ++this.#seq;
    this.#loading = true;
    try {
      const s = await usageSummary(q);
      if (seq !== this.#seq) return;
      this.#summary = s;
      this.#error = '';
      void this.#loadSplit(q, s);
      if (s.totals.calls > 0) this.#everUsed = true;
      else if (!this.#everUsed) {
        // Nothing in this range: is there anything at all (in the ten
        // years Go lets a query cover)?
        const now = this.#now();
        const from = isoDay(new Date(now.getFullYear() - 10, now.getMonth(), now.getDate() + 1));
        const all = await usageSummary({ ...q, from, to: isoDay(now), provider: '', model: '' });
        if (seq === this.#seq) this.#everUsed = all.totals.calls > 0;
      }
    } catch (e) {
      if (seq === this.#seq) this.#error = (e as Error).message;
    } finally {
      if (seq === this.#seq) this.#loading = false;
    }
  }

  /** refresh reloads soon; bursts of changes cause one load. */
  refresh(): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      void this.load();
      if (this.#pricesLoaded) void this.loadPrices();
    }, REFRESH_DELAY);
  }

  /** start follows usage:changed and finished chat turns; returns the cleanup. */
  start(): () => void {
    const offs = [on('usage:changed', () => this.refresh()), on('chat:done', () => this.refresh())];
    return () => {
      offs.forEach((off) => off());
      clearTimeout(this.#timer);
    };
  }

  /** providers are the providers of the range's calls, for the filter (label = name). */
  get providers(): UsageRow[] {
    return this.#summary?.byProvider ?? [];
  }

  /** models are the models of the range's calls, for the filter. */
  get models(): UsageRow[] {
    return this.#summary?.byModel ?? [];
  }

  /** unpriced lists the models of the range without a price (for every call or some). */
  get unpriced(): UnpricedModel[] {
    const s = this.#summary;
    if (!s) return [];
    const out: UnpricedModel[] = [];
    const seen = new Set<string>();
    const add = (provider: string, model: string) => {
      const k = `${provider}\n${model}`;
      if (!model || seen.has(k)) return;
      seen.add(k);
      out.push({ provider, model });
    };
    for (const r of s.byModel) if ((r.cost === null || r.costPartial) && r.model) add(r.provider ?? '', r.model);
    // Go names them by their byModel labels ("<provider name> · <model>").
    for (const u of s.unpriced) {
      const row = s.byModel.find((r) => r.label === u || r.key === u || `${r.provider}/${r.model}` === u);
      if (row) add(row.provider ?? '', row.model ?? u);
      else {
        const i = u.indexOf(' · ');
        add('', i > 0 ? u.slice(i + 3) : u);
      }
    }
    return out;
  }

  // Prices.

  /** prices is the pricing table: the user's prices and the shipped defaults. */
  get prices(): Price[] {
    return this.#prices;
  }

  get pricesLoaded(): boolean {
    return this.#pricesLoaded;
  }

  get pricesError(): string {
    return this.#pricesError;
  }

  async loadPrices(): Promise<void> {
    try {
      this.#prices = await usagePrices();
      this.#pricesError = '';
    } catch (e) {
      this.#pricesError = (e as Error).message;
    } finally {
      this.#pricesLoaded = true;
    }
  }

  /** priceOf is the price in force for a model of a provider (its own, or its preset's). */
  priceOf(provider: string, model: string, preset = ''): Price | undefined {
    const find = (who: string) => this.#prices.find((p) => p.provider === who && p.model === model && p.source === 'user') ??
      this.#prices.find((p) => p.provider === who && p.model === model);
    return find(provider) ?? (preset ? find(preset) : undefined);
  }

  /** draft is a price to start in the Prices tab (a model without one); null when none. */
  get draft(): Partial<Price> | null {
    return this.#draft;
  }

  /** startPrice opens the Prices tab with a new price for provider and model filled in. */
  startPrice(p: Partial<Price>): void {
    this.#draft = { ...p };
    this.#tab = 'prices';
  }

  clearDraft(): void {
    this.#draft = null;
  }

  /** savePrice stores the user's price for a model, then reloads prices and the summary. Rejects with Go's message. */
  async savePrice(p: Price): Promise<Price> {
    const saved = await setUsagePrice(p);
    await this.loadPrices();
    void this.load();
    return saved;
  }

  /** resetPrice drops the user's price for a model, then reloads prices and the summary. */
  async resetPrice(provider: string, model: string): Promise<void> {
    await resetUsagePrice(provider, model);
    await this.loadPrices();
    void this.load();
  }

  // Export.

  /** saveCSV asks where to save the CSV of query grouped by `by`; the path, or "" when cancelled. */
  saveCSV(by: UsageExportBy): Promise<string> {
    return saveUsageCSV(this.query, by);
  }

  /** csv is the CSV text of query grouped by `by`. */
  csv(by: UsageExportBy): Promise<string> {
    return usageCSV(this.query, by);
  }
}
