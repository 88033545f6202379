// The string tables are compiled at build time (compile.ts); the window
// formats what this produces without an ICU parser.

import IntlMessageFormat from 'intl-messageformat';
import { describe, expect, it } from 'vitest';
import { compileTable, latin1JSON, packTable, type Message, type Source, type Table } from './compile';
import en from './en.json';
import zhCN from './zh-CN.json';

describe('compileTable', () => {
  it('keeps the nesting, writes text-only messages as text and the rest as a tree', () => {
    const out = compileTable({ a: { plain: 'Servers', arg: 'Hello {name}', plural: '{n, plural, one {# tool} other {# tools}}' } }, 'en');
    const a = out.a as Table;
    expect(a.plain).toBe('Servers');
    expect(Array.isArray(a.arg)).toBe(true);
    expect(new IntlMessageFormat(a.plural as Exclude<Message, string>, 'en').format({ n: 3 })).toBe('3 tools');
    expect(new IntlMessageFormat(a.arg as Exclude<Message, string>, 'en').format({ name: 'Ada' })).toBe('Hello Ada');
  });

  it('reads tags as text, as the window always has', () => {
    const out = compileTable({ m: 'Press <b>Enter</b>' }, 'en');
    expect(out.m).toBe('Press <b>Enter</b>');
  });

  it('unescapes ICU quoting in text-only messages', () => {
    expect(compileTable({ m: "a '{'brace'}' and it''s" }, 'en').m).toBe("a {brace} and it's");
  });

  it('fails on a message that is not ICU, naming its locale and key', () => {
    expect(() => compileTable({ group: { broken: 'Hello {name' } }, 'zh-CN')).toThrow(/zh-CN message group\.broken/);
  });

  it('compiles both shipped tables, and formats like the runtime parser', () => {
    for (const [locale, src] of [['en', en], ['zh-CN', zhCN]] as const) {
      const compiled = compileTable(src as Source, locale);
      const walk = (s: Source, c: Table, key: string) => {
        for (const [k, v] of Object.entries(s)) {
          const m = c[k];
          if (typeof v !== 'string') {
            walk(v, m as Table, `${key}${k}.`);
            continue;
          }
          if (typeof m === 'string') {
            expect(m, `${locale} ${key}${k}`).toBe(new IntlMessageFormat(v, locale).format({}));
          } else {
            // Every argument as 7: the compiled tree and the parsed string agree.
            const values = new Proxy({}, { get: () => 7, has: () => true });
            const want = new IntlMessageFormat(v, locale, undefined, { ignoreTag: true }).format(values);
            expect(new IntlMessageFormat(m as Exclude<Message, string>, locale).format(values), `${locale} ${key}${k}`).toBe(want);
          }
        }
      };
      walk(src as Source, compiled, '');
    }
  });
});

describe('latin1JSON', () => {
  const isLatin1 = (t: string) => /^[\x00-\xff]*$/.test(t);

  it('writes the English table in Latin-1, and it parses to the same table', () => {
    const json = JSON.stringify(compileTable(en as Source, 'en'));
    expect(isLatin1(json)).toBe(false); // it has dashes and arrows
    const out = latin1JSON(json);
    expect(isLatin1(out)).toBe(true);
    expect(JSON.parse(out)).toEqual(JSON.parse(json));
  });

  it('escapes only when one byte a character then takes less than two', () => {
    const mostlyChinese = JSON.stringify({ a: '中文界面'.repeat(50) });
    expect(latin1JSON(mostlyChinese)).toBe(mostlyChinese);
    // The Chinese table: its keys and trees are ASCII, a fifth of it Chinese.
    const json = JSON.stringify(compileTable(zhCN as Source, 'zh-CN'));
    const out = latin1JSON(json);
    expect(out.length).toBeLessThan(2 * json.length);
    expect(JSON.parse(out)).toEqual(JSON.parse(json));
  });

  it('leaves Latin-1 text alone and escapes characters outside the basic plane as pairs', () => {
    expect(latin1JSON('{"a":"café"}')).toBe('{"a":"café"}');
    const astral = JSON.stringify({ a: 'x'.repeat(40) + ' 😀 — ok' });
    const out = latin1JSON(astral);
    expect(out).toContain('\\ud83d\\ude00');
    expect(out).toContain('\\u2014');
    expect(JSON.parse(out)).toEqual(JSON.parse(astral));
  });
});

describe('packTable', () => {
  it('holds each top-level entry as Latin-1 JSON text that parses back to it', () => {
    const table = compileTable(en as Source, 'en');
    const packed = packTable(table);
    expect(Object.keys(packed)).toEqual(Object.keys(table));
    for (const [k, v] of Object.entries(packed)) {
      expect(typeof v).toBe('string');
      expect(/^[\x00-\xff]*$/.test(v), k).toBe(true);
      expect(JSON.parse(v), k).toEqual(table[k]);
    }
  });
});
