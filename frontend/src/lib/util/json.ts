const ESC: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

export const escapeHTML = (s: string) => s.replace(/[&<>"]/g, (c) => ESC[c]);

const TOKEN = /("(?:\\u[0-9a-fA-F]{4}|\\[^u]|[^\\"])*")(\s*:)?|\b(true|false|null)\b|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/g;

/**
 * highlightJSON returns pretty-printed JSON text as HTML with spans for
 * keys, strings, numbers and literals. The input is escaped; only our own
 * span tags are added.
 */
export function highlightJSON(pretty: string): string {
  let out = '';
  let last = 0;
  for (const m of pretty.matchAll(TOKEN)) {
    out += escapeHTML(pretty.slice(last, m.index));
    const [whole, str, colon, lit, num] = m;
    if (str !== undefined) {
      out += colon
        ? `<span class="j-key">${escapeHTML(str)}</span>${colon}`
        : `<span class="j-str">${escapeHTML(str)}</span>`;
    } else if (lit !== undefined) out += `<span class="j-lit">${lit}</span>`;
    else if (num !== undefined) out += `<span class="j-num">${num}</span>`;
    else out += escapeHTML(whole);
    last = m.index + whole.length;
  }
  return out + escapeHTML(pretty.slice(last));
}
