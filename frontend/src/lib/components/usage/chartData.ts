// Turns day rows tagged with a provider (and model) into the series of the
// two charts: tokens and cost per day, stacked by provider or by model.
// Both charts share the series' order and colours, so a provider is the
// same colour in each. Rows without a provider make one series (the whole
// day); rows whose provider is OTHER_PROVIDER are the rest, summed.

import { knownCost, type UsageRow } from '../../api';
import { OTHER_PROVIDER, type ChartSplit } from '../../state/usage.svelte';

/** PALETTE reads on light and dark backgrounds alike; the last colour is "Other". */
export const PALETTE = ['#6366f1', '#14b8a6', '#f59e0b', '#ec4899', '#3b82f6', '#84cc16', '#a855f7'];
export const OTHER_COLOR = '#94a3b8';

/** ChartSeries is one stacked band: a provider, a model, or the rest ("other"). */
export interface ChartSeries {
  key: string;
  label: string;
  color: string;
  /** Prompt + completion tokens per day. */
  tokens: number[];
  /** Estimated cost per day (0 where no price). */
  cost: number[];
  /** Some calls of the series have no price. */
  unpriced: boolean;
}

export interface ChartData {
  days: string[];
  series: ChartSeries[];
}

export const OTHER_KEY = '\u0000other';

/**
 * chartData groups rows by split over days (every day of the range, zeros
 * where nothing ran). The biggest groups by tokens get their own series, at
 * most `max`; the rest are summed as OTHER_KEY.
 */
export function chartData(
  rows: UsageRow[],
  days: string[],
  split: ChartSplit,
  labelOf: (key: string, row: UsageRow) => string,
  otherLabel: string,
  max = PALETTE.length,
): ChartData {
  const index = new Map(days.map((d, i) => [d, i]));
  const groups = new Map<string, ChartSeries & { total: number }>();
  for (const r of rows) {
    const i = r.day ? index.get(r.day) : undefined;
    if (i === undefined) continue;
    const key = r.provider === OTHER_PROVIDER ? OTHER_KEY : split === 'provider' ? (r.provider ?? '') : `${r.provider ?? ''}/${r.model ?? ''}`;
    let g = groups.get(key);
    if (!g) {
      g = { key, label: labelOf(key, r), color: '', tokens: days.map(() => 0), cost: days.map(() => 0), unpriced: false, total: 0 };
      groups.set(key, g);
    }
    const t = r.promptTokens + r.completionTokens;
    g.tokens[i] += t;
    g.cost[i] += knownCost(r) ?? 0;
    g.total += t;
    if (r.cost === null || r.costPartial) g.unpriced = true;
  }
  const other = groups.get(OTHER_KEY);
  groups.delete(OTHER_KEY);
  const sorted = [...groups.values()].sort((a, b) => b.total - a.total || a.label.localeCompare(b.label));
  const keep = sorted.length > max - (other ? 1 : 0) ? sorted.slice(0, max - 1) : sorted;
  const rest = [...sorted.slice(keep.length), ...(other ? [other] : [])];
  const series: ChartSeries[] = keep.map(({ total: _, ...s }, i) => ({ ...s, color: PALETTE[i % PALETTE.length] }));
  if (rest.length) {
    series.push({
      key: OTHER_KEY,
      label: otherLabel,
      color: OTHER_COLOR,
      tokens: days.map((_, i) => rest.reduce((n, g) => n + g.tokens[i], 0)),
      cost: days.map((_, i) => rest.reduce((n, g) => n + g.cost[i], 0)),
      unpriced: rest.some((g) => g.unpriced),
    });
  }
  return { days, series };
}

/**
 * stack returns the series' running sums, top of the stack first: drawn in
 * that order, each bar covers the one before it down to its own base, so
 * what shows of each is its own band.
 */
export function stack(values: number[][]): number[][] {
  const sums: number[][] = [];
  let acc = values.length ? values[0].map(() => 0) : [];
  for (const v of values) {
    acc = acc.map((a, i) => a + v[i]);
    sums.push(acc);
  }
  return sums.reverse();
}
