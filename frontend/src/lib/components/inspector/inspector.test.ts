import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './markdown';
import {
  base64Size,
  contentsSize,
  decodeBase64Text,
  fileName,
  formatBytes,
  previewKind,
  type ContentsLike,
  type PreviewKind,
} from './preview';
import { expandTemplate, parseTemplate, templateVariables } from './uriTemplate';

// The variables of RFC 6570 section 3.2 (string values only).
const RFC = {
  var: 'value',
  hello: 'Hello World!',
  half: '50%',
  empty: '',
  path: '/foo/bar',
  x: '1024',
  y: '768',
  base: 'http://example.com/home/',
  who: 'fred',
  dub: 'me/too',
};

describe('expandTemplate (RFC 6570 levels 1–3)', () => {
  it.each([
    // Level 1
    ['{var}', 'value'],
    ['{hello}', 'Hello%20World%21'],
    ['{half}', '50%25'],
    ['O{empty}X', 'OX'],
    ['O{undef}X', 'OX'],
    ['{x,y}', '1024,768'],
    ['{x,hello,y}', '1024,Hello%20World%21,768'],
    ['?{x,empty}', '?1024,'],
    ['?{x,undef}', '?1024'],
    ['?{undef,y}', '?768'],
    ['{dub}', 'me%2Ftoo'],
    // Level 2: reserved and fragment
    ['{+var}', 'value'],
    ['{+hello}', 'Hello%20World!'],
    ['{+half}', '50%25'],
    ['{base}index', 'http%3A%2F%2Fexample.com%2Fhome%2Findex'],
    ['{+base}index', 'http://example.com/home/index'],
    ['O{+empty}X', 'OX'],
    ['{+path}/here', '/foo/bar/here'],
    ['here?ref={+path}', 'here?ref=/foo/bar'],
    ['up{+path}{var}/here', 'up/foo/barvalue/here'],
    ['{+x,hello,y}', '1024,Hello%20World!,768'],
    ['{+path,x}/here', '/foo/bar,1024/here'],
    ['{#var}', '#value'],
    ['{#hello}', '#Hello%20World!'],
    ['{#half}', '#50%25'],
    ['foo{#empty}', 'foo#'],
    ['foo{#undef}', 'foo'],
    ['{#x,hello,y}', '#1024,Hello%20World!,768'],
    ['{#path,x}/here', '#/foo/bar,1024/here'],
    // Level 3: label, path segments, path-style params, form query/continuation
    ['{.who}', '.fred'],
    ['{.who,who}', '.fred.fred'],
    ['{.half,who}', '.50%25.fred'],
    ['X{.var}', 'X.value'],
    ['X{.empty}', 'X.'],
    ['X{.undef}', 'X'],
    ['X{.x,y}', 'X.1024.768'],
    ['{/who}', '/fred'],
    ['{/who,who}', '/fred/fred'],
    ['{/half,who}', '/50%25/fred'],
    ['{/who,dub}', '/fred/me%2Ftoo'],
    ['{/var}', '/value'],
    ['{/var,empty}', '/value/'],
    ['{/var,undef}', '/value'],
    ['{/var,x}/here', '/value/1024/here'],
    ['{;who}', ';who=fred'],
    ['{;half}', ';half=50%25'],
    ['{;empty}', ';empty'],
    ['{;x,y}', ';x=1024;y=768'],
    ['{;x,y,empty}', ';x=1024;y=768;empty'],
    ['{;x,y,undef}', ';x=1024;y=768'],
    ['{?who}', '?who=fred'],
    ['{?half}', '?half=50%25'],
    ['{?x,y}', '?x=1024&y=768'],
    ['{?x,y,empty}', '?x=1024&y=768&empty='],
    ['{?x,y,undef}', '?x=1024&y=768'],
    ['{?undef}', ''],
    ['?fixed=yes{&x}', '?fixed=yes&x=1024'],
    ['{&who}', '&who=fred'],
    ['{&x,y,empty}', '&x=1024&y=768&empty='],
    // Level-4 modifiers on strings
    ['{var:3}', 'val'],
    ['{var:30}', 'value'],
    ['{+path:6}/here', '/foo/b/here'],
    ['{?var:3}', '?var=val'],
    ['{/who*}', '/fred'],
  ])('%s → %s', (template, expected) => {
    expect(expandTemplate(template, RFC)).toBe(expected);
  });

  it('expands the forms MCP servers use', () => {
    expect(expandTemplate('users://{id}/profile', { id: '42' })).toBe('users://42/profile');
    expect(expandTemplate('file:///{+path}', { path: 'home/dev/a b.txt' })).toBe('file:///home/dev/a%20b.txt');
    expect(expandTemplate('search://items{?q,limit}', { q: 'café & tea', limit: '5' })).toBe(
      'search://items?q=caf%C3%A9%20%26%20tea&limit=5',
    );
    expect(expandTemplate('search://items{?q,limit}', { q: 'x' })).toBe('search://items?q=x');
    expect(expandTemplate('test://static/resource/{id}', { id: undefined })).toBe('test://static/resource/');
  });

  it('encodes characters outside ASCII as UTF-8', () => {
    expect(expandTemplate('{x}', { x: '中文' })).toBe('%E4%B8%AD%E6%96%87');
    expect(expandTemplate('{x}', { x: "it's (ok)*" })).toBe('it%27s%20%28ok%29%2A');
  });

  it('copies an expression that does not parse', () => {
    expect(expandTemplate('a{}b{ x }c{=y}', { x: '1', y: '2' })).toBe('a{}b{ x }c{=y}');
    expect(expandTemplate('open{x', { x: '1' })).toBe('open{x');
  });

  it('lists the variables once, in order', () => {
    expect(templateVariables('repo://{owner}/{repo}/blob/{+path}{?ref,owner}')).toEqual(['owner', 'repo', 'path', 'ref']);
    expect(templateVariables('static://x')).toEqual([]);
    expect(parseTemplate('a{/b,c:2}')).toEqual([
      { literal: 'a' },
      { operator: '/', vars: [{ name: 'b' }, { name: 'c', prefix: 2 }] },
    ]);
  });
});

const b64 = (s: string) => btoa(String.fromCharCode(...new TextEncoder().encode(s)));

describe('previewKind', () => {
  it.each<[string, ContentsLike, PreviewKind]>([
    ['plain text', { mimeType: 'text/plain', text: 'hello' }, 'text'],
    ['no type', { text: 'hello' }, 'text'],
    ['unknown type', { mimeType: 'application/x-custom', text: 'hello' }, 'text'],
    ['json type', { mimeType: 'application/json', text: '{"a":1}' }, 'json'],
    ['json type with charset', { mimeType: 'application/json; charset=utf-8', text: '[1,2]' }, 'json'],
    ['+json type', { mimeType: 'application/ld+json', text: '{}' }, 'json'],
    ['json scalar', { mimeType: 'application/json', text: '42' }, 'json'],
    ['broken json', { mimeType: 'application/json', text: '{"a":' }, 'text'],
    ['plain text that is JSON', { mimeType: 'text/plain', text: ' {"a": [1]} ' }, 'json'],
    ['untyped JSON', { text: '[{"a":1}]' }, 'json'],
    ['plain text that looks like JSON but is not', { mimeType: 'text/plain', text: '{not json}' }, 'text'],
    ['markdown', { mimeType: 'text/markdown', text: '# Title' }, 'markdown'],
    ['markdown (x-)', { mimeType: 'text/x-markdown', text: '# Title' }, 'markdown'],
    ['html source', { mimeType: 'text/html', text: '<p>x</p>' }, 'text'],
    ['png blob', { mimeType: 'image/png', blob: 'iVBORw0KGgo=' }, 'image'],
    ['audio blob', { mimeType: 'audio/wav', blob: 'UklGRg==' }, 'audio'],
    ['pdf blob', { mimeType: 'application/pdf', blob: 'JVBERi0=' }, 'binary'],
    ['untyped blob', { blob: 'AAEC' }, 'binary'],
    ['text blob', { mimeType: 'text/plain', blob: b64('hi') }, 'text'],
    ['json blob', { mimeType: 'application/json', blob: b64('{"a":1}') }, 'json'],
    ['markdown blob', { mimeType: 'text/markdown', blob: b64('# x') }, 'markdown'],
  ])('%s', (_name, c, kind) => {
    expect(previewKind(c)).toBe(kind);
  });
});

describe('bytes', () => {
  it('sizes base64 without decoding it', () => {
    expect(base64Size('')).toBe(0);
    expect(base64Size(btoa('a'))).toBe(1);
    expect(base64Size(btoa('ab'))).toBe(2);
    expect(base64Size(btoa('abc'))).toBe(3);
    expect(base64Size(btoa('x'.repeat(1000)))).toBe(1000);
  });

  it('decodes UTF-8 text and sizes contents', () => {
    expect(decodeBase64Text(b64('héllo 中'))).toBe('héllo 中');
    expect(decodeBase64Text('!!!')).toBe('');
    expect(contentsSize({ text: 'é' })).toBe(2);
    expect(contentsSize({ blob: btoa('abcd') })).toBe(4);
  });

  it('formats sizes', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1023)).toBe('1023 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(3 * 1024 * 1024)).toBe('3 MB');
    expect(formatBytes(250 * 1024)).toBe('250 KB');
  });

  it('names downloads after the resource', () => {
    expect(fileName('file:///tmp/report.pdf')).toBe('report.pdf');
    expect(fileName('test://static/resource/2', 'Resource 2')).toBe('Resource 2');
    expect(fileName('test://x/a%20b.bin?v=1')).toBe('a b.bin');
    expect(fileName('blob:')).toBe('resource');
    expect(fileName('s3://bucket/a', 'x/y:z')).toBe('x_y_z');
  });
});

describe('renderMarkdown', () => {
  it('renders GitHub-flavoured markdown', () => {
    const html = renderMarkdown('# Hi\n\n- **bold**\n\n| a | b |\n|---|---|\n| 1 | 2 |');
    expect(html).toContain('<h1>Hi</h1>');
    expect(html).toContain('<strong>bold</strong>');
    expect(html).toContain('<table>');
  });

  it('removes scripts, handlers and javascript: links', () => {
    const html = renderMarkdown(
      'text <script>alert(1)</script>\n\n<img src=x onerror="alert(2)">\n\n[x](javascript:alert(3))\n\n<iframe src="https://e.com"></iframe>',
    );
    expect(html).toContain('<a rel="noreferrer noopener">x</a>');
    expect(html).not.toMatch(/<script|onerror|javascript:|<iframe/i);
  });
});
