import { waitFor } from '@testing-library/svelte';
import hljs from 'highlight.js/lib/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
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

// fakeWorkers puts a Worker in place that records what it is sent and
// answers only when a test calls its onmessage; returns those made.
function fakeWorkers() {
  const made: FakeWorker[] = [];
  class FakeWorker {
    onmessage: ((e: MessageEvent) => void) | null = null;
    onerror: ((e: { preventDefault(): void }) => void) | null = null;
    jobs: { id: number; code: string; lang: string }[] = [];
    terminated = false;
    constructor(
      public url: URL,
      public opts: WorkerOptions,
    ) {
      made.push(this);
    }
    postMessage(job: { id: number; code: string; lang: string }) {
      this.jobs.push(job);
    }
    terminate() {
      this.terminated = true;
    }
  }
  vi.stubGlobal('Worker', FakeWorker);
  return made;
}

describe('code highlighting', () => {
  afterEach(() => vi.unstubAllGlobals());

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

  it('asks a worker, and the window answers instead when the worker fails', async () => {
    const made = fakeWorkers();
    const h = createCodeHighlighter(createSanitizer('chat'));
    const a = codeOf('func a()');
    h.highlight(a, 'go');
    expect(made).toHaveLength(1);
    expect(made[0].opts.type).toBe('module');
    expect(String(made[0].url)).toMatch(/highlight\.worker/);
    const [job] = made[0].jobs;
    expect([job.code, job.lang]).toEqual(['func a()', 'go']);
    made[0].onmessage!({ data: { id: job.id, html: '<span class="hljs-keyword">func</span> a()' } } as MessageEvent);
    await waitFor(() => expect(a.innerHTML).toBe('<span class="hljs-keyword">func</span> a()'));
    // The worker dies with a job in hand: the window highlights it with highlight.js itself.
    const b = codeOf('func b() {}');
    h.highlight(b, 'go');
    expect(made[0].jobs).toHaveLength(2);
    made[0].onerror!({ preventDefault() {} });
    expect(made[0].terminated).toBe(true);
    await waitFor(() => expect(b.querySelector('.hljs-keyword')).not.toBeNull());
    expect(b.textContent).toBe('func b() {}');
    // And it stays the window's: no new worker.
    const c = codeOf('var c = 1');
    h.highlight(c, 'go');
    await waitFor(() => expect(c.querySelector('.hljs-keyword')).not.toBeNull());
    expect(made).toHaveLength(1);
  });

  it('stops the worker after 30 s without work, and starts one again when needed', () => {
    vi.useFakeTimers();
    try {
      const made = fakeWorkers();
      const h = createCodeHighlighter(createSanitizer('chat'));
      h.highlight(codeOf('x := 1'), 'go');
      const [job] = made[0].jobs;
      made[0].onmessage!({ data: { id: job.id, html: 'x := 1' } } as MessageEvent);
      vi.advanceTimersByTime(29_000);
      expect(made[0].terminated).toBe(false);
      vi.advanceTimersByTime(1_000);
      expect(made[0].terminated).toBe(true);
      h.highlight(codeOf('y := 2'), 'go');
      expect(made).toHaveLength(2);
      expect(made[1].jobs.map((j) => j.code)).toEqual(['y := 2']);
    } finally {
      vi.useRealTimers();
    }
  });
});
