// URI templates (RFC 6570) for MCP resource templates.
//
// Levels 1–3 are implemented in full: simple `{var}`, reserved `{+var}`,
// fragment `{#var}`, label `{.var}`, path segment `{/var}`, path-style
// parameters `{;var}`, form query `{?var}` and continuation `{&var}`, each
// with one or more comma-separated variables. Values are strings (an MCP
// template argument is a string), so the level-4 modifiers reduce to the
// prefix `{var:3}` (the first 3 characters) and the explode `{var*}`
// (no effect on a string); both are accepted. An expression that does not
// parse is copied as it is.

/** One variable of an expression: `name`, `name:3` or `name*`. */
export interface VarSpec {
  name: string;
  /** Level-4 prefix length (`{var:3}`). */
  prefix?: number;
  explode?: boolean;
}

/** A template is a sequence of literal text and expressions. */
export type TemplatePart = { literal: string } | { operator: Operator; vars: VarSpec[] };

type Operator = '' | '+' | '#' | '.' | '/' | ';' | '?' | '&';

interface OpRule {
  first: string;
  sep: string;
  named: boolean;
  ifEmpty: string;
  allowReserved: boolean;
}

// RFC 6570 appendix A.
const RULES: Record<Operator, OpRule> = {
  '': { first: '', sep: ',', named: false, ifEmpty: '', allowReserved: false },
  '+': { first: '', sep: ',', named: false, ifEmpty: '', allowReserved: true },
  '#': { first: '#', sep: ',', named: false, ifEmpty: '', allowReserved: true },
  '.': { first: '.', sep: '.', named: false, ifEmpty: '', allowReserved: false },
  '/': { first: '/', sep: '/', named: false, ifEmpty: '', allowReserved: false },
  ';': { first: ';', sep: ';', named: true, ifEmpty: '', allowReserved: false },
  '?': { first: '?', sep: '&', named: true, ifEmpty: '=', allowReserved: false },
  '&': { first: '&', sep: '&', named: true, ifEmpty: '=', allowReserved: false },
};

const VARSPEC = /^((?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*)(?::([1-9][0-9]{0,3})|(\*))?$/;

function parseExpression(body: string): TemplatePart | null {
  const operator = (body[0] && '+#./;?&'.includes(body[0]) ? body[0] : '') as Operator;
  const list = body.slice(operator.length);
  if (!list) return null;
  const vars: VarSpec[] = [];
  for (const spec of list.split(',')) {
    const m = VARSPEC.exec(spec);
    if (!m) return null;
    const v: VarSpec = { name: m[1] };
    if (m[2]) v.prefix = Number(m[2]);
    if (m[3]) v.explode = true;
    vars.push(v);
  }
  return { operator, vars };
}

/** parseTemplate splits a template into literals and expressions. */
export function parseTemplate(template: string): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let literal = '';
  let i = 0;
  while (i < template.length) {
    const open = template.indexOf('{', i);
    if (open < 0) break;
    const close = template.indexOf('}', open + 1);
    if (close < 0) break;
    const expr = parseExpression(template.slice(open + 1, close));
    if (!expr) {
      literal += template.slice(i, close + 1);
    } else {
      literal += template.slice(i, open);
      if (literal) parts.push({ literal });
      literal = '';
      parts.push(expr);
    }
    i = close + 1;
  }
  literal += template.slice(i);
  if (literal) parts.push({ literal });
  return parts;
}

/** templateVariables lists the variable names of a template, each once, in order. */
export function templateVariables(template: string): string[] {
  const names: string[] = [];
  for (const p of parseTemplate(template)) {
    if ('vars' in p) for (const v of p.vars) if (!names.includes(v.name)) names.push(v.name);
  }
  return names;
}

/**
 * requiredVariables lists the variables a template needs to name one
 * resource: those of the simple, reserved and path forms (`{id}`, `{+path}`,
 * `{/seg}`); query and fragment forms (`{?q}`, `{&q}`, `{;p}`, `{#f}`, `{.ext}`)
 * may stay empty.
 */
export function requiredVariables(template: string): string[] {
  const names: string[] = [];
  for (const p of parseTemplate(template)) {
    if (!('vars' in p) || !['', '+', '/'].includes(p.operator)) continue;
    for (const v of p.vars) if (!names.includes(v.name)) names.push(v.name);
  }
  return names;
}

const UNRESERVED = /[A-Za-z0-9\-._~]/;
const RESERVED = /[:/?#[\]@!$&'()*+,;=]/;
const HEX = /^[0-9A-Fa-f]{2}$/;
const utf8 = new TextEncoder();

function pctEncode(ch: string): string {
  let out = '';
  for (const b of utf8.encode(ch)) out += '%' + b.toString(16).toUpperCase().padStart(2, '0');
  return out;
}

/**
 * encode percent-encodes a value: everything but unreserved characters, or,
 * with allowReserved (`+` and `#`), everything but unreserved, reserved and
 * existing percent-encoded triplets.
 */
export function encode(value: string, allowReserved: boolean): string {
  let out = '';
  const chars = Array.from(value);
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i];
    if (UNRESERVED.test(c)) out += c;
    else if (allowReserved && RESERVED.test(c)) out += c;
    else if (allowReserved && c === '%' && HEX.test((chars[i + 1] ?? '') + (chars[i + 2] ?? ''))) out += c;
    else out += pctEncode(c);
  }
  return out;
}

/** Template variable values; undefined (or missing) leaves the variable out. */
export type TemplateValues = Record<string, string | undefined>;

/**
 * expandTemplate fills a URI template with values. An undefined variable is
 * left out together with its operator's prefix and separator; an empty
 * string is defined (`{?q}` with q = "" gives `?q=`).
 */
export function expandTemplate(template: string, values: TemplateValues): string {
  let out = '';
  for (const part of parseTemplate(template)) {
    if ('literal' in part) {
      out += part.literal;
      continue;
    }
    const rule = RULES[part.operator];
    let first = true;
    for (const v of part.vars) {
      const raw = values[v.name];
      if (raw === undefined || raw === null) continue;
      const value = v.prefix !== undefined ? Array.from(raw).slice(0, v.prefix).join('') : raw;
      out += first ? rule.first : rule.sep;
      first = false;
      if (rule.named) {
        out += encode(v.name, true);
        out += value === '' ? rule.ifEmpty : '=' + encode(value, rule.allowReserved);
      } else {
        out += encode(value, rule.allowReserved);
      }
    }
  }
  return out;
}
