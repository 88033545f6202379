// Choosing how to show the contents of a resource, and the byte helpers
// that go with it. Pure functions; the components render what they decide.

/** The fields of an MCP resource contents object that matter for previewing. */
export interface ContentsLike {
  uri?: string;
  mimeType?: string;
  text?: string;
  /** Base64. */
  blob?: string;
}

/** How one contents object is shown. */
export type PreviewKind = 'text' | 'json' | 'markdown' | 'image' | 'audio' | 'binary';

/** Text longer than this many characters is cut until the user asks for all of it. */
export const TEXT_LIMIT = 1024 * 1024;

/** baseMime returns the lower-case type/subtype without parameters ("" when unknown). */
export function baseMime(mime: string | undefined): string {
  return (mime ?? '').split(';')[0].trim().toLowerCase();
}

/** isJSONMime reports application/json and every +json type. */
export function isJSONMime(mime: string | undefined): boolean {
  const m = baseMime(mime);
  return m === 'application/json' || m === 'text/json' || m.endsWith('+json');
}

/** isMarkdownMime reports text/markdown and its older spellings. */
export function isMarkdownMime(mime: string | undefined): boolean {
  const m = baseMime(mime);
  return m === 'text/markdown' || m === 'text/x-markdown' || m === 'text/md';
}

/** isTextMime reports MIME types whose bytes are text. */
export function isTextMime(mime: string | undefined): boolean {
  const m = baseMime(mime);
  if (!m) return false;
  if (m.startsWith('text/') || isJSONMime(m) || m.endsWith('+xml')) return true;
  return [
    'application/xml',
    'application/javascript',
    'application/ecmascript',
    'application/x-javascript',
    'application/typescript',
    'application/x-sh',
    'application/sql',
    'application/yaml',
    'application/x-yaml',
    'application/toml',
    'application/graphql',
    'application/x-www-form-urlencoded',
  ].includes(m);
}

/** parseJSON returns the parsed value of text that is a JSON object or array, or undefined. */
export function parseJSON(text: string): { value: unknown } | undefined {
  const t = text.trim();
  if (!(t.startsWith('{') && t.endsWith('}')) && !(t.startsWith('[') && t.endsWith(']'))) return undefined;
  try {
    return { value: JSON.parse(t) };
  } catch {
    return undefined;
  }
}

/**
 * previewKind chooses the view for one contents object:
 * - a blob of an image/* or audio/* type → image / audio;
 * - a blob of a text type is decoded and treated as text;
 * - any other blob → binary (size and a download);
 * - text/markdown → markdown;
 * - JSON types, and text of any other type that parses as a JSON object or
 *   array → json (JSON that does not parse falls back to text);
 * - everything else → text.
 */
export function previewKind(c: ContentsLike): PreviewKind {
  const mime = baseMime(c.mimeType);
  if (c.blob !== undefined && c.text === undefined) {
    if (mime.startsWith('image/')) return 'image';
    if (mime.startsWith('audio/')) return 'audio';
    if (!isTextMime(mime)) return 'binary';
    return textKind(mime, decodeBase64Text(c.blob));
  }
  return textKind(mime, c.text ?? '');
}

function textKind(mime: string, text: string): PreviewKind {
  if (isMarkdownMime(mime)) return 'markdown';
  if (isJSONMime(mime)) return parseJSON(text) || isJSONScalar(text) ? 'json' : 'text';
  return parseJSON(text) ? 'json' : 'text';
}

function isJSONScalar(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** textOf returns the text of a contents object, decoding a textual blob. */
export function textOf(c: ContentsLike): string {
  if (c.text !== undefined) return c.text;
  if (c.blob !== undefined && isTextMime(c.mimeType)) return decodeBase64Text(c.blob);
  return '';
}

/** prettyJSON re-indents JSON text with two spaces; other text comes back as is. */
export function prettyJSON(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** base64Size is the number of bytes a base64 string decodes to. */
export function base64Size(b64: string): number {
  const s = b64.replace(/[\s]/g, '');
  if (!s) return 0;
  const pad = s.endsWith('==') ? 2 : s.endsWith('=') ? 1 : 0;
  return Math.floor((s.length * 3) / 4) - pad;
}

/** base64Bytes decodes base64 (standard or URL-safe alphabet) to bytes. */
export function base64Bytes(b64: string): Uint8Array<ArrayBuffer> {
  const bin = atob(b64.replace(/[\s]/g, '').replace(/-/g, '+').replace(/_/g, '/'));
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** decodeBase64Text decodes base64 UTF-8 text; invalid base64 gives "". */
export function decodeBase64Text(b64: string): string {
  try {
    return new TextDecoder().decode(base64Bytes(b64));
  } catch {
    return '';
  }
}

/** byteLength is the UTF-8 size of text. */
export function byteLength(text: string): number {
  return new TextEncoder().encode(text).length;
}

/** contentsSize is the size in bytes of a contents object's text or blob. */
export function contentsSize(c: ContentsLike): number {
  if (c.text !== undefined) return byteLength(c.text);
  if (c.blob !== undefined) return base64Size(c.blob);
  return 0;
}

/** formatBytes shows a size as B, KB, MB or GB (1024-based, one decimal above 1 KB). */
export function formatBytes(n: number): string {
  if (!Number.isFinite(n) || n < 0) return '';
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = n / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v >= 100 ? Math.round(v) : Math.round(v * 10) / 10} ${units[u]}`;
}

/** fileName picks a download name: the given name, else the last segment of the URI. */
export function fileName(uri: string, name?: string): string {
  if (name && name.trim()) return name.trim().replace(/[\\/:*?"<>|]+/g, '_');
  const path = uri
    .replace(/[?#].*$/, '')
    .replace(/^[a-z][a-z0-9+.-]*:/i, '')
    .replace(/\/+$/, '');
  const last = path.slice(path.lastIndexOf('/') + 1);
  let decoded = last;
  try {
    decoded = decodeURIComponent(last);
  } catch {
    // keep it encoded
  }
  return decoded.replace(/[\\/:*?"<>|]+/g, '_') || 'resource';
}

/** dataURL builds a data: URL from base64 content. */
export function dataURL(mime: string | undefined, b64: string): string {
  return `data:${baseMime(mime) || 'application/octet-stream'};base64,${b64.replace(/\s/g, '')}`;
}
