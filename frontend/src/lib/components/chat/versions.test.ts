import { render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { go, renderApp } from '../../../test/app';
import type { FakeOptions } from '../../../test/fakes/fake';
import { setLocale } from '../../i18n';
import VersionSwitcher from './VersionSwitcher.svelte';

const PROVIDERS: FakeOptions['providers'] = {
  providers: [{ id: 'openai', name: 'OpenAI', preset: 'openai', keyInKeychain: true }],
  defaultModel: { provider: 'openai', model: 'gpt-4o' },
};

describe('VersionSwitcher', () => {
  const cases = [
    { selected: 1, total: 2, prev: false, next: true },
    { selected: 2, total: 2, prev: true, next: false },
    { selected: 2, total: 3, prev: true, next: true },
  ];
  for (const c of cases) {
    it(`shows ${c.selected} / ${c.total} and offers only the moves that exist`, () => {
      render(VersionSwitcher, { props: { selected: c.selected, total: c.total, group: 1, onselect: () => {} } });
      expect(screen.getByTestId('answer-version-position')).toHaveTextContent(`${c.selected} / ${c.total}`);
      expect(screen.getByTestId('answer-version-label')).toHaveTextContent(`Version ${c.selected} of ${c.total}`);
      expect(screen.getByTestId('answer-version-previous')).toHaveProperty('disabled', !c.prev);
      expect(screen.getByTestId('answer-version-next')).toHaveProperty('disabled', !c.next);
    });
  }

  it('works from the keyboard: Tab to a button, Enter or Space switches', async () => {
    const user = userEvent.setup();
    const onselect = vi.fn();
    render(VersionSwitcher, { props: { selected: 2, total: 3, group: 1, onselect } });
    await user.tab();
    expect(screen.getByTestId('answer-version-previous')).toHaveFocus();
    expect(screen.getByTestId('answer-version-previous')).toHaveAccessibleName('Previous version');
    await user.keyboard('{Enter}');
    await user.tab();
    expect(screen.getByTestId('answer-version-next')).toHaveFocus();
    await user.keyboard(' ');
    expect(onselect.mock.calls).toEqual([[1], [3]]);
    expect(screen.getByRole('group')).toHaveAccessibleName('Versions of this answer');
  });

  it('is disabled while a reply is written', () => {
    render(VersionSwitcher, { props: { selected: 2, total: 3, group: 1, disabled: true, onselect: () => {} } });
    expect(screen.getByTestId('answer-version-previous')).toBeDisabled();
    expect(screen.getByTestId('answer-version-next')).toBeDisabled();
  });

  it('speaks Chinese', () => {
    setLocale('zh-CN');
    render(VersionSwitcher, { props: { selected: 1, total: 2, group: 1, onselect: () => {} } });
    expect(screen.getByTestId('answer-version-previous')).toHaveAccessibleName('上一个版本');
    expect(screen.getByTestId('answer-version-next')).toHaveAccessibleName('下一个版本');
    expect(screen.getByTestId('answer-version-label')).toHaveTextContent('第 1 个版本，共 2 个');
  });
});

describe('Chat: answer versions', () => {
  const assistant = () => screen.getAllByTestId('message-assistant').at(-1)!;
  const position = () => within(assistant()).getByTestId('answer-version-position');

  it('regenerate keeps the first answer: ‹ › switch between them, Stop keeps a partial third', async () => {
    const r = renderApp({ providers: PROVIDERS });
    await go(r.user, 'chat');
    await waitFor(() => expect(screen.getByTestId('model-picker')).toHaveValue('openai\ngpt-4o'));
    await r.user.type(screen.getByTestId('composer-input'), 'Question');
    await r.user.keyboard('{Enter}');
    await waitFor(() => expect(r.fake.callsOf('chat.Send')).toHaveLength(1));
    const t = r.fake.chat.turn();
    t.reply('First answer');
    t.done();
    await waitFor(() => expect(screen.getByTestId('message-markdown')).toHaveTextContent('First answer'));
    // One version: no switcher.
    expect(screen.queryByTestId('answer-versions')).toBeNull();

    await r.user.click(screen.getByTestId('message-regenerate'));
    const t2 = r.fake.chat.turn();
    t2.reply('Second answer');
    t2.done();
    await waitFor(() => expect(screen.getByTestId('message-markdown')).toHaveTextContent('Second answer'));
    await waitFor(() => expect(position()).toHaveTextContent('2 / 2'));

    await r.user.click(within(assistant()).getByTestId('answer-version-previous'));
    await waitFor(() => expect(screen.getByTestId('message-markdown')).toHaveTextContent('First answer'));
    expect(position()).toHaveTextContent('1 / 2');
    expect(r.fake.callsOf('chat.SelectVersion').at(-1)?.slice(2)).toEqual([1]);
    expect(screen.getAllByTestId('message-assistant')).toHaveLength(1);

    await r.user.click(screen.getByTestId('message-regenerate'));
    const t3 = r.fake.chat.turn();
    t3.assistant();
    t3.delta('Half a');
    await waitFor(() => expect(screen.getByTestId('message-markdown')).toHaveTextContent('Half a'));
    await r.user.click(screen.getByTestId('composer-stop'));
    await waitFor(() => expect(assistant()).toHaveAttribute('data-status', 'interrupted'));
    await waitFor(() => expect(position()).toHaveTextContent('3 / 3'));
    expect(screen.getByTestId('message-markdown')).toHaveTextContent('Half a');

    // From the keyboard alone: focus stays on ‹ in the version shown next,
    // and moves to › where there is no version before.
    within(assistant()).getByTestId('answer-version-previous').focus();
    for (const [n, text, focused] of [
      [2, 'Second answer', 'answer-version-previous'],
      [1, 'First answer', 'answer-version-next'],
    ] as const) {
      await r.user.keyboard('{Enter}');
      await waitFor(() => expect(screen.getByTestId('message-markdown')).toHaveTextContent(text));
      expect(position()).toHaveTextContent(`${n} / 3`);
      await waitFor(() => expect(within(assistant()).getByTestId(focused)).toHaveFocus());
    }
  }, 30000);

  it('from the keyboard, Regenerate hands the focus to the composer, and Stop leaves it there (issue 12, point 15)', async () => {
    const r = renderApp({ providers: PROVIDERS });
    await go(r.user, 'chat');
    await waitFor(() => expect(screen.getByTestId('model-picker')).toHaveValue('openai\ngpt-4o'));
    await r.user.type(screen.getByTestId('composer-input'), 'Question');
    await r.user.keyboard('{Enter}');
    await waitFor(() => expect(r.fake.callsOf('chat.Send')).toHaveLength(1));
    const t = r.fake.chat.turn();
    t.reply('First answer');
    t.done();
    await waitFor(() => expect(screen.getByTestId('message-markdown')).toHaveTextContent('First answer'));
    screen.getByTestId('message-regenerate').focus();
    await r.user.keyboard('{Enter}');
    await waitFor(() => expect(r.fake.callsOf('chat.Regenerate')).toHaveLength(1));
    expect(screen.getByTestId('composer-input')).toHaveFocus();
    const t2 = r.fake.chat.turn();
    t2.assistant();
    t2.delta('Half a');
    await waitFor(() => expect(screen.getByTestId('message-markdown')).toHaveTextContent('Half a'));
    // Stop from its button: when it turns back into Send the focus is in the text.
    screen.getByTestId('composer-stop').focus();
    await r.user.keyboard('{Enter}');
    await waitFor(() => expect(assistant()).toHaveAttribute('data-status', 'interrupted'));
    await waitFor(() => expect(screen.getByTestId('composer-input')).toHaveFocus());
  }, 30000);

  it('a version that failed before it wrote anything still offers the way back', async () => {
    const r = renderApp({ providers: PROVIDERS });
    await go(r.user, 'chat');
    await waitFor(() => expect(screen.getByTestId('model-picker')).toHaveValue('openai\ngpt-4o'));
    await r.user.type(screen.getByTestId('composer-input'), 'Question');
    await r.user.keyboard('{Enter}');
    await waitFor(() => expect(r.fake.callsOf('chat.Send')).toHaveLength(1));
    const t = r.fake.chat.turn();
    t.reply('First answer');
    t.done();
    await waitFor(() => expect(screen.getByTestId('message-markdown')).toHaveTextContent('First answer'));
    await r.user.click(screen.getByTestId('message-regenerate'));
    r.fake.chat.turn().done('error');
    await waitFor(() => expect(screen.getByTestId('answer-version-position')).toHaveTextContent('2 / 2'));
    expect(screen.queryByTestId('message-assistant')).toBeNull();
    await r.user.click(screen.getByTestId('answer-version-previous'));
    await waitFor(() => expect(screen.getByTestId('message-markdown')).toHaveTextContent('First answer'));
    expect(screen.getByTestId('answer-version-position')).toHaveTextContent('1 / 2');
  }, 30000);
});
