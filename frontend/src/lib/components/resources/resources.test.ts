import { fireEvent, screen, waitFor, within } from '@testing-library/svelte';
import { describe, expect, it, vi } from 'vitest';
import type { ReadResourceResult, Resource, ResourceTemplate } from '../../api';
import { spec, status, type FakeOptions } from '../../../test/fakes/fake';
import { go, renderApp } from '../../../test/app';
import { TEXT_LIMIT } from '../inspector/preview';

const res = (n: number): Resource => ({ uri: `test://static/${n}`, name: `res-${n}`, mimeType: 'text/plain' });
const many = (count: number) => Array.from({ length: count }, (_, i) => res(i + 1));
const itemIds = () =>
  screen.queryAllByTestId(/^resource-item-/).map((el) => el.getAttribute('data-testid')!.slice('resource-item-'.length));

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

const KINDS: Resource[] = [
  { uri: 'file:///notes.txt', name: 'notes.txt', mimeType: 'text/plain' },
  { uri: 'file:///config.json', name: 'config.json', mimeType: 'application/json' },
  { uri: 'file:///README.md', name: 'README.md', mimeType: 'text/markdown' },
  { uri: 'file:///logo.png', name: 'logo.png', mimeType: 'image/png' },
  { uri: 'file:///archive.zip', name: 'archive.zip', mimeType: 'application/zip' },
];

function readKinds(_server: string, uri: string): ReadResourceResult {
  switch (uri) {
    case 'file:///notes.txt':
      return { contents: [{ uri, mimeType: 'text/plain', text: 'just some notes' }] };
    case 'file:///config.json':
      return { contents: [{ uri, mimeType: 'application/json', text: '{"name":"desk","port":8080,"on":true}' }] };
    case 'file:///README.md':
      return { contents: [{ uri, mimeType: 'text/markdown', text: '# Hello\n\n**bold** <script>alert(1)</script>' }] };
    case 'file:///logo.png':
      return { contents: [{ uri, mimeType: 'image/png', blob: PNG }] };
    case 'file:///archive.zip':
      return { contents: [{ uri, mimeType: 'application/zip', blob: btoa('PK\u0003\u0004 zip bytes') }] };
    default:
      throw `resource ${uri} not found`;
  }
}

function setup(o: FakeOptions = {}) {
  return renderApp({
    servers: [spec({ id: 'a', command: 'x' })],
    ...o,
  });
}

describe('Resources screen', () => {
  it('without a connected server says so and leads to Servers', async () => {
    const { user, fake } = renderApp({
      servers: [{ spec: spec({ id: 'a', command: 'x' }), status: status({ id: 'a', state: 'failed', error: 'boom' }) }],
    });
    await go(user, 'resources');
    const empty = await screen.findByTestId('empty-resources');
    expect(empty).toHaveTextContent('No connected server');
    expect(fake.callsOf('ListResources')).toEqual([]);
    await user.click(screen.getByTestId('empty-go-servers'));
    expect(screen.getByTestId('nav-servers')).toHaveAttribute('aria-current', 'page');
  });

  it('pages through 120 resources 50 at a time with Load more', async () => {
    const { user, fake } = setup({ resources: { a: many(120) }, pageSize: 50 });
    await go(user, 'resources');
    await screen.findByTestId('resource-item-test://static/50');
    expect(itemIds()).toHaveLength(50);
    expect(screen.getByTestId('resources-summary')).toHaveTextContent('50+ resources');

    await user.click(screen.getByTestId('resources-load-more'));
    await screen.findByTestId('resource-item-test://static/100');
    expect(itemIds()).toHaveLength(100);

    await user.click(screen.getByTestId('resources-load-more'));
    await screen.findByTestId('resource-item-test://static/120');
    expect(itemIds()).toEqual(many(120).map((r) => r.uri));
    expect(screen.queryByTestId('resources-load-more')).toBeNull();
    expect(screen.getByTestId('resources-summary')).toHaveTextContent('120 resources');
    expect(fake.callsOf('ListResources')).toEqual([
      ['a', ''],
      ['a', '50'],
      ['a', '100'],
    ]);
  });

  it('keeps what is loaded when a further page fails, and retries with Load more', async () => {
    const { user, fake } = setup({ resources: { a: many(60) }, pageSize: 50 });
    await go(user, 'resources');
    await screen.findByTestId('resource-item-test://static/50');
    fake.failNext('ListResources', 'invalid cursor');
    await user.click(screen.getByTestId('resources-load-more'));
    expect(await screen.findByTestId('resources-more-error')).toHaveTextContent('invalid cursor');
    expect(itemIds()).toHaveLength(50);
    await user.click(screen.getByTestId('resources-load-more'));
    await screen.findByTestId('resource-item-test://static/60');
    expect(screen.queryByTestId('resources-more-error')).toBeNull();
  });

  it('searches what is loaded and says when nothing matches', async () => {
    const { user } = setup({
      resources: { a: [...many(3), { uri: 'db://users', name: 'users', description: 'All the people' }] },
      templates: { a: [{ name: 'user', uriTemplate: 'db://users/{id}' }] },
    });
    await go(user, 'resources');
    await screen.findByTestId('resource-item-db://users');
    await user.type(screen.getByTestId('resources-search'), 'people');
    expect(itemIds()).toEqual(['db://users']);
    expect(screen.queryByTestId('template-item-user')).toBeNull();

    await user.clear(screen.getByTestId('resources-search'));
    await user.type(screen.getByTestId('resources-search'), 'users/{{');
    expect(itemIds()).toEqual([]);
    expect(screen.getByTestId('template-item-user')).toBeInTheDocument();

    await user.clear(screen.getByTestId('resources-search'));
    await user.type(screen.getByTestId('resources-search'), 'zzz');
    expect(screen.getByTestId('resources-no-match')).toHaveTextContent('zzz');
    await user.click(within(screen.getByTestId('resources-no-match')).getByRole('button'));
    expect(itemIds()).toHaveLength(4);
  });

  it('folds a section so the other stays in reach', async () => {
    const { user } = setup({ resources: { a: many(3) }, templates: { a: [{ name: 'user', uriTemplate: 'db://users/{id}' }] } });
    await go(user, 'resources');
    await screen.findByTestId('resource-item-test://static/3');
    const toggle = screen.getByTestId('resources-section-toggle');
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(itemIds()).toEqual([]);
    expect(screen.getByTestId('template-item-user')).toBeInTheDocument();
    // A search shows every section.
    await user.type(screen.getByTestId('resources-search'), 'static/2');
    expect(itemIds()).toEqual(['test://static/2']);
    await user.clear(screen.getByTestId('resources-search'));
    await user.click(toggle);
    expect(itemIds()).toHaveLength(3);
  });

  it('says when the server offers no resources', async () => {
    const { user } = setup({ resources: { a: [] } });
    await go(user, 'resources');
    expect(await screen.findByTestId('resources-empty')).toHaveTextContent('“a” offers no resources');
  });

  it('shows a listing error as Go sent it, with Retry', async () => {
    const { user, fake } = setup({ resources: { a: many(2) } });
    fake.failNext('ListResources', 'server does not support resources');
    await go(user, 'resources');
    const err = await screen.findByTestId('resources-list-error');
    expect(err).toHaveTextContent('server does not support resources');
    await user.click(within(err).getByRole('button', { name: 'Retry' }));
    await screen.findByTestId('resource-item-test://static/1');
    expect(screen.queryByTestId('resources-list-error')).toBeNull();
  });

  it('previews text, JSON, markdown, images and binary by MIME type', async () => {
    const { user, fake } = setup({ resources: { a: KINDS }, readResult: readKinds });
    await go(user, 'resources');

    await user.click(await screen.findByTestId('resource-item-file:///notes.txt'));
    let content = await screen.findByTestId('resource-content');
    expect(content).toHaveAttribute('data-kind', 'text');
    expect(screen.getByTestId('resource-text')).toHaveTextContent('just some notes');
    expect(screen.getByTestId('resource-mime')).toHaveTextContent('text/plain');
    expect(screen.getByTestId('resource-size')).toHaveTextContent('15 B');
    expect(fake.callsOf('ReadResource')).toEqual([['a', 'file:///notes.txt']]);
    // Wrap toggle and copy.
    const wrap = screen.getByTestId('resource-wrap');
    expect(wrap).toHaveAttribute('aria-pressed', 'true');
    await user.click(wrap);
    expect(wrap).toHaveAttribute('aria-pressed', 'false');
    expect(screen.getByTestId('resource-text')).toHaveClass('nowrap');
    await user.click(screen.getByTestId('resource-copy'));
    expect(fake.copied).toEqual(['just some notes']);

    await user.click(screen.getByTestId('resource-item-file:///config.json'));
    await waitFor(() => expect(screen.getByTestId('resource-content')).toHaveAttribute('data-kind', 'json'));
    const pre = screen.getByTestId('resource-text');
    expect(pre.textContent).toBe('{\n  "name": "desk",\n  "port": 8080,\n  "on": true\n}');
    expect(pre.querySelector('.j-key')).toHaveTextContent('"name"');
    await user.click(screen.getByTestId('resource-view-source'));
    expect(screen.getByTestId('resource-text').textContent).toBe('{"name":"desk","port":8080,"on":true}');

    await user.click(screen.getByTestId('resource-item-file:///README.md'));
    await waitFor(() => expect(screen.getByTestId('resource-content')).toHaveAttribute('data-kind', 'markdown'));
    const md = screen.getByTestId('resource-markdown');
    expect(md.querySelector('h1')).toHaveTextContent('Hello');
    expect(md.querySelector('strong')).toHaveTextContent('bold');
    expect(md.querySelector('script')).toBeNull();

    await user.click(screen.getByTestId('resource-item-file:///logo.png'));
    await waitFor(() => expect(screen.getByTestId('resource-content')).toHaveAttribute('data-kind', 'image'));
    const img = within(screen.getByTestId('resource-preview')).getByRole('img');
    expect(img).toHaveAttribute('src', `data:image/png;base64,${PNG}`);
    expect(screen.queryByTestId('resource-copy')).toBeNull();

    await user.click(screen.getByTestId('resource-item-file:///archive.zip'));
    await waitFor(() => expect(screen.getByTestId('resource-content')).toHaveAttribute('data-kind', 'binary'));
    content = screen.getByTestId('resource-content');
    expect(within(content).getByTestId('resource-binary')).toHaveTextContent('Binary content');
    expect(within(content).getByTestId('resource-binary')).toHaveTextContent('14 B');
  });

  it('downloads a blob under the resource name', async () => {
    const created: Blob[] = [];
    const clicks: Array<{ href: string; download: string }> = [];
    const urlCreate = vi.fn((b: Blob) => {
      created.push(b);
      return 'blob:mcpdesk/1';
    });
    Object.assign(URL, { createObjectURL: urlCreate, revokeObjectURL: vi.fn() });
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push({ href: this.getAttribute('href')!, download: this.download });
    });
    const { user } = setup({ resources: { a: KINDS }, readResult: readKinds });
    await go(user, 'resources');
    await user.click(await screen.findByTestId('resource-item-file:///archive.zip'));
    await user.click(await screen.findByTestId('resource-download'));
    expect(clicks).toEqual([{ href: 'blob:mcpdesk/1', download: 'archive.zip' }]);
    expect(created[0].size).toBe(14);
    expect(created[0].type).toBe('application/zip');
  });

  it('shows the raw JSON of a read on request', async () => {
    const { user } = setup({ resources: { a: KINDS }, readResult: readKinds });
    await go(user, 'resources');
    await user.click(await screen.findByTestId('resource-item-file:///notes.txt'));
    const raw = await screen.findByTestId('resource-raw');
    expect(raw).not.toHaveAttribute('open');
    await user.click(within(raw).getByText('Raw JSON'));
    const json = await screen.findByTestId('resource-raw-json');
    expect(JSON.parse(json.textContent!)).toEqual(readKinds('a', 'file:///notes.txt'));
  });

  it('cuts text over 1 MB until Show all', async () => {
    const big = 'x'.repeat(TEXT_LIMIT * 1.5);
    const { user } = setup({
      resources: { a: [res(1)] },
      readResult: (_s, uri) => ({ contents: [{ uri, mimeType: 'text/plain', text: big }] }),
    });
    await go(user, 'resources');
    await user.click(await screen.findByTestId('resource-item-test://static/1'));
    expect(await screen.findByTestId('resource-truncated')).toHaveTextContent('Showing the first 1 MB of 1.5 MB');
    expect(screen.getByTestId('resource-text').textContent).toHaveLength(TEXT_LIMIT);
    await user.click(screen.getByTestId('resource-show-all'));
    expect(screen.getByTestId('resource-text').textContent).toHaveLength(TEXT_LIMIT * 1.5);
    expect(screen.queryByTestId('resource-truncated')).toBeNull();
  });

  it('shows a read error as Go sent it', async () => {
    const { user, fake } = setup({ resources: { a: [res(1)] } });
    await go(user, 'resources');
    fake.failNext('ReadResource', 'resource test://static/1: permission denied');
    await user.click(await screen.findByTestId('resource-item-test://static/1'));
    expect(await screen.findByTestId('resource-read-error')).toHaveTextContent('resource test://static/1: permission denied');
    await user.click(screen.getByTestId('resource-reread'));
    expect(await screen.findByTestId('resource-preview')).toHaveTextContent('contents of test://static/1');
  });

  it('subscribes to a resource, shows updates live and re-reads it', async () => {
    let version = 1;
    const { user, fake } = renderApp({
      servers: [{ spec: spec({ id: 'a', command: 'x' }), status: status({ id: 'a', state: 'connected', canSubscribe: true }) }],
      resources: { a: [res(1), res(2)] },
      readResult: (_s, uri) => ({ contents: [{ uri, mimeType: 'text/plain', text: `version ${version}` }] }),
    });
    await go(user, 'resources');
    await user.click(await screen.findByTestId('resource-item-test://static/1'));
    expect(await screen.findByTestId('resource-text')).toHaveTextContent('version 1');
    const btn = screen.getByTestId('resource-subscribe');
    expect(btn).toHaveAttribute('data-subscribed', 'false');
    expect(screen.queryByTestId('resource-live')).toBeNull();
    await user.click(btn);
    await waitFor(() => expect(btn).toHaveAttribute('data-subscribed', 'true'));
    expect(fake.callsOf('SubscribeResource')).toEqual([['a', 'test://static/1']]);
    expect(screen.getByTestId('resource-live')).toHaveAttribute('data-count', '0');

    // An update of another resource or server is counted apart; this one re-reads.
    fake.updateResource('b', 'test://static/1');
    fake.updateResource('a', 'test://static/2');
    version = 2;
    fake.updateResource('a', 'test://static/1', Date.UTC(2026, 10, 23, 8, 0, 0));
    await waitFor(() => expect(screen.getByTestId('resource-text')).toHaveTextContent('version 2'));
    expect(screen.getByTestId('resource-live')).toHaveAttribute('data-count', '1');
    expect(fake.callsOf('ReadResource').filter(([, u]) => u === 'test://static/1')).toHaveLength(2);
    expect(fake.callsOf('ReadResource').filter(([, u]) => u === 'test://static/2')).toHaveLength(0);

    // An update that arrives while the user is on another screen counts too.
    await go(user, 'tools');
    version = 3;
    fake.updateResource('a', 'test://static/1');
    await go(user, 'resources');
    await waitFor(() => expect(screen.getByTestId('resource-live')).toHaveAttribute('data-count', '2'));
    await waitFor(() => expect(screen.getByTestId('resource-text')).toHaveTextContent('version 3'));

    const again = screen.getByTestId('resource-subscribe');
    await user.click(again);
    await waitFor(() => expect(again).toHaveAttribute('data-subscribed', 'false'));
    expect(fake.callsOf('UnsubscribeResource')).toEqual([['a', 'test://static/1']]);
    expect(screen.queryByTestId('resource-live')).toBeNull();
  });

  it('says why a subscription failed, and offers none when the server cannot', async () => {
    const { user, fake } = renderApp({
      servers: [{ spec: spec({ id: 'a', command: 'x' }), status: status({ id: 'a', state: 'connected', canSubscribe: true }) }],
      resources: { a: [res(1)] },
    });
    fake.subscribeError = 'server "a" does not offer resource subscriptions';
    await go(user, 'resources');
    await user.click(await screen.findByTestId('resource-item-test://static/1'));
    await user.click(screen.getByTestId('resource-subscribe'));
    expect(await screen.findByTestId('resource-subscribe-error')).toHaveTextContent('does not offer resource subscriptions');
    expect(screen.getByTestId('resource-subscribe')).toHaveAttribute('data-subscribed', 'false');

    fake.setStatus('a', { canSubscribe: false });
    await waitFor(() => expect(screen.getByTestId('resource-subscribe')).toBeDisabled());
  });

  it('shows subscriptions kept by the backend when the screen opens', async () => {
    const { user, fake } = renderApp({
      servers: [{ spec: spec({ id: 'a', command: 'x' }), status: status({ id: 'a', state: 'connected', canSubscribe: true }) }],
      resources: { a: [res(1)] },
    });
    fake.subscriptions = { a: ['test://static/1'] };
    await go(user, 'resources');
    await user.click(await screen.findByTestId('resource-item-test://static/1'));
    await waitFor(() => expect(screen.getByTestId('resource-subscribe')).toHaveAttribute('data-subscribed', 'true'));
  });

  it('fills a template, shows the URI live and reads it (Enter reads too)', async () => {
    const templates: ResourceTemplate[] = [
      { name: 'posts', title: 'User posts', uriTemplate: 'users://{id}/posts{?limit,q}', description: 'Posts by one user' },
      { name: 'file', uriTemplate: 'file:///{+path}' },
    ];
    const { user, fake } = setup({ resources: { a: [] }, templates: { a: templates } });
    await go(user, 'resources');
    await user.click(await screen.findByTestId('template-item-posts'));
    expect(screen.getByTestId('template-uri')).toHaveTextContent('users:///posts');
    await user.type(screen.getByTestId('template-arg-id'), '42');
    await user.type(screen.getByTestId('template-arg-limit'), '5');
    await user.type(screen.getByTestId('template-arg-q'), 'a b');
    expect(screen.getByTestId('template-uri')).toHaveTextContent('users://42/posts?limit=5&q=a%20b');
    await user.click(screen.getByTestId('template-read'));
    expect(await screen.findByTestId('resource-preview')).toHaveTextContent('contents of users://42/posts?limit=5&q=a%20b');
    expect(fake.callsOf('ReadResource')).toEqual([['a', 'users://42/posts?limit=5&q=a%20b']]);

    await user.click(screen.getByTestId('template-item-file'));
    await user.type(screen.getByTestId('template-arg-path'), 'home/dev/notes.txt{Enter}');
    await waitFor(() => expect(fake.callsOf('ReadResource')).toHaveLength(2));
    expect(fake.callsOf('ReadResource')[1]).toEqual(['a', 'file:///home/dev/notes.txt']);

    // Each template keeps its own values.
    await user.click(screen.getByTestId('template-item-posts'));
    expect(screen.getByTestId('template-arg-id')).toHaveValue('42');
  });

  it('re-fetches on list-changed for the shown server only', async () => {
    const { user, fake } = setup({ resources: { a: many(2) } });
    await go(user, 'resources');
    await screen.findByTestId('resource-item-test://static/2');
    expect(fake.callsOf('ListResources')).toHaveLength(1);

    fake.resources.a = many(3);
    fake.emit('mcp:list-changed', { server: 'a', kind: 'prompts' });
    fake.emit('mcp:list-changed', { server: 'other', kind: 'resources' });
    fake.emit('mcp:list-changed', { server: 'a', kind: 'resources' });
    await screen.findByTestId('resource-item-test://static/3');
    expect(fake.callsOf('ListResources')).toHaveLength(2);
    expect(fake.callsOf('ListResourceTemplates')).toHaveLength(2);
  });

  it('keeps as many pages as were shown when the list changes', async () => {
    const { user, fake } = setup({ resources: { a: many(120) }, pageSize: 50 });
    await go(user, 'resources');
    await screen.findByTestId('resource-item-test://static/50');
    await user.click(screen.getByTestId('resources-load-more'));
    await screen.findByTestId('resource-item-test://static/100');
    fake.emit('mcp:list-changed', { server: 'a', kind: 'resources' });
    await waitFor(() => expect(fake.callsOf('ListResources')).toHaveLength(4));
    await waitFor(() => expect(itemIds()).toHaveLength(100));
  });

  it('shows a reconnecting server and re-fetches once it is back', async () => {
    const { user, fake } = setup({ resources: { a: many(1) } });
    await go(user, 'resources');
    await screen.findByTestId('resource-item-test://static/1');
    fake.setStatus('a', { state: 'restarting', attempt: 1, nextRetryMs: 1000 });
    expect(await screen.findByTestId('inspector-server-state')).toHaveTextContent('“a” is not connected (Restarting)');
    expect(screen.getByTestId('resource-item-test://static/1')).toBeInTheDocument();
    fake.resources.a = many(2);
    fake.setStatus('a', { state: 'connected' });
    await screen.findByTestId('resource-item-test://static/2');
    expect(screen.queryByTestId('inspector-server-state')).toBeNull();
    expect(fake.callsOf('ListResources')).toHaveLength(2);
  });

  it('picks the server, remembers it and shares it with Prompts', async () => {
    const { user, fake } = renderApp({
      servers: [spec({ id: 'a', command: 'x' }), spec({ id: 'b', command: 'y' })],
      resources: { a: [res(1)], b: [res(2)] },
      prompts: { a: [{ name: 'pa' }], b: [{ name: 'pb' }] },
    });
    fake.uiStore.set('inspector.server', 'b');
    await go(user, 'resources');
    await screen.findByTestId('resource-item-test://static/2');
    const select = screen.getByTestId('inspector-server-select');
    expect(select).toHaveValue('b');

    await user.selectOptions(select, 'a');
    await screen.findByTestId('resource-item-test://static/1');
    expect(screen.queryByTestId('resource-item-test://static/2')).toBeNull();
    expect(fake.uiStore.get('inspector.server')).toBe('a');

    await go(user, 'prompts');
    await screen.findByTestId('prompt-item-pa');
    expect(screen.getByTestId('inspector-server-select')).toHaveValue('a');
  });

  it('remembers the width of the list', async () => {
    const { user, fake } = setup({ resources: { a: [res(1)] } });
    fake.uiStore.set('resources.split', '420');
    await go(user, 'resources');
    const handle = await screen.findByTestId('resources-split');
    const pane = handle.previousElementSibling as HTMLElement;
    await waitFor(() => expect(pane.style.width).toBe('420px'));
    handle.focus();
    await fireEvent.keyDown(handle, { key: 'ArrowRight' });
    expect(pane.style.width).toBe('436px');
    expect(fake.uiStore.get('resources.split')).toBe('436');
  });
});
