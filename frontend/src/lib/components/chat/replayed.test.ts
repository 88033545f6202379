// The chat screen against what Go's engine really emits: each test plays a
// recording written by backend/chat/recordings_test.go (a real turn over a
// real database and real MCP servers) and drives the UI as the user did
// there. Where the fake's scripted turns and Go's sequences differ, these
// tests are the ones that tell.
import { screen, waitFor, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import { go, renderApp } from '../../../test/app';
import { replay, type Recording } from '../../../test/replay';
import type { FakeOptions } from '../../../test/fakes/fake';
import approvalCancel from '../../../test/recordings/approval-cancel.json';
import approvalRun from '../../../test/recordings/approval-run.json';
import authError from '../../../test/recordings/auth-error.json';
import elicitation from '../../../test/recordings/elicitation.json';
import maxSteps from '../../../test/recordings/max-steps.json';
import rateLimited from '../../../test/recordings/rate-limited.json';
import regenerate from '../../../test/recordings/regenerate.json';
import sampling from '../../../test/recordings/sampling.json';
import stop from '../../../test/recordings/stop.json';
import textTurn from '../../../test/recordings/text-turn.json';
import toolError from '../../../test/recordings/tool-error.json';

// The recordings name their provider "openai" (recordings_test.go).
const PROVIDERS: FakeOptions['providers'] = {
  providers: [{ id: 'openai', name: 'OpenAI', preset: 'openai', keyInKeychain: true }],
  defaultModel: { provider: 'openai', model: 'gpt-4o' },
};

/** start opens the chat, arms the recording and sends its first message as the user. */
async function start(rec: unknown) {
  const r = renderApp({ providers: PROVIDERS });
  const play = replay(r.fake, rec as Recording);
  await go(r.user, 'chat');
  await screen.findByTestId('chat-screen');
  await waitFor(() => expect(screen.getByTestId('model-picker')).toHaveValue('openai\ngpt-4o'));
  const first = (rec as Recording).steps[0] as { args: Array<{ text: string }> };
  await r.user.type(screen.getByTestId('composer-input'), first.args[0].text);
  await r.user.keyboard('{Enter}');
  return { ...r, play };
}

/** finished waits until every recorded step was played and nothing went wrong. */
async function finished(play: ReturnType<typeof replay>) {
  await waitFor(() => expect(play.problems).toEqual([]));
  await play.finished;
  expect(play.problems).toEqual([]);
  expect(play.remaining).toBe(0);
  // The turn is over: the composer can send again.
  expect(await screen.findByTestId('composer-send')).toBeInTheDocument();
}

const assistants = () => screen.getAllByTestId('message-assistant');

/** until waits until the recording stands at a call the UI must make. */
async function until(play: ReturnType<typeof replay>, call: string) {
  await waitFor(() => expect(play.next).toBe(call));
  expect(play.problems).toEqual([]);
}

describe('Chat replays Go’s recorded turns', () => {
  it('a streamed reply with reasoning and usage', async () => {
    const { play, user } = await start(textTurn);
    await finished(play);
    const [reply] = assistants();
    expect(within(reply).getByTestId('message-markdown')).toHaveTextContent('Hello from Go.');
    expect(within(reply).getByTestId('message-markdown').querySelector('strong')).toHaveTextContent('Go');
    // The thinking folds away once the answer came; it opens on a click.
    const thinking = within(reply).getByTestId('message-thinking');
    expect(thinking).not.toHaveTextContent('The user says hello.');
    await user.click(within(thinking).getByRole('button'));
    expect(thinking).toHaveTextContent('The user says hello.');
    expect(within(reply).getByTestId('message-usage')).toHaveTextContent('129 tokens');
    expect(within(reply).getByTestId('message-model')).toHaveTextContent(/^OpenAI · gpt-4o$/);
    expect(reply).toHaveAttribute('data-status', 'complete');
  });

  it('a tool call the user runs: the card goes, the call is done with its result, the answer follows', async () => {
    const { play, user } = await start(approvalRun);
    const card = await screen.findByTestId('approval-card');
    expect(card).toHaveTextContent('test › echo');
    await user.click(within(card).getByTestId('approval-run'));
    await finished(play);
    expect(screen.queryByTestId('approval-card')).toBeNull();
    const call = screen.getByTestId('tool-call');
    expect(call).toHaveAttribute('data-status', 'done');
    expect(within(call).getByTestId('tool-call-status')).toHaveTextContent('Done');
    await user.click(within(call).getByTestId('tool-call-toggle'));
    expect(within(call).getByTestId('tool-call-result')).toHaveTextContent('Echo: hi');
    const texts = assistants().map((m) => m.textContent ?? '');
    expect(texts.some((t) => t.includes('Let me echo it.'))).toBe(true);
    expect(texts.at(-1)).toContain('The tool said hi.');
  });

  it('a tool call the user cancels shows declined, and the model’s answer follows', async () => {
    const { play, user } = await start(approvalCancel);
    const card = await screen.findByTestId('approval-card');
    await user.click(within(card).getByTestId('approval-cancel'));
    await finished(play);
    const call = screen.getByTestId('tool-call');
    expect(call).toHaveAttribute('data-status', 'declined');
    expect(within(call).getByTestId('tool-call-status')).toHaveTextContent('Declined');
    expect(assistants().at(-1)).toHaveTextContent('Okay, I will not run it.');
  });

  it('a server’s two questions during a call are answered in the dialog, in turn', async () => {
    const { play, user } = await start(elicitation);
    await screen.findByTestId('elicitation-dialog');
    expect(screen.getByTestId('elicitation-message')).toHaveTextContent('Who is asking?');
    await user.type(within(screen.getByTestId('schema-field-name')).getByRole('textbox'), 'Ada');
    await user.click(screen.getByTestId('elicitation-accept'));
    await waitFor(() => expect(screen.getByTestId('elicitation-message')).toHaveTextContent('Are you sure?'));
    await user.click(screen.getByTestId('elicitation-accept'));
    await finished(play);
    expect(screen.queryByTestId('elicitation-dialog')).toBeNull();
    expect(screen.getByTestId('tool-call')).toHaveAttribute('data-status', 'done');
    expect(assistants().at(-1)).toHaveTextContent('Deployed.');
  });

  it('a server’s sampling request is approved on its card, and the turn goes on', async () => {
    const { play, user } = await start(sampling);
    const card = await screen.findByTestId('sampling-card');
    expect(card).toHaveTextContent('everything asks the model for a reply');
    expect(card).toHaveTextContent('Answered by OpenAI · gpt-4o');
    await user.click(within(card).getByTestId('sampling-approve'));
    await finished(play);
    expect(screen.queryByTestId('sampling-card')).toBeNull();
    expect(screen.getByTestId('tool-call')).toHaveAttribute('data-status', 'done');
    expect(assistants().at(-1)).toHaveTextContent('The server got its answer.');
  });

  it('a key the provider refuses: the reply is failed, the banner says why and offers Fix', async () => {
    const { play } = await start(authError);
    await finished(play);
    const banner = await screen.findByTestId('chat-error');
    expect(banner).toHaveAttribute('data-kind', 'auth');
    expect(banner).toHaveTextContent('rejected (401)');
    expect(within(banner).getByTestId('chat-error-fix')).toBeInTheDocument();
    expect(assistants().at(-1)).toHaveAttribute('data-status', 'error');
  });

  it('Stop keeps the partial reply, marked interrupted, and reports no error', async () => {
    const { play, user } = await start(stop);
    await waitFor(() => expect(assistants().at(-1)).toHaveTextContent('Hello'));
    await user.click(screen.getByTestId('composer-stop'));
    await finished(play);
    const reply = assistants().at(-1)!;
    expect(reply).toHaveAttribute('data-status', 'interrupted');
    expect(within(reply).getByTestId('message-status')).toHaveTextContent('interrupted');
    expect(screen.queryByTestId('chat-error')).toBeNull();
  });
  it('Regenerate shows the second version with ‹ 2 / 2 ›, and ‹ goes back to the first as Go returns it', async () => {
    const { play, user } = await start(regenerate);
    await waitFor(() => expect(assistants().at(-1)).toHaveTextContent('The first answer.'));
    // The recording waits at Regenerate: its steps after it are still to come.
    await until(play, 'Regenerate');
    expect(await screen.findByTestId('composer-send')).toBeInTheDocument();
    await user.click(screen.getByTestId('message-regenerate'));
    await waitFor(() => expect(assistants().at(-1)).toHaveTextContent('A second answer.'));
    await waitFor(() => expect(screen.getByTestId('answer-version-position')).toHaveTextContent('2 / 2'));
    expect(assistants()).toHaveLength(1);
    await user.click(screen.getByTestId('answer-version-previous'));
    await finished(play);
    await waitFor(() => expect(assistants().at(-1)).toHaveTextContent('The first answer.'));
    expect(screen.getByTestId('answer-version-position')).toHaveTextContent('1 / 2');
  });

  it('a rate-limited call is tried again and the answer comes, with no error left behind', async () => {
    const { play } = await start(rateLimited);
    await finished(play);
    expect(assistants().at(-1)).toHaveTextContent('Fine now.');
    expect(screen.queryByTestId('chat-error')).toBeNull();
    expect(screen.queryByTestId('chat-step')).toBeNull();
  });

  it('a failing tool shows its error and a Retry, and the model’s answer follows', async () => {
    const { play } = await start(toolError);
    await finished(play);
    const call = screen.getByTestId('tool-call');
    expect(call).toHaveAttribute('data-status', 'error');
    // A failed call opens by itself, with its error.
    expect(within(call).getByTestId('tool-call-error')).toHaveTextContent('this tool always fails');
    expect(within(call).getByTestId('tool-call-retry')).toBeInTheDocument();
    expect(assistants().at(-1)).toHaveTextContent('The tool failed, sorry.');
  });

  it('a turn the step limit stopped says so, instead of ending without a word', async () => {
    const { play } = await start(maxSteps);
    await finished(play);
    expect(screen.getAllByTestId('tool-call').map((c) => c.dataset.status)).toEqual(['done', 'done']);
    const note = screen.getByTestId('chat-step-limit');
    expect(note).toHaveTextContent('Stopped after 2 steps: the step limit of this conversation.');
    expect(note).toHaveAttribute('role', 'status');
  });
});
