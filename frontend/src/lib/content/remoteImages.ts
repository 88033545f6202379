// Remote-image placeholders (issue 11): sanitize.ts leaves an empty
// <span class="remote-image" data-remote-src data-remote-host data-remote-alt>
// where content put a remote image; hydrateRemoteImages fills each one in
// according to the user's grants: the image's alt text, its host and a
// "Load images from HOST" button while the host is not allowed; then
// "Loading…", the image (fetched by Go, shown as a data: URL) or the error.
// The webview never fetches the remote URL itself.

import type { RemoteScope } from '../api';
import type { RemoteImages } from '../state/remoteImages.svelte';
import { PLACEHOLDER_CLASS } from './sanitize';
import './remoteImages.css';

/** Translate is the i18n function ($_ with values). */
export type Translate = (key: string, values?: Record<string, string>) => string;

type View =
  | { state: 'checking' | 'blocked' | 'loading' }
  | { state: 'loaded'; url: string }
  | { state: 'error'; message: string; allowed: boolean };

const SVG_NS = 'http://www.w3.org/2000/svg';

/** imageIcon draws a small picture glyph (our own SVG, never content's). */
function imageIcon(): SVGSVGElement {
  const svg = document.createElementNS(SVG_NS, 'svg');
  for (const [k, v] of Object.entries({
    width: '16', height: '16', viewBox: '0 0 24 24', fill: 'none', stroke: 'currentColor',
    'stroke-width': '1.75', 'stroke-linecap': 'round', 'stroke-linejoin': 'round', 'aria-hidden': 'true',
  })) svg.setAttribute(k, v);
  const rect = document.createElementNS(SVG_NS, 'rect');
  for (const [k, v] of Object.entries({ x: '3', y: '3', width: '18', height: '18', rx: '2' })) rect.setAttribute(k, v);
  const sun = document.createElementNS(SVG_NS, 'circle');
  for (const [k, v] of Object.entries({ cx: '9', cy: '9', r: '2' })) sun.setAttribute(k, v);
  const hill = document.createElementNS(SVG_NS, 'path');
  hill.setAttribute('d', 'm21 15-3.1-3.1a2 2 0 0 0-2.8 0L6 21');
  svg.append(rect, sun, hill);
  return svg;
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls: string, text?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

/** The placeholders placeholdRemoteImages (sanitize.ts) puts where remote images were. */
const PLACEHOLDERS = `span.${PLACEHOLDER_CLASS}`;

/** holdsRemoteImages reports whether node holds a remote image's placeholder. */
export function holdsRemoteImages(node: ParentNode): boolean {
  return node.querySelector(PLACEHOLDERS) !== null;
}

/**
 * hydrateRemoteImages brings every placeholder under root up to date for
 * scope. Call it from an effect after the markdown is in the DOM; it reads
 * the store's state, so the effect runs again when a host is allowed or
 * revoked and when an image arrives. A placeholder already showing what it
 * should is left alone.
 */
export function hydrateRemoteImages(root: HTMLElement | undefined, scope: RemoteScope, store: RemoteImages, t: Translate): void {
  if (!root) return;
  const placeholders = root.querySelectorAll<HTMLElement>(PLACEHOLDERS);
  if (placeholders.length === 0) return;
  void store.load();
  for (const ph of placeholders) {
    const url = ph.dataset.remoteSrc ?? '';
    const host = ph.dataset.remoteHost ?? '';
    let view: View;
    if (!store.loaded) view = { state: 'checking' };
    else if (!store.allowed(scope, host)) view = { state: 'blocked' };
    else {
      const img = store.image(scope, url);
      if (!img) {
        // Not from inside the effect's own read: request() writes the state it reads.
        queueMicrotask(() => store.request(scope, url));
        view = { state: 'loading' };
      } else view = img.state === 'error' ? { ...img, allowed: true } : img;
    }
    render(ph, view, { scope, store, t, url, host });
  }
}

interface Ctx {
  scope: RemoteScope;
  store: RemoteImages;
  t: Translate;
  url: string;
  host: string;
}

function render(ph: HTMLElement, view: View, c: Ctx): void {
  const { t, host } = c;
  const alt = ph.dataset.remoteAlt ?? '';
  const loadLabel = t('remoteImages.load', { host });
  const key = JSON.stringify([view, loadLabel]);
  if (ph.dataset.view === key) return;
  ph.dataset.view = key;
  ph.dataset.state = view.state;
  ph.classList.toggle('loaded', view.state === 'loaded');
  ph.title = '';
  ph.removeAttribute('role');
  ph.removeAttribute('aria-label');

  if (view.state === 'loaded') {
    const img = document.createElement('img');
    img.src = view.url;
    img.alt = alt;
    img.dataset.testid = 'remote-image';
    ph.replaceChildren(img);
    return;
  }

  ph.setAttribute('role', 'group');
  ph.setAttribute('aria-label', t('remoteImages.label', { alt: alt || t('remoteImages.image'), host }));
  const icon = el('span', 'ri-icon');
  icon.append(imageIcon());
  const text = el('span', 'ri-text');
  text.append(el('span', 'ri-alt', alt || t('remoteImages.image')), el('span', 'ri-host', t('remoteImages.from', { host })));
  const parts: Node[] = [icon, text];

  switch (view.state) {
    case 'checking':
    case 'blocked': {
      const b = el('button', 'btn btn-sm ri-load', loadLabel);
      b.type = 'button';
      b.dataset.testid = 'remote-image-load';
      b.disabled = view.state === 'checking';
      b.title = t(c.scope.kind === 'conversation' ? 'remoteImages.loadHintConversation' : 'remoteImages.loadHintServer', { host });
      b.addEventListener('click', () => {
        b.disabled = true;
        c.store.allow(c.scope, host).catch((e: Error) => {
          render(ph, { state: 'error', message: e.message, allowed: false }, c);
        });
      });
      parts.push(b);
      break;
    }
    case 'loading':
      parts.push(el('span', 'ri-status', t('remoteImages.loading')));
      break;
    case 'error': {
      const msg = el('span', 'ri-error', view.message);
      msg.setAttribute('role', 'alert');
      msg.dataset.testid = 'remote-image-error';
      text.append(msg);
      ph.title = view.message;
      const b = el('button', 'btn btn-sm ri-load', t('common.retry'));
      b.type = 'button';
      b.dataset.testid = 'remote-image-retry';
      const allowed = view.allowed;
      b.addEventListener('click', () => {
        if (allowed) c.store.request(c.scope, c.url, true);
        else c.store.allow(c.scope, host).catch((e: Error) => render(ph, { state: 'error', message: e.message, allowed: false }, { ...c }));
      });
      parts.push(b);
      break;
    }
  }
  ph.replaceChildren(...parts);
}
