import { fireEvent, screen, waitFor, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import type { CallToolResult, Tool, ToolCallOutcome, ToolCallRequest } from '../../api';
import { FakeBackend, spec, status, type FakeOptions } from '../../../test/fakes/fake';
import { go, renderApp } from '../../../test/app';

const echo: Tool = {
  name: 'echo',
  title: 'Echo',
  description: 'Echoes back the input.\nSecond line of the description.',
  inputSchema: {
    type: 'object',
    properties: {
      message: { type: 'string', minLength: 2, description: 'What to say' },
      times: { type: 'integer', minimum: 1, maximum: 5, default: 1 },
      loud: { type: 'boolean' },
    },
    required: ['message'],
  },
  // A read-only tool: the destructive/idempotent hints mean nothing for it.
  annotations: { readOnlyHint: true, idempotentHint: true, destructiveHint: true },
};

const remove: Tool = {
  name: 'delete_file',
  description: 'Deletes a file from disk',
  inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  annotations: { destructiveHint: true, idempotentHint: true, openWorldHint: true },
  icons: [{ src: 'data:image/png;base64,iVBORw0KGgo=', mimeType: 'image/png' }],
};

const weather: Tool = {
  name: 'weather',
  description: 'Current weather',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
  outputSchema: { type: 'object', properties: { temp: { type: 'number' }, unit: { enum: ['C', 'F'] } }, required: ['temp'] },
};

const noArgs: Tool = { name: 'ping', inputSchema: { type: 'object' } };

const everything = { spec: spec({ id: 'everything', command: 'npx' }), status: status({ id: 'everything', tools: 4 }) };
const other = { spec: spec({ id: 'other', command: 'npx' }), status: status({ id: 'other', tools: 0 }) };

/** deferred is a CallTool the test finishes by hand. */
function deferred() {
  let finish!: (o: ToolCallOutcome) => void;
  const requests: ToolCallRequest[] = [];
  const callTool = (req: ToolCallRequest) =>
    new Promise<ToolCallOutcome>((resolve) => {
      requests.push(req);
      finish = resolve;
    });
  return { callTool, requests, finish: (o: ToolCallOutcome) => finish(o) };
}

const outcome = (result: CallToolResult, durationMs = 12): ToolCallOutcome => ({ result, durationMs });

async function openTools(o: FakeOptions | FakeBackend = {}) {
  const app = renderApp(
    o instanceof FakeBackend ? o : { servers: [everything, other], tools: { everything: [echo, remove, weather, noArgs], other: [] }, ...o },
  );
  await screen.findByTestId('server-everything');
  await go(app.user, 'tools');
  await screen.findByTestId('tools-summary');
  return app;
}

async function pick(user: ReturnType<typeof renderApp>['user'], name: string) {
  await user.click(screen.getByTestId(`tool-item-${name}`));
  return screen.findByTestId('tool-detail');
}

const field = (path: string) => screen.getByTestId(`schema-field-${path}`);
const input = (path: string) => field(path).querySelector('input:not([type="checkbox"]), select, textarea') as HTMLInputElement;

describe('Tools screen', () => {
  it('lists the tools of the chosen server with badges, icons and one-line descriptions', async () => {
    const { fake } = await openTools();
    expect(screen.getByTestId('tools-server-select')).toHaveValue('everything');
    expect(fake.callsOf('ListTools')).toEqual([['everything']]);

    const echoRow = within(screen.getByTestId('tool-item-echo'));
    expect(echoRow.getByText('Echo')).toBeInTheDocument();
    expect(echoRow.getByText('echo')).toBeInTheDocument();
    expect(echoRow.getByTestId('tool-badge-read-only')).toHaveTextContent('read-only');
    expect(echoRow.queryByTestId('tool-badge-idempotent')).not.toBeInTheDocument();
    expect(echoRow.queryByTestId('tool-badge-destructive')).not.toBeInTheDocument();

    const rm = within(screen.getByTestId('tool-item-delete_file'));
    expect(rm.getByTestId('tool-badge-destructive')).toHaveTextContent('destructive');
    expect(rm.getByTestId('tool-badge-idempotent')).toHaveTextContent('idempotent');
    expect(rm.getByTestId('tool-badge-open-world')).toBeInTheDocument();
    expect(rm.getByTestId('tool-icon')).toHaveAttribute('src', remove.icons![0].src);
    expect(rm.getByText('Deletes a file from disk')).toBeInTheDocument();
    expect(screen.getByTestId('tools-summary')).toHaveTextContent('4 tools');
  });

  it('shows the selected tool: title, description with line breaks, form and Run', async () => {
    const { user } = await openTools();
    const detail = await pick(user, 'echo');
    expect(within(detail).getByRole('heading', { name: 'Echo' })).toBeInTheDocument();
    expect(screen.getByTestId('tool-description').textContent).toBe(echo.description);
    expect(screen.getByTestId('tool-item-echo')).toHaveAttribute('aria-current', 'true');
    expect(input('message')).toHaveValue('');
    expect(input('times')).toHaveValue(1);
    expect(screen.getByTestId('tool-run')).toBeEnabled();

    await pick(user, 'ping');
    expect(screen.getByText('This tool takes no arguments.')).toBeInTheDocument();
  });

  it('filters by name, title and description, and says when nothing matches', async () => {
    const { user } = await openTools();
    await user.type(screen.getByTestId('tools-search'), 'DISK');
    expect(screen.getByTestId('tool-item-delete_file')).toBeInTheDocument();
    expect(screen.queryByTestId('tool-item-echo')).not.toBeInTheDocument();
    await user.clear(screen.getByTestId('tools-search'));
    await user.type(screen.getByTestId('tools-search'), 'ech');
    expect(screen.getByTestId('tool-item-echo')).toBeInTheDocument();
    expect(screen.queryByTestId('tool-item-weather')).not.toBeInTheDocument();
    await user.type(screen.getByTestId('tools-search'), 'zzz');
    expect(screen.getByTestId('tools-no-match')).toHaveTextContent('No tool matches “echzzz”.');
    await user.click(within(screen.getByTestId('tools-no-match')).getByRole('button'));
    expect(screen.getByTestId('tool-item-weather')).toBeInTheDocument();
  });

  it('runs the tool with the arguments from the form and shows the result', async () => {
    const { user, fake } = await openTools();
    await pick(user, 'echo');
    await user.type(input('message'), 'hello');
    await user.click(within(field('loud')).getByRole('switch'));
    await user.click(screen.getByTestId('tool-run'));
    const result = await screen.findByTestId('tool-result');
    const [req] = fake.callsOf('CallTool')[0] as [ToolCallRequest];
    expect(req).toEqual({ callId: expect.any(String), server: 'everything', tool: 'echo', arguments: { message: 'hello', times: 1, loud: true } });
    expect(result).toHaveAttribute('data-error', 'false');
    expect(within(result).getByTestId('tool-duration')).toHaveTextContent('1 ms');
    // The echoed arguments are JSON text, shown as a tree by default.
    expect(result).toHaveTextContent('"message"');

    await user.click(screen.getByTestId('result-copy-json'));
    expect(JSON.parse(fake.copied.at(-1)!)).toEqual({ content: [{ type: 'text', text: JSON.stringify(req.arguments) }] });
  });

  it('docks the results below, beside the logger, and moves them back on request (B4)', async () => {
    const { user, fake } = await openTools();
    await pick(user, 'echo');
    // By default the results sit in the bottom panel, even with the logger closed.
    const dock = await screen.findByTestId('bottom-dock');
    expect(dock).toHaveAttribute('data-logger', 'closed');
    expect(dock).toHaveAttribute('data-results', 'docked');
    expect(within(screen.getByTestId('dock-results')).getByTestId('tool-output')).toBeInTheDocument();
    expect(within(screen.getByTestId('tool-detail')).queryByTestId('tool-output')).toBeNull();

    // With the logger open: logger | results, split by a remembered handle.
    await user.keyboard('{Control>}j{/Control}');
    await waitFor(() => expect(dock).toHaveAttribute('data-logger', 'open'));
    expect(within(dock).getByTestId('logger-panel')).toBeInTheDocument();
    const split = within(dock).getByTestId('dock-split');
    split.focus();
    await user.keyboard('{ArrowRight}');
    await waitFor(() => expect(fake.uiStore.get('dockSplit')).toBe('576'));

    await user.type(input('message'), 'hello');
    await user.click(screen.getByTestId('tool-run'));
    expect(await within(screen.getByTestId('dock-results')).findByTestId('tool-result')).toHaveTextContent('hello');

    // Undock: the results go back beside the form; the choice is remembered.
    await user.click(screen.getByTestId('tool-dock-toggle'));
    expect(within(screen.getByTestId('tool-detail')).getByTestId('tool-result')).toHaveTextContent('hello');
    expect(dock).toHaveAttribute('data-results', 'none');
    expect(screen.queryByTestId('dock-results')).toBeNull();
    expect(fake.uiStore.get('dockResults')).toBe('false');

    // Leaving the screen takes the docked results with it.
    await user.click(screen.getByTestId('tool-dock-toggle'));
    expect(screen.getByTestId('dock-results')).toBeInTheDocument();
    await go(user, 'servers');
    await waitFor(() => expect(screen.getByTestId('bottom-dock')).toHaveAttribute('data-results', 'none'));
  });

  it('remembers results beside the form across restarts', async () => {
    const fake = new FakeBackend({ servers: [everything, other], tools: { everything: [echo], other: [] } });
    fake.uiStore.set('dockResults', 'false');
    const { user } = await openTools(fake);
    await pick(user, 'echo');
    expect(within(screen.getByTestId('tool-detail')).getByTestId('tool-output')).toBeInTheDocument();
    expect(screen.queryByTestId('bottom-dock')).toBeNull();
  });

  it('validates before running: messages next to the fields and a summary', async () => {
    const { user, fake } = await openTools();
    await pick(user, 'echo');
    await user.clear(input('times'));
    await user.type(input('times'), '9');
    await user.click(screen.getByTestId('tool-run'));
    expect(within(field('message')).getByRole('alert')).toHaveTextContent('Required.');
    expect(within(field('times')).getByRole('alert')).toHaveTextContent('Must be 5 or less.');
    expect(screen.getByTestId('tool-errors')).toHaveTextContent('2 problems to fix before running');
    expect(fake.callsOf('CallTool')).toHaveLength(0);

    // Errors follow the input live once shown.
    await user.type(input('message'), 'x');
    expect(within(field('message')).getByRole('alert')).toHaveTextContent('At least 2 characters.');
    await user.type(input('message'), 'y');
    await user.clear(input('times'));
    await user.type(input('times'), '2');
    expect(screen.queryByTestId('tool-errors')).not.toBeInTheDocument();
    await user.keyboard('{Control>}{Enter}{/Control}');
    await screen.findByTestId('tool-result');
    expect((fake.callsOf('CallTool')[0][0] as ToolCallRequest).arguments).toEqual({ message: 'xy', times: 2 });
  });

  it('keeps the raw JSON editor and the form in sync both ways', async () => {
    const { user, fake } = await openTools();
    await pick(user, 'echo');
    await user.type(input('message'), 'hi');
    await user.click(screen.getByTestId('tool-raw-toggle'));
    const raw = screen.getByTestId('tool-raw-json') as HTMLTextAreaElement;
    expect(JSON.parse(raw.value)).toEqual({ message: 'hi', times: 1 });

    await fireEvent.input(raw, { target: { value: '{"message": "from raw", "times": 3, "loud": true}' } });
    await user.click(screen.getByTestId('tool-raw-toggle'));
    expect(input('message')).toHaveValue('from raw');
    expect(input('times')).toHaveValue(3);
    expect(within(field('loud')).getByRole('switch')).toHaveAttribute('aria-checked', 'true');

    // Invalid JSON keeps the form as it was and blocks the run with a message.
    await user.click(screen.getByTestId('tool-raw-toggle'));
    await fireEvent.input(screen.getByTestId('tool-raw-json'), { target: { value: '{"message": ' } });
    expect(screen.getByRole('alert')).toHaveTextContent('Not valid JSON');
    await user.click(screen.getByTestId('tool-run'));
    expect(fake.callsOf('CallTool')).toHaveLength(0);
    await fireEvent.input(screen.getByTestId('tool-raw-json'), { target: { value: '{"message": "raw run", "extra": [1]}' } });
    await user.click(screen.getByTestId('tool-run'));
    await screen.findByTestId('tool-result');
    expect((fake.callsOf('CallTool')[0][0] as ToolCallRequest).arguments).toEqual({ message: 'raw run', extra: [1] });
  });

  it('shows progress from mcp:progress, the elapsed time, and stops with CancelCall', async () => {
    const d = deferred();
    const { user, fake } = await openTools({ servers: [everything], tools: { everything: [echo] }, callTool: d.callTool });
    await pick(user, 'echo');
    await user.type(input('message'), 'slow');
    await user.click(screen.getByTestId('tool-run'));
    const progress = await screen.findByTestId('tool-progress');
    expect(progress).toHaveAttribute('data-mode', 'indeterminate');
    expect(screen.getByTestId('tool-elapsed').textContent).toMatch(/^\d+\.\d sec$/);
    expect(screen.queryByTestId('tool-run')).not.toBeInTheDocument();
    const callId = d.requests[0].callId;

    fake.emit('mcp:progress', { callId: 'someone-else', progress: 9, total: 10 });
    fake.emit('mcp:progress', { callId, progress: 3, total: 10 });
    await waitFor(() => expect(screen.getByTestId('tool-progress')).toHaveAttribute('data-mode', 'determinate'));
    expect(screen.getByTestId('tool-progress')).toHaveAttribute('aria-valuenow', '3');
    expect(screen.getByTestId('tool-progress')).toHaveAttribute('aria-valuemax', '10');
    expect(screen.getByTestId('tool-progress')).toHaveTextContent('3 of 10');

    fake.emit('mcp:progress', { callId, progress: 4, message: 'Downloading…' });
    await waitFor(() => expect(screen.getByTestId('tool-progress')).toHaveTextContent('Downloading…'));
    expect(screen.getByTestId('tool-progress')).toHaveAttribute('data-mode', 'indeterminate');

    await user.click(screen.getByTestId('tool-stop'));
    expect(fake.callsOf('CancelCall')).toEqual([[callId]]);
    expect(await screen.findByTestId('tool-call-cancelled')).toHaveTextContent('cancelled');
    expect(screen.queryByTestId('tool-progress')).not.toBeInTheDocument();
    expect(screen.getByTestId('tool-run')).toBeInTheDocument();
  });

  it('shows a tool error result in red, and a failed call apart from it', async () => {
    const { user, fake } = await openTools({
      servers: [everything],
      tools: { everything: [echo] },
      callTool: async () => outcome({ content: [{ type: 'text', text: 'Disk **full**' }], isError: true }),
    });
    await pick(user, 'echo');
    await user.type(input('message'), 'hi');
    await user.click(screen.getByTestId('tool-run'));
    const result = await screen.findByTestId('tool-result');
    expect(result).toHaveAttribute('data-error', 'true');
    expect(within(result).getByTestId('tool-result-error')).toHaveTextContent('The tool reported an error');
    expect(within(result).getByTestId('result-markdown').querySelector('strong')).toHaveTextContent('full');
    await user.click(within(result).getByTestId('result-view-raw'));
    expect(within(result).getByTestId('result-text')).toHaveTextContent('Disk **full**');

    fake.failNext('CallTool', 'server "everything" is not connected');
    await user.click(screen.getByTestId('tool-run'));
    expect(await screen.findByTestId('tool-call-error')).toHaveTextContent('server "everything" is not connected');
  });

  it('renders images, audio, resource links and embedded resources', async () => {
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
    const { user } = await openTools({
      servers: [everything],
      tools: { everything: [echo] },
      callTool: async () =>
        outcome({
          content: [
            { type: 'image', data: png, mimeType: 'image/png' },
            { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' },
            { type: 'resource_link', uri: 'file:///tmp/a.txt', name: 'a.txt', description: 'A file', mimeType: 'text/plain' },
            { type: 'resource', resource: { uri: 'mem://note', mimeType: 'text/plain', text: 'embedded words' } },
            { type: 'resource', resource: { uri: 'mem://bin', mimeType: 'application/octet-stream', blob: 'AAECAw==' } },
          ],
        }),
    });
    await pick(user, 'echo');
    await user.type(input('message'), 'hi');
    await user.click(screen.getByTestId('tool-run'));
    const result = await screen.findByTestId('tool-result');
    const items = within(result).getAllByTestId('result-content');
    expect(items.map((i) => i.dataset.type)).toEqual(['image', 'audio', 'resource_link', 'resource', 'resource']);
    expect(items[0].querySelector('img')).toHaveAttribute('src', `data:image/png;base64,${png}`);
    expect(items[1].querySelector('audio')).toHaveAttribute('src', 'data:audio/wav;base64,UklGRg==');
    expect(items[2]).toHaveTextContent('a.txt');
    expect(items[2]).toHaveTextContent('file:///tmp/a.txt');
    expect(items[2]).toHaveTextContent('A file');
    expect(items[3]).toHaveTextContent('embedded words');
    expect(items[4]).toHaveTextContent('4 B');
    expect(within(items[4]).getByTestId('resource-download')).toBeInTheDocument();
  });

  it('validates structuredContent against the output schema', async () => {
    let structured: Record<string, unknown> | undefined = { temp: 21.5, unit: 'C' };
    const { user } = await openTools({
      servers: [everything],
      tools: { everything: [weather] },
      callTool: async () => outcome({ content: [{ type: 'text', text: 'ok' }], structuredContent: structured }),
    });
    await pick(user, 'weather');
    await user.click(screen.getByTestId('tool-run'));
    await screen.findByTestId('tool-result');
    expect(screen.getByTestId('structured-tree')).toHaveTextContent('"temp"');
    expect(screen.getByTestId('structured-tree')).toHaveTextContent('21.5');
    expect(screen.getByTestId('output-validation')).toHaveAttribute('data-state', 'valid');
    expect(screen.getByTestId('output-validation')).toHaveTextContent("matches the tool's output schema");

    structured = { temp: 'hot', unit: 'K' };
    await user.click(screen.getByTestId('tool-run'));
    await waitFor(() => expect(screen.getByTestId('output-validation')).toHaveAttribute('data-state', 'invalid'));
    const report = screen.getByTestId('output-validation');
    expect(report).toHaveTextContent('2 problems');
    expect(report).toHaveTextContent('/temp');
    expect(report).toHaveTextContent('Must be number.');
    expect(report).toHaveTextContent('/unit');

    structured = undefined;
    await user.click(screen.getByTestId('tool-run'));
    await waitFor(() => expect(screen.getByTestId('output-validation')).toHaveAttribute('data-state', 'missing'));
    expect(screen.queryByTestId('structured-tree')).not.toBeInTheDocument();
  });

  it('shows a 10 MB text result cut, with Show all and copy', async () => {
    const huge = 'x'.repeat(10 * 1024 * 1024);
    const { user, fake } = await openTools({
      servers: [everything],
      tools: { everything: [echo] },
      callTool: async () => outcome({ content: [{ type: 'text', text: huge }] }),
    });
    await pick(user, 'echo');
    await user.type(input('message'), 'hi');
    await user.click(screen.getByTestId('tool-run'));
    const result = await screen.findByTestId('tool-result');
    expect(within(result).getByTestId('result-show-all')).toHaveTextContent('Show all (10 MB)');
    expect(within(result).getByTestId('result-text').textContent!.length).toBeLessThanOrEqual(100_000);
    expect(within(result).queryByTestId('result-markdown')).not.toBeInTheDocument();
    await user.click(within(result).getByRole('button', { name: 'Copy all' }));
    expect(fake.copied.at(-1)!.length).toBe(huge.length);
  });

  it('keeps a history of runs per tool; a past run restores its arguments and result', async () => {
    let n = 0;
    const { user } = await openTools({
      servers: [everything],
      tools: { everything: [echo] },
      callTool: async (req) => outcome({ content: [{ type: 'text', text: `run ${++n}: ${req.arguments.message}` }] }),
    });
    await pick(user, 'echo');
    await user.type(input('message'), 'first');
    await user.click(screen.getByTestId('tool-run'));
    await waitFor(() => expect(screen.getByTestId('tool-result')).toHaveTextContent('run 1: first'));
    await user.clear(input('message'));
    await user.type(input('message'), 'second');
    await user.click(screen.getByTestId('tool-run'));
    await waitFor(() => expect(screen.getByTestId('tool-result')).toHaveTextContent('run 2: second'));

    await user.click(screen.getByTestId('tool-tab-history'));
    const items = screen.getAllByTestId('tool-history-item');
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent('"second"');
    await user.click(items[1]);
    expect(screen.getByTestId('tool-result')).toHaveTextContent('run 1: first');
    expect(input('message')).toHaveValue('first');

    // Another tool and back: the form and history are kept.
    await user.click(screen.getByTestId('tool-item-echo'));
    expect(screen.getByTestId('tool-tab-history')).toHaveTextContent('History (2)');
  });

  it('re-fetches the list on mcp:list-changed and after a reconnect', async () => {
    const { fake } = await openTools({ servers: [everything], tools: { everything: [echo, remove, weather] } });
    fake.tools.everything = [echo, { name: 'added', description: 'New tool', inputSchema: { type: 'object' } }];
    fake.emit('mcp:list-changed', { server: 'everything', kind: 'resources' });
    fake.emit('mcp:list-changed', { server: 'everything', kind: 'tools' });
    expect(await screen.findByTestId('tool-item-added')).toBeInTheDocument();
    expect(screen.queryByTestId('tool-item-weather')).not.toBeInTheDocument();
    expect(fake.callsOf('ListTools')).toEqual([['everything'], ['everything']]);

    fake.tools.everything = [echo];
    fake.setStatus('everything', { state: 'restarting' });
    await screen.findByTestId('tools-server-state');
    fake.setStatus('everything', { state: 'connected' });
    await waitFor(() => expect(screen.queryByTestId('tool-item-added')).not.toBeInTheDocument());
    expect(fake.callsOf('ListTools')).toHaveLength(3);
  });

  it('switches servers and remembers the choice', async () => {
    const { user, fake } = await openTools();
    await user.selectOptions(screen.getByTestId('tools-server-select'), 'other');
    expect(await screen.findByTestId('tools-empty')).toHaveTextContent('“other” offers no tools.');
    expect(fake.callsOf('ListTools')).toEqual([['everything'], ['other']]);
    expect(fake.uiStore.get('inspector.server')).toBe('other');
  });

  it('explains what to do when no server is connected', async () => {
    const { user } = renderApp({ servers: [{ ...everything, status: status({ id: 'everything', state: 'failed' }) }] });
    await screen.findByTestId('server-everything');
    await go(user, 'tools');
    expect(screen.getByTestId('empty-tools')).toHaveTextContent('No server is connected');
    await user.click(screen.getByTestId('empty-go-servers'));
    expect(screen.getByTestId('nav-servers')).toHaveAttribute('aria-current', 'page');
  });
});
