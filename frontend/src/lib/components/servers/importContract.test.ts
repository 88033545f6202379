// The import preview's contract with Go: the fake builds items of the shape
// mcpconfig.ServerPreview has, and every warning Go can give has a message
// in both languages.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ImportChange, ImportPreview, ImportProblem, ImportWarning, ShownPair } from '../../api';
import { previewItem, shown } from '../../api/fake';
import en from '../../i18n/en.json';
import zh from '../../i18n/zh-CN.json';

const root = join(import.meta.dirname, '../../../../..');
const GO_PREVIEW = readFileSync(join(root, 'backend/mcpconfig/preview.go'), 'utf8');
const GO_WARNINGS = readFileSync(join(root, 'backend/mcpconfig/warnings.go'), 'utf8');
const GO_API = readFileSync(join(root, 'backend/mcppool/api.go'), 'utf8');
const GO_ENTRIES = readFileSync(join(root, 'backend/mcpconfig/entries_preview.go'), 'utf8');

function goJSONFields(struct: string, src: string): string[] {
  const body = new RegExp(`type ${struct} struct \\{([\\s\\S]*?)\\n\\}`).exec(src)?.[1] ?? '';
  return [...body.matchAll(/json:"([^",]+)/g)].map((m) => m[1]).sort();
}

describe('import preview contract with backend/mcpconfig/preview.go', () => {
  it('has the same fields', () => {
    expect(Object.keys(previewItem({ id: 'x' })).sort()).toEqual(goJSONFields('ServerPreview', GO_PREVIEW));
    expect(Object.keys(shown('x')).sort()).toEqual(goJSONFields('Shown', GO_PREVIEW));
    const pair: ShownPair = { name: '', value: shown('') };
    expect(Object.keys(pair).sort()).toEqual(goJSONFields('Pair', GO_PREVIEW));
    const change: ImportChange = { field: 'command', name: '', old: [], new: [] };
    expect(Object.keys(change).sort()).toEqual(goJSONFields('Change', GO_PREVIEW));
    const warning: ImportWarning = { code: '', params: {} };
    expect(Object.keys(warning).sort()).toEqual(goJSONFields('Warning', GO_PREVIEW));
    const problem: Required<ImportProblem> = { line: 0, col: 0, field: '', message: '', code: '', params: {} };
    expect(Object.keys(problem).sort()).toEqual(goJSONFields('Problem', GO_ENTRIES));
    const p: ImportPreview = { token: '', file: '', format: 'claude', items: [] };
    expect(Object.keys(p).sort()).toEqual(goJSONFields('ImportPreview', GO_API));
  });

  it('has a message for every warning, in English and 简体中文', () => {
    const consts = [...GO_WARNINGS.matchAll(/^\tWarn\w+ = "(\w+)"/gm)].map((m) => m[1]);
    const vars = [...GO_WARNINGS.matchAll(/^\t\{"[A-Z0-9_*]+", "(\w+)", "/gm)].map((m) => m[1]);
    expect(consts.length).toBeGreaterThan(5);
    expect(vars.length).toBeGreaterThan(40);
    const codes = [...new Set([...consts, ...vars, 'hiddenKey', 'unknown'])];
    for (const code of codes) {
      expect(en.importPreview.warning, code).toHaveProperty(code);
      expect(zh.importPreview.warning, code).toHaveProperty(code);
    }
    // And a place name for every field a warning can be about.
    for (const field of ['command', 'arg', 'cwd', 'env', 'header', 'url', 'root', 'other']) {
      expect(en.importPreview.where).toHaveProperty(field);
      expect(zh.importPreview.where).toHaveProperty(field);
    }
    const fields = /Field string `json:"field" ts_type:"([^"]+)"/.exec(GO_PREVIEW)?.[1].match(/'(\w+)'/g)?.map((f) => f.slice(1, -1)) ?? [];
    expect(fields.length).toBe(15);
    for (const f of fields) {
      expect(en.importPreview.field).toHaveProperty(f);
      expect(zh.importPreview.field).toHaveProperty(f);
    }
  });
});
