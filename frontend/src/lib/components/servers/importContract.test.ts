// Every warning backend/mcpconfig can give has a message in both languages
// (the shapes themselves are generated from Go: backend/contract).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import en from '../../i18n/en.json';
import zh from '../../i18n/zh-CN.json';

const root = join(import.meta.dirname, '../../../../..');
const GO_PREVIEW = readFileSync(join(root, 'backend/mcpconfig/preview.go'), 'utf8');
const GO_WARNINGS = readFileSync(join(root, 'backend/mcpconfig/warnings.go'), 'utf8');

describe('import preview words for what backend/mcpconfig can say', () => {
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
