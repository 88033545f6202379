import { screen, waitFor } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import { spec, status } from '../../api/fake';
import { go, renderApp } from '../../../test/app';

describe('Screens still to come', () => {
  it.each(['usage'])('%s says what it will do and what to do now', async (name) => {
    const { user, fake } = renderApp({});
    await go(user, name);
    const empty = screen.getByTestId(`empty-${name}`);
    expect(empty).toHaveTextContent(/Servers screen/);
    expect(screen.getByTestId(`nav-${name}`)).toHaveAttribute('aria-current', 'page');
    await user.click(screen.getByTestId('empty-go-servers'));
    expect(screen.getByTestId('nav-servers')).toHaveAttribute('aria-current', 'page');
    expect(fake.uiStore.get('screen')).toBe('servers');
  });

  it('counts what connected servers already offer', async () => {
    const { user } = renderApp({
      servers: [{ spec: spec({ id: 'a', command: 'x' }), status: status({ id: 'a', tools: 5 }) }],
    });
    await screen.findByTestId('server-a');
    await go(user, 'usage');
    expect(screen.getByTestId('empty-usage')).toHaveTextContent('1 server is connected. Usage appears here once you chat.');
  });

  it('reopens the remembered screen', async () => {
    const { FakeBackend } = await import('../../api/fake');
    const fake = new FakeBackend({});
    fake.uiStore.set('screen', 'settings');
    renderApp(fake);
    await waitFor(() => expect(screen.getByTestId('nav-settings')).toHaveAttribute('aria-current', 'page'));
  });
});
