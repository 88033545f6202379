// The one sanitiser for what servers and models write (issue 11): both
// markdown paths — chat replies (components/chat/markdown.ts) and resources,
// prompts and tool results (components/inspector/markdown.ts) — turn their
// HTML into a DOM fragment here.
//
// It is an allow-list: only the elements marked emits for GitHub-flavoured
// markdown, plus a few inert formatting tags people write in raw HTML, each
// with only the attributes it needs. HTML only — no SVG, no MathML (WebKit
// follows href on MathML elements), no image maps, forms, frames, media,
// styles, <base>, <meta> or <link>. No id or name (DOM clobbering), no
// data-* or aria-* from content, no style. A link keeps its href only when
// it is http(s) or mailto, and gets rel="noreferrer noopener". An image
// keeps a data:image/… source or an http(s) one; placeholdRemoteImages then
// swaps every remote image for a placeholder, so nothing remote is fetched
// until the user allows its host (see remoteImages.ts).

import DOMPurify, { type Config } from 'dompurify';

/** Attributes each allowed element may carry; every other one is dropped. */
const ELEMENTS: Record<string, readonly string[]> = {
  // What marked emits for GFM.
  p: [],
  h1: [],
  h2: [],
  h3: [],
  h4: [],
  h5: [],
  h6: [],
  em: [],
  strong: [],
  del: [],
  code: ['class'],
  pre: [],
  blockquote: [],
  hr: [],
  br: [],
  ul: [],
  ol: ['start'],
  li: [],
  input: ['type', 'checked', 'disabled'], // task-list boxes, forced to disabled checkboxes
  table: [],
  thead: [],
  tbody: [],
  tr: [],
  th: ['align', 'colspan', 'rowspan'],
  td: ['align', 'colspan', 'rowspan'],
  a: ['href', 'title'],
  img: ['src', 'alt', 'title'],
  // highlight.js's spans (chat code blocks).
  span: ['class'],
  // Inert formatting people write as raw HTML in markdown.
  b: [],
  i: [],
  s: [],
  u: [],
  ins: [],
  mark: [],
  small: [],
  sub: [],
  sup: [],
  kbd: [],
  abbr: ['title'],
  div: [],
  dl: [],
  dt: [],
  dd: [],
  details: ['open'],
  summary: [],
  caption: [],
};

/** Attributes whose value is not a URL (DOMPurify checks every other one as one). */
const NOT_URLS = ['align', 'colspan', 'rowspan', 'start', 'type', 'checked', 'disabled', 'open', 'data-lang'];

/** A class token content may carry: highlight.js's and a code block's language. */
const CLASS_TOKEN = /^(?:hljs(?:-[\w-]+)?|language-[\w.+#-]+|[a-z]+_)$/;

/** DATA_IMAGE is an inline image source: shown as it is, nothing is fetched. */
export const DATA_IMAGE = /^data:image\/[a-z0-9.+-]+[;,]/i;

/** Link schemes a click may open (in the system browser). */
const LINK_SCHEMES = ['http:', 'https:', 'mailto:'];

/** Profile names the markdown path: chat code blocks carry their language in data-lang. */
export type Profile = 'chat' | 'inspector';

/** parseURL parses an absolute URL, or returns null. */
function parseURL(value: string): URL | null {
  try {
    // Browsers strip ASCII tab and newline from URLs; so must the check.
    return new URL(value.replace(/[\t\n\r]/g, '').trim());
  } catch {
    return null;
  }
}

/** isWebURL reports whether value is an absolute http(s) URL. */
export function isWebURL(value: string): boolean {
  const u = parseURL(value);
  return !!u && (u.protocol === 'http:' || u.protocol === 'https:') && !!u.hostname;
}

/**
 * Sanitizer turns untrusted HTML into a safe fragment. With resourceBase (a
 * resource's URI), a link that resolves against it to the same scheme — a
 * relative link between a server's resources — keeps no href but the
 * resolved URI in data-resource-uri (see resourceLink), for the Resources
 * tab to open from the same server; content can never write that attribute.
 */
export type Sanitizer = (html: string, opts?: { resourceBase?: string }) => DocumentFragment;

/** Schemes never taken for a resource, whatever the base says. */
const NEVER_RESOURCES = ['javascript:', 'vbscript:', 'data:', 'blob:'];

/** RESOURCE_LINK is the attribute that carries a resolved link to another resource. */
export const RESOURCE_LINK = 'data-resource-uri';

/**
 * resourceLink resolves href against base and returns the URI it names when
 * that is a resource of base's own scheme (never http, https or mailto:
 * those stay links to the browser), else ''.
 */
export function resourceLink(href: string, base: string): string {
  let b: URL;
  let u: URL;
  try {
    b = new URL(base);
    u = new URL(href.replace(/[\t\n\r]/g, '').trim(), b);
  } catch {
    return '';
  }
  if (u.protocol !== b.protocol || LINK_SCHEMES.includes(u.protocol) || NEVER_RESOURCES.includes(u.protocol)) return '';
  // A link to a place inside the same resource (#part) is not another one.
  if (u.href.split('#')[0] === b.href.split('#')[0]) return '';
  return u.href;
}

/**
 * createSanitizer returns a sanitiser for one markdown path, on a DOMPurify
 * instance of its own (hooks are per instance).
 */
export function createSanitizer(profile: Profile): Sanitizer {
  const elements: Record<string, readonly string[]> = { ...ELEMENTS };
  if (profile === 'chat') elements.pre = ['data-lang']; // set by the chat path's code renderer
  const purify = DOMPurify(window);
  const config: Config = {
    ALLOWED_TAGS: Object.keys(elements),
    ALLOWED_ATTR: [...new Set(Object.values(elements).flat())],
    ADD_URI_SAFE_ATTR: NOT_URLS,
    ALLOWED_URI_REGEXP: /^(?:https?:|mailto:)/i,
    ALLOW_DATA_ATTR: false,
    ALLOW_ARIA_ATTR: false,
    ALLOW_UNKNOWN_PROTOCOLS: false,
    ALLOW_SELF_CLOSE_IN_ATTR: false,
    SAFE_FOR_XML: true,
    // The app's window is an HTML document; nothing else is parsed.
    PARSER_MEDIA_TYPE: 'text/html',
    NAMESPACE: 'http://www.w3.org/1999/xhtml',
  };

  // The base of the sanitize call running, and the links it resolved.
  let base = '';
  let resolved = new WeakMap<Element, string>();
  purify.addHook('uponSanitizeAttribute', (node, data) => {
    const tag = node.nodeName.toLowerCase();
    const name = data.attrName;
    if (!elements[tag]?.includes(name)) {
      data.keepAttr = false;
      return;
    }
    const value = data.attrValue;
    switch (name) {
      case 'href': {
        const u = parseURL(value);
        data.keepAttr = !!u && LINK_SCHEMES.includes(u.protocol);
        const r = !data.keepAttr && base && tag === 'a' ? resourceLink(value, base) : '';
        if (r) resolved.set(node, r);
        break;
      }
      case 'src':
        data.keepAttr = DATA_IMAGE.test(value) || isWebURL(value);
        break;
      case 'class': {
        const kept = value.split(/\s+/).filter((t) => CLASS_TOKEN.test(t));
        data.attrValue = kept.join(' ');
        data.keepAttr = kept.length > 0;
        break;
      }
    }
  });
  purify.addHook('afterSanitizeAttributes', (node) => {
    if (!(node instanceof Element)) return;
    switch (node.nodeName) {
      case 'A': {
        node.setAttribute('rel', 'noreferrer noopener');
        const r = resolved.get(node);
        if (r) {
          // Reachable and announced as a link, though it has no href.
          node.setAttribute(RESOURCE_LINK, r);
          node.setAttribute('role', 'link');
          node.setAttribute('tabindex', '0');
        }
        break;
      }
      case 'INPUT':
        // The only inputs markdown makes are task-list boxes: whatever else
        // content writes becomes a disabled checkbox.
        node.setAttribute('type', 'checkbox');
        node.setAttribute('disabled', '');
        break;
    }
  });

  // A document that is a <frameset> has no body: DOMPurify then returns
  // null, which is nothing to show.
  return (html, opts) => {
    base = opts?.resourceBase ?? '';
    resolved = new WeakMap();
    try {
      return purify.sanitize(html, { ...config, RETURN_DOM_FRAGMENT: true }) ?? document.createDocumentFragment();
    } finally {
      base = '';
    }
  };
}

/** The class of a remote image's placeholder; content can never carry it (see CLASS_TOKEN). */
export const PLACEHOLDER_CLASS = 'remote-image';

/** remoteHost returns the host of an http(s) URL as the button names it (an IPv6 literal without brackets). */
export function remoteHost(url: string): string {
  const u = parseURL(url);
  return u ? u.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase() : '';
}

/**
 * placeholdRemoteImages swaps every image in frag whose source is not a
 * data:image URL for a placeholder: an empty <span class="remote-image">
 * carrying the image's URL, host and alt text in data attributes (content
 * cannot write data-* or that class, so only this function makes one).
 * hydrateRemoteImages fills it in. Images without a usable source are
 * replaced by their alt text.
 */
export function placeholdRemoteImages(frag: DocumentFragment): void {
  for (const img of frag.querySelectorAll('img')) {
    const src = img.getAttribute('src') ?? '';
    if (DATA_IMAGE.test(src)) continue;
    const alt = img.getAttribute('alt') ?? '';
    if (!isWebURL(src)) {
      img.replaceWith(document.createTextNode(alt));
      continue;
    }
    const ph = document.createElement('span');
    ph.className = PLACEHOLDER_CLASS;
    ph.dataset.remoteSrc = new URL(src.replace(/[\t\n\r]/g, '').trim()).href;
    ph.dataset.remoteHost = remoteHost(src);
    ph.dataset.remoteAlt = alt || (img.getAttribute('title') ?? '');
    img.replaceWith(ph);
  }
}

/** fragmentHTML serialises a fragment. */
export function fragmentHTML(frag: DocumentFragment): string {
  const out = document.createElement('div');
  out.append(frag);
  return out.innerHTML;
}
