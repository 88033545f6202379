// Links between a server's resources (issue 12, 12c): only the sanitiser
// marks one, and only for the resource's own scheme.
import { describe, expect, it } from 'vitest';
import { RESOURCE_LINK, createSanitizer, fragmentHTML, resourceLink } from './sanitize';

describe('resourceLink', () => {
  it.each([
    ['structure.md', 'file:///docs/README.md', 'file:///docs/structure.md'],
    ['../top.md', 'docs://guide/a/README.md', 'docs://guide/top.md'],
    ['2', 'test://static/resource/1', 'test://static/resource/2'],
    ['file:///etc/hosts', 'file:///docs/README.md', 'file:///etc/hosts'],
    ['other://x/y', 'file:///docs/README.md', ''],
    ['https://example.com/a', 'https://example.com/README.md', ''],
    ['x.md', 'https://example.com/README.md', ''],
    ['mailto:a@b.c', 'file:///a', ''],
    ['#part', 'file:///docs/README.md', ''],
    ['', 'file:///docs/README.md', ''],
    ['javascript:alert(1)', 'javascript:void(0)', ''],
    ['data:text/html,x', 'data:text/plain,y', ''],
    ['x.md', 'urn:isbn:1', ''],
    ['x.md', 'not a uri', ''],
  ])('%s against %s is %j', (href, base, want) => {
    expect(resourceLink(href, base)).toBe(want);
  });
});

describe('the inspector sanitiser with a resource base', () => {
  const sanitize = createSanitizer('inspector');
  const render = (html: string, base?: string) => {
    const div = document.createElement('div');
    div.innerHTML = fragmentHTML(sanitize(html, base ? { resourceBase: base } : undefined));
    return div;
  };

  it('marks a relative link with the resolved URI, without an href, focusable as a link', () => {
    const a = render('<a href="structure.md">s</a>', 'file:///docs/README.md').querySelector('a')!;
    expect(a.getAttribute(RESOURCE_LINK)).toBe('file:///docs/structure.md');
    expect(a.hasAttribute('href')).toBe(false);
    expect(a.getAttribute('role')).toBe('link');
    expect(a.getAttribute('tabindex')).toBe('0');
  });

  it('marks nothing without a base, and never keeps what content writes itself', () => {
    expect(render('<a href="structure.md">s</a>').querySelector(`[${RESOURCE_LINK}]`)).toBeNull();
    const forged = render(`<a ${RESOURCE_LINK}="file:///etc/passwd" tabindex="0" role="link">f</a><span ${RESOURCE_LINK}="x">s</span>`, 'file:///docs/README.md');
    expect(forged.querySelector(`[${RESOURCE_LINK}]`)).toBeNull();
    expect(forged.querySelector('[tabindex], [role]')).toBeNull();
  });

  it('leaves web links as they were and marks no other element', () => {
    const div = render('<a href="https://example.com/x">w</a><img src="structure.png" alt="i"><area href="structure.md">', 'file:///docs/README.md');
    expect(div.querySelector('a')!.getAttribute('href')).toBe('https://example.com/x');
    expect(div.querySelectorAll(`[${RESOURCE_LINK}]`)).toHaveLength(0);
  });

  it('forgets the base after the call', () => {
    render('<a href="a.md">a</a>', 'file:///docs/README.md');
    expect(render('<a href="a.md">a</a>').querySelector(`[${RESOURCE_LINK}]`)).toBeNull();
  });
});
