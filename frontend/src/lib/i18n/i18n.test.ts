import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import IntlMessageFormat from 'intl-messageformat';
import { describe, expect, it } from 'vitest';
import en from './en.json';
import zhCN from './zh-CN.json';
import { systemLocale } from './index';

type Tree = { [k: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(tree)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'string') out.set(key, v);
    else for (const [kk, vv] of flatten(v, key)) out.set(kk, vv);
  }
  return out;
}

const EN = flatten(en as Tree);
const ZH = flatten(zhCN as Tree);
const SRC = join(import.meta.dirname, '..', '..');

function sources(dir: string, exts: string[]): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...sources(p, exts));
    else if (exts.some((e) => name.endsWith(e)) && !name.endsWith('.test.ts')) out.push(p);
  }
  return out;
}

interface AstNode {
  type: number;
  value?: string;
  options?: Record<string, { value: AstNode[] }>;
  children?: AstNode[];
}

/** argNames returns the ICU argument names a message uses, from its AST. */
function argNames(msg: string, locale: string): string[] {
  const names = new Set<string>();
  const walk = (nodes: AstNode[]) => {
    for (const n of nodes) {
      // 0 literal, 7 pound (#), 8 tag; everything else names an argument.
      if (n.type !== 0 && n.type !== 7 && n.type !== 8 && n.value) names.add(n.value);
      for (const o of Object.values(n.options ?? {})) walk(o.value);
      if (n.children) walk(n.children);
    }
  };
  walk(new IntlMessageFormat(msg, locale).getAst() as unknown as AstNode[]);
  return [...names].sort();
}

describe('i18n catalogues', () => {
  it('en and zh-CN have exactly the same keys', () => {
    const missingInZh = [...EN.keys()].filter((k) => !ZH.has(k));
    const extraInZh = [...ZH.keys()].filter((k) => !EN.has(k));
    expect(missingInZh).toEqual([]);
    expect(extraInZh).toEqual([]);
  });

  it('has no empty messages', () => {
    for (const [k, v] of [...EN, ...ZH]) expect(v.trim(), k).not.toBe('');
  });

  it('every message is valid ICU and both languages use the same arguments', () => {
    for (const [k, v] of EN) {
      expect(() => new IntlMessageFormat(v, 'en'), `en ${k}`).not.toThrow();
      const zh = ZH.get(k)!;
      expect(() => new IntlMessageFormat(zh, 'zh-CN'), `zh-CN ${k}`).not.toThrow();
      expect(argNames(zh, 'zh-CN'), k).toEqual(argNames(v, 'en'));
    }
  });

  it('every key used in the source exists in en.json', () => {
    const namespaces = Object.keys(en).join('|');
    const keyish = new RegExp(`['"]((?:${namespaces})\\.[A-Za-z0-9_.-]+)['"]`, 'g');
    const calls = /(?:\$_|\bt)\(\s*['"]([^'"\s]+\.[^'"\s]+)['"]/g;
    const used = new Map<string, string>();
    for (const file of sources(SRC, ['.svelte', '.ts'])) {
      // The generated Go↔UI contract quotes Go's doc comments, not keys.
      if (relative(SRC, file).startsWith('lib/api/generated/')) continue;
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(keyish)) used.set(m[1], relative(SRC, file));
      for (const m of text.matchAll(calls)) used.set(m[1], relative(SRC, file));
    }
    const missing = [...used].filter(([k]) => !EN.has(k)).map(([k, f]) => `${k} (${f})`);
    expect(missing).toEqual([]);
    expect(used.size).toBeGreaterThan(100);
  });

  it('components have no literal UI text', () => {
    const offenders: string[] = [];
    for (const file of sources(SRC, ['.svelte'])) {
      const markup = stripExpressions(
        readFileSync(file, 'utf8')
          .replace(/<script[\s\S]*?<\/script>/g, '')
          .replace(/<style[\s\S]*?<\/style>/g, '')
          .replace(/<!--[\s\S]*?-->/g, ''),
      );
      for (const m of markup.matchAll(/\b(placeholder|title|aria-label|alt|label)="([^"]*)"/g)) {
        if (/\p{L}/u.test(m[2])) offenders.push(`${relative(SRC, file)}: ${m[1]}="${m[2]}"`);
      }
      const text = markup.replace(/<[^>]*>/g, ' ').replace(/&[a-z]+;/g, ' ');
      for (const word of text.split(/\s+/)) {
        if (/\p{L}/u.test(word)) offenders.push(`${relative(SRC, file)}: ${word}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('maps the system language: zh* → zh-CN, anything else → en', () => {
    expect(systemLocale('zh-CN')).toBe('zh-CN');
    expect(systemLocale('zh-TW')).toBe('zh-CN');
    expect(systemLocale('zh')).toBe('zh-CN');
    expect(systemLocale('en-GB')).toBe('en');
    expect(systemLocale('fr')).toBe('en');
    expect(systemLocale('')).toBe('en');
  });
});

// stripExpressions removes every {…} block (balanced braces), leaving markup.
function stripExpressions(s: string): string {
  let out = '';
  let depth = 0;
  for (const ch of s) {
    if (ch === '{') depth++;
    else if (ch === '}') depth = Math.max(0, depth - 1);
    else if (depth === 0) out += ch;
  }
  return out;
}
