// Issue 12, point 13: lists grow with the window until the user sets a
// width, a set width is remembered; the bottom panel's default height
// grows with a tall window and never leaves the screen above too little.
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { createRawSnippet, flushSync } from 'svelte';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setBackend } from '../../api';
import { FakeBackend } from '../../../test/fakes/fake';
import { defaultLoggerHeight, Layout, LOGGER_DEFAULT, SCREEN_MIN } from '../../state/layout.svelte';
import SplitPane from './SplitPane.svelte';

// jsdom lays nothing out: the split's width is set here, and the resize
// observer is called by hand.
let splitWidth = 0;
const observers: (() => void)[] = [];
let fake: FakeBackend;

beforeEach(() => {
  Object.defineProperty(HTMLElement.prototype, 'clientWidth', {
    configurable: true,
    get(this: HTMLElement) {
      return this.classList.contains('split') ? splitWidth : 0;
    },
  });
  (globalThis as { ResizeObserver?: unknown }).ResizeObserver = class {
    #fn: () => void;
    constructor(fn: () => void) {
      this.#fn = fn;
    }
    observe() {
      observers.push(this.#fn);
    }
    disconnect() {}
  };
  fake = new FakeBackend({});
  setBackend(fake);
});

afterEach(() => {
  cleanup();
  delete (HTMLElement.prototype as { clientWidth?: number }).clientWidth;
  delete (globalThis as { ResizeObserver?: unknown }).ResizeObserver;
  observers.length = 0;
  fake.dispose();
});

const pane = (text: string) => createRawSnippet(() => ({ render: () => `<div>${text}</div>` }));

function renderSplit(width: number) {
  splitWidth = width;
  render(SplitPane, {
    props: { storageKey: 'toolsSplit', label: 'Resize the list', testid: 'split', initial: 300, share: 0.3, start: pane('list'), end: pane('detail') },
  });
  const start = () => screen.getByText('list').parentElement as HTMLElement;
  return { start, handle: screen.getByTestId('split') };
}

function resizeWindow(width: number) {
  splitWidth = width;
  observers.forEach((fn) => fn());
  flushSync();
}

describe('SplitPane (the list beside a detail)', () => {
  it('grows with the window until the user sets a width', () => {
    const { start, handle } = renderSplit(1844);
    expect(start().style.width).toBe('553px');
    resizeWindow(2484);
    expect(start().style.width).toBe('745px');
    // Never narrower than its initial width on a small window.
    resizeWindow(824);
    expect(start().style.width).toBe('300px');
    expect(handle).toHaveAttribute('aria-valuemax', String(824 - 320));
  });

  it('keeps and remembers the width the user set, whatever the window', async () => {
    const { start, handle } = renderSplit(1844);
    await fireEvent.keyDown(handle, { key: 'ArrowLeft', shiftKey: true });
    expect(start().style.width).toBe('489px');
    expect(fake.uiStore.get('toolsSplit')).toBe('489');
    resizeWindow(2484);
    expect(start().style.width).toBe('489px');
    // A window too small for it leaves the detail its room.
    resizeWindow(700);
    expect(start().style.width).toBe('380px');
  });

  it('restores a remembered width', async () => {
    fake.uiStore.set('toolsSplit', '420');
    const { start } = renderSplit(1844);
    await waitFor(() => expect(start().style.width).toBe('420px'));
    resizeWindow(2484);
    expect(start().style.width).toBe('420px');
  });
});

describe('Bottom panel height', () => {
  it('defaults larger on tall windows', () => {
    expect(defaultLoggerHeight(600)).toBe(LOGGER_DEFAULT);
    expect(defaultLoggerHeight(820)).toBe(328);
    expect(defaultLoggerHeight(1080)).toBe(432);
    expect(defaultLoggerHeight(2000)).toBe(560);
  });

  it('follows the window until the user sets a height, and never crowds out the screen', async () => {
    const layout = new Layout();
    layout.setWindowHeight(1080);
    expect(layout.loggerHeight).toBe(432);
    layout.setWindowHeight(820);
    expect(layout.loggerHeight).toBe(328);
    layout.resizeLogger(500, 2000);
    layout.commitLogger();
    expect(layout.loggerHeight).toBe(500);
    expect(fake.uiStore.get('loggerHeight')).toBe('500');
    layout.setWindowHeight(600);
    expect(layout.loggerHeight).toBe(600 - SCREEN_MIN);
    layout.setWindowHeight(1080);
    expect(layout.loggerHeight).toBe(500);
  });

  it('restores a remembered height', async () => {
    fake.uiStore.set('loggerHeight', '300');
    const layout = new Layout();
    layout.setWindowHeight(1080);
    await layout.load();
    expect(layout.loggerHeight).toBe(300);
  });
});
