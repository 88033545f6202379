// The string tables are compiled at build time (compile.ts); the window
// formats what this produces without an ICU parser.

import IntlMessageFormat from 'intl-messageformat';
import { describe, expect, it } from 'vitest';
import { compileTable, type Message, type Source, type Table } from './compile';
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
