import { describe, expect, it } from 'vitest';
import {
  analyze,
  formStateFromValue,
  formToValue,
  initialFormState,
  inputProblems,
  selectedVariants,
  valueFromSchemaDefaults,
  type FieldState,
  type Schema,
} from './engine';
import { errorMessage, relevantErrors, validatorFor } from './validate';

/** fields returns the root object's field states, typed loosely for tests. */
function fields(st: FieldState): Record<string, FieldState> {
  if (st.k !== 'object') throw new Error('not an object');
  return st.fields;
}

/** localRFC3339 writes a local wall-clock time with the local offset, as the form does. */
function localRFC3339(y: number, mo: number, d: number, h: number, mi: number): string {
  const off = -new Date(y, mo - 1, d, h, mi).getTimezoneOffset();
  const p = (n: number) => String(Math.abs(n)).padStart(2, '0');
  const tz = off === 0 ? 'Z' : `${off < 0 ? '-' : '+'}${p(Math.floor(Math.abs(off) / 60))}:${p(Math.abs(off) % 60)}`;
  return `${y}-${p(mo)}-${p(d)}T${p(h)}:${p(mi)}:00${tz}`;
}

interface Row {
  name: string;
  schema: Schema;
  /** Changes the form state the way a user would. */
  fill: (f: Record<string, FieldState>) => void;
  want: Record<string, unknown>;
}

const table: Row[] = [
  {
    name: 'flat primitives with formats; empty optional fields are omitted',
    schema: {
      type: 'object',
      properties: {
        name: { type: 'string' },
        email: { type: 'string', format: 'email' },
        site: { type: 'string', format: 'uri' },
        day: { type: 'string', format: 'date' },
        when: { type: 'string', format: 'date-time' },
        count: { type: 'integer' },
        ratio: { type: 'number' },
        on: { type: 'boolean' },
        note: { type: 'string' },
        limit: { type: 'number' },
        flag: { type: 'boolean' },
      },
      required: ['name'],
    },
    fill: (f) => {
      Object.assign(f.name, { text: 'Ada' });
      Object.assign(f.email, { text: 'ada@example.com' });
      Object.assign(f.site, { text: 'https://example.com' });
      Object.assign(f.day, { text: '2024-01-02' });
      Object.assign(f.when, { text: '2024-01-02T03:04' });
      Object.assign(f.count, { text: '42' });
      Object.assign(f.ratio, { text: '0.5' });
      Object.assign(f.on, { value: false });
    },
    want: {
      name: 'Ada',
      email: 'ada@example.com',
      site: 'https://example.com',
      day: '2024-01-02',
      when: localRFC3339(2024, 1, 2, 3, 4),
      count: 42,
      ratio: 0.5,
      on: false,
    },
  },
  {
    name: 'nested objects; an untouched optional object is left out',
    schema: {
      type: 'object',
      properties: {
        user: {
          type: 'object',
          properties: { name: { type: 'string' }, address: { type: 'object', properties: { city: { type: 'string' }, zip: { type: 'string' } } } },
          required: ['name'],
        },
        extra: { type: 'object', properties: { a: { type: 'string' } } },
      },
    },
    fill: (f) => {
      const user = f.user as Extract<FieldState, { k: 'object' }>;
      Object.assign(user.fields.name, { text: 'Bob' });
      Object.assign((user.fields.address as Extract<FieldState, { k: 'object' }>).fields.city, { text: 'Paris' });
    },
    want: { user: { name: 'Bob', address: { city: 'Paris' } } },
  },
  {
    name: 'arrays of objects and of strings (an added empty string item stays "")',
    schema: {
      type: 'object',
      properties: {
        people: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, age: { type: 'integer' } } } },
        tags: { type: 'array', items: { type: 'string' } },
        nums: { type: 'array', items: { type: 'number' } },
        none: { type: 'array', items: { type: 'string' } },
      },
    },
    fill: (f) => {
      const node = analyze(table[2].schema);
      if (node.kind !== 'object') throw new Error();
      const peopleNode = node.properties[0].node;
      if (peopleNode.kind !== 'array') throw new Error();
      const people = f.people as Extract<FieldState, { k: 'array' }>;
      people.items.push(formStateFromValue(peopleNode.item.schema, { name: 'A', age: 3 }));
      people.items.push(formStateFromValue(peopleNode.item.schema, { name: 'B' }));
      (f.tags as Extract<FieldState, { k: 'array' }>).items.push({ k: 'string', text: 'x' }, { k: 'string', text: '' });
      (f.nums as Extract<FieldState, { k: 'array' }>).items.push({ k: 'number', text: '1' }, { k: 'number', text: '' });
    },
    want: { people: [{ name: 'A', age: 3 }, { name: 'B' }], tags: ['x', ''], nums: [1] },
  },
  {
    name: 'enums (select) and multi-select of enum items and of oneOf consts',
    schema: {
      type: 'object',
      properties: {
        color: { type: 'string', enum: ['red', 'green', 'blue'] },
        size: { oneOf: [{ const: 's', title: 'Small' }, { const: 'm', title: 'Medium' }] },
        picks: { type: 'array', items: { type: 'string', enum: ['a', 'b', 'c'] }, uniqueItems: true },
        levels: { type: 'array', items: { anyOf: [{ const: 1, title: 'One' }, { const: 2, title: 'Two' }] } },
        unset: { type: 'string', enum: ['x'] },
        unpicked: { type: 'array', items: { enum: ['x', 'y'] } },
      },
    },
    fill: (f) => {
      Object.assign(f.color, { index: 2 });
      Object.assign(f.size, { index: 1 });
      Object.assign(f.picks, { selected: [true, false, true] });
      Object.assign(f.levels, { selected: [false, true] });
    },
    want: { color: 'blue', size: 'm', picks: ['a', 'c'], levels: [2] },
  },
  {
    name: 'anyOf/oneOf: the chosen variant is sent',
    schema: {
      type: 'object',
      properties: {
        target: {
          oneOf: [
            { type: 'object', title: 'By id', properties: { kind: { const: 'id' }, id: { type: 'integer' } }, required: ['kind', 'id'] },
            { type: 'object', title: 'By name', properties: { kind: { const: 'name' }, name: { type: 'string' } }, required: ['kind', 'name'] },
          ],
        },
        value: { anyOf: [{ type: 'string' }, { type: 'number' }] },
      },
      required: ['target'],
    },
    fill: (f) => {
      const t = f.target as Extract<FieldState, { k: 'variant' }>;
      t.index = 1;
      Object.assign((t.branches[1] as Extract<FieldState, { k: 'object' }>).fields.name, { text: 'alice' });
      const v = f.value as Extract<FieldState, { k: 'variant' }>;
      v.index = 1;
      Object.assign(v.branches[1], { text: '7' });
    },
    want: { target: { kind: 'name', name: 'alice' }, value: 7 },
  },
  {
    name: 'nullable: type [x, "null"] and anyOf with {type: "null"}',
    schema: {
      type: 'object',
      properties: {
        a: { type: ['string', 'null'] },
        b: { anyOf: [{ type: 'integer' }, { type: 'null' }], default: null },
        c: { type: ['number', 'null'] },
        d: { type: ['string', 'null'] },
      },
    },
    fill: (f) => {
      Object.assign(f.a, { isNull: true });
      Object.assign(f.c, { text: '3' });
    },
    want: { a: null, b: null, c: 3 },
  },
  {
    name: '$ref to $defs and definitions, with allOf merging',
    schema: {
      type: 'object',
      $defs: {
        Point: { type: 'object', properties: { x: { type: 'number' }, y: { type: 'number' } }, required: ['x', 'y'] },
        Named: { type: 'object', properties: { label: { type: 'string' } } },
      },
      definitions: { Mode: { type: 'string', enum: ['fast', 'slow'] } },
      properties: {
        at: { $ref: '#/$defs/Point', description: 'Where' },
        mode: { $ref: '#/definitions/Mode' },
        tagged: { allOf: [{ $ref: '#/$defs/Point' }, { $ref: '#/$defs/Named' }] },
      },
    },
    fill: (f) => {
      const at = f.at as Extract<FieldState, { k: 'object' }>;
      Object.assign(at.fields.x, { text: '1' });
      Object.assign(at.fields.y, { text: '2' });
      Object.assign(f.mode, { index: 1 });
      const tagged = f.tagged as Extract<FieldState, { k: 'object' }>;
      Object.assign(tagged.fields.label, { text: 'home' });
    },
    want: { at: { x: 1, y: 2 }, mode: 'slow', tagged: { label: 'home' } },
  },
  {
    name: 'defaults are pre-filled and sent unless changed',
    schema: {
      type: 'object',
      properties: {
        greeting: { type: 'string', default: 'hello' },
        times: { type: 'integer', default: 3 },
        loud: { type: 'boolean', default: true },
        lang: { type: 'string', enum: ['en', 'fr'], default: 'fr' },
        opts: { type: 'object', properties: { depth: { type: 'integer', default: 2 } } },
        list: { type: 'array', items: { type: 'string' }, default: ['a'] },
      },
    },
    fill: (f) => {
      Object.assign(f.times, { text: '5' });
    },
    want: { greeting: 'hello', times: 5, loud: true, lang: 'fr', opts: { depth: 2 }, list: ['a'] },
  },
  {
    name: 'maps and tuples fall back to JSON text fields',
    schema: {
      type: 'object',
      properties: {
        env: { type: 'object', additionalProperties: { type: 'string' } },
        pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }] },
        anything: {},
      },
    },
    fill: (f) => {
      Object.assign(f.env, { text: '{"A": "1"}' });
      Object.assign(f.pair, { text: '["x", 2]' });
      Object.assign(f.anything, { text: 'true' });
    },
    want: { env: { A: '1' }, pair: ['x', 2], anything: true },
  },
];

describe('schema form engine', () => {
  it.each(table)('$name', ({ schema, fill, want }) => {
    const st = initialFormState(schema);
    fill(fields(st));
    expect(formToValue(schema, st)).toEqual(want);
  });

  it('maps schemas to field kinds and input types', () => {
    const n = analyze({
      type: 'object',
      properties: {
        email: { type: 'string', format: 'email' },
        url: { type: 'string', format: 'uri' },
        when: { type: 'string', format: 'date-time' },
        at: { type: 'string', format: 'time' },
        n: { type: 'integer', minimum: 1, maximum: 9 },
        ok: { type: 'boolean' },
        e: { enum: ['a', null] },
        m: { type: 'array', items: { enum: ['a'] } },
        l: { type: 'array', items: { type: 'object', properties: { a: { type: 'string' } } } },
        v: { oneOf: [{ type: 'string' }, { type: 'object', properties: { a: { type: 'string' } } }] },
        t: { type: ['string', 'integer'] },
      },
    });
    if (n.kind !== 'object') throw new Error();
    const kinds = Object.fromEntries(n.properties.map((p) => [p.key, p.node.kind === 'string' ? p.node.inputType : p.node.kind]));
    expect(kinds).toEqual({
      email: 'email',
      url: 'url',
      when: 'datetime-local',
      at: 'time',
      n: 'number',
      ok: 'boolean',
      e: 'enum',
      m: 'multi',
      l: 'array',
      v: 'variant',
      t: 'variant',
    });
    expect(n.properties.find((p) => p.key === 'e')!.node.nullable).toBe(true);
  });

  it('stops at recursive $refs with a JSON field instead of looping', () => {
    const schema: Schema = {
      type: 'object',
      $defs: { Node: { type: 'object', properties: { name: { type: 'string' }, child: { $ref: '#/$defs/Node' } } } },
      properties: { tree: { $ref: '#/$defs/Node' } },
    };
    const n = analyze(schema);
    if (n.kind !== 'object') throw new Error();
    const tree = n.properties[0].node;
    if (tree.kind !== 'object') throw new Error();
    expect(tree.properties.map((p) => [p.key, p.node.kind])).toEqual([
      ['name', 'string'],
      ['child', 'json'],
    ]);
    expect(formToValue(schema, formStateFromValue(schema, { tree: { name: 'a', child: { name: 'b' } } }))).toEqual({
      tree: { name: 'a', child: { name: 'b' } },
    });
  });

  it('valueFromSchemaDefaults returns what a fresh form sends', () => {
    expect(valueFromSchemaDefaults({ type: 'object', properties: { a: { type: 'string', default: 'x' }, b: { type: 'boolean' } }, required: ['b'] })).toEqual({
      a: 'x',
      b: false,
    });
    expect(valueFromSchemaDefaults({ type: 'object' })).toEqual({});
    expect(valueFromSchemaDefaults({ type: 'object', default: { a: 1 }, properties: { a: { type: 'integer' } } })).toEqual({ a: 1 });
  });

  it('round-trips values through the form (raw JSON → form → JSON)', () => {
    const schema = table[4].schema;
    const value = { target: { kind: 'id', id: 5 }, value: 'x' };
    const st = formStateFromValue(schema, value);
    expect((fields(st).target as Extract<FieldState, { k: 'variant' }>).index).toBe(0);
    expect(formToValue(schema, st)).toEqual(value);
    const byName = { target: { kind: 'name', name: 'n' }, value: 2 };
    const st2 = formStateFromValue(schema, byName);
    expect((fields(st2).target as Extract<FieldState, { k: 'variant' }>).index).toBe(1);
    expect(formToValue(schema, st2)).toEqual(byName);
    expect(selectedVariants(analyze(schema), st2)).toEqual(new Map([['/target', 1], ['/value', 1]]));

    const dt = { type: 'object', properties: { when: { type: 'string', format: 'date-time' } } };
    const when = localRFC3339(2025, 6, 7, 8, 9);
    expect(formToValue(dt, formStateFromValue(dt, { when }))).toEqual({ when });
  });

  it('reports JSON text fields that do not parse', () => {
    const schema = table[8].schema;
    const st = initialFormState(schema);
    Object.assign(fields(st).env, { text: '{oops' });
    expect(inputProblems(analyze(schema), st)).toEqual([{ path: ['env'], key: 'json' }]);
    expect(formToValue(schema, st)).toEqual({});
  });
});

describe('schema validation', () => {
  const schema: Schema = {
    type: 'object',
    properties: {
      name: { type: 'string', minLength: 3, maxLength: 5, pattern: '^[a-z]+$' },
      age: { type: 'integer', minimum: 0, maximum: 150 },
      email: { type: 'string', format: 'email' },
      tags: { type: 'array', items: { type: 'string' }, minItems: 1 },
      nick: { anyOf: [{ type: 'string', minLength: 2 }, { type: 'null' }] },
    },
    required: ['name', 'age'],
    additionalProperties: false,
  };
  const check = (value: unknown) => relevantErrors(validatorFor(schema)(value)).map((e) => [e.path.join('.'), errorMessage(e)]);

  it('reports required, limits, pattern and format with the field path', () => {
    expect(check({ name: 'abc', age: 1 })).toEqual([]);
    expect(check({})).toEqual([
      ['name', { key: 'schemaForm.error.required' }],
      ['age', { key: 'schemaForm.error.required' }],
    ]);
    expect(check({ name: 'AB', age: 200, email: 'nope', tags: [] })).toEqual([
      ['name', { key: 'schemaForm.error.minLength', values: { limit: 3 } }],
      ['name', { key: 'schemaForm.error.pattern', values: { pattern: '^[a-z]+$' } }],
      ['age', { key: 'schemaForm.error.maximum', values: { limit: 150 } }],
      ['email', { key: 'schemaForm.error.format', values: { format: 'email' } }],
      ['tags', { key: 'schemaForm.error.minItems', values: { limit: 1 } }],
    ]);
    expect(check({ name: 'abcdef', age: 1.5, x: 1 })).toEqual([
      ['', { key: 'schemaForm.error.additionalProperties', values: { name: 'x' } }],
      ['name', { key: 'schemaForm.error.maxLength', values: { limit: 5 } }],
      ['age', { key: 'schemaForm.error.type', values: { type: 'integer' } }],
    ]);
  });

  it('keeps only the meant branch of an anyOf', () => {
    expect(check({ name: 'abc', age: 1, nick: 'a' })).toEqual([['nick', { key: 'schemaForm.error.minLength', values: { limit: 2 } }]]);
    const union: Schema = {
      type: 'object',
      properties: { v: { oneOf: [{ type: 'string', minLength: 3 }, { type: 'integer', minimum: 10 }] } },
    };
    const errs = validatorFor(union)({ v: 5 });
    expect(relevantErrors(errs, new Map([['/v', 1]])).map((e) => e.keyword)).toEqual(['minimum']);
    expect(relevantErrors(errs, new Map([['/v', 0]])).map((e) => e.keyword)).toEqual(['type']);
  });

  it('picks the draft from $schema and reports schemas it cannot compile', () => {
    const d7 = validatorFor({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'array', items: [{ type: 'string' }] });
    expect(d7(['a'])).toEqual([]);
    expect(d7([1]).map((e) => e.pointer)).toEqual(['/0']);
    const broken = validatorFor({ type: 'object', properties: { a: { $ref: '#/$defs/missing' } } });
    expect(broken.compileError).toMatch(/missing|resolve/i);
    expect(broken({ a: 1 })).toEqual([]);
  });
});
