// Desktop notifications (issue 16): sent through Go only while the window
// is away, for each kind unless turned off, naming the conversation; a
// click (window:open-conversation) opens that conversation.
import { screen, waitFor } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import { go, renderApp } from '../../test/app';
import type { FakeOptions } from '../../test/fakes/fake';

const PROVIDERS: FakeOptions['providers'] = {
  providers: [{ id: 'openai', name: 'OpenAI', preset: 'openai', keyInKeychain: true }],
  defaultModel: { provider: 'openai', model: 'gpt-4o' },
};

async function chatWith(o: FakeOptions = {}) {
  const r = renderApp({ providers: PROVIDERS, ...o });
  await go(r.user, 'chat');
  await screen.findByTestId('chat-screen');
  await waitFor(() => expect(screen.getByTestId('model-picker')).toHaveValue('openai\ngpt-4o'));
  return r;
}

async function reply(r: Awaited<ReturnType<typeof chatWith>>, text: string, call = false) {
  const before = r.fake.callsOf('chat.Send').length;
  await r.user.type(screen.getByTestId('composer-input'), text);
  await r.user.keyboard('{Enter}');
  await waitFor(() => expect(r.fake.callsOf('chat.Send').length).toBe(before + 1));
  const t = r.fake.chat.turn();
  t.assistant();
  if (call) {
    t.toolCall({ id: 'c1', server: 'everything', tool: 'echo', args: { message: 'hi' } });
    t.finish();
    t.askApproval('c1', { inputSchema: { type: 'object' } });
    return t;
  }
  t.delta('Here you are.');
  t.finish();
  t.done();
  return t;
}

describe('desktop notifications', () => {
  it('are sent only while the window is away, name the conversation, and a click opens it', async () => {
    const r = await chatWith();
    let away = false;
    r.stores.notifications.away = () => away;
    await reply(r, 'First question');
    await screen.findByTestId('message-assistant');
    expect(r.fake.notifications).toEqual([]);

    away = true;
    await waitFor(() => expect(screen.getByTestId('composer-send')).toBeInTheDocument());
    await reply(r, 'Second question', true);
    await waitFor(() => expect(r.fake.notifications.map((n) => n.kind)).toEqual(['approval']));
    const [n] = r.fake.notifications;
    expect(n.title).toBe('Approval needed');
    expect(n.body).toBe('everything / echo waits for you in “First question”');
    const conv = (r.fake.callsOf('chat.Send')[0][0] as { conversationId: number }).conversationId;
    expect(n.conversation).toBe(conv);

    // Turned off in Settings → Desktop: not sent.
    await go(r.user, 'settings');
    await r.user.click(await screen.findByTestId('desktop-notify-reply'));
    await waitFor(() => expect(r.fake.prefs.notifyOff).toEqual(['reply']));
    r.fake.chat.turn().done();
    await new Promise((res) => setTimeout(res, 20));
    expect(r.fake.notifications.map((x) => x.kind)).toEqual(['approval']);

    // The user clicks the notification: the window opens its conversation.
    r.fake.emit('window:open-conversation', { conversationId: conv });
    await screen.findByTestId('chat-screen');
    await waitFor(() => expect(screen.getByTestId(`chat-conversation-${conv}`)).toHaveAttribute('aria-current', 'true'));
  });
});
