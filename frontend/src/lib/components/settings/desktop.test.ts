import { screen, waitFor, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import { go, renderApp } from '../../../test/app';

describe('Settings → Desktop (SPEC F2)', () => {
  it('keeps running in the tray by default, saves "quit on close", and keeps it when the theme changes', async () => {
    const r = renderApp();
    await go(r.user, 'settings');
    const card = await screen.findByTestId('settings-desktop');
    expect(within(card).getByTestId('desktop-close-tray')).toHaveAttribute('aria-checked', 'true');
    await r.user.click(within(card).getByTestId('desktop-close-quit'));
    await waitFor(() => expect(r.fake.callsOf('SavePrefs').at(-1)?.[0]).toMatchObject({ quitOnClose: true }));
    // Another preference saved later does not lose it.
    await r.user.click(screen.getByTestId('settings-theme-dark'));
    await waitFor(() => expect(r.fake.callsOf('SavePrefs').at(-1)?.[0]).toMatchObject({ theme: 'dark', quitOnClose: true }));
  });

  it('shows the shortcut and the command, or why there is no shortcut, and opens quick chat', async () => {
    const r = renderApp();
    r.fake.desktop = { tray: false, hotkey: '', hotkeyError: 'a Wayland session lets no application have a global shortcut', quickChatCommand: 'mcpdesk --quick-chat', notificationClicks: true };
    await go(r.user, 'settings');
    const card = await screen.findByTestId('settings-desktop');
    expect(await within(card).findByTestId('desktop-hotkey-error')).toHaveTextContent(/Wayland/);
    expect(within(card).getByTestId('desktop-command')).toHaveTextContent('mcpdesk --quick-chat');
    await r.user.click(within(card).getByTestId('desktop-open-quick'));
    expect(await screen.findByTestId('quick-chat')).toBeInTheDocument();
    expect(r.fake.win.onTop).toBe(true);
    // No tray: closing goes back to the full window, never hides it.
    await r.user.click(screen.getByTestId('quick-close'));
    await screen.findByTestId('settings-desktop');
    expect(r.fake.win.hidden).toBe(false);
  });

  it('says that a click on a notification opens its conversation where the backend says so', async () => {
    const r = renderApp();
    await go(r.user, 'settings');
    const card = await screen.findByTestId('settings-desktop');
    await waitFor(() => expect(within(card).getByTestId('desktop-notify-hint')).toHaveTextContent(/clicking one opens its conversation/));
  });

  it('says that a click does not open the conversation where the backend says it cannot (macOS)', async () => {
    const r = renderApp();
    r.fake.desktop = { ...r.fake.desktop, notificationClicks: false };
    await go(r.user, 'settings');
    const card = await screen.findByTestId('settings-desktop');
    await waitFor(() => expect(within(card).getByTestId('desktop-notify-hint')).toHaveTextContent(/a click does not open the conversation yet/));
    expect(within(card).getByTestId('desktop-notify-hint')).not.toHaveTextContent(/opens its conversation/);
  });
});
