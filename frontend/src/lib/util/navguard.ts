// navguard keeps the app's window on the app's own page, whatever reaches
// the DOM — it assumes the sanitiser was bypassed. Server and model content
// is rendered inside the app's page, so one followed link, submitted form,
// <meta http-equiv=refresh> or <base> could replace the app with a page of
// the server's choosing (a fake "re-enter your key" form).
//
// In the capture phase, before any handler of the app:
//  - a click, middle click or Enter on anything that navigates when
//    activated — an element with an href in any namespace (HTML <a> and
//    <area>, SVG <a href> / <a xlink:href>, MathML href) — is prevented;
//  - a real HTML <a> inside rendered content (an element marked with
//    data-external-links) with an http:, https: or mailto: href is then
//    handed to Go (settings.Service.OpenLink, which checks it again) to open
//    in the system browser — only after the user clicked it;
//  - every form submission is prevented (the app's forms handle submit
//    themselves, after us);
//  - a dragged link or text dropped on the page does not navigate it;
//  - <meta http-equiv> and <base> elements are removed as they appear;
//  - window.open opens nothing;
//  - where the browser has the Navigation API, a navigation of the page to
//    another origin is cancelled.
// Below this, the CSP (no inline script, no form-action, base-uri 'none')
// and, in the desktop window, WebKit's navigation policy (backend/webview)
// hold the window too.

import { carriesFiles } from './fileDrop.svelte';

/** The attribute that marks rendered content whose links open in the browser. */
export const EXTERNAL_LINKS = 'data-external-links';

const HTML = 'http://www.w3.org/1999/xhtml';
const SVG = 'http://www.w3.org/2000/svg';
const XLINK = 'http://www.w3.org/1999/xlink';

/** The schemes a clicked link may open outside the app (Go checks again). */
const OPENABLE = new Set(['http:', 'https:', 'mailto:']);

export interface NavGuardOptions {
  /** Opens a link outside the app (api openURL → settings.Service.OpenLink). */
  open: (url: string) => Promise<void>;
  /** Reports a link that could not be opened. */
  onerror?: (message: string) => void;
  /** Tells about a prevented navigation (tests, debugging). */
  onblock?: (what: string) => void;
}

function hasHref(el: Element): boolean {
  return el.hasAttribute('href') || el.hasAttributeNS(XLINK, 'href') || el.hasAttribute('xlink:href');
}

/**
 * navigates reports whether activating el would navigate: an <a> or
 * <area> with an href, any SVG <a> (an <animate> or <set> can give it an
 * href that no attribute shows), any MathML or foreign element with an
 * href. (HTML elements such as <link> or SVG <use>/<image> reference, they
 * are not followed on a click.)
 */
export function navigates(el: Element): boolean {
  const ns = el.namespaceURI;
  const name = el.localName;
  if (ns === HTML) return (name === 'a' || name === 'area') && hasHref(el);
  if (ns === SVG) return name === 'a';
  return hasHref(el); // MathML (WebKit follows href on any MathML element) and anything else
}

// Anchors saveBlob made: their one click is the app's own download.
const ownDownloads = new WeakSet<Element>();

/** linkOf is the innermost element on the event's path that would navigate. */
function linkOf(e: Event): Element | null {
  for (const t of e.composedPath()) {
    if (t instanceof Element && navigates(t)) return ownDownloads.has(t) ? null : t;
  }
  return null;
}

/**
 * saveBlob offers blob to the user as a download named name — the one
 * click on a link the guard lets through, as only this function can make it.
 */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.rel = 'noopener';
  ownDownloads.add(a);
  document.body.append(a);
  a.click();
  a.remove();
  ownDownloads.delete(a);
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}

/**
 * openable is the address to open outside the app for a clicked el, or ''
 * when el is not a real HTML <a> in rendered content with an http(s) or
 * mailto href.
 */
export function openable(el: Element): string {
  if (el.namespaceURI !== HTML || el.localName !== 'a' || !el.closest(`[${EXTERNAL_LINKS}]`)) return '';
  const href = el.getAttribute('href') ?? '';
  let url: URL;
  try {
    url = new URL(href); // no base: a relative href is not a link out
  } catch {
    return '';
  }
  return OPENABLE.has(url.protocol) ? href : '';
}

function isEditable(t: EventTarget | null): boolean {
  return t instanceof HTMLElement && (t.isContentEditable || t instanceof HTMLInputElement || t instanceof HTMLTextAreaElement);
}

/** Elements that change how the page loads or where it goes: removed on sight. */
const FORBIDDEN = 'meta[http-equiv], base';

/**
 * installNavGuard guards win (once, from main.ts) and returns a function
 * that removes the guard again (tests).
 */
export function installNavGuard(win: Window & typeof globalThis, opts: NavGuardOptions): () => void {
  const doc = win.document;
  const block = (what: string) => opts.onblock?.(what);

  const follow = (el: Element) => {
    const url = openable(el);
    if (!url) return;
    opts.open(url).catch((err: unknown) => opts.onerror?.(err instanceof Error ? err.message : String(err)));
  };

  const onclick = (e: MouseEvent) => {
    const el = linkOf(e);
    if (!el) return;
    e.preventDefault();
    block(`${e.type} ${el.localName}`);
    // The primary button, or the middle one (which would open a window).
    if ((e.type === 'click' && e.button === 0) || (e.type === 'auxclick' && e.button === 1)) follow(el);
  };

  const onkeydown = (e: KeyboardEvent) => {
    if (e.key !== 'Enter' || isEditable(e.target)) return;
    const el = linkOf(e);
    if (!el) return;
    // Enter would activate the link; follow it ourselves instead.
    e.preventDefault();
    block(`Enter ${el.localName}`);
    follow(el);
  };

  const onsubmit = (e: SubmitEvent) => {
    e.preventDefault();
    block('submit');
  };

  // Dropping a link or text on the page would load it; files are the
  // app's (drag-and-drop import) and editable fields take text.
  const ondrag = (e: DragEvent) => {
    if (carriesFiles(e) || isEditable(e.target)) return;
    e.preventDefault();
    if (e.type === 'dragover' && e.dataTransfer) e.dataTransfer.dropEffect = 'none';
    if (e.type === 'drop') block('drop');
  };

  const sweep = (root: ParentNode) => {
    for (const el of root.querySelectorAll(FORBIDDEN)) {
      block(`<${el.localName}>`);
      el.remove();
    }
  };
  const observer = new win.MutationObserver((records) => {
    for (const r of records) {
      for (const n of r.addedNodes) {
        if (!(n instanceof win.Element)) continue;
        if (n.matches(FORBIDDEN)) {
          block(`<${n.localName}>`);
          n.remove();
        } else if (n.firstElementChild) {
          sweep(n);
        }
      }
    }
  });

  // A page that is the app's own stays; one of another origin is refused.
  // (Scheme and host, not URL.origin: that is "null" for wails:// and data: alike.)
  const nav = (win as { navigation?: EventTarget }).navigation;
  const here = `${win.location.protocol}//${win.location.host}`;
  const onnavigate = (e: Event) => {
    const ne = e as Event & { destination?: { url?: string }; cancelable: boolean };
    let there = '';
    try {
      const u = new URL(ne.destination?.url ?? '');
      there = `${u.protocol}//${u.host}`;
    } catch {
      /* not a URL: refuse below */
    }
    if ((there !== here || !win.location.host) && ne.cancelable) {
      e.preventDefault();
      block('navigate');
    }
  };

  const opened = Object.getOwnPropertyDescriptor(win, 'open');
  Object.defineProperty(win, 'open', {
    configurable: true,
    writable: false,
    value: () => {
      block('window.open');
      return null;
    },
  });

  const capture = { capture: true };
  win.addEventListener('click', onclick, capture);
  win.addEventListener('auxclick', onclick, capture);
  win.addEventListener('keydown', onkeydown, capture);
  win.addEventListener('submit', onsubmit, capture);
  win.addEventListener('dragover', ondrag, capture);
  win.addEventListener('drop', ondrag, capture);
  nav?.addEventListener('navigate', onnavigate);
  sweep(doc);
  observer.observe(doc, { childList: true, subtree: true });

  return () => {
    observer.disconnect();
    nav?.removeEventListener('navigate', onnavigate);
    win.removeEventListener('click', onclick, capture);
    win.removeEventListener('auxclick', onclick, capture);
    win.removeEventListener('keydown', onkeydown, capture);
    win.removeEventListener('submit', onsubmit, capture);
    win.removeEventListener('dragover', ondrag, capture);
    win.removeEventListener('drop', ondrag, capture);
    if (opened) Object.defineProperty(win, 'open', opened);
    else delete (win as { open?: unknown }).open;
  };
}
