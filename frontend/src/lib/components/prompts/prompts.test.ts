import { render, screen, waitFor, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import type { Content, GetPromptResult, Prompt } from '../../api';
import { spec, status, type FakeOptions } from '../../../test/fakes/fake';
import { go, renderApp } from '../../../test/app';
import { STORES_KEY, createStores } from '../../state/context';
import MessageContent from './MessageContent.svelte';

const PROMPTS: Prompt[] = [
  { name: 'simple', description: 'A prompt without arguments' },
  {
    name: 'review',
    title: 'Code review',
    description: 'Reviews a diff for bugs',
    arguments: [
      { name: 'code', description: 'The diff to review', required: true },
      { name: 'language', title: 'Language', description: 'e.g. Go' },
      { name: 'focus', required: true },
    ],
  },
  { name: 'summarise', description: 'Summarises a document' },
];

function review(_server: string, name: string, args: Record<string, string>): GetPromptResult {
  return {
    description: `Review of ${args.language ?? 'some'} code`,
    messages: [
      { role: 'user', content: { type: 'text', text: `Please review:\n\n\`\`\`\n${args.code}\n\`\`\`` } },
      { role: 'assistant', content: { type: 'text', text: `**Sure.** Looking at ${name} <script>alert(1)</script>` } },
      { role: 'user', content: { type: 'resource', resource: { uri: 'file:///a.go', mimeType: 'text/x-go', text: 'package a' } } },
    ],
  };
}

function setup(o: FakeOptions = {}) {
  return renderApp({ servers: [spec({ id: 'a', command: 'x' })], prompts: { a: PROMPTS }, promptResult: review, ...o });
}

const names = () => screen.queryAllByTestId(/^prompt-item-/).map((el) => el.getAttribute('data-testid')!.slice('prompt-item-'.length));

describe('Prompts screen', () => {
  it('without a connected server says so', async () => {
    const { user } = renderApp({
      servers: [{ spec: spec({ id: 'a', command: 'x', enabled: false }), status: status({ id: 'a', state: 'disabled' }) }],
    });
    await go(user, 'prompts');
    expect(await screen.findByTestId('empty-prompts')).toHaveTextContent('No connected server');
  });

  it('lists prompts and searches name, title and description', async () => {
    const { user, fake } = setup();
    await go(user, 'prompts');
    await screen.findByTestId('prompt-item-review');
    expect(names()).toEqual(['simple', 'review', 'summarise']);
    expect(screen.getByTestId('prompt-item-review')).toHaveTextContent('Code review');
    expect(screen.getByTestId('prompts-summary')).toHaveTextContent('3 prompts');
    expect(fake.callsOf('ListPrompts')).toEqual([['a']]);

    await user.type(screen.getByTestId('prompts-search'), 'diff');
    expect(names()).toEqual(['review']);
    await user.clear(screen.getByTestId('prompts-search'));
    await user.type(screen.getByTestId('prompts-search'), 'SUMM');
    expect(names()).toEqual(['summarise']);
    await user.clear(screen.getByTestId('prompts-search'));
    await user.type(screen.getByTestId('prompts-search'), 'code review');
    expect(names()).toEqual(['review']);
    await user.clear(screen.getByTestId('prompts-search'));
    await user.type(screen.getByTestId('prompts-search'), 'nothing like it');
    expect(screen.getByTestId('prompts-no-match')).toBeInTheDocument();
  });

  it('says when the server offers no prompts', async () => {
    const { user } = setup({ prompts: { a: [] } });
    await go(user, 'prompts');
    expect(await screen.findByTestId('prompts-empty')).toHaveTextContent('“a” offers no prompts');
  });

  it('Get keeps the focus while it runs: busy, not disabled (issue 12, point 15)', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const slow = async (server: string, name: string, args: Record<string, string>) => {
      await held;
      return review(server, name, args);
    };
    const { user, fake } = setup({ promptResult: slow as unknown as FakeOptions['promptResult'] });
    await go(user, 'prompts');
    await user.click(await screen.findByTestId('prompt-item-simple'));
    const get = screen.getByTestId('prompt-get');
    get.focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(get).toHaveAttribute('aria-disabled', 'true'));
    expect(get).not.toBeDisabled();
    expect(get).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(fake.callsOf('GetPrompt')).toHaveLength(1);
    release();
    await waitFor(() => expect(get).not.toHaveAttribute('aria-disabled'));
    expect(get).toHaveFocus();
  });

  it('requires the required arguments before Get', async () => {
    const { user, fake } = setup();
    await go(user, 'prompts');
    await user.click(await screen.findByTestId('prompt-item-review'));
    const code = screen.getByTestId('prompt-arg-code');
    expect(screen.getByText('The diff to review')).toBeInTheDocument();
    expect(code).toHaveAttribute('aria-required', 'true');
    expect(screen.getByTestId('prompt-arg-language')).not.toHaveAttribute('aria-required');

    await user.click(screen.getByTestId('prompt-get'));
    expect(screen.getByTestId('prompt-missing')).toHaveTextContent('Fill in the 2 required arguments.');
    expect(code).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByTestId('prompt-arg-focus')).toHaveAttribute('aria-invalid', 'true');
    expect(code).toHaveFocus();
    expect(fake.callsOf('GetPrompt')).toEqual([]);

    await user.type(code, 'x := 1');
    expect(code).not.toHaveAttribute('aria-invalid');
    expect(screen.getByTestId('prompt-missing')).toHaveTextContent('Fill in the required argument.');
    await user.type(screen.getByTestId('prompt-arg-focus'), '   ');
    await user.click(screen.getByTestId('prompt-get'));
    expect(fake.callsOf('GetPrompt')).toEqual([]);
  });

  it('gets the prompt with the entered arguments and renders the messages by role', async () => {
    const { user, fake } = setup();
    await go(user, 'prompts');
    await user.click(await screen.findByTestId('prompt-item-review'));
    await user.type(screen.getByTestId('prompt-arg-code'), 'x := 1');
    await user.type(screen.getByTestId('prompt-arg-focus'), 'bugs');
    await user.click(screen.getByTestId('prompt-get'));

    const list = await screen.findByTestId('prompt-messages');
    // The empty optional argument is left out.
    expect(fake.callsOf('GetPrompt')).toEqual([['a', 'review', { code: 'x := 1', focus: 'bugs' }]]);
    expect(screen.getByTestId('prompt-result-description')).toHaveTextContent('Review of some code');
    const msgs = within(list).getAllByTestId('prompt-message');
    expect(msgs.map((m) => m.dataset.role)).toEqual(['user', 'assistant', 'user']);
    expect(msgs[0]).toHaveTextContent('User');
    expect(msgs[0].querySelector('pre code')).toHaveTextContent('x := 1');
    expect(msgs[1]).toHaveTextContent('Assistant');
    expect(msgs[1].querySelector('strong')).toHaveTextContent('Sure.');
    expect(msgs[1].querySelector('script')).toBeNull();
    expect(msgs[2]).toHaveTextContent('file:///a.go');
    expect(msgs[2]).toHaveTextContent('package a');

    await user.click(screen.getByTestId('prompt-view-plain'));
    expect(msgs[1].querySelector('strong')).toBeNull();
    expect(msgs[1]).toHaveTextContent('**Sure.**');

    await user.click(screen.getByTestId('prompt-copy-json'));
    expect(JSON.parse(fake.copied[0])).toEqual(review('a', 'review', { code: 'x := 1', focus: 'bugs' }).messages);
  });

  it('hands the returned messages to the chat composer (Use in chat)', async () => {
    const { user } = setup();
    await go(user, 'prompts');
    await user.click(await screen.findByTestId('prompt-item-review'));
    await user.type(screen.getByTestId('prompt-arg-code'), 'x := 1');
    await user.type(screen.getByTestId('prompt-arg-focus'), 'bugs');
    await user.click(screen.getByTestId('prompt-get'));
    await user.click(await screen.findByTestId('prompt-use-in-chat'));
    expect(screen.getByTestId('nav-chat')).toHaveAttribute('aria-current', 'page');
    const input = (await screen.findByTestId('composer-input')) as HTMLTextAreaElement;
    await waitFor(() => expect(input.value).toContain('Please review:'));
    expect(input.value).toContain('x := 1');
    expect(input.value).toContain('package a');
  });

  it('Enter in the form runs Get', async () => {
    const { user, fake } = setup();
    await go(user, 'prompts');
    await user.click(await screen.findByTestId('prompt-item-review'));
    await user.type(screen.getByTestId('prompt-arg-code'), 'a');
    await user.type(screen.getByTestId('prompt-arg-language'), 'Go');
    await user.type(screen.getByTestId('prompt-arg-focus'), 'style{Enter}');
    await screen.findByTestId('prompt-messages');
    expect(fake.callsOf('GetPrompt')).toEqual([['a', 'review', { code: 'a', language: 'Go', focus: 'style' }]]);
  });

  it('gets a prompt without arguments', async () => {
    const { user, fake } = setup();
    await go(user, 'prompts');
    await user.click(await screen.findByTestId('prompt-item-simple'));
    expect(screen.getByTestId('prompt-form')).toHaveTextContent('This prompt takes no arguments.');
    await user.click(screen.getByTestId('prompt-get'));
    await screen.findByTestId('prompt-messages');
    expect(fake.callsOf('GetPrompt')).toEqual([['a', 'simple', {}]]);
  });

  it('shows a Get error as Go sent it', async () => {
    const { user, fake } = setup();
    await go(user, 'prompts');
    await user.click(await screen.findByTestId('prompt-item-simple'));
    fake.failNext('GetPrompt', 'prompt "simple": invalid params: missing topic');
    await user.click(screen.getByTestId('prompt-get'));
    expect(await screen.findByTestId('prompt-get-error')).toHaveTextContent('prompt "simple": invalid params: missing topic');
    expect(screen.queryByTestId('prompt-messages')).toBeNull();
  });

  it('shows a listing error as Go sent it', async () => {
    const { user, fake } = setup();
    fake.failNext('ListPrompts', 'method not found');
    await go(user, 'prompts');
    expect(await screen.findByTestId('prompts-list-error')).toHaveTextContent('method not found');
  });

  it('re-fetches on list-changed for prompts', async () => {
    const { user, fake } = setup();
    await go(user, 'prompts');
    await screen.findByTestId('prompt-item-review');
    fake.prompts.a = [...PROMPTS, { name: 'fresh' }];
    fake.emit('mcp:list-changed', { server: 'a', kind: 'resources' });
    fake.emit('mcp:list-changed', { server: 'a', kind: 'prompts' });
    await screen.findByTestId('prompt-item-fresh');
    expect(fake.callsOf('ListPrompts')).toHaveLength(2);
  });

  it('keeps argument values per prompt while switching', async () => {
    const { user } = setup();
    await go(user, 'prompts');
    await user.click(await screen.findByTestId('prompt-item-review'));
    await user.type(screen.getByTestId('prompt-arg-code'), 'kept');
    await user.click(screen.getByTestId('prompt-item-simple'));
    await user.click(screen.getByTestId('prompt-item-review'));
    expect(screen.getByTestId('prompt-arg-code')).toHaveValue('kept');
  });

  it('remembers the width of the list', async () => {
    const { user, fake } = setup();
    fake.uiStore.set('prompts.split', '380');
    await go(user, 'prompts');
    const handle = await screen.findByTestId('prompts-split');
    await waitFor(() => expect((handle.previousElementSibling as HTMLElement).style.width).toBe('380px'));
  });
});

describe('MessageContent', () => {
  const PNG = 'iVBORw0KGgo=';
  it.each<[string, Content, (el: HTMLElement) => void]>([
    ['image', { type: 'image', data: PNG, mimeType: 'image/png' }, (el) => expect(el.querySelector('img')).toHaveAttribute('src', `data:image/png;base64,${PNG}`)],
    ['audio', { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' }, (el) => expect(el.querySelector('audio')).toHaveAttribute('src', 'data:audio/wav;base64,UklGRg==')],
    [
      'embedded blob image',
      { type: 'resource', resource: { uri: 'img://1', mimeType: 'image/png', blob: PNG } },
      (el) => expect(el.querySelector('img')).toHaveAttribute('src', `data:image/png;base64,${PNG}`),
    ],
    [
      'embedded binary',
      { type: 'resource', resource: { uri: 'bin://1', mimeType: 'application/octet-stream', blob: btoa('abcd') } },
      (el) => expect(el).toHaveTextContent('Binary content, 4 B'),
    ],
    [
      'embedded markdown',
      { type: 'resource', resource: { uri: 'doc://1', mimeType: 'text/markdown', text: '# Title' } },
      (el) => expect(el.querySelector('h1')).toHaveTextContent('Title'),
    ],
    [
      'resource link',
      { type: 'resource_link', uri: 'file:///x.txt', name: 'x.txt', description: 'A file' },
      (el) => {
        expect(el).toHaveTextContent('Resource link');
        expect(el).toHaveTextContent('file:///x.txt');
        expect(el).toHaveTextContent('A file');
      },
    ],
    ['unknown type', { type: 'video', url: 'x' } as unknown as Content, (el) => expect(el).toHaveTextContent('Content of type “video”')],
  ])('renders %s', async (_name, content, check) => {
    const { container } = render(MessageContent, {
      props: { content, scope: { kind: 'server', id: 'demo' } },
      context: new Map([[STORES_KEY, createStores()]]),
    });
    check(container.querySelector('[data-testid="message-content"]') as HTMLElement);
  });
});
