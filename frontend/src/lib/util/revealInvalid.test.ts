import { afterEach, describe, expect, it, vi } from 'vitest';
import { revealInvalid } from './revealInvalid';

function html(s: string): HTMLElement {
  const root = document.createElement('div');
  root.innerHTML = s;
  document.body.append(root);
  return root;
}

describe('revealInvalid', () => {
  afterEach(() => {
    document.body.innerHTML = '';
    vi.restoreAllMocks();
  });

  it('focuses the first invalid control in document order and scrolls its field (label and message) into view', async () => {
    const scrolled: Element[] = [];
    Element.prototype.scrollIntoView = function (this: Element) {
      scrolled.push(this);
    };
    const root = html(`
      <div class="field" id="f1"><input id="a"></div>
      <div class="field" id="f2"><input id="b" aria-invalid="true"><p role="alert">Required</p></div>
      <div class="field" id="f3"><input id="c" aria-invalid="true"></div>`);
    const el = await revealInvalid(root);
    expect(el?.id).toBe('b');
    expect(document.activeElement?.id).toBe('b');
    expect(scrolled.map((e) => e.id)).toEqual(['f2']);
  });

  it('opens the closed <details> that hides the field', async () => {
    const root = html(`<details id="adv"><summary>Advanced</summary><input id="t" aria-invalid="true"></details>`);
    await revealInvalid(root);
    expect((root.querySelector('#adv') as HTMLDetailsElement).open).toBe(true);
    expect(document.activeElement?.id).toBe('t');
  });

  it('focuses the first control of a group marked data-invalid, skipping disabled and inert ones', async () => {
    const root = html(`
      <input id="off" aria-invalid="true" disabled>
      <div inert><input id="inert" aria-invalid="true"></div>
      <div data-invalid="true" id="g"><input type="checkbox" id="x"><input type="checkbox" id="y"></div>`);
    await revealInvalid(root);
    expect(document.activeElement?.id).toBe('x');
  });

  it('falls back to a summary (made focusable) when no field is marked, and returns null when nothing is', async () => {
    const root = html(`<div data-testid="s-errors" id="sum">1 problem</div>`);
    const el = await revealInvalid(root, { fallback: '[data-testid="s-errors"]' });
    expect(el?.id).toBe('sum');
    expect(document.activeElement?.id).toBe('sum');
    expect(await revealInvalid(html('<input>'))).toBeNull();
    expect(await revealInvalid(null)).toBeNull();
  });
});
