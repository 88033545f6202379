import { waitFor } from '@testing-library/svelte';
import hljs from 'highlight.js/lib/core';
import { describe, expect, it, vi } from 'vitest';
import { createSanitizer } from '../../content/sanitize';
import { createCodeHighlighter, MAX_HIGHLIGHT_CHARS } from './codeHighlight';
import { EXTRA_ALIASES, LANGUAGES } from './highlight';
import { knownLanguage, languageNames } from './languages';
import { closedFence, renderChatNodes } from './markdown';

const codeOf = (text: string, lang = 'go') => {
  const el = document.createElement('code');
  el.className = `hljs language-${lang}`;
  el.textContent = text;
  return el;
};

describe('code highlighting', () => {
  it('the window knows exactly the names the grammars take', () => {
    const names = new Set<string>();
    for (const [name, lang] of Object.entries(LANGUAGES)) {
      names.add(name);
      for (const a of lang(hljs).aliases ?? []) names.add(a.toLowerCase());
    }
    for (const aliases of Object.values(EXTRA_ALIASES)) for (const a of aliases) names.add(a);
    expect(languageNames().sort()).toEqual([...names].sort());
    expect([knownLanguage('Go'), knownLanguage('C#'), knownLanguage('toml'), knownLanguage('cobol'), knownLanguage('')]).toEqual([true, true, true, false, false]);
  });

  it('a fence still being written is not highlighted; a closed one is', () => {
    expect(['```go\nfunc', '```go\nfunc\n``', '~~~go\nx\n```', '```go', '````go\nx\n```'].map(closedFence)).toEqual([false, false, false, false, false]);
    expect(['```go\nfunc\n```', '```go\nfunc\n```\n\n', '~~~\nx\n~~~~', '````go\nx\n````  '].map(closedFence)).toEqual([true, true, true, true]);
    const open = renderChatNodes('```java\nclass A {', 'Copy');
    expect(open.querySelector('code')!.className).toBe('hljs');
    expect(open.querySelector('.code-lang')!.textContent).toBe('java');
    const closed = renderChatNodes('```java\nclass A {}\n```', 'Copy');
    expect(closed.querySelector('code')!.className).toBe('hljs language-java');
  });

  it('places an answer of spans alone, sanitised, once per code, at once when known, and never into code that changed', async () => {
    const ask = vi.fn(async (code: string) => `<span class="hljs-keyword" onclick="alert(1)" style="color:red">${code}</span><script>alert(2)</script>`);
    const h = createCodeHighlighter(createSanitizer('chat'), ask);
    const a = codeOf('func');
    const b = codeOf('func'); // the same block rendered again before the answer
    const changed = codeOf('func');
    h.highlight(a, 'go');
    h.highlight(b, 'go');
    h.highlight(changed, 'go');
    changed.textContent = 'func main';
    expect(ask).toHaveBeenCalledTimes(1);
    expect(a.querySelector('span')).toBeNull(); // plain until the answer is in
    await waitFor(() => expect(a.querySelector('.hljs-keyword')).toHaveTextContent('func'));
    for (const el of [a, b]) {
      expect(el.innerHTML).toBe('<span class="hljs-keyword">func</span>');
    }
    expect(changed.innerHTML).toBe('func main');
    // An answer with anything but spans is not placed: the block stays plain.
    const odd = createCodeHighlighter(createSanitizer('chat'), async (code) => `<b>${code}</b>`);
    const e = codeOf('y := 2');
    odd.highlight(e, 'go');
    await new Promise((r) => setTimeout(r, 150));
    expect(e.innerHTML).toBe('y := 2');
    // Rendered again later: placed from what is known, nothing asked.
    const c = codeOf('func');
    h.highlight(c, 'go');
    expect(c.innerHTML).toBe('<span class="hljs-keyword">func</span>');
    expect(ask).toHaveBeenCalledTimes(1);
    // Too long to highlight, or failing: stays plain.
    const long = codeOf('x'.repeat(MAX_HIGHLIGHT_CHARS + 1));
    h.highlight(long, 'go');
    expect(ask).toHaveBeenCalledTimes(1);
    const failing = createCodeHighlighter(createSanitizer('chat'), async () => Promise.reject(new Error('no')));
    const d = codeOf('x := 1');
    failing.highlight(d, 'go');
    await new Promise((r) => setTimeout(r, 150));
    expect(d.innerHTML).toBe('x := 1');
  });
});
