// The schema form engine: JSON Schema → a tree of field descriptions
// (analyze), a plain form state for that tree (stateFromValue), and the JSON
// value the form stands for (stateToValue). Pure and framework-free, so it
// can be tested as a table and reused by any form built from a schema (tool
// arguments, elicitation requests).
//
// Supported: string (formats → input types, length, pattern), number and
// integer, boolean, enum and oneOf/anyOf of consts (select; multi-select for
// arrays of them), arrays of any item schema, nested objects, anyOf/oneOf
// (a variant selector), nullable (type [x, "null"], anyOf [x, {type: null}]),
// defaults, local $ref (#/$defs/…, #/definitions/…) and allOf merging. What
// a form cannot express (tuples, maps, patternProperties, recursion past a
// depth) becomes a JSON text field for that spot.

/** A JSON Schema object (or its boolean form, as true/false). */
export type Schema = Record<string, unknown>;

/** One step of a path into the value: a property name or an array index. */
export type Segment = string | number;

export type InputType = 'text' | 'email' | 'url' | 'date' | 'datetime-local' | 'time';

export interface Option {
  value: unknown;
  label: string;
}

interface Base {
  /** The schema after $ref and allOf were resolved. */
  schema: Schema;
  title?: string;
  description?: string;
  /** True when null is an allowed value. */
  nullable: boolean;
  hasDefault: boolean;
  default?: unknown;
}

export interface StringNode extends Base {
  kind: 'string';
  inputType: InputType;
  format?: string;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
}

export interface NumberNode extends Base {
  kind: 'number';
  integer: boolean;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  step?: number;
}

export interface BooleanNode extends Base {
  kind: 'boolean';
}

export interface EnumNode extends Base {
  kind: 'enum';
  options: Option[];
}

export interface MultiNode extends Base {
  kind: 'multi';
  options: Option[];
  minItems?: number;
  maxItems?: number;
}

export interface ConstNode extends Base {
  kind: 'const';
  value: unknown;
}

export interface NullNode extends Base {
  kind: 'null';
}

export interface ArrayNode extends Base {
  kind: 'array';
  item: SchemaNode;
  minItems?: number;
  maxItems?: number;
}

export interface Property {
  key: string;
  node: SchemaNode;
  required: boolean;
}

export interface ObjectNode extends Base {
  kind: 'object';
  properties: Property[];
}

export interface Variant {
  label: string;
  node: SchemaNode;
}

export interface VariantNode extends Base {
  kind: 'variant';
  /** oneOf or anyOf, for messages. */
  keyword: 'oneOf' | 'anyOf' | 'type';
  variants: Variant[];
}

/** JsonNode is a spot the form cannot express: edited as JSON text. */
export interface JsonNode extends Base {
  kind: 'json';
}

export type SchemaNode =
  | StringNode
  | NumberNode
  | BooleanNode
  | EnumNode
  | MultiNode
  | ConstNode
  | NullNode
  | ArrayNode
  | ObjectNode
  | VariantNode
  | JsonNode;

/**
 * FieldState is what the user has entered for one node. It is plain data
 * (a deep $state proxy in components), shaped by the node's kind. isNull is
 * set on nullable nodes when the user chose null.
 */
export type FieldState =
  | { k: 'string'; text: string; isNull?: boolean }
  | { k: 'number'; text: string; isNull?: boolean }
  | { k: 'boolean'; value: boolean | null; isNull?: boolean }
  | { k: 'enum'; index: number; isNull?: boolean }
  | { k: 'multi'; selected: boolean[]; isNull?: boolean }
  | { k: 'const'; isNull?: boolean }
  | { k: 'null'; isNull?: boolean }
  | { k: 'array'; items: FieldState[]; isNull?: boolean }
  | { k: 'object'; fields: Record<string, FieldState>; isNull?: boolean }
  | { k: 'variant'; index: number; branches: FieldState[]; isNull?: boolean }
  | { k: 'json'; text: string; isNull?: boolean };

/** Nesting beyond this many levels is edited as JSON text. */
const MAX_DEPTH = 10;

// ---------------------------------------------------------------- analysis

const isObj = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

function omit(s: Schema, keys: string[]): Schema {
  const out: Schema = {};
  for (const [k, v] of Object.entries(s)) if (!keys.includes(k)) out[k] = v;
  return out;
}

/** resolvePointer follows a local JSON pointer ("#/$defs/A") inside root. */
export function resolvePointer(root: unknown, ref: string): unknown {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let cur: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isObj(cur) && !Array.isArray(cur)) return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

interface Ctx {
  root: Schema;
  /** $refs followed on the way here, to stop at recursion. */
  refs: string[];
  depth: number;
}

/**
 * deref resolves $ref (siblings of $ref override the target's keywords)
 * and merges allOf into one schema. Returns null when a $ref cannot be
 * followed or repeats on the path (recursion).
 */
function deref(schema: unknown, ctx: Ctx): { schema: Schema; refs: string[] } | null {
  if (schema === true || schema === undefined) return { schema: {}, refs: ctx.refs };
  if (!isObj(schema)) return null;
  let s = schema;
  let refs = ctx.refs;
  for (let guard = 0; typeof s.$ref === 'string'; guard++) {
    const ref = s.$ref;
    if (guard > 16 || refs.includes(ref)) return null;
    const target = resolvePointer(ctx.root, ref);
    if (!isObj(target)) return null;
    refs = [...refs, ref];
    s = { ...target, ...omit(s, ['$ref']) };
  }
  if (Array.isArray(s.allOf)) {
    const rest = omit(s, ['allOf']);
    let merged: Schema = {};
    for (const part of s.allOf as unknown[]) {
      const d = deref(part, { ...ctx, refs });
      if (!d) return null;
      refs = d.refs;
      merged = mergeSchemas(merged, d.schema);
    }
    s = mergeSchemas(merged, rest);
  }
  return { schema: s, refs };
}

/** mergeSchemas combines two object schemas: properties and required add up, other keywords of b win. */
export function mergeSchemas(a: Schema, b: Schema): Schema {
  const out: Schema = { ...a, ...b };
  if (isObj(a.properties) || isObj(b.properties)) {
    out.properties = { ...(isObj(a.properties) ? a.properties : {}), ...(isObj(b.properties) ? b.properties : {}) };
  }
  if (Array.isArray(a.required) || Array.isArray(b.required)) {
    out.required = [...new Set([...((a.required as string[]) ?? []), ...((b.required as string[]) ?? [])])];
  }
  return out;
}

const FORMAT_INPUT: Record<string, InputType> = {
  email: 'email',
  'idn-email': 'email',
  uri: 'url',
  url: 'url',
  iri: 'url',
  date: 'date',
  'date-time': 'datetime-local',
  time: 'time',
};

function typesOf(s: Schema): string[] {
  if (Array.isArray(s.type)) return s.type.filter((t): t is string => typeof t === 'string');
  return typeof s.type === 'string' ? [s.type] : [];
}

const isNullSchema = (s: Schema) => s.type === 'null' || (Array.isArray(s.type) && s.type.length === 1 && s.type[0] === 'null') || ('const' in s && s.const === null);

/** constOf returns the single value a branch allows, if it allows exactly one. */
function constOf(s: Schema): { value: unknown } | null {
  if ('const' in s) return { value: s.const };
  if (Array.isArray(s.enum) && s.enum.length === 1) return { value: s.enum[0] };
  return null;
}

function label(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** enumOptions returns the choices of an enum-like schema (enum, or oneOf/anyOf of consts), or null. */
function enumOptions(s: Schema, ctx: Ctx): { options: Option[]; nullable: boolean } | null {
  if (Array.isArray(s.enum)) {
    const nullable = s.enum.includes(null);
    return { options: s.enum.filter((v) => v !== null).map((v) => ({ value: v, label: label(v) })), nullable };
  }
  const list = Array.isArray(s.oneOf) ? s.oneOf : Array.isArray(s.anyOf) ? s.anyOf : null;
  if (!list || list.length === 0) return null;
  const options: Option[] = [];
  let nullable = false;
  for (const branch of list) {
    const d = deref(branch, ctx);
    if (!d) return null;
    const c = constOf(d.schema);
    if (c && c.value === null) nullable = true;
    else if (c) options.push({ value: c.value, label: typeof d.schema.title === 'string' ? d.schema.title : label(c.value) });
    else if (isNullSchema(d.schema)) nullable = true;
    else return null;
  }
  return options.length > 0 ? { options, nullable } : null;
}

function variantLabel(s: Schema, i: number): string {
  if (typeof s.title === 'string' && s.title) return s.title;
  const t = typesOf(s).filter((x) => x !== 'null');
  if (t.length === 1) {
    if (t[0] === 'array' && isObj(s.items)) {
      const it = typesOf(s.items as Schema);
      if (it.length === 1) return `${it[0]}[]`;
    }
    return t[0];
  }
  const c = constOf(s);
  if (c) return label(c.value);
  if (isObj(s.properties)) return `{ ${Object.keys(s.properties).slice(0, 3).join(', ')}${Object.keys(s.properties).length > 3 ? ', …' : ''} }`;
  return `#${i + 1}`;
}

/** analyze turns a JSON Schema into a tree of field descriptions. */
export function analyze(schema: unknown): SchemaNode {
  const root = isObj(schema) ? schema : {};
  return node(schema, { root, refs: [], depth: 0 });
}

function node(raw: unknown, ctx: Ctx): SchemaNode {
  const d = deref(raw, ctx);
  if (!d) return { kind: 'json', schema: isObj(raw) ? raw : {}, nullable: true, hasDefault: false };
  const s = d.schema;
  const c: Ctx = { ...ctx, refs: d.refs };
  const base: Base = {
    schema: s,
    title: typeof s.title === 'string' ? s.title : undefined,
    description: typeof s.description === 'string' ? s.description : undefined,
    nullable: typesOf(s).includes('null') || s.nullable === true,
    hasDefault: 'default' in s,
    default: s.default,
  };
  if (ctx.depth > MAX_DEPTH) return { ...base, kind: 'json', nullable: true };

  if ('const' in s) return { ...base, kind: 'const', value: s.const };

  const en = enumOptions(s, c);
  if (en) return { ...base, kind: 'enum', options: en.options, nullable: base.nullable || en.nullable };

  const list = Array.isArray(s.oneOf) ? (s.oneOf as unknown[]) : Array.isArray(s.anyOf) ? (s.anyOf as unknown[]) : null;
  if (list) {
    const keyword = Array.isArray(s.oneOf) ? 'oneOf' : 'anyOf';
    const outer = omit(s, ['oneOf', 'anyOf', 'title', 'description', 'default']);
    let nullable = base.nullable;
    const branches: Schema[] = [];
    for (const b of list) {
      const bd = deref(b, c);
      if (!bd) return { ...base, kind: 'json', nullable: true };
      if (isNullSchema(bd.schema)) nullable = true;
      else branches.push(mergeSchemas(outer, bd.schema));
    }
    const inner = { ...c, refs: c.refs, depth: c.depth };
    if (branches.length === 0) return { ...base, kind: 'null', nullable: true };
    if (branches.length === 1) {
      const n = node(branches[0], inner);
      return { ...n, title: base.title ?? n.title, description: base.description ?? n.description, hasDefault: base.hasDefault || n.hasDefault, default: base.hasDefault ? base.default : n.default, nullable: nullable || n.nullable };
    }
    return {
      ...base,
      kind: 'variant',
      keyword,
      nullable,
      variants: branches.map((b, i) => ({ label: variantLabel(b, i), node: node(b, { ...inner, depth: inner.depth + 1 }) })),
    };
  }

  const types = typesOf(s).filter((t) => t !== 'null');
  if (types.length > 1) {
    const rest = omit(s, ['type']);
    return {
      ...base,
      kind: 'variant',
      keyword: 'type',
      variants: types.map((t) => ({ label: t, node: node({ ...rest, type: t }, { ...c, depth: c.depth + 1 }) })),
    };
  }

  let type = types[0];
  if (!type) {
    if (typesOf(s).includes('null')) return { ...base, kind: 'null' };
    if (isObj(s.properties)) type = 'object';
    else if ('items' in s) type = 'array';
  }

  switch (type) {
    case 'string': {
      const format = typeof s.format === 'string' ? s.format : undefined;
      return {
        ...base,
        kind: 'string',
        inputType: (format && FORMAT_INPUT[format]) || 'text',
        format,
        minLength: num(s.minLength),
        maxLength: num(s.maxLength),
        pattern: typeof s.pattern === 'string' ? s.pattern : undefined,
      };
    }
    case 'number':
    case 'integer':
      return {
        ...base,
        kind: 'number',
        integer: type === 'integer',
        minimum: num(s.minimum),
        maximum: num(s.maximum),
        exclusiveMinimum: num(s.exclusiveMinimum),
        exclusiveMaximum: num(s.exclusiveMaximum),
        step: num(s.multipleOf),
      };
    case 'boolean':
      return { ...base, kind: 'boolean' };
    case 'null':
      return { ...base, kind: 'null' };
    case 'array': {
      if (Array.isArray(s.items) || 'prefixItems' in s) return { ...base, kind: 'json' };
      const minItems = num(s.minItems);
      const maxItems = num(s.maxItems);
      const itemD = deref(s.items, c);
      if (itemD) {
        const opts = enumOptions(itemD.schema, { ...c, refs: itemD.refs });
        if (opts) return { ...base, kind: 'multi', options: opts.options, minItems, maxItems };
      }
      return { ...base, kind: 'array', item: node(s.items, { ...c, depth: c.depth + 1 }), minItems, maxItems };
    }
    case 'object': {
      const props = isObj(s.properties) ? s.properties : null;
      if (!props) {
        // A map (additionalProperties / patternProperties) has keys the form cannot list.
        const open = s.additionalProperties !== undefined && s.additionalProperties !== false;
        if (open || isObj(s.patternProperties)) return { ...base, kind: 'json' };
        if (ctx.depth > 0) return { ...base, kind: 'json' };
        return { ...base, kind: 'object', properties: [] };
      }
      const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
      return {
        ...base,
        kind: 'object',
        properties: Object.entries(props).map(([key, p]) => ({
          key,
          required: required.has(key),
          node: node(p, { ...c, depth: c.depth + 1 }),
        })),
      };
    }
    default:
      return { ...base, kind: 'json' };
  }
}

const analysed = new WeakMap<object, SchemaNode>();

/** analyzeCached is analyze memoised per schema object. */
export function analyzeCached(schema: Schema): SchemaNode {
  let n = analysed.get(schema);
  if (!n) analysed.set(schema, (n = analyze(schema)));
  return n;
}

// ----------------------------------------------------- dates and times

const pad = (n: number, w = 2) => String(Math.abs(n)).padStart(w, '0');

/** localOffset formats the local UTC offset of d as "Z" or "+HH:MM". */
function localOffset(d: Date): string {
  const off = -d.getTimezoneOffset();
  if (off === 0) return 'Z';
  return `${off < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(off) / 60))}:${pad(Math.abs(off) % 60)}`;
}

const LOCAL_DT = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d)(?::(\d\d)(\.\d+)?)?$/;
const TIME = /^(\d\d):(\d\d)(?::(\d\d)(\.\d+)?)?(Z|[+-]\d\d:?\d\d)?$/i;

/** toInputText converts a value of a format to what its <input> holds. */
function toInputText(n: StringNode, v: string): string {
  if (n.inputType === 'datetime-local') {
    if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)$/i.test(v)) return v;
    const d = new Date(v);
    if (Number.isNaN(d.getTime())) return v;
    const secs = d.getSeconds() || d.getMilliseconds() ? `:${pad(d.getSeconds())}` : '';
    return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}${secs}`;
  }
  if (n.inputType === 'time') {
    const m = TIME.exec(v);
    if (!m) return v;
    return m[3] && m[3] !== '00' ? `${m[1]}:${m[2]}:${m[3]}` : `${m[1]}:${m[2]}`;
  }
  return v;
}

/** fromInputText converts what an <input> holds to the value its format asks for (RFC 3339 with the local offset). */
function fromInputText(n: StringNode, text: string): string {
  if (n.inputType === 'datetime-local') {
    const m = LOCAL_DT.exec(text);
    if (!m) return text;
    const d = new Date(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], m[6] ? +m[6] : 0);
    return `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6] ?? '00'}${localOffset(d)}`;
  }
  if (n.inputType === 'time' && n.format === 'time') {
    const m = TIME.exec(text);
    if (!m || m[5]) return text;
    return `${m[1]}:${m[2]}:${m[3] ?? '00'}${localOffset(new Date())}`;
  }
  return text;
}

// ----------------------------------------------------------- form state

/** How a value is placed: a required property, an optional one, or an array item. */
export type Place = 'required' | 'optional' | 'item';

/**
 * stateFromValue builds the form state that shows value. With useDefaults,
 * missing values take the schema's defaults (a fresh form); without, they
 * stay empty (loading JSON the user wrote or a past run's arguments).
 */
export function stateFromValue(n: SchemaNode, value: unknown, useDefaults: boolean, place: Place = 'required'): FieldState {
  const v = value === undefined && useDefaults && n.hasDefault ? n.default : value;
  const isNull = v === null && n.nullable ? true : undefined;
  const st = build(n, isNull ? undefined : v, useDefaults, place);
  if (isNull) st.isNull = true;
  return st;
}

function build(n: SchemaNode, v: unknown, useDefaults: boolean, place: Place): FieldState {
  switch (n.kind) {
    case 'string':
      return { k: 'string', text: typeof v === 'string' ? toInputText(n, v) : '' };
    case 'number':
      return { k: 'number', text: typeof v === 'number' ? String(v) : '' };
    case 'boolean':
      return { k: 'boolean', value: typeof v === 'boolean' ? v : useDefaults && place !== 'optional' ? false : null };
    case 'enum':
      return { k: 'enum', index: v === undefined ? -1 : n.options.findIndex((o) => deepEqual(o.value, v)) };
    case 'multi':
      return { k: 'multi', selected: n.options.map((o) => Array.isArray(v) && v.some((x) => deepEqual(x, o.value))) };
    case 'const':
      return { k: 'const' };
    case 'null':
      return { k: 'null' };
    case 'array':
      return { k: 'array', items: Array.isArray(v) ? v.map((x) => stateFromValue(n.item, x, useDefaults, 'item')) : [] };
    case 'object': {
      const obj = isObj(v) ? v : undefined;
      const fields: Record<string, FieldState> = {};
      for (const p of n.properties) {
        fields[p.key] = stateFromValue(p.node, obj?.[p.key], useDefaults, p.required ? 'required' : 'optional');
      }
      return { k: 'object', fields };
    }
    case 'variant': {
      let index = v === undefined ? 0 : n.variants.findIndex((b) => fits(b.node, v));
      if (index < 0) index = 0;
      return {
        k: 'variant',
        index,
        branches: n.variants.map((b, i) => (i === index ? stateFromValue(b.node, v, useDefaults, place) : stateFromValue(b.node, undefined, true, place))),
      };
    }
    case 'json':
      return { k: 'json', text: v === undefined ? '' : JSON.stringify(v, null, 2) };
  }
}

/** fits tells, roughly, whether a value belongs to a variant: its type and any const properties match. */
function fits(n: SchemaNode, v: unknown): boolean {
  switch (n.kind) {
    case 'string':
      return typeof v === 'string';
    case 'number':
      return typeof v === 'number' && (!n.integer || Number.isInteger(v));
    case 'boolean':
      return typeof v === 'boolean';
    case 'enum':
      return n.options.some((o) => deepEqual(o.value, v));
    case 'const':
      return deepEqual(n.value, v);
    case 'null':
      return v === null;
    case 'multi':
    case 'array':
      return Array.isArray(v);
    case 'object': {
      if (!isObj(v)) return false;
      for (const p of n.properties) {
        if (p.node.kind === 'const' && !deepEqual(p.node.value, v[p.key])) return false;
        if (p.required && !(p.key in v)) return false;
      }
      return true;
    }
    case 'variant':
      return n.variants.some((b) => fits(b.node, v));
    case 'json':
      return true;
  }
}

/**
 * stateToValue returns the JSON value the form state stands for, or
 * undefined for "leave it out": empty optional fields are omitted, never
 * sent as "" or null. An empty required field is omitted too, so the
 * validator reports it as missing.
 */
export function stateToValue(n: SchemaNode, st: FieldState | undefined, place: Place = 'required'): unknown {
  if (!st) return undefined;
  if (st.isNull && n.nullable) return null;
  switch (n.kind) {
    case 'string': {
      const text = st.k === 'string' ? st.text : '';
      if (text === '') return place === 'item' ? '' : undefined;
      return fromInputText(n, text);
    }
    case 'number': {
      const text = st.k === 'number' ? st.text.trim() : '';
      if (text === '') return undefined;
      const x = Number(text);
      return Number.isFinite(x) ? x : text;
    }
    case 'boolean':
      return st.k === 'boolean' && st.value !== null ? st.value : undefined;
    case 'enum':
      return st.k === 'enum' && st.index >= 0 && st.index < n.options.length ? n.options[st.index].value : undefined;
    case 'multi': {
      const values = st.k === 'multi' ? n.options.filter((_, i) => st.selected[i]).map((o) => o.value) : [];
      return values.length === 0 && place === 'optional' ? undefined : values;
    }
    case 'const':
      return n.value;
    case 'null':
      return place === 'optional' ? undefined : null;
    case 'array': {
      if (st.k !== 'array') return undefined;
      const values = st.items.map((it) => stateToValue(n.item, it, 'item')).filter((x) => x !== undefined);
      return values.length === 0 && place === 'optional' ? undefined : values;
    }
    case 'object': {
      if (st.k !== 'object') return undefined;
      const out: Record<string, unknown> = {};
      for (const p of n.properties) {
        const x = stateToValue(p.node, st.fields[p.key], p.required ? 'required' : 'optional');
        if (x !== undefined) out[p.key] = x;
      }
      // An optional object left empty is left out; a constant alone (a
      // discriminator) does not make it filled in.
      const filled = Object.keys(out).some((k) => n.properties.find((p) => p.key === k)?.node.kind !== 'const');
      return !filled && place === 'optional' ? undefined : out;
    }
    case 'variant': {
      if (st.k !== 'variant') return undefined;
      const b = n.variants[st.index];
      return b ? stateToValue(b.node, st.branches[st.index], place) : undefined;
    }
    case 'json': {
      const text = st.k === 'json' ? st.text.trim() : '';
      if (text === '') return undefined;
      try {
        return JSON.parse(text);
      } catch {
        return undefined;
      }
    }
  }
}

/** An input the form itself cannot turn into JSON (before schema validation). */
export interface InputProblem {
  path: Segment[];
  /** i18n key under schemaForm.error. */
  key: 'json';
}

/** inputProblems lists JSON text fields whose text does not parse. */
export function inputProblems(n: SchemaNode, st: FieldState | undefined, path: Segment[] = []): InputProblem[] {
  if (!st || (st.isNull && n.nullable)) return [];
  switch (n.kind) {
    case 'json': {
      const text = st.k === 'json' ? st.text.trim() : '';
      if (!text) return [];
      try {
        JSON.parse(text);
        return [];
      } catch {
        return [{ path, key: 'json' }];
      }
    }
    case 'array':
      return st.k === 'array' ? st.items.flatMap((it, i) => inputProblems(n.item, it, [...path, i])) : [];
    case 'object':
      return st.k === 'object' ? n.properties.flatMap((p) => inputProblems(p.node, st.fields[p.key], [...path, p.key])) : [];
    case 'variant':
      return st.k === 'variant' && n.variants[st.index] ? inputProblems(n.variants[st.index].node, st.branches[st.index], path) : [];
    default:
      return [];
  }
}

/** selectedVariants maps the JSON pointer of every variant field to the chosen branch. */
export function selectedVariants(n: SchemaNode, st: FieldState | undefined, path: Segment[] = [], out = new Map<string, number>()): Map<string, number> {
  if (!st || (st.isNull && n.nullable)) return out;
  if (n.kind === 'variant' && st.k === 'variant') {
    out.set(toPointer(path), st.index);
    const b = n.variants[st.index];
    if (b) selectedVariants(b.node, st.branches[st.index], path, out);
  } else if (n.kind === 'array' && st.k === 'array') st.items.forEach((it, i) => selectedVariants(n.item, it, [...path, i], out));
  else if (n.kind === 'object' && st.k === 'object') for (const p of n.properties) selectedVariants(p.node, st.fields[p.key], [...path, p.key], out);
  return out;
}

/** isFormRoot tells whether the form can show a schema at all: it must describe an object with fields (or none). */
export function isFormRoot(n: SchemaNode): n is ObjectNode {
  return n.kind === 'object';
}

// ------------------------------------------------------------ paths

/** toPointer writes a path as a JSON pointer ("/a/0/b"). */
export function toPointer(path: readonly Segment[]): string {
  return path.map((s) => '/' + String(s).replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}

/** fromPointer reads a JSON pointer into path segments (numbers stay strings). */
export function fromPointer(pointer: string): string[] {
  if (!pointer) return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** dotted writes a path as "a.0.b", the form used in test ids. */
export function dotted(path: readonly Segment[]): string {
  return path.map(String).join('.');
}

// ---------------------------------------------------------- the API

/** initialFormState returns a fresh form for schema, filled with its defaults. */
export function initialFormState(schema: Schema): FieldState {
  return stateFromValue(analyzeCached(schema), undefined, true);
}

/** formStateFromValue returns the form that shows value (missing fields empty). */
export function formStateFromValue(schema: Schema, value: unknown): FieldState {
  return stateFromValue(analyzeCached(schema), value, false);
}

/** formToValue returns the JSON the form stands for; the root is always an object. */
export function formToValue(schema: Schema, state: FieldState): Record<string, unknown> {
  const v = stateToValue(analyzeCached(schema), state, 'required');
  return isObj(v) ? v : {};
}

/** valueFromSchemaDefaults returns what a fresh form sends: the schema's defaults. */
export function valueFromSchemaDefaults(schema: Schema): Record<string, unknown> {
  return formToValue(schema, initialFormState(schema));
}

// ---------------------------------------------------------- helpers

/** deepEqual compares two JSON values. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => deepEqual(x, bb[i]));
  }
  const ak = Object.keys(a as object);
  const bk = Object.keys(b as object);
  return ak.length === bk.length && ak.every((k) => deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}
