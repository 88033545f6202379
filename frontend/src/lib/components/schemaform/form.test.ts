import { fireEvent, render, screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { flushSync } from 'svelte';
import { describe, expect, it } from 'vitest';
import type { Schema } from './engine';
import { SchemaFormModel } from './model.svelte';
import SchemaForm from './SchemaForm.svelte';

function setup(schema: Schema, initial?: Record<string, unknown>) {
  const model = new SchemaFormModel(schema, initial);
  const user = userEvent.setup();
  render(SchemaForm, { props: { model, title: 'Arguments' } });
  return { model, user };
}

const field = (path: string) => screen.getByTestId(`schema-field-${path}`);
const control = (path: string) => field(path).querySelector('input:not([type="checkbox"]), select, textarea') as HTMLInputElement;

describe('SchemaForm', () => {
  it('nested objects and arrays of objects: add, fill, remove items', async () => {
    const { model, user } = setup({
      type: 'object',
      properties: {
        owner: { type: 'object', properties: { name: { type: 'string' }, age: { type: 'integer' } }, required: ['name'] },
        items: {
          type: 'array',
          items: { type: 'object', properties: { sku: { type: 'string' }, qty: { type: 'integer', default: 1 } }, required: ['sku'] },
        },
      },
    });
    await user.type(control('owner.name'), 'Ada');
    await user.click(screen.getByTestId('schema-add-items'));
    await user.click(screen.getByTestId('schema-add-items'));
    await user.type(control('items.0.sku'), 'A-1');
    await user.type(control('items.1.sku'), 'B-2');
    await user.clear(control('items.1.qty'));
    await user.type(control('items.1.qty'), '4');
    expect(model.value).toEqual({ owner: { name: 'Ada' }, items: [{ sku: 'A-1', qty: 1 }, { sku: 'B-2', qty: 4 }] });

    await user.click(within(field('items.0')).getByRole('button', { name: 'Remove item [0]' }));
    expect(model.value).toEqual({ owner: { name: 'Ada' }, items: [{ sku: 'B-2', qty: 4 }] });

    // Nested objects fold away.
    const fold = within(field('owner')).getAllByRole('button')[0];
    expect(fold).toHaveAttribute('aria-expanded', 'true');
    await user.click(fold);
    expect(screen.queryByTestId('schema-field-owner.name')).not.toBeInTheDocument();
  });

  it('enums as selects, arrays of enums as checkboxes', async () => {
    const { model, user } = setup({
      type: 'object',
      properties: {
        color: { type: 'string', enum: ['red', 'green'] },
        size: { oneOf: [{ const: 's', title: 'Small' }, { const: 'l', title: 'Large' }] },
        tags: { type: 'array', items: { enum: ['a', 'b', 'c'] } },
      },
      required: ['color'],
    });
    expect(within(field('color')).getByRole('option', { name: 'Choose…' })).toBeInTheDocument();
    expect(within(field('size')).getByRole('option', { name: 'not set' })).toBeInTheDocument();
    await user.selectOptions(control('color'), 'green');
    await user.selectOptions(control('size'), 'Large');
    await user.click(within(field('tags')).getByRole('checkbox', { name: 'c' }));
    await user.click(within(field('tags')).getByRole('checkbox', { name: 'a' }));
    expect(model.value).toEqual({ color: 'green', size: 'l', tags: ['a', 'c'] });
  });

  it('anyOf/oneOf: a variant selector, then that variant’s form', async () => {
    const { model, user } = setup({
      type: 'object',
      properties: {
        target: {
          anyOf: [
            { type: 'string', title: 'Path' },
            { type: 'object', title: 'Query', properties: { q: { type: 'string' }, limit: { type: 'integer' } } },
          ],
        },
      },
    });
    const select = within(field('target')).getByRole('combobox', { name: 'Which kind of value' });
    await user.type(within(field('target')).getByRole('textbox'), '/tmp');
    expect(model.value).toEqual({ target: '/tmp' });
    await user.selectOptions(select, 'Query');
    await user.type(control('target.q'), 'cats');
    expect(model.value).toEqual({ target: { q: 'cats' } });
    // Switching back keeps what was typed in the first variant.
    await user.selectOptions(select, 'Path');
    expect(model.value).toEqual({ target: '/tmp' });
  });

  it('nullable fields: a null switch next to the label', async () => {
    const { model, user } = setup({
      type: 'object',
      properties: { note: { type: ['string', 'null'] }, count: { anyOf: [{ type: 'integer' }, { type: 'null' }], default: null } },
    });
    expect(model.value).toEqual({ count: null });
    const countNull = within(field('count')).getByRole('checkbox', { name: 'null' });
    expect(countNull).toBeChecked();
    await user.click(countNull);
    await user.type(control('count'), '7');
    await user.click(within(field('note')).getByRole('checkbox', { name: 'null' }));
    expect(model.value).toEqual({ note: null, count: 7 });
  });

  it('pre-fills defaults, resolves $ref, marks required fields and shows descriptions', () => {
    setup({
      type: 'object',
      $defs: { Unit: { type: 'string', enum: ['C', 'F'], default: 'C', description: 'Temperature unit' } },
      properties: { unit: { $ref: '#/$defs/Unit' }, city: { type: 'string', title: 'City name', default: 'Paris' }, at: { type: 'string', format: 'date' } },
      required: ['city'],
    });
    expect((control('unit') as unknown as HTMLSelectElement).selectedOptions[0]).toHaveTextContent('C');
    expect(field('unit')).toHaveTextContent('Temperature unit');
    expect(control('city')).toHaveValue('Paris');
    expect(within(field('city')).getByLabelText('Required')).toBeInTheDocument();
    expect(field('city')).toHaveTextContent('City name');
    expect(control('at')).toHaveAttribute('type', 'date');
    expect(within(field('unit')).queryByLabelText('Required')).not.toBeInTheDocument();
  });

  it('shows min/max/pattern/format violations next to the fields once validated', async () => {
    const { model, user } = setup({
      type: 'object',
      properties: {
        code: { type: 'string', pattern: '^[A-Z]{3}$' },
        n: { type: 'number', minimum: 1, maximum: 10 },
        mail: { type: 'string', format: 'email' },
        list: { type: 'array', items: { type: 'string' }, maxItems: 1 },
      },
    });
    await user.type(control('code'), 'ab');
    await user.type(control('n'), '11');
    await user.type(control('mail'), 'not-an-email');
    expect(screen.queryAllByRole('alert')).toHaveLength(0);
    let ok = false;
    flushSync(() => (ok = model.validate()));
    expect(ok).toBe(false);
    expect(within(field('code')).getByRole('alert')).toHaveTextContent('Must match the pattern ^[A-Z]{3}$.');
    expect(within(field('n')).getByRole('alert')).toHaveTextContent('Must be 10 or less.');
    expect(within(field('mail')).getByRole('alert')).toHaveTextContent('Not a valid email.');
    expect(control('n')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByTestId('schema-errors')).toHaveTextContent('3 problems to fix before running');
    await user.click(within(screen.getByTestId('schema-errors')).getByRole('button', { name: 'n' }));
    expect(control('n')).toHaveFocus();
  });

  it('edits as raw JSON, both ways; schemas the form cannot show are raw only', async () => {
    const { model, user } = setup({ type: 'object', properties: { a: { type: 'string' }, b: { type: 'integer' } } });
    await user.type(control('a'), 'x');
    await user.click(screen.getByTestId('schema-raw-toggle'));
    const raw = screen.getByTestId('schema-raw-json') as HTMLTextAreaElement;
    expect(JSON.parse(raw.value)).toEqual({ a: 'x' });
    await fireEvent.input(raw, { target: { value: '{"a": "y", "b": 2, "c": true}' } });
    expect(model.value).toEqual({ a: 'y', b: 2, c: true });
    expect(screen.getByText(/cannot be shown in the form/)).toBeInTheDocument();
    await user.click(screen.getByTestId('schema-raw-toggle'));
    expect(control('a')).toHaveValue('y');
    expect(control('b')).toHaveValue(2);
    expect(model.value).toEqual({ a: 'y', b: 2 });
  });

  it('offers only the JSON editor for a schema the form cannot show', () => {
    const model = new SchemaFormModel({ type: 'object', additionalProperties: { type: 'number' } });
    render(SchemaForm, { props: { model } });
    expect(model.rawOnly).toBe(true);
    expect(screen.queryByTestId('schema-raw-toggle')).not.toBeInTheDocument();
    expect(screen.getByTestId('schema-raw-json')).toBeInTheDocument();
    expect(screen.getByText(/cannot show this schema/)).toBeInTheDocument();
  });
});
