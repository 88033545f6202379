import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EXTERNAL_LINKS, installNavGuard, navigates, saveBlob } from './navguard';

// Every vector a sanitiser bypass could put in the page, pointing away.
const EVIL = 'https://evil.example/re-enter-your-key';
const VECTORS: Record<string, string> = {
  'HTML <a href>': `<a id="v" href="${EVIL}">x</a>`,
  'HTML <a target=_blank>': `<a id="v" href="${EVIL}" target="_blank">x</a>`,
  'javascript: link': `<a id="v" href="javascript:alert(1)">x</a>`,
  'image map <area>': `<map name="m"><area id="v" shape="rect" coords="0,0,10,10" href="${EVIL}"></map><img usemap="#m" alt="">`,
  'SVG <a href>': `<svg><a id="v" href="${EVIL}"><text>x</text></a></svg>`,
  'SVG <a xlink:href>': `<svg><a id="v" xlink:href="${EVIL}"><text>x</text></a></svg>`,
  'SVG <a> with an animated href': `<svg><a id="v"><animate attributeName="href" values="${EVIL}"/><text>x</text></a></svg>`,
  'SVG <a> with a set href': `<svg><a id="v"><set attributeName="href" to="${EVIL}"/><text>x</text></a></svg>`,
  'MathML <mtext href>': `<math><mtext id="v" href="${EVIL}">x</mtext></math>`,
  'MathML <mi href>': `<math><mi id="v" href="${EVIL}">x</mi></math>`,
  'MathML <math href>': `<math id="v" href="${EVIL}"><mi>x</mi></math>`,
};

let opened: string[];
let errors: string[];
let uninstall: () => void;
let open: (url: string) => Promise<void>;

function mount(html: string, external = true): HTMLElement {
  const box = document.createElement('div');
  if (external) box.setAttribute(EXTERNAL_LINKS, '');
  box.innerHTML = html;
  document.body.append(box);
  return box;
}

function fire(el: Element, type: 'click' | 'auxclick', button = type === 'click' ? 0 : 1): MouseEvent {
  const e = new MouseEvent(type, { bubbles: true, cancelable: true, composed: true, button });
  el.dispatchEvent(e);
  return e;
}

beforeEach(() => {
  opened = [];
  errors = [];
  open = async (url) => {
    opened.push(url);
  };
  uninstall = installNavGuard(window, { open: (u) => open(u), onerror: (m) => errors.push(m) });
});

afterEach(() => {
  uninstall();
  document.body.replaceChildren();
  document.head.querySelectorAll('meta[http-equiv], base').forEach((e) => e.remove());
});

describe('navguard: clicks on anything that navigates', () => {
  it.each(Object.entries(VECTORS))('%s: click, middle click and a click on its inside are prevented', (_, html) => {
    const box = mount(html);
    const v = box.querySelector('#v')!;
    expect(navigates(v)).toBe(true);
    expect(fire(v, 'click').defaultPrevented).toBe(true);
    expect(fire(v, 'auxclick').defaultPrevented).toBe(true);
    const inner = v.lastElementChild ?? v;
    expect(fire(inner, 'click').defaultPrevented).toBe(true);
  });

  it.each(Object.entries(VECTORS).filter(([name]) => name !== 'HTML <a href>' && name !== 'HTML <a target=_blank>'))(
    '%s: is never opened in the browser, even in rendered content',
    async (_, html) => {
      const v = mount(html).querySelector('#v')!;
      fire(v, 'click');
      fire(v, 'auxclick');
      await Promise.resolve();
      expect(opened).toEqual([]);
    },
  );

  it('an SVG or MathML href in the XLink namespace under any prefix counts', () => {
    const box = mount('<math><mtext id="m">m</mtext></math>');
    const m = box.querySelector('#m')!;
    m.setAttributeNS('http://www.w3.org/1999/xlink', 'x:href', EVIL);
    expect(navigates(m)).toBe(true);
    expect(fire(m, 'click').defaultPrevented).toBe(true);
  });

  it('a click on a real <a> in rendered content opens it in the browser, once', async () => {
    const box = mount(`<p>see <a href="https://example.com/docs?q=1"><b>the docs</b></a> or <a href="mailto:a@example.com">mail</a></p>`);
    const [web, mail] = box.querySelectorAll('a');
    expect(fire(web.querySelector('b')!, 'click').defaultPrevented).toBe(true);
    expect(fire(mail, 'click').defaultPrevented).toBe(true);
    expect(fire(web, 'auxclick').defaultPrevented).toBe(true);
    expect(opened).toEqual(['https://example.com/docs?q=1', 'mailto:a@example.com', 'https://example.com/docs?q=1']);
    // A right click opens nothing.
    fire(web, 'auxclick', 2);
    expect(opened).toHaveLength(3);
  });

  it('Enter on a link in rendered content opens it; Enter on other links does nothing', () => {
    const box = mount(`<a id="a" href="https://example.com/">a</a><math><mtext id="m" href="${EVIL}">m</mtext></math>`);
    const e = new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true });
    box.querySelector('#a')!.dispatchEvent(e);
    expect(e.defaultPrevented).toBe(true);
    const m = new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true });
    box.querySelector('#m')!.dispatchEvent(m);
    expect(m.defaultPrevented).toBe(true);
    expect(opened).toEqual(['https://example.com/']);
  });

  it('opens nothing but http, https and mailto, and nothing outside rendered content', () => {
    const box = mount(
      ['javascript:alert(1)', 'JAVASCRIPT:alert(1)', ' javascript:alert(1)', 'data:text/html,<b>x</b>', 'file:///etc/passwd', 'vbscript:x', 'wails://wails/', '/relative', '#top', '']
        .map((h) => `<a href="${h}">x</a>`)
        .join(''),
    );
    for (const a of box.querySelectorAll('a')) expect(fire(a, 'click').defaultPrevented).toBe(true);
    const outside = mount(`<a href="https://example.com/">x</a>`, false);
    expect(fire(outside.querySelector('a')!, 'click').defaultPrevented).toBe(true);
    expect(opened).toEqual([]);
  });

  it('says why a link could not be opened', async () => {
    open = async () => {
      throw new Error('open link: the link contains a space');
    };
    fire(mount(`<a href="https://example.com/">x</a>`).querySelector('a')!, 'click');
    await vi.waitFor(() => expect(errors).toEqual(['open link: the link contains a space']));
  });

  it('leaves clicks on everything else alone', () => {
    const box = mount(`<button id="b"><svg><use href="#icon"></use></svg></button><label><input type="checkbox" id="c"></label><a id="plain">no href</a>`);
    expect(fire(box.querySelector('use')!, 'click').defaultPrevented).toBe(false);
    expect(fire(box.querySelector('#b')!, 'click').defaultPrevented).toBe(false);
    expect(fire(box.querySelector('#plain')!, 'click').defaultPrevented).toBe(false);
    const c = box.querySelector<HTMLInputElement>('#c')!;
    c.click();
    expect(c.checked).toBe(true);
  });
});

describe('navguard: forms, drops, windows', () => {
  it('prevents every form submission, also with formaction and target', () => {
    const box = mount(`<form action="${EVIL}" target="_blank"><input name="key"><button id="s">Send</button><button id="f" formaction="${EVIL}">Other</button></form>`);
    const seen: boolean[] = [];
    box.querySelector('form')!.addEventListener('submit', (e) => seen.push(e.defaultPrevented));
    box.querySelector<HTMLButtonElement>('#s')!.click();
    box.querySelector<HTMLButtonElement>('#f')!.click();
    box.querySelector('form')!.requestSubmit();
    expect(seen).toEqual([true, true, true]);
  });

  it('a link or text dropped on the page does not load it; files are the app’s', () => {
    const drop = (types: string[], target: Element = document.body) => {
      const e = new Event('drop', { bubbles: true, cancelable: true }) as DragEvent;
      Object.defineProperty(e, 'dataTransfer', { value: { types, dropEffect: 'copy' } });
      target.dispatchEvent(e);
      return e.defaultPrevented;
    };
    expect(drop(['text/uri-list', 'text/plain'])).toBe(true);
    expect(drop(['text/plain'])).toBe(true);
    expect(drop(['Files'])).toBe(false);
    const input = document.createElement('textarea');
    document.body.append(input);
    expect(drop(['text/plain'], input)).toBe(false);
  });

  it('window.open opens nothing', () => {
    expect(window.open(EVIL, '_blank')).toBeNull();
    expect(window.open(EVIL)).toBeNull();
  });

  it('removes <meta http-equiv> and <base> as they appear, also nested', async () => {
    const meta = document.createElement('meta');
    meta.httpEquiv = 'refresh';
    meta.content = `5;url=${EVIL}`;
    document.head.append(meta);
    const box = mount(`<div><p>hi</p><base href="${EVIL}"><meta http-equiv="refresh" content="0;url=${EVIL}"><meta http-equiv="Content-Security-Policy" content="script-src *"></div>`);
    await vi.waitFor(() => expect(document.querySelectorAll('meta[http-equiv], base')).toHaveLength(0));
    expect(box.querySelector('p')).not.toBeNull();
    expect(document.baseURI).not.toContain('evil.example');
    // Plain <meta> (charset, name) stays.
    const plain = document.createElement('meta');
    plain.name = 'color-scheme';
    document.head.append(plain);
    await Promise.resolve();
    expect(plain.isConnected).toBe(true);
    plain.remove();
  });

  it('lets the app’s own downloads through (saveBlob) and nothing that looks like one', () => {
    const create = vi.fn(() => 'blob:mcpdesk/1');
    Object.assign(URL, { createObjectURL: create, revokeObjectURL: vi.fn() });
    const seen: boolean[] = [];
    const listen = (e: Event) => seen.push(e.defaultPrevented);
    document.addEventListener('click', listen);
    try {
      saveBlob(new Blob(['x']), 'x.txt');
      const forged = mount(`<a href="blob:mcpdesk/1" download="x.txt">x</a>`);
      forged.querySelector('a')!.click();
    } finally {
      document.removeEventListener('click', listen);
    }
    expect(seen).toEqual([false, true]);
    expect(opened).toEqual([]);
  });

  it('uninstalling puts everything back', () => {
    uninstall();
    const a = mount(`<a href="${EVIL}">x</a>`).querySelector('a')!;
    a.addEventListener('click', (e) => e.preventDefault()); // keep jsdom from "navigating"
    const e = new MouseEvent('click', { bubbles: true, cancelable: true });
    let preventedBefore = true;
    document.addEventListener('click', (ev) => (preventedBefore = ev.defaultPrevented), { capture: true, once: true });
    a.dispatchEvent(e);
    expect(preventedBefore).toBe(false);
    uninstall = () => {};
  });
});
