import { screen, waitFor } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import { go, renderApp } from '../../../test/app';
import { FakeBackend, type FakeOptions } from '../../../test/fakes/fake';
import { QUICK_SIZE } from '../../state/quickChat.svelte';

const PROVIDERS: FakeOptions['providers'] = {
  providers: [{ id: 'openai', name: 'OpenAI', preset: 'openai', keyInKeychain: true }],
  defaultModel: { provider: 'openai', model: 'gpt-4o' },
};

describe('Quick chat (SPEC F2)', () => {
  it('opens when the app was launched with --quick-chat: the window says it listens once every store does', async () => {
    const fake = new FakeBackend({ providers: PROVIDERS });
    fake.launchQuickChat = true;
    const r = renderApp(fake);
    expect(await screen.findByTestId('quick-chat')).toBeInTheDocument();
    expect(r.fake.callsOf('WindowReady')).toHaveLength(1);
  });

  it('turns the window into quick chat, sends with the default model, and opens the conversation in the full window', async () => {
    const r = renderApp({ providers: PROVIDERS });
    await screen.findByTestId('nav-chat');
    r.fake.emit('window:quick-chat', { tray: true });
    expect(await screen.findByTestId('quick-chat')).toBeInTheDocument();
    expect(screen.queryByTestId('nav-chat')).not.toBeInTheDocument();
    // Small, on top, centred; the old size is remembered.
    expect(r.fake.win).toMatchObject({ w: QUICK_SIZE.w, h: QUICK_SIZE.h, onTop: true });
    expect(r.fake.win.minW).toBeLessThanOrEqual(QUICK_SIZE.w);
    await waitFor(() => expect(screen.getByTestId('model-picker')).toHaveValue('openai\ngpt-4o'));
    expect(screen.getByTestId('quick-empty')).toHaveTextContent(/default model/);

    await r.user.type(screen.getByTestId('composer-input'), 'What time is it in Tokyo?');
    await r.user.keyboard('{Enter}');
    await waitFor(() => expect(r.fake.callsOf('chat.Send').length).toBe(1));
    expect(r.fake.callsOf('chat.NewConversation')[0][0]).toMatchObject({
      settings: { provider: 'openai', model: 'gpt-4o' },
    });
    const t = r.fake.chat.turn();
    t.assistant();
    t.delta('It is 9 pm.');
    t.finish();
    t.done();
    await waitFor(() => expect(screen.getAllByTestId('message-assistant').at(-1)).toHaveTextContent('It is 9 pm.'));

    // Open in MCP Desk: the full window, its old size, the same conversation in Chat.
    await r.user.click(screen.getByTestId('quick-expand'));
    expect(await screen.findByTestId('chat-screen')).toBeInTheDocument();
    expect(r.fake.win).toMatchObject({ w: 1280, h: 820, minW: 900, minH: 600, onTop: false, hidden: false });
    expect(screen.getAllByTestId('message-assistant').at(-1)).toHaveTextContent('It is 9 pm.');
  });

  it('closes into the tray when there is one, and back to the full window when there is none', async () => {
    const r = renderApp({ providers: PROVIDERS });
    await screen.findByTestId('nav-chat');
    r.fake.emit('window:quick-chat', { tray: true });
    await r.user.click(await screen.findByTestId('quick-close'));
    expect(r.fake.win).toMatchObject({ w: 1280, h: 820, onTop: false, hidden: true });
    expect(await screen.findByTestId('nav-chat')).toBeInTheDocument();

    r.fake.win.hidden = false;
    r.fake.emit('window:quick-chat', { tray: false });
    await screen.findByTestId('quick-chat');
    await r.user.keyboard('{Escape}');
    await screen.findByTestId('nav-chat');
    expect(r.fake.win).toMatchObject({ onTop: false, hidden: false, w: 1280 });
  });

  it('keeps a running conversation instead of starting a new one, and window:show leaves quick chat', async () => {
    const r = renderApp({ providers: PROVIDERS });
    await go(r.user, 'chat');
    await waitFor(() => expect(screen.getByTestId('model-picker')).toHaveValue('openai\ngpt-4o'));
    await r.user.type(screen.getByTestId('composer-input'), 'Long task');
    await r.user.keyboard('{Enter}');
    await waitFor(() => expect(r.fake.callsOf('chat.Send').length).toBe(1));
    const t = r.fake.chat.turn();
    t.assistant();
    t.delta('Working on it');
    r.fake.emit('window:quick-chat', { tray: true });
    await screen.findByTestId('quick-chat');
    await waitFor(() => expect(screen.getAllByTestId('message-assistant').at(-1)).toHaveTextContent('Working on it'));
    r.fake.emit('window:show', null);
    expect(await screen.findByTestId('chat-screen')).toBeInTheDocument();
    expect(r.fake.win.onTop).toBe(false);
  });

  it('stays full when Show comes while quick chat still reads the size, and leaves for the full size when the size could not be read', async () => {
    const r = renderApp({ providers: PROVIDERS });
    await screen.findByTestId('nav-chat');
    let release = () => {};
    r.fake.sizeGate = new Promise<void>((resolve) => (release = resolve));
    r.fake.emit('window:quick-chat', { tray: true });
    r.fake.emit('window:show', null);
    release();
    r.fake.sizeGate = null;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(r.fake.win).toMatchObject({ w: 1280, h: 820, minW: 900, minH: 600, onTop: false });
    expect(screen.getByTestId('nav-chat')).toBeInTheDocument();

    // The size before quick chat could not be read: Show still gives the
    // full window its first size, not quick chat's grown to the minimum.
    r.fake.win.w = 1000;
    r.fake.sizeError = 'window gone';
    r.fake.emit('window:quick-chat', { tray: true });
    await screen.findByTestId('quick-chat');
    await waitFor(() => expect(r.fake.win).toMatchObject({ w: QUICK_SIZE.w, h: QUICK_SIZE.h, onTop: true }));
    r.fake.emit('window:show', null);
    await screen.findByTestId('nav-chat');
    expect(r.fake.win).toMatchObject({ w: 1280, h: 820, minW: 900, onTop: false });
  });

  it('says how to add a provider when there is no model', async () => {
    const r = renderApp();
    await screen.findByTestId('nav-chat');
    r.fake.emit('window:quick-chat', { tray: true });
    await r.user.click(await screen.findByTestId('quick-add-provider'));
    expect(await screen.findByTestId('settings-providers')).toBeInTheDocument();
  });
});
