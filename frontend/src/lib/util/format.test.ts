import { describe, expect, it } from 'vitest';
import { dateTimeFormat, formatDuration, formatElapsed, formatNumber } from './format';

// One helper writes every duration and number (issue 12): Intl's units, so
// a Chinese screen never mixes "3 ms", "2 毫秒" and "9.5秒".
describe('formatDuration', () => {
  it.each([
    [3, '3 ms', '3毫秒'],
    [2.45, '2.5 ms', '2.5毫秒'],
    [999.6, '1 sec', '1秒'],
    [9500, '9.5 sec', '9.5秒'],
    [42_000, '42 sec', '42秒'],
    [125_000, '2 min 5 sec', '2分钟5秒'],
    [120_000, '2 min', '2分钟'],
    [5_400_000, '1 hr 30 min', '1小时30分钟'],
  ])('%d ms → %s / %s', (ms, en, zh) => {
    expect(formatDuration(ms, 'en')).toBe(en);
    expect(formatDuration(ms, 'zh-CN')).toBe(zh);
  });

  it('writes nothing for a value that is not a duration', () => {
    expect(formatDuration(-1, 'en')).toBe('');
    expect(formatDuration(Number.NaN, 'zh-CN')).toBe('');
  });

  it('keeps one decimal while a call runs', () => {
    expect(formatElapsed(0, 'en')).toBe('0.0 sec');
    expect(formatElapsed(1234, 'zh-CN')).toBe('1.2秒');
    expect(formatElapsed(61_000, 'zh-CN')).toBe('1分钟1秒');
  });
});

describe('formatNumber', () => {
  it('groups and rounds for the locale', () => {
    expect(formatNumber(2147483647, 'en')).toBe('2,147,483,647');
    expect(formatNumber(1.2345, 'zh-CN')).toBe('1.23');
  });
});

// No component writes a duration by hand any more: no unit glued to a
// number in the source, and no catalogue entry puts a unit after {ms} or
// {seconds} (they take a {duration} formatted here).
describe('durations are written in one place', () => {
  const sources = import.meta.glob('../**/*.{svelte,ts}', { query: '?raw', import: 'default', eager: true }) as Record<string, string>;
  const catalogues = import.meta.glob('../i18n/*.json', { eager: true, import: 'default' }) as Record<string, unknown>;

  it('has no hand-made durations in components', () => {
    const bad: string[] = [];
    for (const [file, text] of Object.entries(sources)) {
      if (file.includes('.test.') || file.endsWith('util/format.ts')) continue;
      text.split('\n').forEach((line, i) => {
        if (/toFixed\([^)]*\)\}?\s?(ms|s|sec)\b|`\$\{[^}]+\} ?(ms|s)`|logger\.ms|\bMath\.round\([^)]*\)\s*\+\s*' ?(ms|s)'/.test(line)) bad.push(`${file}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(bad).toEqual([]);
  });

  it('has no unit after a number placeholder in the catalogues', () => {
    const bad: string[] = [];
    const walk = (v: unknown, key: string) => {
      if (typeof v === 'string') {
        if (/\{(ms|seconds)\}\s*(ms|s|毫秒|秒)/.test(v)) bad.push(`${key}: ${v}`);
      } else if (v && typeof v === 'object') {
        for (const [k, inner] of Object.entries(v)) walk(inner, key ? `${key}.${k}` : k);
      }
    };
    for (const [file, cat] of Object.entries(catalogues)) walk(cat, file);
    expect(bad).toEqual([]);
  });
});

describe('dateTimeFormat', () => {
  it('makes each format once and writes what toLocale* writes', () => {
    const d = new Date(2026, 10, 25, 9, 5);
    const a = dateTimeFormat('en', { hour: '2-digit', minute: '2-digit' });
    expect(dateTimeFormat('en', { hour: '2-digit', minute: '2-digit' })).toBe(a);
    expect(dateTimeFormat('zh-CN', { hour: '2-digit', minute: '2-digit' })).not.toBe(a);
    expect(a.format(d)).toBe(d.toLocaleTimeString('en', { hour: '2-digit', minute: '2-digit' }));
    expect(dateTimeFormat('zh-CN', { weekday: 'short' }).format(d)).toBe(d.toLocaleDateString('zh-CN', { weekday: 'short' }));
    expect(dateTimeFormat('en', { month: 'short', day: 'numeric', year: 'numeric' }).format(d)).toBe('Nov 25, 2026');
  });
});
