import { screen } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../../test/app';
import { dialogFailure, LazyScreen } from './screens.svelte';
import type { Component } from 'svelte';

const Fake = (() => {}) as unknown as Component;

describe('LazyScreen', () => {
  it('loads once, on first use, and keeps the component', async () => {
    let loads = 0;
    const s = new LazyScreen(async () => {
      loads++;
      return { default: Fake };
    });
    expect(loads).toBe(0); // nothing before it is shown
    expect(s.get()).toBeNull();
    await s.load();
    expect(s.get()).toBe(Fake);
    expect(loads).toBe(1);
  });

  it('says why it could not load, and tries again on the next visit', async () => {
    let fail = true;
    const s = new LazyScreen(async () => {
      if (fail) throw new Error('chunk missing');
      return { default: Fake };
    });
    await s.load();
    expect(s.component).toBeNull();
    expect(s.error).toBe('chunk missing');
    fail = false;
    await s.load();
    expect(s.get()).toBe(Fake);
  });

  it('tells its failure to whoever asked, each time', async () => {
    const heard: string[] = [];
    const s = new LazyScreen(
      async () => {
        throw new Error('chunk missing');
      },
      (e) => heard.push(e),
    );
    await s.load();
    await s.load();
    expect(heard).toEqual(['chunk missing', 'chunk missing']);
  });
});

describe('a dialog that cannot be loaded', () => {
  it('is said in a toast', async () => {
    renderApp();
    await screen.findByTestId('nav-chat');
    dialogFailure.error = 'chunk missing';
    expect(await screen.findByText(/This dialog could not be loaded/)).toBeInTheDocument();
    expect(dialogFailure.error).toBe('');
  });
});
