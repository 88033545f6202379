// Remote images (issue 11) against the in-memory backend: placeholders
// instead of remote images in both markdown paths, "Load images from HOST",
// the image fetched through the backend (never by the page), scopes per
// conversation and per server, errors, revocation, tool icons and the
// Settings card.

import { render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { conversationScope, serverScope, setBackend, type RemoteScope, type Tool } from '../api';
import { FakeBackend, type FakeOptions } from '../../test/fakes/fake';
import ChatMarkdown from '../components/chat/ChatMarkdown.svelte';
import Markdown from '../components/inspector/Markdown.svelte';
import ToolIcon from '../components/tools/ToolIcon.svelte';
import { setLocale } from '../i18n';
import { STORES_KEY, createStores } from '../state/context';
import { go, renderApp } from '../../test/app';

const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const URL1 = 'http://img.example/chart.png?d=secret';

function fakeWith(o: FakeOptions = {}) {
  const fake = new FakeBackend({
    chat: { conversations: [{ conversation: { id: 1, title: 'Trip' } }, { conversation: { id: 2, title: 'Other' } }] },
    ...o,
    remote: { images: { [URL1]: PNG }, ...o.remote },
  });
  setBackend(fake);
  return fake;
}

/** show renders markdown through one path in scope, sharing stores between calls when given. */
function show(path: 'chat' | 'inspector', text: string, scope: RemoteScope, stores = createStores()) {
  const context = new Map([[STORES_KEY, stores]]);
  const r =
    path === 'chat'
      ? render(ChatMarkdown, { props: { text, scope, testid: 'md' }, context })
      : render(Markdown, { props: { text, scope, testid: 'md' }, context });
  return { ...r, stores, md: within(r.container.querySelector('[data-testid="md"]') as HTMLElement) };
}

/** loadButton waits for a placeholder's Load button to be ready (the grants read from the backend). */
async function loadButton(md: ReturnType<typeof within>) {
  await waitFor(() => expect(md.getByTestId('remote-image-load')).toBeEnabled());
  return md.getByTestId('remote-image-load');
}

/** remoteSrcs lists every src in the rendered DOM that is not a data: URL. */
const remoteSrcs = (el: Element) =>
  [...el.querySelectorAll('[src], [srcset], [poster]')].flatMap((e) => ['src', 'srcset', 'poster'].map((a) => e.getAttribute(a) ?? '')).filter((v) => v && !v.startsWith('data:'));

describe.each([
  ['chat', conversationScope(1)],
  ['inspector', serverScope('docs')],
] as const)('a remote image in the %s markdown path', (path, scope) => {
  it('is a placeholder naming its host until Load is pressed; then the backend fetches it and it shows', async () => {
    const fake = fakeWith();
    const user = userEvent.setup();
    const { container, md } = show(path, `Here: ![Sales chart](${URL1}) and ![dot](${PNG})`, scope);

    const load = await loadButton(md);
    expect(load).toHaveTextContent('Load images from img.example');
    const ph = container.querySelector('span.remote-image') as HTMLElement;
    expect(ph).toHaveTextContent('Sales chart');
    expect(ph).toHaveTextContent('from img.example');
    expect(ph).toHaveAttribute('data-state', 'blocked');
    // The inline image shows at once; nothing remote is in the DOM and nothing was fetched.
    expect(md.getByAltText('dot')).toHaveAttribute('src', PNG);
    expect(remoteSrcs(container)).toEqual([]);
    expect(fake.callsOf('FetchRemoteImage')).toEqual([]);

    await user.click(load);
    const img = await md.findByTestId('remote-image');
    expect(img).toHaveAttribute('src', PNG);
    expect(img).toHaveAttribute('alt', 'Sales chart');
    expect(fake.callsOf('AllowRemoteImages')).toEqual([[scope, 'img.example']]);
    expect(fake.callsOf('FetchRemoteImage')).toEqual([[scope, URL1]]);
    expect(remoteSrcs(container)).toEqual([]);
  });

  it('loads by itself once its host is allowed in this scope, and only there', async () => {
    fakeWith({ remote: { grants: [{ scope, host: 'img.example', label: '', grantedAt: '2026-01-01T00:00:00Z' }] } });
    const stores = createStores();
    const a = show(path, `![a](${URL1})`, scope, stores);
    expect(await a.md.findByTestId('remote-image')).toHaveAttribute('src', PNG);
    // Another conversation, another server: still a placeholder.
    const other = scope.kind === 'conversation' ? conversationScope(2) : serverScope('other');
    const b = show(path, `![b](${URL1})`, other, stores);
    expect(await loadButton(b.md)).toBeInTheDocument();
    expect(b.md.queryByTestId('remote-image')).toBeNull();
  });

  it('shows why an image could not be loaded, and retries', async () => {
    const fake = fakeWith({ remote: { images: { [URL1]: new Error('the image is 12 MB, larger than the 10 MB allowed') } } });
    const user = userEvent.setup();
    const { md } = show(path, `![big](${URL1})`, scope);
    await user.click(await loadButton(md));
    expect(await md.findByTestId('remote-image-error')).toHaveTextContent(
      'load image from img.example: the image is 12 MB, larger than the 10 MB allowed',
    );
    fake.remote.images[URL1] = PNG;
    await user.click(md.getByTestId('remote-image-retry'));
    expect(await md.findByTestId('remote-image')).toHaveAttribute('src', PNG);
  });

  it('goes back to a placeholder when the host is revoked', async () => {
    fakeWith({ remote: { grants: [{ scope, host: 'img.example', label: '', grantedAt: '2026-01-01T00:00:00Z' }] } });
    const { md, stores } = show(path, `![a](${URL1})`, scope);
    await md.findByTestId('remote-image');
    await stores.remoteImages.revoke(stores.remoteImages.grants[0]);
    expect(await loadButton(md)).toBeInTheDocument();
    expect(md.queryByTestId('remote-image')).toBeNull();
  });

  it('speaks Chinese', async () => {
    fakeWith();
    setLocale('zh-CN');
    const { md } = show(path, `![图表](${URL1})`, scope);
    expect(await loadButton(md)).toHaveTextContent('加载来自 img.example 的图片');
    expect(md.getByRole('group')).toHaveTextContent('来自 img.example');
  });
});

describe('a remote image in a long chat reply', () => {
  it('is looked for in the message only once a block holds one, and a finished block\'s image is hydrated', async () => {
    fakeWith();
    const scans = vi.spyOn(Element.prototype, 'querySelectorAll');
    const searched = () => scans.mock.calls.filter(([sel]) => String(sel).includes('remote-image')).length;
    const words = (n: number) => Array.from({ length: n }, (_, i) => `Paragraph ${i} of the reply.`).join('\n\n');
    const { rerender, md, container } = show('chat', words(3), conversationScope(1));
    await rerender({ text: `${words(6)}\n\n` });
    await rerender({ text: `${words(9)}\n\nStill` });
    await waitFor(() => expect(container).toHaveTextContent('Paragraph 8 of the reply.'));
    // No block holds a placeholder: the message was never searched for one.
    expect(searched()).toBe(0);

    // An image in a block that is finished before the reply ends.
    await rerender({ text: `${words(9)}\n\nHere: ![Sales chart](${URL1})\n\nAnd more text after it.` });
    const load = await loadButton(md);
    expect(load).toHaveTextContent('Load images from img.example');
    expect(container.querySelector('span.remote-image')).toHaveAttribute('data-state', 'blocked');
    expect(searched()).toBeGreaterThan(0);
  });
});

describe('a tool icon', () => {
  const tool = (src: string): Tool => ({ name: 't', inputSchema: { type: 'object' }, icons: [{ src }] });
  const ICON = 'https://icons.example/t.png';

  it('on a host not allowed for its server is the generic icon, and nothing is fetched', async () => {
    const fake = fakeWith();
    render(ToolIcon, { props: { tool: tool(ICON), server: 'docs' }, context: new Map([[STORES_KEY, createStores()]]) });
    const blocked = await screen.findByTestId('tool-icon-blocked');
    expect(blocked).toHaveAttribute('title', expect.stringContaining('icons.example'));
    expect(screen.queryByTestId('tool-icon')).toBeNull();
    await waitFor(() => expect(fake.callsOf('RemoteImageGrants')).toHaveLength(1));
    expect(fake.callsOf('FetchRemoteImage')).toEqual([]);
  });

  it('on a host allowed for its server is fetched by the backend', async () => {
    const fake = fakeWith({
      remote: { images: { [ICON]: PNG }, grants: [{ scope: serverScope('docs'), host: 'icons.example', label: 'docs', grantedAt: '2026-01-01T00:00:00Z' }] },
    });
    render(ToolIcon, { props: { tool: tool(ICON), server: 'docs' }, context: new Map([[STORES_KEY, createStores()]]) });
    expect(await screen.findByTestId('tool-icon')).toHaveAttribute('src', PNG);
    expect(fake.callsOf('FetchRemoteImage')).toEqual([[serverScope('docs'), ICON]]);
  });

  it('inline is shown as it is', () => {
    fakeWith();
    render(ToolIcon, { props: { tool: tool(PNG), server: 'docs' }, context: new Map([[STORES_KEY, createStores()]]) });
    expect(screen.getByTestId('tool-icon')).toHaveAttribute('src', PNG);
  });
});

describe('Settings → Remote images', () => {
  it('says what it is for when no host is allowed', async () => {
    const { user } = renderApp(fakeWith());
    await go(user, 'settings');
    const card = await screen.findByTestId('settings-remote-images');
    expect(await within(card).findByTestId('remote-images-empty')).toHaveTextContent('No host may show images');
    expect(card).toHaveTextContent('Load images from');
  });

  it('lists the allowed hosts with their conversation or server, and revokes one', async () => {
    const fake = fakeWith({
      remote: {
        grants: [
          { scope: conversationScope(1), host: 'img.example', label: '', grantedAt: '2026-03-01T10:00:00Z' },
          { scope: serverScope('docs'), host: 'cdn.example', label: '', grantedAt: '2026-03-02T10:00:00Z' },
          // A deleted conversation's grant is not listed.
          { scope: conversationScope(99), host: 'gone.example', label: '', grantedAt: '2026-03-03T10:00:00Z' },
        ],
      },
    });
    const { user } = renderApp(fake);
    await go(user, 'settings');
    const card = await screen.findByTestId('settings-remote-images');
    await waitFor(() => expect(within(card).getAllByTestId('remote-grant')).toHaveLength(2));
    const rows = within(card).getAllByTestId('remote-grant');
    expect(rows.map((r) => r.dataset.host)).toEqual(['cdn.example', 'img.example']);
    expect(rows[0]).toHaveTextContent('Server docs');
    expect(rows[1]).toHaveTextContent('Conversation “Trip”');

    await user.click(within(rows[1]).getByTestId('remote-grant-revoke'));
    await waitFor(() => expect(within(card).getAllByTestId('remote-grant')).toHaveLength(1));
    expect(fake.callsOf('RevokeRemoteImages')).toEqual([[conversationScope(1), 'img.example']]);
    expect(fake.remote.grants.map((g) => g.host)).toEqual(['cdn.example']);
  });
});
