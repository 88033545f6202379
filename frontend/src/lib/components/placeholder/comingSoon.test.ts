import { screen, waitFor } from '@testing-library/svelte';
import { describe, expect, it, vi } from 'vitest';
import { SCREENS } from '../../state/layout.svelte';
import { go, renderApp } from '../../../test/app';

// The charts' canvas is not drawn under jsdom.
vi.mock('uplot', () => ({ default: class { static paths = { bars: () => () => null }; destroy() {} } }));

describe('No screen is a placeholder any more', () => {
  it.each([...SCREENS])('%s opens its real screen, never "Coming soon"', async (name) => {
    const { user, fake } = renderApp({});
    await go(user, name);
    expect(screen.getByTestId(`nav-${name}`)).toHaveAttribute('aria-current', 'page');
    expect(document.querySelector('main.screen')).toHaveAttribute('data-screen', name);
    await waitFor(() => expect(document.querySelector('main.screen')!.children.length).toBeGreaterThan(0), { timeout: 5000 });
    expect(screen.queryByText('Coming soon')).toBeNull();
    if (name !== 'servers') expect(fake.uiStore.get('screen')).toBe(name);
  });

  it('Usage is the usage and audit screen', async () => {
    const { user } = renderApp({});
    await go(user, 'usage');
    expect(await screen.findByTestId('usage-screen', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.queryByTestId('empty-usage')).toBeNull();
  });

  it('reopens the remembered screen', async () => {
    const { FakeBackend } = await import('../../../test/fakes/fake');
    const fake = new FakeBackend({});
    fake.uiStore.set('screen', 'usage');
    renderApp(fake);
    await waitFor(() => expect(screen.getByTestId('nav-usage')).toHaveAttribute('aria-current', 'page'));
    expect(await screen.findByTestId('usage-screen', {}, { timeout: 5000 })).toBeInTheDocument();
  });
});
