// Models side by side (issue 16): one message goes to three models, each
// in a conversation of its own shown in a column; the columns stream and
// ask for approval independently, each with its tokens at its foot; the
// next message goes on in all three; "Continue with this" opens one in the
// chat.
import { screen, waitFor, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import { go, renderApp } from '../../../test/app';
import type { FakeOptions } from '../../../test/fakes/fake';

const PROVIDERS: FakeOptions['providers'] = {
  providers: [{ id: 'openai', name: 'OpenAI', preset: 'openai', keyInKeychain: true }],
  models: { openai: ['gpt-4o', 'gpt-4o-mini', 'o3'] },
  defaultModel: { provider: 'openai', model: 'gpt-4o' },
};

const USAGE = (n: number) => ({ promptTokens: n, completionTokens: 10, cachedTokens: 0, reasoningTokens: 0 });

describe('Compare models', () => {
  it('sends one message to three models, each in its own column that streams and approves on its own', async () => {
    const r = renderApp({ providers: PROVIDERS });
    await go(r.user, 'chat');
    await screen.findByTestId('chat-screen');
    await waitFor(() => expect(screen.getByTestId('model-picker')).toHaveValue('openai\ngpt-4o'));

    await r.user.click(screen.getByTestId('chat-compare'));
    expect(screen.getByTestId('compare-model-0')).toHaveValue('openai\ngpt-4o');
    expect(screen.getByTestId('compare-apply')).toBeDisabled();
    await r.user.selectOptions(screen.getByTestId('compare-model-1'), 'openai\ngpt-4o-mini');
    // A model another row has is not offered again.
    const third = within(screen.getByTestId('compare-model-2'));
    expect(third.queryByRole('option', { name: 'gpt-4o-mini' })).toBeNull();
    expect(third.queryByRole('option', { name: 'gpt-4o' })).toBeNull();
    await r.user.selectOptions(screen.getByTestId('compare-model-2'), 'openai\no3');
    await r.user.click(screen.getByTestId('compare-apply'));
    expect(await screen.findByTestId('compare-ready')).toHaveTextContent('OpenAI · gpt-4o · OpenAI · gpt-4o-mini · OpenAI · o3');
    expect(screen.getByTestId('chat-title')).toHaveTextContent('Comparing 3 models');

    await r.user.type(screen.getByTestId('composer-input'), 'Which is faster?');
    await r.user.keyboard('{Enter}');
    await waitFor(() => expect(r.fake.callsOf('chat.Send')).toHaveLength(3));
    const convs = r.fake.callsOf('chat.Send').map((c) => (c[0] as { conversationId: number }).conversationId);
    expect(new Set(convs).size).toBe(3);
    expect(convs.map((id) => r.fake.chat.modelOf(id)).sort()).toEqual(['openai/gpt-4o', 'openai/gpt-4o-mini', 'openai/o3']);
    const columns = await screen.findAllByTestId('compare-column');
    expect(columns).toHaveLength(3);
    expect(columns.map((c) => within(c).getByTestId('compare-model').textContent)).toEqual(['OpenAI · gpt-4o', 'OpenAI · gpt-4o-mini', 'OpenAI · o3']);

    // Column 1 answers at once; column 2 asks to run a tool; column 3 is still writing.
    const [a, b, c] = convs.map((id) => r.fake.chat.turn(id));
    a.assistant();
    a.delta('gpt-4o says hi');
    a.finish({ usage: USAGE(100) });
    a.done();
    b.assistant();
    b.toolCall({ id: 'c1', server: 'everything', tool: 'echo', args: { message: 'hi' } });
    b.finish({ usage: USAGE(200) });
    b.askApproval('c1', { inputSchema: { type: 'object' } });
    c.assistant();
    c.delta('o3 is thinking');
    const col = (i: number) => screen.getAllByTestId('compare-column')[i];
    await waitFor(() => expect(within(col(0)).getByTestId('message-markdown')).toHaveTextContent('gpt-4o says hi'));
    const card = await within(col(1)).findByTestId('approval-card');
    expect(within(col(0)).queryByTestId('approval-card')).toBeNull();
    expect(within(col(2)).queryByTestId('approval-card')).toBeNull();
    await waitFor(() => expect(within(col(0)).getByTestId('compare-tokens')).toHaveTextContent('110 tokens'));
    await waitFor(() => expect(within(col(0)).getByTestId('compare-time')).not.toHaveTextContent('answering'));
    expect(within(col(2)).getByTestId('compare-time')).toHaveTextContent('answering');
    expect(screen.getByTestId('composer-stop')).toBeInTheDocument();

    // The approval in column 2 goes to its own conversation's call.
    await r.user.click(within(card).getByTestId('approval-run'));
    await waitFor(() => expect(r.fake.callsOf('chat.Approve')).toHaveLength(1));
    b.done();
    c.delta(' and answers.');
    c.finish({ usage: USAGE(300) });
    c.done();
    await waitFor(() => expect(screen.getByTestId('composer-send')).toBeInTheDocument());

    // The next message goes on in all three conversations.
    await r.user.type(screen.getByTestId('composer-input'), 'And cheaper?');
    await r.user.keyboard('{Enter}');
    await waitFor(() => expect(r.fake.callsOf('chat.Send')).toHaveLength(6));
    expect(r.fake.callsOf('chat.Send').slice(3).map((x) => (x[0] as { conversationId: number }).conversationId).sort()).toEqual([...convs].sort());
    for (const id of convs) {
      const t = r.fake.chat.turn(id);
      t.assistant();
      t.delta('ok');
      t.finish();
      t.done();
    }
    await waitFor(() => expect(screen.getByTestId('composer-send')).toBeInTheDocument());

    // Continue with the second: its conversation opens in the chat.
    await r.user.click(within(col(1)).getByTestId('compare-continue'));
    await waitFor(() => expect(screen.queryByTestId('compare-view')).toBeNull());
    await waitFor(() => expect(screen.getByTestId(`chat-conversation-${convs[1]}`)).toHaveAttribute('aria-current', 'true'));
    expect(screen.getAllByTestId('message-user')).toHaveLength(2);
  });
});

describe('Compare models: the picker opened early', () => {
  it('fills its first row with the chat model once the models are read', async () => {
    const r = renderApp({ providers: PROVIDERS });
    const releases = ['PickerModels', 'DefaultModel'].map((m) => r.fake.providers.hold(m));
    await go(r.user, 'chat');
    await screen.findByTestId('chat-screen');
    await r.user.click(screen.getByTestId('chat-compare'));
    expect(screen.getByTestId('compare-model-0')).toHaveValue('');
    for (const release of releases) release();
    await waitFor(() => expect(screen.getByTestId('compare-model-0')).toHaveValue('openai\ngpt-4o'));
    await r.user.selectOptions(screen.getByTestId('compare-model-1'), 'openai\no3');
    await r.user.click(screen.getByTestId('compare-apply'));
    expect(await screen.findByTestId('compare-ready')).toHaveTextContent('OpenAI · gpt-4o · OpenAI · o3');
  });
});
