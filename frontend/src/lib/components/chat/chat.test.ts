import { screen, waitFor, within } from '@testing-library/svelte';
import { describe, expect, it, vi } from 'vitest';
import { go, renderApp } from '../../../test/app';
import { spec, status, type FakeOptions } from '../../../test/fakes/fake';
import { chatMessage } from '../../../test/fakes/fakeChat';
import type { Message, ToolCall } from '../../api';
import { setLocale } from '../../i18n';
import { renderStats } from './markdown';

const PROVIDERS: FakeOptions['providers'] = {
  providers: [{ id: 'openai', name: 'OpenAI', preset: 'openai', keyInKeychain: true }],
  defaultModel: { provider: 'openai', model: 'gpt-4o' },
};

const USAGE = { promptTokens: 1200, completionTokens: 34, cachedTokens: 0, reasoningTokens: 0 };

/** openChat renders the app with a usable provider and goes to the Chat screen. */
async function openChat(o: FakeOptions = {}) {
  const r = renderApp({ providers: PROVIDERS, ...o });
  await go(r.user, 'chat');
  await screen.findByTestId('chat-screen');
  await waitFor(() => expect(screen.getByTestId('model-picker')).toHaveValue('openai\ngpt-4o'));
  return r;
}

/** sendText types a message and presses Enter; resolves once Send was called. */
async function sendText(r: Awaited<ReturnType<typeof openChat>>, text: string) {
  await r.user.type(screen.getByTestId('composer-input'), text);
  await r.user.keyboard('{Enter}');
  await waitFor(() => expect(r.fake.callsOf('chat.Send').length).toBeGreaterThan(0));
  return r.fake.chat.turn();
}

const assistant = () => screen.getAllByTestId('message-assistant').at(-1)!;

/** withCall starts a reply that asks to run one tool; returns the turn and approval id. */
async function withCall(r: Awaited<ReturnType<typeof openChat>>, extra: Parameters<ReturnType<typeof r.fake.chat.turn>['askApproval']>[1] = {}) {
  const t = await sendText(r, 'Echo hi');
  t.assistant();
  t.delta('Let me call a tool.');
  t.toolCall({ id: 'c1', server: 'everything', tool: 'echo', args: { message: 'hi' } });
  t.finish();
  const id = t.askApproval('c1', {
    description: 'Echoes back the input',
    inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
    ...extra,
  });
  const card = await screen.findByTestId('approval-card');
  return { t, id, card };
}

describe('Chat: conversation and streaming', () => {
  it('sends a message in a new chat and renders the streamed reply as markdown with highlighted, copyable code', async () => {
    const r = await openChat();
    expect(screen.getByTestId('chat-welcome')).toBeInTheDocument();
    const t = await sendText(r, 'Hello there');
    expect(r.fake.callsOf('chat.NewConversation')[0][0]).toMatchObject({
      title: 'Hello there',
      settings: { provider: 'openai', model: 'gpt-4o', servers: null },
    });
    expect(await screen.findByTestId('message-user')).toHaveTextContent('Hello there');
    expect(screen.getByTestId('composer-stop')).toBeInTheDocument();

    t.assistant();
    t.delta('# Plan\n\n| a | b |\n| --- | --- |\n| 1 | 2 |\n\n- [x] done\n- [ ] open\n\n');
    t.delta('```ts\nconst x: number = 1;\n```\n');
    t.finish({ usage: USAGE });
    t.done();

    const md = await screen.findByTestId('message-markdown');
    await waitFor(() => expect(md.querySelector('code.language-ts')).not.toBeNull());
    expect(md.querySelector('h1')).toHaveTextContent('Plan');
    expect(md.querySelectorAll('td')).toHaveLength(2);
    const boxes = md.querySelectorAll<HTMLInputElement>('input[type="checkbox"]');
    expect([...boxes].map((b) => [b.checked, b.disabled])).toEqual([
      [true, true],
      [false, true],
    ]);
    await waitFor(() => expect(md.querySelector('.hljs-keyword')).toHaveTextContent('const'));
    await r.user.click(within(md).getByTestId('code-copy'));
    await waitFor(() => expect(r.fake.copied).toContain('const x: number = 1;'));

    expect(within(assistant()).getByTestId('message-usage')).toHaveTextContent('1,234 tokens');
    // The model by the provider's name, as the composer names it; never the internal id.
    expect(within(assistant()).getByTestId('message-model')).toHaveTextContent(/^OpenAI · gpt-4o$/);
    expect(await screen.findByTestId('composer-send')).toBeInTheDocument();
    // The new conversation is in the sidebar and open.
    const id = r.fake.callsOf('chat.Send')[0][0] as { conversationId: number };
    await waitFor(() => expect(screen.getByTestId(`chat-conversation-${id.conversationId}`)).toHaveAttribute('aria-current', 'true'));
    expect(screen.getByTestId('chat-title')).toHaveTextContent('Hello there');
  });

  it('grows the composer with its text, and after Send takes its own height without measuring the page', async () => {
    const r = await openChat();
    const area = screen.getByTestId('composer-input') as HTMLTextAreaElement;
    let reads = 0;
    let height = 300;
    Object.defineProperty(area, 'scrollHeight', { configurable: true, get: () => (reads++, height) });
    await r.user.type(area, 'one{Shift>}{Enter}{/Shift}two');
    await waitFor(() => expect(area.style.height).toBe('240px'));
    height = 90;
    await r.user.type(area, '{Backspace}');
    await waitFor(() => expect(area.style.height).toBe('90px'));
    const before = reads;
    await r.user.keyboard('{Enter}');
    await waitFor(() => expect(r.fake.callsOf('chat.Send').length).toBe(1));
    await waitFor(() => expect(area).toHaveValue(''));
    await waitFor(() => expect(area.style.height).toBe(''));
    // Empty, it reads no layout: that would lay out the messages Send just added.
    expect(reads).toBe(before);
  });

  it('renders a long reply that arrives whole over several frames, a few milliseconds of blocks each', async () => {
    const r = await openChat();
    const t = await sendText(r, 'Write a lot');
    // Each look at the clock is 5 ms later: two blocks fit a frame's budget.
    let clock = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => (clock += 5));
    const paragraphs = Array.from({ length: 40 }, (_, i) => `Paragraph ${i} of the answer.`);
    t.assistant();
    t.delta(paragraphs.join('\n\n'));
    t.finish();
    t.done();
    const md = await screen.findByTestId('message-markdown');
    expect(md).toHaveAttribute('data-rendering', 'true');
    expect(md.querySelectorAll('p').length).toBeLessThan(10);
    await waitFor(() => expect(md.querySelectorAll('p')).toHaveLength(40));
    expect(md).not.toHaveAttribute('data-rendering');
    expect(md.querySelectorAll('p')[39]).toHaveTextContent('Paragraph 39 of the answer.');
  });

  it('names the model of an answer by its provider, and by the id marked removed once the provider is gone', async () => {
    const r = await openChat();
    const t = await sendText(r, 'Hi');
    t.assistant();
    t.delta('From the current model.');
    t.finish();
    t.done();
    await screen.findByTestId('message-model');
    const t2 = await sendText(r, 'Again');
    t2.assistant({ model: 'gone-4x2k/old-model' });
    t2.delta('From a deleted provider.');
    t2.finish();
    t2.done();
    await waitFor(() => expect(screen.getAllByTestId('message-model')).toHaveLength(2));
    const [now, gone] = screen.getAllByTestId('message-model');
    expect(now).toHaveTextContent(/^OpenAI · gpt-4o$/);
    expect(gone).toHaveTextContent('gone-4x2k · old-model (provider removed)');
  });

  it('shows reasoning in a Thinking block apart from the answer', async () => {
    const r = await openChat();
    const t = await sendText(r, 'Think');
    t.assistant();
    t.delta('', 'The user wants me to think hard.');
    const thinking = await screen.findByTestId('message-thinking');
    await waitFor(() => expect(thinking).toHaveTextContent('The user wants me to think hard.'));
    expect(thinking).toHaveTextContent('Thinking…');
    t.delta('The answer is 42.');
    await waitFor(() => expect(screen.getByTestId('message-markdown')).toHaveTextContent('The answer is 42.'));
    // Folded once the answer comes; the answer is not inside it.
    await waitFor(() => expect(thinking).not.toHaveTextContent('think hard'));
    expect(screen.getByTestId('message-markdown')).not.toHaveTextContent('think hard');
    await r.user.click(within(thinking).getByRole('button'));
    expect(thinking).toHaveTextContent('The user wants me to think hard.');
    t.finish();
    t.done();
  });

  it('stops a running reply: Stop calls Stop and the partial text stays, marked interrupted', async () => {
    const r = await openChat();
    const t = await sendText(r, 'Write a lot');
    t.assistant();
    t.delta('Partial answer');
    await waitFor(() => expect(screen.getByTestId('message-markdown')).toHaveTextContent('Partial answer'));
    await r.user.click(screen.getByTestId('composer-stop'));
    expect(r.fake.callsOf('chat.Stop')).toHaveLength(1);
    await waitFor(() => expect(assistant()).toHaveAttribute('data-status', 'interrupted'));
    expect(within(assistant()).getByTestId('message-status')).toHaveTextContent('interrupted');
    expect(screen.getByTestId('message-markdown')).toHaveTextContent('Partial answer');
    expect(screen.getByTestId('composer-send')).toBeInTheDocument();
  });

  it('shows chat:error in a banner and retries and fallbacks subtly', async () => {
    const r = await openChat();
    const t = await sendText(r, 'Hi');
    t.emitStep({ phase: 'retry', waitMs: 2000, message: 'Rate limited; trying again in 2 s' });
    expect(await screen.findByTestId('chat-step')).toHaveTextContent('Retrying in 2 sec');
    t.emitStep({ phase: 'fallback', model: 'deepseek/deepseek-chat' });
    await waitFor(() => expect(screen.getByTestId('chat-step')).toHaveTextContent('Falling back to deepseek · deepseek-chat'));
    t.assistant();
    t.delta('Half an ans');
    t.error('unreachable', 'dial tcp 10.0.0.1:443: connection refused', true);
    t.finish({ status: 'interrupted' });
    t.done('error');
    const banner = await screen.findByTestId('chat-error');
    expect(banner).toHaveAttribute('data-kind', 'unreachable');
    expect(banner).toHaveTextContent('The provider could not be reached');
    expect(banner).toHaveTextContent('dial tcp 10.0.0.1:443: connection refused');
    expect(banner).toHaveTextContent('The answer so far is kept.');
    expect(screen.getByTestId('message-markdown')).toHaveTextContent('Half an ans');
    expect(screen.queryByTestId('chat-step')).toBeNull();
    await r.user.click(screen.getByTestId('chat-error-dismiss'));
    expect(screen.queryByTestId('chat-error')).toBeNull();
  });

  it('regenerates the last answer', async () => {
    const r = await openChat();
    const t = await sendText(r, 'Question');
    t.reply('First answer');
    t.done();
    await waitFor(() => expect(screen.getByTestId('message-markdown')).toHaveTextContent('First answer'));
    await r.user.click(await screen.findByTestId('message-regenerate'));
    expect(r.fake.callsOf('chat.Regenerate')).toHaveLength(1);
    await waitFor(() => expect(screen.queryByTestId('message-assistant')).toBeNull());
    const t2 = r.fake.chat.turn();
    t2.reply('Second answer');
    t2.done();
    await waitFor(() => expect(screen.getByTestId('message-markdown')).toHaveTextContent('Second answer'));
    expect(screen.getAllByTestId('message-user')).toHaveLength(1);
    expect(screen.getAllByTestId('message-assistant')).toHaveLength(1);
  });

  it('edits a user message and sends it again; what came after it goes', async () => {
    const r = await openChat();
    const t = await sendText(r, 'Old question');
    t.reply('Old answer');
    t.done();
    await waitFor(() => expect(screen.getByTestId('message-markdown')).toHaveTextContent('Old answer'));
    const bubble = screen.getByTestId('message-user');
    await r.user.click(within(bubble).getByTestId('message-edit'));
    const input = screen.getByTestId('message-edit-input');
    await r.user.clear(input);
    await r.user.type(input, 'New question');
    await r.user.click(screen.getByTestId('message-edit-save'));
    const [conv, msg, text] = r.fake.callsOf('chat.EditAndResend')[0];
    expect(text).toBe('New question');
    expect(msg).toBe(Number(bubble.dataset.id));
    await waitFor(() => expect(screen.getByTestId('message-user')).toHaveTextContent('New question'));
    expect(screen.queryByText('Old answer')).toBeNull();
    const t2 = r.fake.chat.turn(conv as number);
    t2.reply('New answer');
    t2.done();
    await waitFor(() => expect(screen.getByTestId('message-markdown')).toHaveTextContent('New answer'));
  });
});

describe('Chat: tool calls', () => {
  it('runs a call with edited arguments and the chosen policy, then shows its result with images', async () => {
    const r = await openChat();
    const { t, id, card } = await withCall(r);
    expect(card).toHaveTextContent('everything › echo');
    expect(card).toHaveTextContent('Echoes back the input');
    expect(card).toHaveAttribute('data-destructive', 'false');
    expect(within(assistant()).getByTestId('tool-call-status')).toHaveTextContent('Waiting for approval');

    const field = within(within(card).getByTestId('schema-field-message')).getByRole('textbox');
    expect(field).toHaveValue('hi');
    await r.user.clear(field);
    await r.user.type(field, 'edited');
    await r.user.selectOptions(within(card).getByTestId('approval-policy'), 'conversation');
    await r.user.click(within(card).getByTestId('approval-run'));
    expect(r.fake.callsOf('chat.Approve')).toEqual([[id, { action: 'run', policy: 'conversation', arguments: { message: 'edited' } }]]);
    await waitFor(() => expect(screen.queryByTestId('approval-card')).toBeNull());
    const call = within(assistant()).getByTestId('tool-call');
    await waitFor(() => expect(call).toHaveAttribute('data-status', 'running'));
    expect(within(call).getByTestId('tool-call-elapsed')).toBeInTheDocument();

    t.updateCall('c1', {}, { progress: 1, total: 4, message: 'step 1 of 4' });
    expect(await within(call).findByTestId('tool-progress')).toHaveAttribute('data-mode', 'determinate');
    t.toolResult(
      'c1',
      { content: [{ type: 'text', text: 'Echo: edited' }, { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' }] },
      420,
    );
    await waitFor(() => expect(call).toHaveAttribute('data-status', 'done'));
    expect(within(call).getByTestId('tool-call-status')).toHaveTextContent('Done');
    expect(within(call).getByTestId('tool-call-duration')).toHaveTextContent('420 ms');
    await r.user.click(within(call).getByTestId('tool-call-toggle'));
    expect(within(call).getByTestId('tool-call-args')).toHaveTextContent('edited');
    expect(within(call).getByTestId('tool-call-approval')).toHaveTextContent('Allowed for this conversation');
    const items = within(within(call).getByTestId('tool-call-result')).getAllByTestId('result-content');
    expect(items.map((i) => i.dataset.type)).toEqual(['text', 'image']);
    expect(items[1].querySelector('img')).toHaveAttribute('src', 'data:image/png;base64,iVBORw0KGgo=');
    t.reply('Done.');
    t.done();
  });

  it('cancels a call: the model is told, the call shows declined', async () => {
    const r = await openChat();
    const { id, card } = await withCall(r);
    // The message was just sent: Run takes the focus (Enter would run).
    await waitFor(() => expect(within(card).getByTestId('approval-run')).toHaveFocus());
    await r.user.click(within(card).getByTestId('approval-cancel'));
    expect(r.fake.callsOf('chat.Approve')).toEqual([[id, { action: 'cancel', policy: 'once' }]]);
    const call = within(assistant()).getByTestId('tool-call');
    await waitFor(() => expect(call).toHaveAttribute('data-status', 'declined'));
    expect(within(call).getByTestId('tool-call-status')).toHaveTextContent('Declined');
  });

  it('highlights destructive tools and can block them for good', async () => {
    const r = await openChat();
    const { id, card } = await withCall(r, { annotations: { destructiveHint: true, title: 'Delete files' } });
    expect(card).toHaveAttribute('data-destructive', 'true');
    expect(within(card).getByTestId('approval-destructive')).toHaveTextContent('may change or delete data');
    expect(within(card).getByTestId('tool-badge-destructive')).toBeInTheDocument();
    expect(card).toHaveTextContent('Delete files');
    await r.user.selectOptions(within(card).getByTestId('approval-policy'), 'never');
    expect(within(card).getByTestId('approval-run')).toBeDisabled();
    await r.user.click(within(card).getByTestId('approval-cancel'));
    expect(r.fake.callsOf('chat.Approve')).toEqual([[id, { action: 'cancel', policy: 'never' }]]);
  });

  it('stacks parallel approvals; Enter in a card runs that one', async () => {
    const r = await openChat();
    const t = await sendText(r, 'Two calls');
    t.assistant();
    t.toolCall({ id: 'a', server: 'everything', tool: 'echo', args: { message: 'one' } });
    t.toolCall({ id: 'b', server: 'everything', tool: 'add', args: { a: 1, b: 2 } });
    t.finish();
    const schema = { type: 'object', properties: { message: { type: 'string' } } };
    const ida = t.askApproval('a', { inputSchema: schema });
    const idb = t.askApproval('b', { inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } } });
    await waitFor(() => expect(screen.getAllByTestId('approval-card')).toHaveLength(2));
    const [first, second] = screen.getAllByTestId('approval-card');
    expect(screen.getByTestId('chat-status')).toHaveTextContent('2 tool calls wait for your approval');
    await r.user.click(within(within(second).getByTestId('schema-field-a')).getByRole('spinbutton'));
    await r.user.keyboard('{Enter}');
    await waitFor(() => expect(r.fake.callsOf('chat.Approve')).toEqual([[idb, { action: 'run', policy: 'once' }]]));
    await waitFor(() => expect(screen.getAllByTestId('approval-card')).toHaveLength(1));
    await r.user.click(within(first).getByTestId('approval-run'));
    expect(r.fake.callsOf('chat.Approve')[1]).toEqual([ida, { action: 'run', policy: 'once' }]);
  });

  it('answered from the keyboard, a card hands the focus to the next card, then to the composer (issue 12, point 15)', async () => {
    const r = await openChat();
    const t = await sendText(r, 'Two calls');
    t.assistant();
    t.toolCall({ id: 'a', server: 'everything', tool: 'echo', args: { message: 'one' } });
    t.toolCall({ id: 'b', server: 'everything', tool: 'echo', args: { message: 'two' } });
    t.finish();
    const schema = { type: 'object', properties: { message: { type: 'string' } } };
    t.askApproval('a', { inputSchema: schema });
    t.askApproval('b', { inputSchema: schema });
    await waitFor(() => expect(screen.getAllByTestId('approval-card')).toHaveLength(2));
    const [first, second] = screen.getAllByTestId('approval-card');
    await waitFor(() => expect(within(first).getByTestId('approval-run')).toHaveFocus());
    await r.user.keyboard('{Enter}');
    await waitFor(() => expect(screen.getAllByTestId('approval-card')).toHaveLength(1));
    await waitFor(() => expect(within(second).getByTestId('approval-run')).toHaveFocus());
    await r.user.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByTestId('approval-card')).toBeNull());
    await waitFor(() => expect(screen.getByTestId('composer-input')).toHaveFocus());
  });

  it('offers Retry on a failed call', async () => {
    const r = await openChat();
    const { t, id, card } = await withCall(r);
    await r.user.click(within(card).getByTestId('approval-run'));
    expect(r.fake.callsOf('chat.Approve')[0][0]).toBe(id);
    t.fail('c1', 'tool call timed out after 60 s');
    t.reply('The tool timed out.');
    t.done();
    const call = within(screen.getAllByTestId('message-assistant')[0]).getByTestId('tool-call');
    await waitFor(() => expect(call).toHaveAttribute('data-status', 'error'));
    expect(within(call).getByTestId('tool-call-error')).toHaveTextContent('timed out after 60 s');
    await r.user.click(await within(call).findByTestId('tool-call-retry'));
    const [conv, msg, callId] = r.fake.callsOf('chat.RetryToolCall')[0];
    expect([msg, callId]).toEqual([Number(screen.getAllByTestId('message-assistant')[0].dataset.id), 'c1']);
    await waitFor(() => expect(call).toHaveAttribute('data-status', 'running'));
    // What followed the reply is replaced by the continued turn.
    await waitFor(() => expect(screen.queryByText('The tool timed out.')).toBeNull());
    r.fake.chat.turn(conv as number).done();
  });

  it('answers sampling requests: approve with edits, reject', async () => {
    const r = await openChat();
    const t = await sendText(r, 'Sample');
    const s1 = t.sample('everything', {
      messages: [{ role: 'user', content: { type: 'text', text: 'Summarise this' } }],
      systemPrompt: 'Be brief',
      maxTokens: 100,
    });
    const card = await screen.findByTestId('sampling-card');
    expect(card).toHaveTextContent('everything asks the model for a reply');
    expect(card).toHaveTextContent('Answered by OpenAI · gpt-4o');
    expect(card).not.toHaveTextContent('openai/');
    expect(within(card).getByTestId('sampling-system')).toHaveValue('Be brief');
    const text = within(card).getByTestId('sampling-message');
    await r.user.clear(text);
    await r.user.type(text, 'Summarise briefly');
    await r.user.click(within(card).getByTestId('sampling-approve'));
    expect(r.fake.callsOf('chat.AnswerSampling')[0]).toEqual([
      s1,
      {
        approve: true,
        request: {
          messages: [{ role: 'user', content: { type: 'text', text: 'Summarise briefly' } }],
          systemPrompt: 'Be brief',
          maxTokens: 100,
        },
      },
    ]);
    await waitFor(() => expect(screen.queryByTestId('sampling-card')).toBeNull());
    const s2 = t.sample('everything', { messages: [], maxTokens: 10 });
    await r.user.click(await screen.findByTestId('sampling-reject'));
    expect(r.fake.callsOf('chat.AnswerSampling')[1]).toEqual([s2, { approve: false }]);
    t.done();
  });
});

describe('Chat: sampling outside the conversation on screen', () => {
  it('opens a dialog wherever the user is; closing it rejects', async () => {
    const r = renderApp({ providers: PROVIDERS });
    await screen.findByTestId('nav-servers');
    const req = { id: 's0', conversationId: 0, server: 'everything', request: { messages: [{ role: 'user', content: { type: 'text', text: 'Hi' } }], maxTokens: 5 }, model: 'openai/gpt-4o' };
    r.fake.chat.sampling.set('s0', req);
    expect(screen.queryByTestId('nav-chat-waiting')).toBeNull();
    r.fake.emit('chat:sampling', req);
    // The Chat item in the rail counts what waits for the user.
    expect(await screen.findByTestId('nav-chat-waiting')).toHaveTextContent('1');
    const dlg = await screen.findByTestId('sampling-dialog');
    expect(within(dlg).getByTestId('sampling-card')).toHaveTextContent('everything asks the model for a reply');
    await r.user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByTestId('sampling-dialog')).toBeNull());
    await waitFor(() => expect(screen.queryByTestId('nav-chat-waiting')).toBeNull());
    expect(r.fake.callsOf('chat.AnswerSampling')).toEqual([['s0', { approve: false }]]);
  });
});

describe('Chat: conversations', () => {
  const seeded: FakeOptions['chat'] = {
    conversations: [
      {
        conversation: { id: 1, title: 'Fruit', updatedAt: '2026-01-03T10:00:00Z' },
        messages: [
          { id: 11, role: 'user', content: 'Tell me about bananas' },
          { id: 12, role: 'assistant', content: 'A banana is a long yellow fruit.', usage: USAGE },
        ],
      },
      {
        conversation: { id: 2, title: 'Weather', updatedAt: '2026-01-04T10:00:00Z' },
        messages: [{ id: 21, role: 'user', content: 'Is it raining?' }],
      },
    ],
  };

  it('lists conversations; search hits show highlighted snippets and open the conversation at the message', async () => {
    const r = await openChat({ chat: seeded });
    const list = await screen.findByTestId('chat-list');
    await waitFor(() => expect(within(list).getAllByTestId('chat-conversation-title').map((e) => e.textContent)).toEqual(['Weather', 'Fruit']));
    expect(screen.getByTestId('chat-conversation-1')).toHaveTextContent('A banana is a long yellow fruit.');
    await r.user.type(screen.getByTestId('chat-search'), 'banana');
    const hits = await screen.findAllByTestId('chat-search-hit');
    expect(hits).toHaveLength(2);
    expect(hits[1].querySelector('mark')).toHaveTextContent('banana');
    expect(hits[1]).toHaveTextContent('Fruit');
    // An answer with one version says nothing about versions.
    expect(screen.queryByTestId('chat-search-hit-version')).toBeNull();
    await r.user.click(hits[1]);
    await waitFor(() => expect(screen.getByTestId('chat-title')).toHaveTextContent('Fruit'));
    expect(r.fake.callsOf('chat.Conversation')).toEqual([[1]]);
    const msg = await screen.findByTestId('message-assistant');
    await waitFor(() => expect(msg).toHaveClass('flash'));
    expect(screen.getByTestId('chat-usage-total')).toHaveTextContent('1,234 tokens in total');
    // Esc in the search box goes back to the list.
    await r.user.click(screen.getByTestId('chat-search'));
    await r.user.keyboard('{Escape}');
    expect(await screen.findByTestId('chat-list')).toBeInTheDocument();
  });

  it('renames inline and deletes after confirming', async () => {
    const r = await openChat({ chat: seeded });
    const row = await screen.findByTestId('chat-conversation-1');
    await r.user.click(within(row).getByTestId('chat-rename'));
    const input = screen.getByTestId('chat-rename-input');
    await r.user.clear(input);
    await r.user.type(input, 'Bananas{Enter}');
    expect(r.fake.callsOf('chat.Rename')).toEqual([[1, 'Bananas']]);
    await waitFor(() => expect(within(screen.getByTestId('chat-conversation-1')).getByTestId('chat-conversation-title')).toHaveTextContent('Bananas'));

    await r.user.click(within(screen.getByTestId('chat-conversation-2')).getByTestId('chat-conversation-title'));
    await waitFor(() => expect(screen.getByTestId('chat-title')).toHaveTextContent('Weather'));
    await r.user.click(within(screen.getByTestId('chat-conversation-2')).getByTestId('chat-delete'));
    expect(screen.getByTestId('confirm-dialog')).toHaveTextContent('“Weather” and all its messages will be deleted');
    await r.user.click(screen.getByTestId('confirm-ok'));
    await waitFor(() => expect(screen.queryByTestId('chat-conversation-2')).toBeNull());
    expect(r.fake.callsOf('chat.Delete')).toEqual([[2]]);
    // The open conversation was deleted: a new chat shows.
    expect(screen.getByTestId('chat-title')).toHaveTextContent('New chat');
  });

  it('exports to Markdown and JSON files and copies as Markdown', async () => {
    const r = await openChat({ chat: seeded });
    await r.user.click(await screen.findByText('Fruit'));
    await waitFor(() => expect(screen.getByTestId('chat-title')).toHaveTextContent('Fruit'));
    await r.user.click(screen.getByTestId('chat-export'));
    await r.user.click(screen.getByTestId('chat-export-md'));
    expect(r.fake.callsOf('chat.SaveExport')).toEqual([[1, 'md']]);
    expect(await screen.findByText('Saved to /home/dev/Documents/Fruit.md')).toBeInTheDocument();
    await r.user.click(screen.getByTestId('chat-export'));
    await r.user.click(screen.getByTestId('chat-export-json'));
    expect(r.fake.callsOf('chat.SaveExport')[1]).toEqual([1, 'json']);
    await r.user.click(screen.getByTestId('chat-export'));
    await r.user.click(screen.getByTestId('chat-copy-md'));
    await waitFor(() => expect(r.fake.copied.at(-1)).toMatch(/^# Fruit\n/));
    // Cancelling the save dialog says nothing.
    r.fake.chat.exportPath = '';
    await r.user.click(screen.getByTestId('chat-export'));
    await r.user.click(screen.getByTestId('chat-export-md'));
    await waitFor(() => expect(r.fake.callsOf('chat.SaveExport')).toHaveLength(3));
    expect(screen.getAllByTestId('toast').filter((t) => t.textContent?.includes('Saved to'))).toHaveLength(2);
  });

  it('saves the model, tools and settings of a conversation', async () => {
    const r = await openChat({
      chat: seeded,
      servers: [{ id: 'everything', type: 'stdio', command: 'npx', args: [], env: [], cwd: '', url: '', headers: [], auth: '', oauth: [], enabled: true, timeoutMs: 0, maxConcurrency: 0, maxMessageBytes: 0, protocolVersion: '' }],
    });
    r.fake.chat.tools = [{ name: 'everything__echo', server: 'everything', tool: 'echo', title: '', description: 'Echo', annotations: {} }];
    await r.user.click(await screen.findByText('Fruit'));
    await waitFor(() => expect(screen.getByTestId('chat-title')).toHaveTextContent('Fruit'));
    await r.user.selectOptions(screen.getByTestId('model-picker'), 'openai\ngpt-4o-mini');
    await waitFor(() => expect(r.fake.callsOf('chat.UpdateSettings').at(-1)?.[1]).toMatchObject({ provider: 'openai', model: 'gpt-4o-mini' }));

    await r.user.click(screen.getByTestId('tools-picker'));
    // What the tools cost each call, and with tool search.
    const cost = await screen.findByTestId('tools-picker-cost');
    expect(cost).toHaveTextContent(/^\d+ tools?: ≈[\d,]+ tokens of definitions each model call\. With tool search \(Settings → Chat\): ≈120 tokens\.$/);
    const server = await screen.findByTestId('tools-picker-server-everything');
    await r.user.click(await within(server).findByTestId('tools-picker-expand-everything'));
    await r.user.click(await screen.findByTestId('tools-picker-tool-everything-echo'));
    await waitFor(() =>
      expect(r.fake.callsOf('chat.UpdateSettings').at(-1)?.[1]).toMatchObject({ servers: null, tools: { everything: { disabled: ['echo'] } } }),
    );
    await r.user.click(screen.getByTestId('tools-picker-all'));
    await waitFor(() => expect(r.fake.callsOf('chat.UpdateSettings').at(-1)?.[1]).toMatchObject({ servers: [] }));
    expect(screen.getByTestId('tools-picker')).toHaveTextContent('No tools');
    await r.user.keyboard('{Escape}');

    await r.user.click(screen.getByTestId('chat-settings'));
    await r.user.type(screen.getByTestId('chat-settings-system'), 'Answer in French.');
    await r.user.click(screen.getByTestId('chat-settings-default-temp'));
    await r.user.click(screen.getByTestId('chat-settings-save'));
    await waitFor(() =>
      expect(r.fake.callsOf('chat.UpdateSettings').at(-1)?.[1]).toMatchObject({ systemPrompt: 'Answer in French.', temperature: 1 }),
    );
  });
});

describe('Chat: prompts and resources (SPEC D8)', () => {
  it('"/" opens the prompts; one with arguments asks for them; a resource is attached as a block', async () => {
    const r = await openChat({
      servers: [{ spec: spec({ id: 'everything', command: 'npx' }), status: status({ id: 'everything', prompts: 1, resources: 1 }) }],
      prompts: { everything: [{ name: 'greet', description: 'Say hello', arguments: [{ name: 'name', required: true }] }] },
      resources: { everything: [{ uri: 'file:///readme.md', name: 'readme' }, { uri: 'file:///shots/chart.png', name: 'chart', mimeType: 'image/png' }] },
      readResult: (_server, uri) =>
        uri.endsWith('.png')
          ? { contents: [{ uri, mimeType: 'image/png', blob: btoa('\x89PNG fake bytes') }] }
          : { contents: [{ uri, mimeType: 'text/plain', text: `contents of ${uri}` }] },
    });
    await screen.findByTestId('chat-welcome');
    await r.user.click(screen.getByTestId('composer-input'));
    await r.user.keyboard('/');
    const search = await screen.findByTestId('chat-insert-search');
    await waitFor(() => expect(search).toHaveFocus());
    await waitFor(() => expect(screen.getAllByTestId('chat-insert-item')).toHaveLength(3));
    await r.user.keyboard('gre');
    expect(screen.getAllByTestId('chat-insert-item')).toHaveLength(1);
    await r.user.keyboard('{Enter}');
    await r.user.click(await screen.findByTestId('insert-prompt'));
    expect(screen.getByRole('alert')).toHaveTextContent('Fill in: name');
    await r.user.type(screen.getByTestId('insert-arg-name'), 'Ada');
    await r.user.click(screen.getByTestId('insert-prompt'));
    await waitFor(() => expect(screen.getByTestId('composer-input')).toHaveValue('greet {"name":"Ada"}'));
    expect(r.fake.callsOf('GetPrompt')).toEqual([['everything', 'greet', { name: 'Ada' }]]);

    await r.user.click(screen.getByTestId('chat-insert'));
    const items = await screen.findAllByTestId('chat-insert-item');
    await r.user.click(items.find((i) => i.dataset.kind === 'resource' && i.textContent?.includes('readme'))!);
    await waitFor(() =>
      expect(screen.getByTestId('composer-input')).toHaveValue(
        'greet {"name":"Ada"}\n\nContext from file:///readme.md:\n```\ncontents of file:///readme.md\n```\n',
      ),
    );

    // A binary resource goes with the message as an attached file.
    await r.user.click(screen.getByTestId('chat-insert'));
    const again = await screen.findAllByTestId('chat-insert-item');
    await r.user.click(again.find((i) => i.textContent?.includes('chart'))!);
    const chip = await within(screen.getByTestId('composer-attachments')).findByTestId('attachment');
    await waitFor(() => expect(chip).toHaveAttribute('data-status', 'ready'));
    expect(r.fake.callsOf('chat.AddAttachment')).toEqual([['chart.png', btoa('\x89PNG fake bytes').length]]);
  });
});

describe('Chat: empty states and language', () => {
  it('without a provider says how to add one, and that the inspector works without', async () => {
    const { user } = renderApp({});
    await go(user, 'chat');
    const empty = await screen.findByTestId('chat-no-provider');
    expect(empty).toHaveTextContent('Settings → Providers');
    expect(empty).toHaveTextContent('the Tools, Resources and Prompts screens work without one');
    expect(screen.getByTestId('composer-input')).toBeDisabled();
    await user.click(screen.getByTestId('chat-go-providers'));
    expect(screen.getByTestId('nav-settings')).toHaveAttribute('aria-current', 'page');
  });

  it('suggestions and text handed over from another screen fill the composer', async () => {
    const r = await openChat();
    await r.user.click(screen.getAllByTestId('chat-suggestion')[0]);
    expect(screen.getByTestId('composer-input')).toHaveValue('What tools do you have, and what can each of them do?');
    r.stores.chat.useInComposer('From a prompt');
    await waitFor(() =>
      expect(screen.getByTestId('composer-input')).toHaveValue('What tools do you have, and what can each of them do?\n\nFrom a prompt'),
    );
  });

  it('speaks Chinese', async () => {
    setLocale('zh-CN');
    const r = await openChat({ prefs: { theme: 'system', language: 'zh-CN' } });
    expect(screen.getByTestId('chat-welcome')).toHaveTextContent('有什么可以帮你？');
    expect(screen.getByTestId('composer-input')).toHaveAttribute('placeholder', '给模型发消息…');
    expect(screen.getByTestId('composer-send')).toHaveAttribute('aria-label', '发送');
    expect(screen.getByTestId('chat-new')).toHaveTextContent('新对话');
    const { card } = await withCall(r, { annotations: { destructiveHint: true } });
    expect(within(card).getByTestId('approval-run')).toHaveTextContent('运行');
    expect(within(card).getByTestId('approval-destructive')).toHaveTextContent('此工具可能修改或删除数据');
  });
});

describe('Chat: a 10,000-token reply', () => {
  it('streams every delta into the DOM while rendering markdown a few dozen times', async () => {
    const r = await openChat();
    await r.stores.chat.send('Write a lot');
    const t = r.fake.chat.turn();
    t.assistant();
    const before = renderStats.renders;
    const flushes = r.stores.chat.flushes;
    const N = 10_000;
    const BATCH = 250;
    let expected = '';
    let firstParagraph: Element | null = null;
    for (let i = 0; i < N; i += BATCH) {
      for (let j = i; j < i + BATCH; j++) {
        const d = (j + 1) % 500 === 0 ? `w${j}\n\n` : `w${j} `;
        expected += d;
        t.delta(d);
      }
      // One animation frame between bursts, as deltas arrive from Go.
      await new Promise((r) => setTimeout(r, 17));
      // A finished block is placed once: its nodes stay while the text grows.
      const p = screen.getByTestId('message-markdown').querySelector('p');
      if (i >= 1000 && p) {
        firstParagraph ??= p;
        expect(p).toBe(firstParagraph);
      }
    }
    t.finish();
    t.done();
    const md = screen.getByTestId('message-markdown');
    const norm = (s: string) => s.replace(/\s+/g, ' ').trim();
    await waitFor(() => expect(norm(md.textContent ?? '')).toBe(norm(expected)));
    expect(md.querySelectorAll('p')).toHaveLength(20);
    expect(md.querySelector('p')).toBe(firstParagraph);
    const renders = renderStats.renders - before;
    const applied = r.stores.chat.flushes - flushes;
    expect(applied).toBeLessThanOrEqual(N / BATCH + 2);
    expect(renders).toBeLessThan(N / 50);
  });
});

describe('Chat store', () => {
  it('keeps deltas that arrive before their message, and never loses text to a stale snapshot', async () => {
    const r = await openChat({ chat: { conversations: [{ conversation: { id: 5, title: 'x' } }] } });
    await r.stores.chat.open(5);
    r.fake.emit('chat:delta', { conversationId: 5, turnId: 't', messageId: 9, text: 'Hel' });
    r.stores.chat.flush();
    r.fake.emit('chat:message', { conversationId: 5, turnId: 't', message: chatMessage({ id: 9, seq: 1, conversationId: 5, role: 'assistant', status: 'streaming' }), seq: 1 });
    r.fake.emit('chat:delta', { conversationId: 5, turnId: 't', messageId: 9, text: 'lo' });
    r.stores.chat.flush();
    expect(r.stores.chat.messages.map((m) => m.content)).toEqual(['Hello']);
    r.fake.emit('chat:message', { conversationId: 5, turnId: 't', message: chatMessage({ id: 9, seq: 1, conversationId: 5, role: 'assistant', content: 'Hello!' }), seq: 2 });
    expect(r.stores.chat.messages.map((m) => [m.content, m.status])).toEqual([['Hello!', 'complete']]);
    // A delta delivered after the whole message is already in it.
    r.fake.emit('chat:delta', { conversationId: 5, turnId: 't', messageId: 9, text: '!' });
    r.stores.chat.flush();
    expect(r.stores.chat.messages.map((m) => m.content)).toEqual(['Hello!']);
  });

  it('keeps a reply that arrives before its user message, as events or before Send returns (they can cross on the way)', async () => {
    const r = await openChat({ chat: { conversations: [{ conversation: { id: 5, title: 'x' } }] } });
    await r.stores.chat.open(5);
    const shown = () => r.stores.chat.messages.map((m) => m.content);
    const msg = (id: number, role: 'user' | 'assistant' | 'tool', content: string) => chatMessage({ id, seq: id, conversationId: 5, role, content });
    // Sent user message, reply; delivered the other way round (Wails' dev server sends each event on a goroutine of its own).
    r.fake.emit('chat:message', { conversationId: 5, turnId: 't', message: msg(2, 'assistant', 'Hello!'), seq: 2 });
    r.fake.emit('chat:message', { conversationId: 5, turnId: 't', message: msg(1, 'user', 'Hi'), seq: 1 });
    expect(shown()).toEqual(['Hi', 'Hello!']);
    // A tool's result before the reply that called it.
    r.fake.emit('chat:message', { conversationId: 5, turnId: 't', message: msg(4, 'tool', 'result'), seq: 4 });
    r.fake.emit('chat:message', { conversationId: 5, turnId: 't', message: msg(3, 'assistant', 'Calling'), seq: 3 });
    expect(shown()).toEqual(['Hi', 'Hello!', 'Calling', 'result']);
    // The next turn's whole reply comes before Send's result, which brings the user message (its event lost).
    r.fake.chat.Send = async () => {
      r.fake.emit('chat:message', { conversationId: 5, turnId: 't2', message: msg(6, 'assistant', 'Fine.'), seq: 6 });
      return { turnId: 't2', userMessage: msg(5, 'user', 'How are you?') };
    };
    await r.stores.chat.send('How are you?');
    expect(shown()).toEqual(['Hi', 'Hello!', 'Calling', 'result', 'How are you?', 'Fine.']);
    // An answer announced at a place shown messages held, after them, still cuts them (a regenerate in another window).
    r.fake.emit('chat:message', { conversationId: 5, turnId: 't3', message: chatMessage({ id: 7, seq: 3, conversationId: 5, role: 'assistant', content: 'Again' }), seq: 7 });
    expect(shown()).toEqual(['Hi', 'Hello!', 'Again']);
  });

  it('a snapshot of the reply being written that arrives after the whole reply and chat:done does not revive it', async () => {
    const r = await openChat({ chat: { conversations: [{ conversation: { id: 5, title: 'x' } }] } });
    await r.stores.chat.open(5);
    const reply = (status: 'streaming' | 'complete', content: string) =>
      chatMessage({ id: 9, seq: 2, conversationId: 5, role: 'assistant', status, content });
    r.fake.emit('chat:message', { conversationId: 5, turnId: 't', message: reply('complete', 'Noted.'), seq: 3 });
    r.fake.emit('chat:done', { conversationId: 5, turnId: 't', reason: 'stop', steps: 1 });
    // Sent first, delivered last.
    r.fake.emit('chat:message', { conversationId: 5, turnId: 't', message: reply('streaming', ''), seq: 1 });
    r.fake.emit('chat:message', { conversationId: 5, turnId: 't', message: reply('streaming', 'Not'), seq: 2 });
    r.stores.chat.flush();
    expect(r.stores.chat.messages.map((m) => [m.content, m.status])).toEqual([['Noted.', 'complete']]);
  });

  it('applies tool-call events by their seq: one that arrives after newer news of its call is dropped, a retry is not', async () => {
    const r = await openChat({ chat: { conversations: [{ conversation: { id: 5, title: 'x' } }] } });
    await r.stores.chat.open(5);
    const call = (status: ToolCall['status']): ToolCall => ({ id: 'c1', name: 'everything__echo', server: 'everything', tool: 'echo', arguments: '{}', status });
    const reply = (status: Message['status'], c: ToolCall['status'], content = '') =>
      chatMessage({ id: 9, seq: 2, conversationId: 5, role: 'assistant', status, content, toolCalls: [call(c)] });
    const callEvent = (status: ToolCall['status'], seq: number) =>
      r.fake.emit('chat:tool-call', { conversationId: 5, turnId: 't', messageId: 9, call: call(status), seq });
    const shown = () => r.stores.chat.messages.find((m) => m.id === 9)?.toolCalls[0]?.status;

    r.fake.emit('chat:message', { conversationId: 5, turnId: 't', message: reply('streaming', 'pending'), seq: 1 });
    callEvent('running', 3);
    // A snapshot of the reply taken before the call ran, delivered after.
    r.fake.emit('chat:message', { conversationId: 5, turnId: 't', message: reply('streaming', 'pending', 'Let me'), seq: 2 });
    expect([shown(), r.stores.chat.messages.find((m) => m.id === 9)?.content]).toEqual(['running', 'Let me']);
    r.fake.emit('chat:message', { conversationId: 5, turnId: 't', message: reply('complete', 'error'), seq: 5 });
    callEvent('running', 4); // overtaken by the whole reply
    expect(shown()).toBe('error');

    // Retried: the call starts again, later than anything before.
    callEvent('pending', 6);
    callEvent('done', 8);
    callEvent('running', 7);
    expect(shown()).toBe('done');
  });
});
