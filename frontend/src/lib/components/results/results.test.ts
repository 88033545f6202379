import { render, screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import type { Component } from 'svelte';
import { describe, expect, it } from 'vitest';
import { setBackend, type Content } from '../../api';
import { FakeBackend } from '../../../test/fakes/fake';
import { createStores, STORES_KEY } from '../../state/context';
import ContentView from './ContentView.svelte';
import { formatDuration, formatElapsed } from '../../util/format';
import JsonTree from './JsonTree.svelte';

// Any component of this folder, with its props.
function mount(C: Component<any>, props: Record<string, unknown>) {
  const fake = new FakeBackend();
  setBackend(fake);
  const user = userEvent.setup();
  render(C, { props, context: new Map([[STORES_KEY, createStores()]]) });
  return { fake, user };
}

describe('JsonTree', () => {
  it('opens two levels, folds and unfolds, and copies a value', async () => {
    const value = { a: 1, nested: { deep: { x: [1, 2, 3] } }, s: 'str', n: null, empty: [] };
    const { fake, user } = mount(JsonTree, { value, testid: 'tree' });
    const tree = screen.getByTestId('tree');
    expect(tree).toHaveTextContent('"a": 1,');
    expect(tree).toHaveTextContent('"s": "str"');
    expect(tree).toHaveTextContent('"n": null');
    expect(tree).toHaveTextContent('"empty": []');
    // The third level starts folded, with a count.
    expect(tree).toHaveTextContent('"deep": {…} 1 key');
    await user.click(within(tree).getByRole('button', { name: /1 key/ }));
    expect(tree).toHaveTextContent('"x": […] 3 items');

    const nested = within(tree).getAllByRole('treeitem').find((n) => n.textContent!.trim().startsWith('"nested"'))!;
    await user.click(within(nested).getAllByRole('button', { name: 'Collapse' })[0]);
    expect(tree).toHaveTextContent('"nested": {…} 1 key');

    await user.click(within(nested).getAllByRole('button', { name: 'Copy value' })[0]);
    expect(JSON.parse(fake.copied[0])).toEqual(value.nested);
  });

  it('shows a long array a page at a time', async () => {
    const { user } = mount(JsonTree, { value: Array.from({ length: 250 }, (_, i) => i), testid: 'tree' });
    expect(within(screen.getByTestId('tree')).getAllByRole('treeitem')).toHaveLength(101);
    await user.click(screen.getByRole('button', { name: 'Show 150 more' }));
    expect(within(screen.getByTestId('tree')).getAllByRole('treeitem')).toHaveLength(251);
  });
});

describe('ContentView', () => {
  it('renders text as sanitised markdown, with raw and JSON views', async () => {
    const { user } = mount(ContentView, { content: { type: 'text', text: '# Title\n<img src=x onerror="alert(1)"><script>alert(2)</script>[a](javascript:alert(3))' } as Content });
    const md = screen.getByTestId('result-markdown');
    expect(md.querySelector('h1')).toHaveTextContent('Title');
    expect(md.innerHTML).not.toMatch(/onerror|<script|javascript:/);
    await user.click(screen.getByTestId('result-view-raw'));
    expect(screen.getByTestId('result-text')).toHaveTextContent('<script>alert(2)</script>');
  });

  it('shows JSON text as a tree first', () => {
    mount(ContentView, { content: { type: 'text', text: '{"ok": true}' } as Content });
    expect(screen.getByTestId('result-view-json')).toHaveAttribute('aria-checked', 'true');
    expect(screen.getByRole('tree')).toHaveTextContent('"ok": true');
  });

  it('refuses non-media MIME types in data: URLs', () => {
    mount(ContentView, { content: { type: 'image', data: 'PHN2Zz4=', mimeType: 'text/html' } as Content });
    expect(screen.getByTestId('result-content').querySelector('img')).toBeNull();
  });
});

describe('duration formats (util/format, through Intl)', () => {
  it.each([
    [0, '0 ms'],
    [85.4, '85 ms'],
    [1240, '1.24 sec'],
    [12_345, '12.3 sec'],
    [125_000, '2 min 5 sec'],
  ])('%d ms → %s', (ms, want) => expect(formatDuration(ms, 'en')).toBe(want));

  it('elapsed ticks in tenths', () => {
    expect(formatElapsed(0, 'en')).toBe('0.0 sec');
    expect(formatElapsed(1234, 'en')).toBe('1.2 sec');
  });
});
