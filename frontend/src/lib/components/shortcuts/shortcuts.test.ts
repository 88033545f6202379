import { screen, waitFor, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import { go, renderApp } from '../../../test/app';
import type { FakeOptions } from '../../../test/fakes/fake';
import { SHORTCUTS, chordLabel, chordMatches, isMac, isTyping, keyCaps, match, worksWhileTyping } from '../../util/shortcuts';

const PROVIDERS: FakeOptions['providers'] = {
  providers: [{ id: 'openai', name: 'OpenAI', preset: 'openai', keyInKeychain: true }],
  defaultModel: { provider: 'openai', model: 'gpt-4o' },
};

const CHATS: FakeOptions['chat'] = {
  conversations: [
    {
      conversation: { id: 1, title: 'Fruit', updatedAt: '2026-01-03T10:00:00Z' },
      messages: [
        { id: 11, role: 'user', content: 'Tell me about bananas' },
        { id: 12, role: 'assistant', content: 'A banana is a long yellow fruit.' },
      ],
    },
  ],
};

const key = (k: string, o: KeyboardEventInit = {}) => new KeyboardEvent('keydown', { key: k, ...o });

describe('the key map', () => {
  it('matches chords with Ctrl or ⌘, and nothing else', () => {
    expect(match(key('n', { ctrlKey: true }))?.shortcut.id).toBe('newChat');
    expect(match(key('n', { metaKey: true }))?.shortcut.id).toBe('newChat');
    expect(match(key('N', { ctrlKey: true, shiftKey: true }))).toBeNull();
    expect(match(key('n', { ctrlKey: true, altKey: true }))).toBeNull();
    expect(match(key('n'))).toBeNull();
    expect(match(key('k', { ctrlKey: true }))?.shortcut.id).toBe('search');
    expect(match(key('F', { ctrlKey: true, shiftKey: true }))?.shortcut.id).toBe('search');
    expect(match(key('j', { ctrlKey: true }))?.shortcut.id).toBe('toggleLogger');
    expect(match(key(',', { ctrlKey: true }))?.shortcut.id).toBe('settings');
    expect(match(key('Escape'))?.shortcut.id).toBe('stop');
    // ? needs Shift on some layouts and not on others.
    expect(match(key('?', { shiftKey: true }))?.shortcut.id).toBe('help');
    expect(match(key('?'))?.shortcut.id).toBe('help');
    expect(match(key('F1'))?.shortcut.id).toBe('help');
    expect(match(key('/', { ctrlKey: true }))?.shortcut.id).toBe('help');
    expect(match(key('/'))).toBeNull();
    // The composer's keys are its own.
    expect(match(key('Enter'))).toBeNull();
  });

  it('finds letters by their position on non-Latin layouts', () => {
    expect(chordMatches(key('т', { ctrlKey: true, code: 'KeyN' }), { key: 'n', mod: true })).toBe(true);
    expect(chordMatches(key('b', { ctrlKey: true, code: 'KeyN' }), { key: 'n', mod: true })).toBe(false);
  });

  it('lets Ctrl/⌘ chords and F keys act while typing, not ? or Esc', () => {
    expect(worksWhileTyping({ key: 'n', mod: true })).toBe(true);
    expect(worksWhileTyping({ key: 'F1' })).toBe(true);
    expect(worksWhileTyping({ key: '?' })).toBe(false);
    expect(worksWhileTyping({ key: 'Escape' })).toBe(false);
    const input = document.createElement('input');
    expect(isTyping(input)).toBe(true);
    input.type = 'checkbox';
    expect(isTyping(input)).toBe(false);
    expect(isTyping(document.createElement('textarea'))).toBe(true);
    expect(isTyping(document.createElement('button'))).toBe(false);
  });

  it('writes keys as the platform does', () => {
    expect(isMac('MacIntel')).toBe(true);
    expect(isMac('Linux x86_64')).toBe(false);
    expect(keyCaps({ key: 'f', mod: true, shift: true }, false)).toEqual(['Ctrl', 'Shift', 'F']);
    expect(keyCaps({ key: 'f', mod: true, shift: true }, true)).toEqual(['⌘', '⇧', 'F']);
    expect(chordLabel({ key: ',', mod: true }, false)).toBe('Ctrl+,');
    expect(chordLabel({ key: ',', mod: true }, true)).toBe('⌘,');
    expect(chordLabel({ key: 'Escape' }, false)).toBe('Esc');
    expect(chordLabel({ key: 'Enter', shift: true }, false)).toBe('Shift+Enter');
  });
});

describe('Keyboard shortcuts (SPEC F5)', () => {
  it('Ctrl+N starts a new chat from anywhere, clearing the composer', async () => {
    const r = renderApp({ providers: PROVIDERS, chat: CHATS });
    await go(r.user, 'chat');
    await r.user.click(within(await screen.findByTestId('chat-conversation-1')).getByTestId('chat-conversation-open'));
    await waitFor(() => expect(screen.getByTestId('chat-title')).toHaveTextContent('Fruit'));
    await r.user.type(screen.getByTestId('composer-input'), 'half a thought');

    await r.user.keyboard('{Control>}n{/Control}');
    await waitFor(() => expect(screen.getByTestId('chat-title')).toHaveTextContent('New chat'));
    expect(screen.getByTestId('composer-input')).toHaveValue('');
    expect(screen.getByTestId('composer-input')).toHaveFocus();

    await go(r.user, 'servers');
    await r.user.keyboard('{Control>}n{/Control}');
    expect(await screen.findByTestId('chat-screen')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('composer-input')).toHaveFocus());
  });

  it('Ctrl+K and Ctrl+Shift+F go to the chat and search the conversations', async () => {
    const r = renderApp({ providers: PROVIDERS, chat: CHATS });
    await screen.findByTestId('servers-empty');
    await r.user.keyboard('{Control>}k{/Control}');
    await waitFor(() => expect(screen.getByTestId('chat-search')).toHaveFocus());

    await r.user.click(screen.getByTestId('composer-input'));
    await r.user.keyboard('{Control>}{Shift>}F{/Shift}{/Control}');
    expect(screen.getByTestId('chat-search')).toHaveFocus();
  });

  it('Ctrl+J toggles the logger, even while typing', async () => {
    const r = renderApp({ providers: PROVIDERS });
    await go(r.user, 'chat');
    await r.user.click(await screen.findByTestId('composer-input'));
    await r.user.keyboard('{Control>}j{/Control}');
    expect(screen.getByTestId('logger-toggle')).toHaveAttribute('aria-pressed', 'true');
    await r.user.keyboard('{Meta>}j{/Meta}');
    expect(screen.getByTestId('logger-toggle')).toHaveAttribute('aria-pressed', 'false');
  });

  it('Ctrl+, opens Settings', async () => {
    const r = renderApp();
    await screen.findByTestId('servers-empty');
    await r.user.keyboard('{Control>},{/Control}');
    expect(screen.getByTestId('nav-settings')).toHaveAttribute('aria-current', 'page');
  });

  it('Esc stops a streaming reply wherever the focus is, and does nothing otherwise', async () => {
    const r = renderApp({ providers: PROVIDERS });
    await go(r.user, 'chat');
    await waitFor(() => expect(screen.getByTestId('model-picker')).toHaveValue('openai\ngpt-4o'));
    await r.user.keyboard('{Escape}');
    expect(r.fake.callsOf('chat.Stop')).toEqual([]);

    await r.user.type(screen.getByTestId('composer-input'), 'Write a lot');
    await r.user.keyboard('{Enter}');
    await waitFor(() => expect(r.fake.callsOf('chat.Send')).toHaveLength(1));
    const t = r.fake.chat.turn();
    t.assistant();
    t.delta('Partial answer');
    await screen.findByTestId('composer-stop');
    // Focus outside the composer (the composer handles Esc itself).
    await r.user.click(screen.getByTestId('chat-header'));
    await r.user.keyboard('{Escape}');
    await waitFor(() => expect(r.fake.callsOf('chat.Stop')).toHaveLength(1));
  });

  it('Enter sends and Shift+Enter breaks the line in the composer, as the list says', async () => {
    const r = renderApp({ providers: PROVIDERS });
    await go(r.user, 'chat');
    await waitFor(() => expect(screen.getByTestId('model-picker')).toHaveValue('openai\ngpt-4o'));
    const input = screen.getByTestId('composer-input');
    await r.user.type(input, 'one{Shift>}{Enter}{/Shift}two');
    expect(input).toHaveValue('one\ntwo');
    expect(r.fake.callsOf('chat.Send')).toEqual([]);
    await r.user.keyboard('{Enter}');
    await waitFor(() => expect(r.fake.callsOf('chat.Send')).toHaveLength(1));
  });

  it('? F1 and Ctrl+/ open the list; Esc closes it; ? is typed in a text field', async () => {
    const r = renderApp({ providers: PROVIDERS });
    await screen.findByTestId('servers-empty');
    await r.user.keyboard('?');
    const overlay = await screen.findByTestId('shortcuts-overlay');
    expect(overlay).toHaveTextContent('Keyboard shortcuts');
    await r.user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByTestId('shortcuts-overlay')).toBeNull());

    await r.user.keyboard('{F1}');
    await screen.findByTestId('shortcuts-overlay');
    await r.user.keyboard('?');
    await waitFor(() => expect(screen.queryByTestId('shortcuts-overlay')).toBeNull());

    await go(r.user, 'chat');
    const input = await screen.findByTestId('composer-input');
    await r.user.type(input, 'why?');
    expect(input).toHaveValue('why?');
    expect(screen.queryByTestId('shortcuts-overlay')).toBeNull();
    await r.user.keyboard('{Control>}/{/Control}');
    expect(await screen.findByTestId('shortcuts-overlay')).toBeInTheDocument();
  });

  it('lists every shortcut of the key map, with Ctrl off the Mac', async () => {
    const r = renderApp();
    await screen.findByTestId('servers-empty');
    await r.user.click(screen.getByTestId('nav-shortcuts'));
    const overlay = within(await screen.findByTestId('shortcuts-overlay'));
    for (const s of SHORTCUTS) {
      const row = overlay.getByTestId(`shortcut-${s.id}`);
      expect(row).toHaveAttribute('data-keys', s.chords.map((c) => chordLabel(c, false)).join(' '));
    }
    expect(overlay.getByTestId('shortcut-search')).toHaveTextContent('Search conversations');
    expect(overlay.getByTestId('shortcut-search')).toHaveTextContent('Ctrl+K');
    expect(overlay.getByTestId('shortcut-search')).toHaveTextContent('Ctrl+Shift+F');
    expect(overlay.getByTestId('shortcut-stop')).toHaveTextContent('while a reply is being written');
    expect(overlay.getByTestId('shortcut-help')).toHaveTextContent('F1');
  });

  it('waits while a dialog is open', async () => {
    const r = renderApp({ firstRun: true });
    await screen.findByTestId('welcome');
    await r.user.keyboard('{Control>},{/Control}');
    await r.user.keyboard('{F1}');
    expect(screen.getByTestId('nav-servers')).toHaveAttribute('aria-current', 'page');
    expect(screen.queryByTestId('shortcuts-overlay')).toBeNull();
  });

  it('opens from Settings too', async () => {
    const r = renderApp();
    await go(r.user, 'settings');
    await r.user.click(await screen.findByTestId('settings-shortcuts'));
    expect(await screen.findByTestId('shortcuts-overlay')).toBeInTheDocument();
  });
});
