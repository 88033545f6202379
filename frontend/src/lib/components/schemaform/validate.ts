// JSON Schema validation with Ajv, shared by the schema form (arguments
// before a run) and the result view (structuredContent against a tool's
// outputSchema). The draft is chosen from $schema: 2020-12 when absent (the
// MCP default), draft-07 and 2019-09 when named. A schema Ajv cannot compile
// yields a validator that reports why instead of throwing.

import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import Ajv2019 from 'ajv/dist/2019';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
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
  /** Ajv's English message, for keywords without a translation. */
  message: string;
}

export interface Validator {
  /** validate returns the errors of value; [] when it matches. */
  (value: unknown): SchemaError[];
  /** Why the schema could not be compiled; the validator then accepts everything. */
  compileError?: string;
}

type Draft = '07' | '2019' | '2020';
const instances = new Map<Draft, Ajv>();

function ajv(draft: Draft): Ajv {
  let a = instances.get(draft);
  if (!a) {
    const opts = { strict: false, allErrors: true, validateSchema: false, addUsedSchema: false, logger: false } as const;
    a = draft === '2020' ? new Ajv2020(opts) : draft === '2019' ? new Ajv2019(opts) : new Ajv(opts);
    addFormats(a);
    instances.set(draft, a);
  }
  return a;
}

function draftOf(schema: Schema): Draft {
  const id = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (/draft-0[4-7]/.test(id)) return '07';
  if (id.includes('2019-09')) return '2019';
  return '2020';
}

const cache = new WeakMap<object, Validator>();

/** validatorFor compiles schema once (cached per schema object) into a Validator. */
export function validatorFor(schema: Schema): Validator {
  const hit = cache.get(schema);
  if (hit) return hit;
  const v = compile(schema);
  cache.set(schema, v);
  return v;
}

function compile(schema: Schema): Validator {
  // $schema only picks the class; removing it keeps Ajv from looking up meta-schemas.
  const body: Schema = { ...schema };
  delete body.$schema;
  const first = draftOf(schema);
  const order: Draft[] = [first, ...(['2020', '07'] as Draft[]).filter((d) => d !== first)];
  let lastError = '';
  for (const d of order) {
    let fn: ValidateFunction;
    try {
      fn = ajv(d).compile(body);
    } catch (e) {
      lastError = (e as Error).message;
      continue;
    }
    return (value: unknown) => (fn(value) ? [] : (fn.errors ?? []).map(toError));
  }
  const accept: Validator = () => [];
  accept.compileError = lastError;
  return accept;
}

function toError(e: ErrorObject): SchemaError {
  const path = fromPointer(e.instancePath);
  const params = e.params as Record<string, unknown>;
  if ((e.keyword === 'required' || e.keyword === 'dependentRequired' || e.keyword === 'dependencies') && typeof params.missingProperty === 'string') {
    path.push(params.missingProperty);
  }
  return { pointer: e.instancePath, path, keyword: e.keyword, params, schemaPath: e.schemaPath, message: e.message ?? e.keyword };
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
