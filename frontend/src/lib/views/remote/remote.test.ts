// MCP-UI remote DOM (issue 15): a script's real remote elements
// (@remote-dom/core, as the sandbox defines them) go through the wire as
// JSON, into the app's checked tree, and are drawn by the app's components;
// a press runs the script's listener. Hostile batches are refused.
import { fireEvent, render, screen } from '@testing-library/svelte';
import { RemoteMutationObserver } from '@remote-dom/core/elements';
import type { RemoteReceiverElement } from '@remote-dom/core/receivers';
import { describe, expect, it } from 'vitest';
import { FN } from './elements';
import RemoteNode from './RemoteNode.svelte';
import { MAX_NODES, RemoteTree } from './tree';
import { Functions, defineRemoteElements } from './wire';

/** A sandbox in this document: the script builds under root, the tree takes what crosses as JSON. */
function sandbox() {
  defineRemoteElements();
  const fns = new Functions();
  const calls: number[] = [];
  const refused: string[] = [];
  const tree = new RemoteTree((fn, args) => {
    calls.push(fn);
    fns.call(fn, args);
  });
  // Out of the document: only what the app draws is on screen.
  const root = document.createElement('div');
  new RemoteMutationObserver({
    mutate: (records) => {
      const why = tree.apply(JSON.parse(JSON.stringify(fns.encode(records))));
      if (why) refused.push(why);
    },
    call: () => undefined,
  }).observe(root);
  const flush = () => new Promise((r) => setTimeout(r, 0));
  return { tree, root, calls, refused, flush };
}

function draw(tree: RemoteTree, tick: number) {
  return tree.receiver.root.children.map((node) => render(RemoteNode, { node, tick }));
}

describe('remote DOM', () => {
  it('draws the script’s elements with the app’s components, and a press runs its listener in the sandbox', async () => {
    const s = sandbox();
    let pressed = 0;
    const stack = document.createElement('ui-stack');
    stack.setAttribute('direction', 'horizontal');
    stack.setAttribute('spacing', '12');
    stack.setAttribute('align', 'center;background:url(https://evil.example/)');
    const text = document.createElement('ui-text');
    text.setAttribute('content', '<img src=x onerror=alert(1)>');
    const button = document.createElement('ui-button');
    button.setAttribute('label', 'Vote');
    button.addEventListener('press', () => {
      pressed++;
      text.setAttribute('content', `votes: ${pressed}`);
    });
    const image = document.createElement('ui-image');
    image.setAttribute('src', 'https://tracker.example/pixel.gif');
    image.setAttribute('alt', 'logo');
    const script = document.createElement('script');
    script.textContent = 'alert(1)';
    const div = document.createElement('div');
    div.setAttribute('onclick', 'alert(1)');
    div.setAttribute('style', 'position:fixed;inset:0');
    div.textContent = 'plain';
    stack.append(text, button, image, script, div);
    s.root.append(stack);
    await s.flush();
    expect(s.refused).toEqual([]);
    expect(s.tree.size).toBe(8); // the script's and the div's texts are nodes too

    draw(s.tree, 1);
    expect(screen.getByTestId('remote-text').textContent).toBe('<img src=x onerror=alert(1)>');
    expect(document.querySelector('img[src="x"]')).toBeNull();
    const st = screen.getByTestId('remote-stack');
    expect(st.style.flexDirection).toBe('row');
    expect(st.style.gap).toBe('12px');
    expect(st.getAttribute('style')).not.toContain('evil');
    expect(screen.getByTestId('remote-image-blocked').textContent).toContain('tracker.example');
    expect(document.querySelector('img[src^="https:"]')).toBeNull();
    expect(screen.queryByText('alert(1)')).toBeNull();
    const plain = screen.getByText('plain');
    expect(plain.tagName).toBe('DIV');
    expect(plain.getAttribute('onclick')).toBeNull();
    expect(plain.getAttribute('style')).toBeNull();

    await fireEvent.click(screen.getByTestId('remote-button'));
    await s.flush();
    expect(pressed).toBe(1);
    expect(s.calls).toHaveLength(1);
    // The listener's change came back as a mutation.
    const drawnStack = s.tree.receiver.root.children[0] as RemoteReceiverElement;
    expect((drawnStack.children[0] as RemoteReceiverElement).attributes.content).toBe('votes: 1');
  });

  it('keeps count as nodes come and go, and stops at the ceiling', async () => {
    const s = sandbox();
    const list = document.createElement('ul');
    for (let i = 0; i < 10; i++) list.append(document.createElement('li'));
    s.root.append(list);
    await s.flush();
    expect(s.tree.size).toBe(11);
    list.lastChild?.remove();
    list.firstChild?.remove();
    await s.flush();
    expect(s.tree.size).toBe(9);
    list.remove();
    await s.flush();
    expect(s.tree.size).toBe(0);

    const big = document.createElement('div');
    for (let i = 0; i < MAX_NODES; i++) big.append(document.createElement('span'));
    s.root.append(big);
    await s.flush();
    expect(s.refused).toEqual([`the UI built more than ${MAX_NODES} elements`]);
    expect(s.tree.size).toBe(0);
  });

  it('refuses what a hostile sandbox sends instead of mutations', () => {
    const calls: [number, unknown[]][] = [];
    const tree = new RemoteTree((fn, args) => calls.push([fn, args]));
    const el = (id: string, extra: Record<string, unknown> = {}) => ({ id, type: 1, element: 'ui-button', children: [], ...extra });
    for (const bad of [
      'x',
      [['not a record']],
      [[0, '~', { id: 'a', type: 1, element: '<img>', children: [] }, 0]],
      [[0, '~', el('a', { eventListeners: { press: 'alert(1)' } }), 0]],
      [[0, '~', el('a', { attributes: { label: { toString: 1 } } }), 0]],
      [[0, '~', { id: 't', type: 3, data: 'x'.repeat(100_001) }, 0]],
      [[3, 'a', 'label', 1, 9]],
      [[7, 'a']],
      [[0, '~', el('a'), -1]],
    ]) {
      expect(tree.apply(bad), JSON.stringify(bad).slice(0, 80)).not.toBe('');
    }
    expect(tree.size).toBe(0);
    // Deep nesting is refused before the stack is.
    let deep: Record<string, unknown> = el('d0');
    for (let i = 1; i < 100; i++) deep = el(`d${i}`, { children: [deep] });
    expect(tree.apply([[0, '~', deep, 0]])).toContain('deeper');
    // An id the tree holds cannot be inserted again.
    expect(tree.apply([[0, '~', el('a', { eventListeners: { press: { [FN]: 4 } } }), 0]])).toBe('');
    expect(tree.apply([[0, '~', el('a'), 1]])).toContain('id');
    // A listener is the sandbox's function by id; its arguments cross as JSON only.
    const a = tree.receiver.root.children[0] as RemoteReceiverElement;
    a.eventListeners.press({ x: 1, f: () => 1 });
    expect(calls).toEqual([[4, [{ x: 1 }]]]);
  });
});
