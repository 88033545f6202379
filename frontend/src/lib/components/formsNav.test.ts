// Issue 12, points 11 and 12: forms take the user to their first problem;
// the dock toggle says where results go; the inspector screens open on a
// server that offers something; resource links open; one place for the
// default model; the audit log from the navigation and from a chat call.
import { screen, waitFor, within } from '@testing-library/svelte';
import { describe, expect, it, vi } from 'vitest';
import { go, renderApp } from '../../test/app';
import { spec, status, type FakeOptions } from '../../test/fakes/fake';
import { auditEntry } from '../../test/fakes/fakeUsage';
import type { Prompt, Tool } from '../api';

// jsdom lays nothing out: record what was scrolled into view.
function watchScroll() {
  const seen: Element[] = [];
  const spy = vi.spyOn(Element.prototype, 'scrollIntoView').mockImplementation(function (this: Element) {
    seen.push(this);
  });
  return { seen, restore: () => spy.mockRestore() };
}
if (!Element.prototype.scrollIntoView) Element.prototype.scrollIntoView = () => {};

const connected = (id: string, counts: { tools?: number; resources?: number; prompts?: number } = {}) => ({
  spec: spec({ id, command: 'x' }),
  status: status({ id, state: 'connected', tools: counts.tools ?? 0, resources: counts.resources ?? 0, prompts: counts.prompts ?? 0 }),
});

describe('Forms reveal their first invalid field (point 11)', () => {
  it('elicitation: Accept with a required field empty scrolls to it, focuses it and shows the message beside it', async () => {
    const scroll = watchScroll();
    try {
      const { fake, user } = renderApp({});
      const properties: Record<string, unknown> = {};
      for (let i = 0; i < 12; i++) properties[`extra${i}`] = { type: 'string', default: `v${i}` };
      properties.name = { type: 'string', title: 'Name' };
      fake.elicit({ id: 'q', server: 'demo', mode: 'form', message: 'Who?', requestedSchema: { type: 'object', properties, required: ['name'] } });
      await screen.findByTestId('elicitation-dialog');
      const input = within(screen.getByTestId('schema-field-name')).getByRole('textbox');
      expect(input).not.toHaveFocus();
      await user.click(screen.getByTestId('elicitation-accept'));
      await waitFor(() => expect(input).toHaveFocus());
      expect(input).toHaveAttribute('aria-invalid', 'true');
      const message = document.getElementById(input.getAttribute('aria-describedby')!.split(' ')[0])!;
      expect(message).toHaveTextContent(/required/i);
      expect(screen.getByTestId('schema-field-name')).toContainElement(message);
      expect(scroll.seen).toContain(screen.getByTestId('schema-field-name'));
      expect(fake.callsOf('AnswerElicitation')).toEqual([]);
    } finally {
      scroll.restore();
    }
  });

  it('elicitation: a list of check boxes with too few ticked is reached too (a field without aria-invalid of its own)', async () => {
    const { fake, user } = renderApp({});
    fake.elicit({
      id: 'q',
      server: 'demo',
      mode: 'form',
      message: 'Which?',
      requestedSchema: {
        type: 'object',
        properties: { note: { type: 'string' }, ok: { type: 'array', items: { enum: ['a', 'b'] }, minItems: 1 } },
        required: ['ok'],
      },
    });
    await screen.findByTestId('elicitation-dialog');
    await user.click(screen.getByTestId('elicitation-accept'));
    const field = screen.getByTestId('schema-field-ok');
    await waitFor(() => expect(field).toHaveAttribute('data-invalid', 'true'));
    await waitFor(() => expect(within(field).getAllByRole('checkbox')[0]).toHaveFocus());
  });

  it('prompt arguments: Get with a required argument empty focuses it', async () => {
    const prompts: Prompt[] = [{ name: 'p', arguments: [{ name: 'a' }, { name: 'b', required: true }] }];
    const { user } = renderApp({ servers: [connected('s', { prompts: 1 })], prompts: { s: prompts } });
    await go(user, 'prompts');
    await user.click(await screen.findByTestId('prompt-item-p'));
    await user.click(screen.getByTestId('prompt-get'));
    await waitFor(() => expect(screen.getByTestId('prompt-arg-b')).toHaveFocus());
    expect(screen.getByTestId('prompt-arg-b')).toHaveAttribute('aria-invalid', 'true');
  });

  it('resource template: Read with a path variable empty is refused with the message beside it; query variables may stay empty', async () => {
    const { fake, user } = renderApp({
      servers: [connected('s', { resources: 0 })],
      templates: { s: [{ name: 'file', uriTemplate: 'repo://{owner}/{name}{?ref}' }] },
    });
    await go(user, 'resources');
    await user.click(await screen.findByTestId('template-item-file'));
    await user.type(screen.getByTestId('template-arg-owner'), 'ada');
    await user.click(screen.getByTestId('template-read'));
    const name = screen.getByTestId('template-arg-name');
    await waitFor(() => expect(name).toHaveFocus());
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByTestId('template-arg-name-error')).toHaveTextContent('Fill in name');
    expect(screen.queryByTestId('template-arg-ref-error')).toBeNull();
    expect(fake.callsOf('ReadResource')).toEqual([]);
    await user.type(name, 'desk');
    expect(screen.queryByTestId('template-arg-name-error')).toBeNull();
    await user.click(screen.getByTestId('template-read'));
    await waitFor(() => expect(fake.callsOf('ReadResource')).toEqual([['s', 'repo://ada/desk']]));
  });

  it('tool form: Run with a required argument empty focuses it', async () => {
    const tools: Tool[] = [{ name: 't', inputSchema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } }];
    const { fake, user } = renderApp({ servers: [connected('s', { tools: 1 })], tools: { s: tools } });
    await go(user, 'tools');
    await user.click(await screen.findByTestId('tool-item-t'));
    await user.click(screen.getByTestId('tool-run'));
    const q = within(screen.getByTestId('schema-field-q')).getByRole('textbox');
    await waitFor(() => expect(q).toHaveFocus());
    expect(fake.callsOf('CallTool')).toEqual([]);
  });

  it('server form: Save with the command empty focuses it', async () => {
    const { user } = renderApp({});
    await user.click((await screen.findAllByTestId('add-server'))[0]);
    await user.type(screen.getByTestId('server-id'), 'x');
    await user.click(screen.getByTestId('save-server'));
    await waitFor(() => expect(screen.getByTestId('server-command')).toHaveFocus());
    expect(screen.getByTestId('server-command')).toHaveAttribute('aria-invalid', 'true');
  });

  it('sampling: Approve with no max tokens is refused at the field, with its message', async () => {
    const r = renderApp({ providers: { providers: [{ id: 'openai', name: 'OpenAI', preset: 'openai', keyInKeychain: true }], defaultModel: { provider: 'openai', model: 'gpt-4o' } } });
    await screen.findByTestId('nav-servers');
    const req = { id: 's0', conversationId: 0, server: 'everything', request: { messages: [{ role: 'user', content: { type: 'text', text: 'Hi' } }] }, model: 'openai/gpt-4o' };
    r.fake.chat.sampling.set('s0', req);
    r.fake.emit('chat:sampling', req);
    const dlg = await screen.findByTestId('sampling-dialog');
    await r.user.click(within(dlg).getByTestId('sampling-approve'));
    const tokens = within(dlg).getByTestId('sampling-max-tokens');
    await waitFor(() => expect(tokens).toHaveFocus());
    expect(tokens).toHaveAttribute('aria-invalid', 'true');
    expect(within(dlg).getByTestId('sampling-max-tokens-error')).toHaveTextContent('whole number');
    expect(r.fake.callsOf('chat.AnswerSampling')).toEqual([]);
    await r.user.type(tokens, '50');
    await r.user.click(within(dlg).getByTestId('sampling-approve'));
    await waitFor(() => expect(r.fake.callsOf('chat.AnswerSampling')[0][1]).toMatchObject({ approve: true, request: { maxTokens: 50 } }));
  });
});

describe('Forms reveal their first invalid field: approval card (point 11)', () => {
  it('Run with a required argument cleared focuses the field and does not run', async () => {
    const r = renderApp({ providers: { providers: [{ id: 'openai', name: 'OpenAI', preset: 'openai', keyInKeychain: true }], defaultModel: { provider: 'openai', model: 'gpt-4o' } } });
    await go(r.user, 'chat');
    await screen.findByTestId('chat-screen');
    await waitFor(() => expect(screen.getByTestId('model-picker')).toHaveValue('openai\ngpt-4o'));
    await r.user.type(screen.getByTestId('composer-input'), 'Echo');
    await r.user.keyboard('{Enter}');
    await waitFor(() => expect(r.fake.callsOf('chat.Send').length).toBeGreaterThan(0));
    const t = r.fake.chat.turn();
    t.assistant();
    t.toolCall({ id: 'c1', server: 'everything', tool: 'echo', args: { message: 'hi' } });
    t.finish();
    t.askApproval('c1', { inputSchema: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] } });
    const card = await screen.findByTestId('approval-card');
    const field = within(within(card).getByTestId('schema-field-message')).getByRole('textbox');
    await r.user.clear(field);
    await r.user.click(within(card).getByTestId('approval-run'));
    await waitFor(() => expect(field).toHaveFocus());
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(r.fake.callsOf('chat.Approve')).toEqual([]);
    t.done();
  }, 30000);
});

describe('The dock toggle says where the results go (12a)', () => {
  function setWidth(px: number) {
    Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => px });
  }

  it.each([
    [1000, 'beside', 'Show the results beside the form'],
    [560, 'below', 'Show the results below the form'],
  ])('a pane %d px wide puts undocked results %s the form, as its label says', async (px, where, label) => {
    setWidth(px);
    try {
      const tools: Tool[] = [{ name: 't', inputSchema: { type: 'object', properties: {} } }];
      const { user } = renderApp({ servers: [connected('s', { tools: 1 })], tools: { s: tools } });
      await go(user, 'tools');
      await user.click(await screen.findByTestId('tool-item-t'));
      const toggle = await screen.findByTestId('tool-dock-toggle');
      expect(toggle).toHaveAttribute('aria-label', expect.stringContaining(label));
      await user.click(toggle);
      const cols = screen.getByTestId('tool-detail').querySelector('.cols')!;
      await waitFor(() => expect(cols).toHaveAttribute('data-results', where));
      expect(cols.classList.contains('side')).toBe(where === 'beside');
    } finally {
      delete (HTMLElement.prototype as { clientWidth?: number }).clientWidth;
    }
  });
});

describe('Inspector screens open on a server that offers something (12b)', () => {
  const prompts: Prompt[] = [{ name: 'greet' }];

  it('Prompts passes over a server with no prompts for one that has some; a pick there is kept', async () => {
    const { user } = renderApp({ servers: [connected('bare', { tools: 1 }), connected('rich', { prompts: 1 })], prompts: { rich: prompts } });
    await go(user, 'prompts');
    expect(await screen.findByTestId('prompt-item-greet')).toBeInTheDocument();
    expect(screen.getByTestId('inspector-server-select')).toHaveValue('rich');
    // The user picks the bare one on purpose: it stays, and says what to do.
    await user.selectOptions(screen.getByTestId('inspector-server-select'), 'bare');
    const none = await screen.findByTestId('prompts-none-offered');
    expect(none).toHaveTextContent('“bare” offers no prompts. These connected servers do:');
    expect(screen.queryByTestId('prompts-pick')).toBeNull();
    await user.click(within(none).getByTestId('none-offered-pick'));
    expect(await screen.findByTestId('prompt-item-greet')).toBeInTheDocument();
  });

  it('when no server has any, it says so and what to do, with no "Pick a prompt"', async () => {
    const { user, stores } = renderApp({ servers: [connected('bare', { tools: 1 })] });
    await go(user, 'prompts');
    const none = await screen.findByTestId('prompts-none-offered');
    expect(none).toHaveTextContent('None of the connected servers offers prompts.');
    expect(none).toHaveTextContent('Add or connect a server');
    expect(screen.queryByTestId('prompts-pick')).toBeNull();
    await user.click(within(none).getByTestId('none-offered-servers'));
    expect(stores.layout.screen).toBe('servers');
  });

  it('Tools does the same', async () => {
    const tools: Tool[] = [{ name: 'echo', inputSchema: { type: 'object' } }];
    const { user } = renderApp({ servers: [connected('bare', { prompts: 1 }), connected('rich', { tools: 1 })], tools: { rich: tools } });
    await go(user, 'tools');
    expect(await screen.findByTestId('tool-item-echo')).toBeInTheDocument();
    expect(screen.getByTestId('tools-server-select')).toHaveValue('rich');
  });

  it('Resources passes over a server with neither resources nor templates, but not one with templates only', async () => {
    const { user } = renderApp({
      servers: [connected('bare'), connected('tpl'), connected('rich', { resources: 1 })],
      resources: { rich: [{ uri: 'file:///a.md', name: 'a.md' }] },
      templates: { tpl: [{ name: 'file', uriTemplate: 'repo://{x}' }] },
    });
    await go(user, 'resources');
    expect(await screen.findByTestId('resource-item-file:///a.md')).toBeInTheDocument();
    await user.selectOptions(screen.getByTestId('inspector-server-select'), 'tpl');
    expect(await screen.findByTestId('template-item-file')).toBeInTheDocument();
    await go(user, 'servers');
    await go(user, 'resources');
    expect(await screen.findByTestId('template-item-file')).toBeInTheDocument();
    expect(screen.getByTestId('inspector-server-select')).toHaveValue('tpl');
  });
});

describe('Links between resources (12c)', () => {
  const md = '# Docs\n\nSee [the structure](structure.md), [up](../top.md), [web](https://example.com/x), [same](#part) and [js](javascript:alert(1)).\n\n<a data-resource-uri="file:///etc/passwd">forged</a>';
  const opts = (): FakeOptions => ({
    servers: [connected('fs', { resources: 2 })],
    resources: { fs: [{ uri: 'file:///docs/README.md', name: 'README.md', mimeType: 'text/markdown' }, { uri: 'file:///docs/structure.md', name: 'structure.md', mimeType: 'text/markdown' }] },
    readResult: (_s, uri) => ({ contents: [{ uri, mimeType: 'text/markdown', text: uri.endsWith('README.md') ? md : `# ${uri}` }] }),
  });

  it('a relative link opens the linked resource of the same server; web links stay links to the browser; content cannot forge one', async () => {
    const { fake, user } = renderApp(opts());
    await go(user, 'resources');
    await user.click(await screen.findByTestId('resource-item-file:///docs/README.md'));
    const view = await screen.findByTestId('resource-markdown');
    const link = within(view).getByText('the structure');
    expect(link).toHaveAttribute('data-resource-uri', 'file:///docs/structure.md');
    expect(link).not.toHaveAttribute('href');
    expect(link).toHaveAttribute('tabindex', '0');
    expect(within(view).getByText('up')).toHaveAttribute('data-resource-uri', 'file:///top.md');
    expect(within(view).getByText('web')).toHaveAttribute('href', 'https://example.com/x');
    expect(within(view).getByText('web')).not.toHaveAttribute('data-resource-uri');
    expect(within(view).getByText('same')).not.toHaveAttribute('data-resource-uri');
    expect(within(view).getByText('js')).not.toHaveAttribute('data-resource-uri');
    expect(within(view).getByText('forged')).not.toHaveAttribute('data-resource-uri');
    await user.click(link);
    await waitFor(() => expect(fake.callsOf('ReadResource').at(-1)).toEqual(['fs', 'file:///docs/structure.md']));
    expect(await screen.findByTestId('resource-uri')).toHaveTextContent('file:///docs/structure.md');
    // Enter on a focused link opens it too.
    await user.click(screen.getByTestId('resource-item-file:///docs/README.md'));
    const up = within(await screen.findByTestId('resource-markdown')).getByText('up');
    up.focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(fake.callsOf('ReadResource').at(-1)).toEqual(['fs', 'file:///top.md']));
  });
});

describe('The audit log from the navigation and from chat (12e)', () => {
  it('has its own navigation item; a row opens by a click on it and by Enter', async () => {
    const { user } = renderApp({ usage: { audit: [auditEntry({ id: 1 }), auditEntry({ id: 2, tool: 'add' })] } });
    await go(user, 'audit');
    expect(screen.getByTestId('nav-audit')).toHaveAttribute('aria-current', 'page');
    expect(screen.getByTestId('nav-usage')).not.toHaveAttribute('aria-current');
    const rows = await screen.findAllByTestId('audit-row', {}, { timeout: 10000 });
    await user.click(within(rows[0]).getByTestId('audit-call'));
    expect(await screen.findByTestId('audit-detail')).toBeInTheDocument();
    expect(within(rows[0]).getByTestId('audit-toggle')).toHaveAttribute('aria-expanded', 'true');
    // A table row cannot be expanded for assistive technology: the row's
    // disclosure button is its Tab stop.
    expect(rows[1]).not.toHaveAttribute('aria-expanded');
    within(rows[1]).getByTestId('audit-toggle').focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.getAllByTestId('audit-detail')).toHaveLength(2));
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.getAllByTestId('audit-detail')).toHaveLength(1));
  }, 20000);

  it('a chat tool call links to its audit entry, opened and focused', async () => {
    const call = { id: 'c1', name: 'everything__echo', server: 'everything', tool: 'echo', arguments: '{"message":"b"}', status: 'done' as const, result: { content: [] } };
    const options: FakeOptions = {
      providers: { providers: [{ id: 'openai', name: 'OpenAI', preset: 'openai', keyInKeychain: true }], defaultModel: { provider: 'openai', model: 'gpt-4o' } },
      chat: {
        conversations: [
          {
            conversation: { id: 7, title: 'Echoes' },
            messages: [
              { id: 71, role: 'user', content: 'echo b' },
              { id: 72, role: 'assistant', content: '', toolCalls: [call] },
            ],
          },
        ],
      },
      usage: {
        audit: [
          auditEntry({ id: 1, conversationId: 7, arguments: '{"message":"a"}' }),
          auditEntry({ id: 2, conversationId: 7, arguments: '{"message":"b"}' }),
          auditEntry({ id: 3, conversationId: 8, arguments: '{"message":"b"}' }),
          auditEntry({ id: 4, conversationId: 7, arguments: '{"message":"c"}' }),
        ],
      },
    };
    const { user } = renderApp(options);
    await go(user, 'chat');
    await user.click(await screen.findByTestId('chat-conversation-open'));
    const block = await screen.findByTestId('tool-call');
    await user.click(within(block).getByTestId('tool-call-toggle'));
    await user.click(within(block).getByTestId('tool-call-audit'));
    expect(await screen.findByTestId('audit-log', {}, { timeout: 10000 })).toBeInTheDocument();
    expect(screen.getByTestId('nav-audit')).toHaveAttribute('aria-current', 'page');
    const row = await waitFor(() => {
      const r = screen.getAllByTestId('audit-row').find((el) => el.dataset.id === '2');
      expect(r).toBeDefined();
      return r!;
    });
    await waitFor(() => expect(within(row).getByTestId('audit-toggle')).toHaveFocus());
    expect(within(row).getByTestId('audit-toggle')).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getAllByTestId('audit-detail')).toHaveLength(1);
  }, 20000);
});
