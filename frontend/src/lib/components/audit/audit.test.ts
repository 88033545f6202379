import { screen, waitFor, within } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AuditEntry, AuditQuery } from '../../api';
import { spec, type FakeBackend, type FakeOptions } from '../../../test/fakes/fake';
import { auditEntry } from '../../../test/fakes/fakeUsage';
import type { ToolCall } from '../../api/chatTypes';
import { go, renderApp } from '../../../test/app';

vi.mock('uplot', () => ({ default: class { static paths = { bars: () => () => null }; destroy() {} } }));

const NOW = new Date(2026, 2, 15, 12);
const toolCall: ToolCall = { id: 'c1', name: 'everything__echo', arguments: '{}', server: 'everything', tool: 'echo', status: 'done' };
const at = (d: number, h = 10, m = 0) => new Date(2026, 2, d, h, m).toISOString();

const ENTRIES: AuditEntry[] = [
  auditEntry({
    id: 1,
    time: at(15, 11),
    source: 'chat',
    conversationId: 1,
    server: 'everything',
    tool: 'echo',
    arguments: JSON.stringify({ message: 'hello world', times: 2 }),
    durationMs: 42,
    status: 'ok',
    output: 'hello world hello world',
    outputTruncated: true,
    approval: 'always',
  }),
  auditEntry({
    id: 2,
    time: at(14),
    source: 'tools',
    server: 'github',
    tool: 'search_issues',
    arguments: JSON.stringify({ q: 'is:open' }),
    durationMs: 1500,
    status: 'error',
    output: '',
    error: 'MCP error -32602: Invalid params',
    approval: 'user',
  }),
  auditEntry({ id: 3, time: at(1), source: 'cli', server: 'everything', tool: 'add', arguments: JSON.stringify({ a: 1, b: 2 }), status: 'ok', output: '3', approval: 'cli' }),
  auditEntry({ id: 4, time: at(13), source: 'chat', server: 'everything', tool: 'longRunning', arguments: JSON.stringify({ duration: 10, steps: 5 }), status: 'declined', output: '', approval: 'never' }),
  auditEntry({ id: 5, time: at(12), source: 'chat', server: 'github', tool: 'create_issue', arguments: JSON.stringify({ title: 'Bug' }),
    argumentsTruncated: true, status: 'timeout', output: '', error: 'no answer within 60 s', approval: 'server-auto' }),
];

/** many builds n entries, one a minute back from the 15th at noon. */
const many = (n: number) =>
  Array.from({ length: n }, (_, i) => auditEntry({ id: i + 1, time: new Date(NOW.getTime() - (i + 1) * 60_000).toISOString(), tool: `tool${i + 1}` }));

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
});

afterEach(() => {
  vi.useRealTimers();
});

async function openAudit(o: FakeOptions = {}) {
  const r = renderApp({
    servers: [spec({ id: 'everything', command: 'x' }), spec({ id: 'github', type: 'http', url: 'https://example.test/mcp' })],
    chat: { conversations: [{ conversation: { id: 1, title: 'Echo test' } }] },
    usage: { audit: ENTRIES },
    ...o,
  });
  await go(r.user, 'usage');
  // The screen is a chunk of its own, imported when first opened.
  await r.user.click(await screen.findByTestId('usage-tab-audit', {}, { timeout: 5000 }));
  await screen.findByTestId('audit-log');
  return r;
}

const queries = (fake: FakeBackend) => fake.callsOf('usage.Audit').map((a) => a[0] as AuditQuery);
const lastQuery = (fake: FakeBackend) => queries(fake).at(-1)!;
const rows = () => screen.queryAllByTestId('audit-row');
const ids = () => rows().map((r) => Number(r.dataset.id));

describe('Audit log: table', () => {
  it('lists tool calls newest first with source, server › tool, status, duration and approval', async () => {
    const { fake } = await openAudit();
    await waitFor(() => expect(ids()).toEqual([1, 2, 4, 5, 3]));
    expect(lastQuery(fake)).toEqual({
      from: '',
      to: '',
      tzOffsetMinutes: -NOW.getTimezoneOffset() || 0,
      server: '',
      tool: '',
      status: '',
      source: '',
      text: '',
      limit: 50,
      offset: 0,
    });
    const first = within(rows()[0]);
    expect(first.getByTestId('audit-source')).toHaveTextContent('Chat');
    expect(first.getByTestId('audit-call')).toHaveTextContent('everything›echo');
    expect(first.getByTestId('audit-status')).toHaveTextContent('OK');
    expect(first.getByTestId('audit-duration')).toHaveTextContent('42 ms');
    expect(first.getByTestId('audit-approval')).toHaveTextContent('Always allowed');
    const second = within(rows()[1]);
    expect(second.getByTestId('audit-source')).toHaveTextContent('Tools');
    expect(second.getByTestId('audit-status')).toHaveAttribute('data-status', 'error');
    expect(second.getByTestId('audit-duration')).toHaveTextContent('1.5 sec');
    expect(second.getByTestId('audit-approval')).toHaveTextContent('Run by you (Tools)');
    expect(within(rows()[2]).getByTestId('audit-approval')).toHaveTextContent('Blocked (never allow)');
    expect(within(rows()[3]).getByTestId('audit-approval')).toHaveTextContent('Server auto-approved');
    expect(within(rows()[4]).getByTestId('audit-source')).toHaveTextContent('CLI');
    expect(screen.getByTestId('audit-count')).toHaveTextContent('1–5 of 5');
  });

  it('opens a row to show its arguments as a JSON tree and its truncated output, and another with its error', async () => {
    const { user, stores } = await openAudit();
    await waitFor(() => expect(rows()).toHaveLength(5));
    expect(screen.queryByTestId('audit-detail')).toBeNull();
    const toggle = within(rows()[0]).getByTestId('audit-toggle');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const detail = within(screen.getByTestId('audit-detail'));
    const tree = detail.getByTestId('audit-arguments');
    expect(tree).toHaveAttribute('role', 'tree');
    expect(tree).toHaveTextContent('message');
    expect(tree).toHaveTextContent('"hello world"');
    expect(detail.getByTestId('audit-output')).toHaveTextContent('hello world hello world');
    expect(detail.getByTestId('audit-truncated')).toHaveTextContent('cut at the audit log');
    expect(screen.getByTestId('audit-detail')).toHaveTextContent('The tool is on the “always allowed” list.');

    await user.click(within(rows()[1]).getByTestId('audit-toggle'));
    const details = screen.getAllByTestId('audit-detail');
    expect(details).toHaveLength(2);
    expect(within(details[1]).getByTestId('audit-error')).toHaveTextContent('MCP error -32602: Invalid params');
    expect(within(details[1]).queryByTestId('audit-open-conversation')).toBeNull();

    // A chat call links to its conversation.
    await user.click(detail.getByTestId('audit-open-conversation'));
    expect(screen.getByTestId('nav-chat')).toHaveAttribute('aria-current', 'page');
    await waitFor(() => expect(stores.chat.current?.id).toBe(1));
  });

  it('pages through the log', async () => {
    const { fake, user } = await openAudit({ usage: { audit: many(120) } });
    await waitFor(() => expect(rows()).toHaveLength(50));
    expect(screen.getByTestId('audit-count')).toHaveTextContent('1–50 of 120');
    expect(screen.getByTestId('audit-page')).toHaveTextContent('Page 1 of 3');
    expect(screen.getByTestId('audit-prev')).toBeDisabled();
    await user.click(screen.getByTestId('audit-next'));
    await waitFor(() => expect(ids()[0]).toBe(51));
    expect(lastQuery(fake)).toMatchObject({ offset: 50, limit: 50 });
    expect(screen.getByTestId('audit-count')).toHaveTextContent('51–100 of 120');
    await user.click(screen.getByTestId('audit-next'));
    await waitFor(() => expect(rows()).toHaveLength(20));
    expect(screen.getByTestId('audit-next')).toBeDisabled();
    expect(screen.getByTestId('audit-count')).toHaveTextContent('101–120 of 120');
    await user.click(screen.getByTestId('audit-prev'));
    await waitFor(() => expect(lastQuery(fake)).toMatchObject({ offset: 50 }));
    // A filter starts again at the first page.
    await user.selectOptions(screen.getByTestId('audit-filter-status'), 'ok');
    await waitFor(() => expect(lastQuery(fake)).toMatchObject({ status: 'ok', offset: 0 }));
  });

  it('reloads the first page when a chat\'s tool call ends', async () => {
    const { fake } = await openAudit();
    await waitFor(() => expect(rows()).toHaveLength(5));
    fake.usage.recordToolCall(auditEntry({ id: 9, time: at(15, 11, 30), tool: 'fresh' }));
    fake.emit('chat:tool-call', { conversationId: 1, turnId: 't', messageId: 1, call: { ...toolCall, status: 'running' }, seq: 1 });
    await new Promise((r) => setTimeout(r, 400));
    expect(ids()[0]).toBe(1);
    fake.emit('chat:tool-call', { conversationId: 1, turnId: 't', messageId: 1, call: { ...toolCall, status: 'done' }, seq: 2 });
    await waitFor(() => expect(ids()[0]).toBe(9));
  });

  it('shows arguments that are not JSON (cut at the limit) as text', async () => {
    const { user } = await openAudit({ usage: { audit: [auditEntry({ id: 1, arguments: '{"query": "SELECT * FROM ord', argumentsTruncated: true })] } });
    await user.click(await screen.findByTestId('audit-toggle'));
    expect(screen.getByTestId('audit-arguments').tagName).toBe('PRE');
    expect(screen.getByTestId('audit-arguments')).toHaveTextContent('{"query": "SELECT * FROM ord');
    expect(screen.getByTestId('audit-arguments-truncated')).toBeInTheDocument();
  });
});

describe('Audit log: filters', () => {
  it('sends server, tool, status, source, text and range in the query', async () => {
    const { fake, user } = await openAudit();
    await waitFor(() => expect(rows()).toHaveLength(5));

    await user.selectOptions(screen.getByTestId('audit-filter-server'), 'github');
    await waitFor(() => expect(ids()).toEqual([2, 5]));
    expect(lastQuery(fake)).toMatchObject({ server: 'github', offset: 0 });

    await user.selectOptions(screen.getByTestId('audit-filter-status'), 'error');
    await waitFor(() => expect(ids()).toEqual([2]));
    expect(lastQuery(fake)).toMatchObject({ server: 'github', status: 'error' });

    await user.click(screen.getByTestId('audit-clear-filters'));
    await waitFor(() => expect(rows()).toHaveLength(5));
    expect(lastQuery(fake)).toMatchObject({ server: '', status: '', source: '', text: '', tool: '' });

    await user.selectOptions(screen.getByTestId('audit-filter-source'), 'cli');
    await waitFor(() => expect(ids()).toEqual([3]));
    expect(lastQuery(fake)).toMatchObject({ source: 'cli' });
    await user.selectOptions(screen.getByTestId('audit-filter-source'), '');

    await user.type(screen.getByTestId('audit-filter-text'), 'hello');
    await waitFor(() => expect(lastQuery(fake)).toMatchObject({ text: 'hello' }));
    await waitFor(() => expect(ids()).toEqual([1]));
    await user.clear(screen.getByTestId('audit-filter-text'));

    // A tool name applies on Enter or when the field is left: Go matches it exactly.
    await user.type(screen.getByTestId('audit-filter-tool'), 'search_issues');
    expect(queries(fake).some((q) => q.tool)).toBe(false);
    await user.keyboard('{Enter}');
    await waitFor(() => expect(lastQuery(fake)).toMatchObject({ tool: 'search_issues', text: '' }));
    await waitFor(() => expect(ids()).toEqual([2]));
    await user.clear(screen.getByTestId('audit-filter-tool'));
    await user.tab();
    await waitFor(() => expect(lastQuery(fake)).toMatchObject({ tool: '' }));

    await user.click(screen.getByTestId('audit-range-7d'));
    await waitFor(() => expect(lastQuery(fake)).toMatchObject({ from: '2026-03-09', to: '2026-03-15' }));
    await waitFor(() => expect(ids()).toEqual([1, 2, 4, 5]));
    await user.click(screen.getByTestId('audit-range-today'));
    await waitFor(() => expect(ids()).toEqual([1]));
    await user.click(screen.getByTestId('audit-range-all'));
    await waitFor(() => expect(lastQuery(fake)).toMatchObject({ from: '', to: '' }));
  });

  it('says when nothing matches and clears the filters from there', async () => {
    const { fake, user } = await openAudit();
    await waitFor(() => expect(rows()).toHaveLength(5));
    await user.type(screen.getByTestId('audit-filter-text'), 'nothing like this');
    const empty = await screen.findByTestId('audit-empty-filtered');
    expect(empty).toHaveTextContent('No tool calls match');
    await user.click(within(empty).getByTestId('audit-empty-clear'));
    await waitFor(() => expect(rows()).toHaveLength(5));
    expect(screen.getByTestId('audit-filter-text')).toHaveValue('');
    expect(lastQuery(fake).text).toBe('');
  });
});

describe('Audit log: empty', () => {
  it('explains what is audited before any tool call', async () => {
    const { user } = await openAudit({ usage: {} });
    const empty = await screen.findByTestId('audit-empty');
    expect(empty).toHaveTextContent('No tool calls yet');
    expect(empty).toHaveTextContent('from a chat, from the Tools screen and from the command line');
    expect(empty).toHaveTextContent('how it was approved');
    await user.click(within(empty).getByTestId('audit-empty-tools'));
    expect(screen.getByTestId('nav-tools')).toHaveAttribute('aria-current', 'page');
  });

  it('shows Go\'s error with a retry', async () => {
    const { fake, user } = await openAudit({ usage: { audit: ENTRIES } });
    await waitFor(() => expect(rows()).toHaveLength(5));
    fake.failNext('usage.Audit', 'audit: database is locked');
    await user.click(screen.getByTestId('audit-refresh'));
    expect(await screen.findByTestId('audit-error-banner')).toHaveTextContent('audit: database is locked');
  });
});

describe('Audit log in Chinese', () => {
  it('translates the table and the empty state', async () => {
    const zh = { prefs: { theme: 'system' as const, language: 'zh-CN' as const } };
    await openAudit(zh);
    await waitFor(() => expect(rows()).toHaveLength(5));
    const first = within(rows()[0]);
    expect(first.getByTestId('audit-source')).toHaveTextContent('聊天');
    expect(first.getByTestId('audit-status')).toHaveTextContent('成功');
    expect(first.getByTestId('audit-approval')).toHaveTextContent('始终允许');
    expect(screen.getByTestId('audit-count')).toHaveTextContent('第 1–5 条，共 5 条');
    expect(screen.getByTestId('audit-range-all')).toHaveTextContent('全部');
  });

  it('explains the empty log in Chinese', async () => {
    await openAudit({ usage: {}, prefs: { theme: 'system', language: 'zh-CN' } });
    expect(await screen.findByTestId('audit-empty')).toHaveTextContent('还没有工具调用');
  });
});
