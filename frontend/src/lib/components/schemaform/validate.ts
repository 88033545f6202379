// JSON Schema validation, shared by the schema form (arguments before a
// run) and the result view (structuredContent against a tool's
// outputSchema). The draft is chosen from $schema: 2020-12 when absent (the
// MCP default), draft-07, draft-04 and 2019-09 when named. A schema that
// cannot be used yields a validator that reports why instead of throwing.
//
// The validator interprets the schema (@cfworker/json-schema): the app's
// Content-Security-Policy refuses eval, so a validator that compiles
// schemas to code (Ajv) cannot run in the app.

import { Validator as CfValidator, encodePointer, type OutputUnit, type SchemaDraft } from '@cfworker/json-schema';
import { fromPointer, type Schema } from './engine';

/** One reason a value does not match its schema. */
export interface SchemaError {
  /** JSON pointer of the offending value ("" = the whole value). */
  pointer: string;
  /** The pointer as segments, with a missing property appended for "required". */
  path: string[];
  keyword: string;
  params: Record<string, unknown>;
  schemaPath: string;
  /** The validator's English message, for keywords without a translation. */
  message: string;
}

export interface Validator {
  /** validate returns the errors of value; [] when it matches. */
  (value: unknown): SchemaError[];
  /** Why the schema could not be used; the validator then accepts everything. */
  compileError?: string;
}

function draftOf(schema: Schema): SchemaDraft {
  const id = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (/draft-0[0-4]/.test(id)) return '4';
  if (/draft-0[5-7]/.test(id)) return '7';
  if (id.includes('2019-09')) return '2019-09';
  return '2020-12';
}

const cache = new WeakMap<object, Validator>();

/** validatorFor prepares schema once (cached per schema object) as a Validator. */
export function validatorFor(schema: Schema): Validator {
  const hit = cache.get(schema);
  if (hit) return hit;
  const v = compile(schema);
  cache.set(schema, v);
  return v;
}

function accepting(reason: string): Validator {
  const accept: Validator = () => [];
  accept.compileError = reason;
  return accept;
}

function compile(schema: Schema): Validator {
  // A deep copy: the validator marks the schema objects it is given, and
  // the caller's may be reactive or frozen. $schema only picks the draft;
  // removing it keeps the validator from looking up meta-schemas.
  let body: Schema;
  try {
    body = JSON.parse(JSON.stringify(schema)) as Schema;
  } catch (e) {
    return accepting((e as Error).message);
  }
  delete body.$schema;
  const unresolved = missingRef(body);
  if (unresolved) return accepting(`cannot resolve $ref ${JSON.stringify(unresolved)}`);
  let v: CfValidator;
  try {
    v = new CfValidator(body as never, draftOf(schema), false);
  } catch (e) {
    return accepting((e as Error).message);
  }
  const validate: Validator = (value: unknown) => {
    try {
      return toErrors(v.validate(value).errors, body);
    } catch (e) {
      // A reference the check above could not see (an $id or anchor elsewhere).
      validate.compileError = (e as Error).message.split('\n')[0];
      return [];
    }
  };
  return validate;
}

/** missingRef is the first local JSON-pointer $ref of root that points nowhere. */
function missingRef(root: unknown): string {
  const seen = new Set<unknown>();
  const walk = (node: unknown): string => {
    if (!node || typeof node !== 'object' || seen.has(node)) return '';
    seen.add(node);
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref === 'string' && (ref === '#' || ref.startsWith('#/')) && at(root, ref) === undefined) return ref;
    for (const child of Object.values(node)) {
      const m = walk(child);
      if (m) return m;
    }
    return '';
  };
  return walk(root);
}

/** at resolves a "#/a/b" pointer (URI-encoded, as validators write them) in root. */
function at(root: unknown, location: string): unknown {
  let node = root;
  for (const seg of fromPointer(decodeURI(location.replace(/^#/, '')))) {
    if (!node || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[seg];
  }
  return node;
}

// Units that only say "something inside failed"; the inner units say what.
const SUMMARIES = new Set([
  'properties', 'patternProperties', 'items', 'prefixItems', 'additionalItems', 'propertyNames', 'dependentSchemas',
  '$ref', '$recursiveRef', 'allOf', 'if', 'contains',
]);

const quoted = (message: string): string[] => [...message.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]);

function toErrors(units: OutputUnit[], root: unknown): SchemaError[] {
  const out: Array<SchemaError & { at: string }> = [];
  // Properties that additionalProperties: false refused: their own "false
  // schema" unit says the same again.
  const refused = new Set<string>();
  for (const u of units) {
    if (SUMMARIES.has(u.keyword) && !(u.keyword === 'contains' && !/does not match/.test(u.error))) continue;
    const params: Record<string, unknown> = {};
    const value = at(root, u.keywordLocation);
    const names = quoted(u.error);
    switch (u.keyword) {
      case 'additionalProperties':
      case 'unevaluatedProperties':
        if (value !== false) continue; // a schema: its own errors say what
        params[u.keyword === 'additionalProperties' ? 'additionalProperty' : 'unevaluatedProperty'] = names[0] ?? '';
        refused.add(`${u.instanceLocation}/${encodePointer(names[0] ?? '')}`);
        break;
      case 'false':
        break;
      case 'required':
        params.missingProperty = names[names.length - 1] ?? '';
        break;
      case 'dependentRequired':
      case 'dependencies':
        if (names.length < 2) continue; // the schema form of dependencies: a summary
        params.missingProperty = names[names.length - 1];
        break;
      case 'type':
        params.type = value;
        break;
      case 'pattern':
        params.pattern = value;
        break;
      case 'format':
        params.format = value;
        break;
      case 'multipleOf':
        params.multipleOf = value;
        break;
      case 'const':
        params.allowedValue = value;
        break;
      case 'enum':
        params.allowedValues = value;
        break;
      case 'oneOf': {
        const m = /\((\d+) matches\)/.exec(u.error);
        if (m && Number(m[1]) > 1) params.passingSchemas = Array.from({ length: Number(m[1]) }, (_, i) => i);
        break;
      }
      default:
        if (typeof value === 'number') params.limit = value;
    }
    const pointer = decodeURI(u.instanceLocation.replace(/^#/, ''));
    const path = fromPointer(pointer);
    if (typeof params.missingProperty === 'string') path.push(params.missingProperty);
    out.push({ pointer, path, keyword: u.keyword === 'false' ? 'false schema' : u.keyword, params, schemaPath: u.keywordLocation, message: u.error, at: u.instanceLocation });
  }
  const kept = out.filter((e) => !(e.keyword === 'false schema' && refused.has(e.at))).map(({ at: _, ...e }) => e as SchemaError);
  // The whole value's problems first, then each field's in schema order.
  return kept.map((e, i) => ({ e, i })).sort((a, b) => a.e.path.length - b.e.path.length || a.i - b.i).map(({ e }) => e);
}

/**
 * relevantErrors drops the noise that anyOf/oneOf produce: the errors of
 * every branch that was not meant. With selected (pointer → branch the form
 * chose), only that branch's errors stay; without, branches that failed on
 * the type alone are dropped and the closest remaining branch is kept. The
 * "must match a schema in anyOf" error stays only when no branch error does.
 */
export function relevantErrors(errors: SchemaError[], selected?: Map<string, number>): SchemaError[] {
  const unions = errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf');
  const drop = new Set<SchemaError>();
  for (const u of unions) {
    const prefix = u.schemaPath + '/';
    const byBranch = new Map<number, SchemaError[]>();
    for (const e of errors) {
      if (e === u || !e.schemaPath.startsWith(prefix)) continue;
      const k = Number.parseInt(e.schemaPath.slice(prefix.length), 10);
      if (!Number.isFinite(k)) continue;
      byBranch.set(k, [...(byBranch.get(k) ?? []), e]);
    }
    if (byBranch.size === 0) continue;
    let keep: number | undefined = selected?.get(u.pointer);
    if (keep === undefined) {
      const candidates = [...byBranch].filter(([, errs]) => !errs.every((e) => e.keyword === 'type' && e.pointer === u.pointer));
      candidates.sort((a, b) => a[1].length - b[1].length);
      keep = candidates[0]?.[0];
    }
    for (const [k, errs] of byBranch) if (k !== keep) errs.forEach((e) => drop.add(e));
    if (keep !== undefined && (byBranch.get(keep)?.length ?? 0) > 0) drop.add(u);
  }
  const seen = new Set<string>();
  return errors.filter((e) => {
    if (drop.has(e)) return false;
    const key = `${e.path.join('/')}|${e.keyword}|${JSON.stringify(e.params)}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** A message key with values, translated where shown. */
export interface ErrorMsg {
  key: string;
  values?: Record<string, string | number>;
}

const LIMIT_KEYS: Record<string, string> = {
  minLength: 'schemaForm.error.minLength',
  maxLength: 'schemaForm.error.maxLength',
  minimum: 'schemaForm.error.minimum',
  maximum: 'schemaForm.error.maximum',
  exclusiveMinimum: 'schemaForm.error.exclusiveMinimum',
  exclusiveMaximum: 'schemaForm.error.exclusiveMaximum',
  minItems: 'schemaForm.error.minItems',
  maxItems: 'schemaForm.error.maxItems',
  minProperties: 'schemaForm.error.minProperties',
  maxProperties: 'schemaForm.error.maxProperties',
};

/** errorMessage turns one validation error into a translatable message. */
export function errorMessage(e: SchemaError): ErrorMsg {
  const p = e.params;
  if (LIMIT_KEYS[e.keyword] && typeof p.limit === 'number') return { key: LIMIT_KEYS[e.keyword], values: { limit: p.limit } };
  switch (e.keyword) {
    case 'required':
    case 'dependentRequired':
    case 'dependencies':
      return { key: 'schemaForm.error.required' };
    case 'type':
      return { key: 'schemaForm.error.type', values: { type: (Array.isArray(p.type) ? p.type : String(p.type).split(',')).join(' | ') } };
    case 'pattern':
      return { key: 'schemaForm.error.pattern', values: { pattern: String(p.pattern) } };
    case 'format':
      return { key: 'schemaForm.error.format', values: { format: String(p.format) } };
    case 'multipleOf':
      return { key: 'schemaForm.error.multipleOf', values: { value: String(p.multipleOf) } };
    case 'enum':
      return { key: 'schemaForm.error.enum' };
    case 'const':
      return { key: 'schemaForm.error.const', values: { value: JSON.stringify(p.allowedValue) } };
    case 'uniqueItems':
      return { key: 'schemaForm.error.uniqueItems' };
    case 'additionalProperties':
    case 'unevaluatedProperties':
      return { key: 'schemaForm.error.additionalProperties', values: { name: String(p.additionalProperty ?? p.unevaluatedProperty ?? '') } };
    case 'anyOf':
      return { key: 'schemaForm.error.anyOf' };
    case 'oneOf':
      return { key: Array.isArray(p.passingSchemas) ? 'schemaForm.error.oneOfMany' : 'schemaForm.error.anyOf' };
    case 'not':
      return { key: 'schemaForm.error.not' };
    default:
      return { key: 'schemaForm.error.other', values: { message: e.message } };
  }
}
