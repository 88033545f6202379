import { afterEach, describe, expect, it } from 'vitest';
import { keepFocus } from './keepFocus';

const flush = () => new Promise((r) => setTimeout(r, 0));

describe('keepFocus', () => {
  afterEach(() => {
    document.body.innerHTML = '';
  });

  function bar(): HTMLElement {
    const node = document.createElement('div');
    node.innerHTML = '<button id="run">Run</button><button id="save">Save</button>';
    document.body.append(node);
    return node;
  }

  it('hands the focus to the control that replaces the focused one (Run → Stop → Run)', async () => {
    const node = bar();
    const action = keepFocus(node, 'button:not(:disabled)');
    (node.querySelector('#run') as HTMLElement).focus();
    node.innerHTML = '<button id="stop">Stop</button>';
    await flush();
    expect(document.activeElement?.id).toBe('stop');
    node.innerHTML = '<button id="run">Run</button><button id="save">Save</button>';
    await flush();
    expect(document.activeElement?.id).toBe('run');
    action.destroy();
  });

  it('leaves the focus alone once it has left the node', async () => {
    const node = bar();
    const outside = document.createElement('input');
    document.body.append(outside);
    const action = keepFocus(node);
    (node.querySelector('#run') as HTMLElement).focus();
    outside.focus();
    node.innerHTML = '<button id="stop">Stop</button>';
    await flush();
    expect(document.activeElement).toBe(outside);
    action.destroy();
  });
});
