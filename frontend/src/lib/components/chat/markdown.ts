// Markdown for chat messages (SPEC D7): GitHub-flavoured markdown by
// marked, code highlighted by highlight.js (in a worker: codeHighlight.ts),
// sanitised by the shared allow-list (remote images become placeholders),
// and a copy button on every code block. Long streamed replies are
// rendered in blocks (splitBlocks): finished blocks are rendered once and
// kept, only the block still being written is rendered again as text
// arrives.

import { Marked, type Tokens } from 'marked';
import { createSanitizer, placeholdRemoteImages } from '../../content/sanitize';
import { escapeHTML } from '../../util/json';
import { createCodeHighlighter } from './codeHighlight';
import { knownLanguage } from './languages';

const md = new Marked({ gfm: true, breaks: false, async: false });
md.use({
  renderer: {
    code({ text, lang, raw }: Tokens.Code): string {
      const name = (lang ?? '').trim().split(/\s+/)[0].toLowerCase();
      // A fence still being written stays plain: it would be highlighted
      // whole again in every frame. Once closed, it is highlighted once.
      const cls = knownLanguage(name) && closedFence(raw) ? `hljs language-${escapeHTML(name)}` : 'hljs';
      const label = name ? ` data-lang="${escapeHTML(name)}"` : '';
      return `<pre${label}><code class="${cls}">${escapeHTML(text.replace(/\n$/, ''))}</code></pre>\n`;
    },
    checkbox({ checked }: Tokens.Checkbox): string {
      return `<input type="checkbox" disabled${checked ? ' checked' : ''}> `;
    },
  },
});

// Sanitised by the shared allow-list (lib/content/sanitize.ts); remote
// images become placeholders there. So is what the highlighter sends back.
const sanitize = createSanitizer('chat');
const highlighter = createCodeHighlighter(sanitize);

/** closedFence reports whether a fenced code block's source ends with its closing fence. */
export function closedFence(raw: string): boolean {
  const lines = raw.replace(/\n+$/, '').split('\n');
  const open = /^ {0,3}(`{3,}|~{3,})/.exec(lines[0]);
  const close = lines.length > 1 ? /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(lines[lines.length - 1]) : null;
  return !!open && !!close && close[1][0] === open[1][0] && close[1].length >= open[1].length;
}

/** LANGUAGE_CLASS finds a code element's language in its class (markdown's or raw HTML's). */
const LANGUAGE_CLASS = /(?:^|\s)language-(\S+)/;

/** renderStats counts markdown renders: a test hook for the streaming throttle. */
export const renderStats = { renders: 0 };

const COPY_ICON =
  '<svg width="14" height="14" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="1.75" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true"><rect x="9" y="9" width="13" height="13" rx="2"/><path d="M5 15H4a2 2 0 0 1-2-2V4a2 2 0 0 1 2-2h9a2 2 0 0 1 2 2v1"/></svg>';

/**
 * renderChatNodes turns markdown into sanitised nodes of this document,
 * to be inserted as they are: parsing the HTML again would cost a long
 * reply's frames a second parse per block, and what is inserted is what
 * the sanitiser checked (no mutation on a re-parse). Every code block gets
 * a header with its language and a copy button (class code-copy, labelled
 * copyLabel): the button is added after sanitising, so a model can never
 * write one. Every remote image is a placeholder (placeholdRemoteImages).
 */
export function renderChatNodes(text: string, copyLabel: string): DocumentFragment {
  renderStats.renders++;
  const frag = sanitize(md.parse(text, { async: false }));
  placeholdRemoteImages(frag);
  for (const pre of frag.querySelectorAll('pre')) {
    const block = document.createElement('div');
    block.className = 'code-block';
    const head = document.createElement('div');
    head.className = 'code-head';
    const lang = document.createElement('span');
    lang.className = 'code-lang';
    lang.textContent = pre.getAttribute('data-lang') ?? '';
    pre.removeAttribute('data-lang');
    const copy = document.createElement('button');
    copy.type = 'button';
    copy.className = 'code-copy';
    copy.dataset.testid = 'code-copy';
    copy.setAttribute('aria-label', copyLabel);
    copy.title = copyLabel;
    copy.innerHTML = COPY_ICON;
    head.append(lang, copy);
    pre.replaceWith(block);
    block.append(head, pre);
    const code = pre.querySelector('code');
    const name = code && LANGUAGE_CLASS.exec(code.className)?.[1];
    if (name && knownLanguage(name)) highlighter.highlight(code, name);
  }
  return frag;
}

const FENCE = /^\s*(`{3,}|~{3,})/;

/**
 * splitBlocks cuts markdown into blocks that render the same alone as
 * together: at blank lines outside code fences that are followed by a
 * line starting in the first column (a new paragraph, heading, list, table
 * or fence). from is where a previous call's last block started: text
 * before it is not scanned again. It returns the block boundaries after
 * from (offsets where a block starts); the text after the last boundary is
 * the block still open.
 */
export function splitBlocks(text: string, from = 0): number[] {
  const cuts: number[] = [];
  let fence: { ch: string; len: number } | null = null;
  let blank = false;
  let pos = from;
  while (pos < text.length) {
    const nl = text.indexOf('\n', pos);
    const end = nl < 0 ? text.length : nl;
    const line = text.slice(pos, end);
    const complete = nl >= 0;
    if (fence) {
      const m = FENCE.exec(line);
      if (complete && m && m[1][0] === fence.ch && m[1].length >= fence.len && line.trim() === m[1]) fence = null;
    } else if (line.trim() === '') {
      if (complete) blank = true;
    } else {
      if (blank && pos > from && !/^\s/.test(line)) cuts.push(pos);
      blank = false;
      const m = FENCE.exec(line);
      if (m) fence = { ch: m[1][0], len: m[1].length };
    }
    if (!complete) break;
    pos = nl + 1;
  }
  return cuts;
}
