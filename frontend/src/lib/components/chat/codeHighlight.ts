// Highlighting the chat's code blocks without holding the window's frames
// (issue 16): highlight.js runs in a worker (highlight.worker.ts), started
// on the first block and stopped after a while without any, and its
// answer is sanitised and placed a frame's budget at a time. A block shows
// plain until its answer is in; an answer already had (the block still
// being written is rendered again as text after it arrives) is placed at
// once. Where there is no Worker (tests in jsdom) or the worker fails,
// highlight.ts is loaded into the window and answers the same way.

import type { Sanitizer } from '../../content/sanitize';
import { frameBudget, nextFrame } from '../../util/frames';
import type { HighlightDone, HighlightJob } from './highlight.worker';

/** Longer code stays plain: its highlighted HTML would take frames of its own to sanitise and lay out. */
export const MAX_HIGHLIGHT_CHARS = 100_000;
/** Answers kept for blocks rendered again (newest last): at most this many, and this much code. */
const CACHE_ENTRIES = 64;
const CACHE_CHARS = 500_000;
/** The worker stops after this long without work (its grammars are memory), in ms. */
const WORKER_IDLE_MS = 30_000;

/** Highlight answers one block: highlight.js's HTML for code in lang. */
export type Highlight = (code: string, lang: string) => Promise<string>;

/** A highlighter places highlight.js's spans into code elements. */
export interface CodeHighlighter {
  /** highlight fills el (a <code> holding lang's code as text) with spans, now if the answer is known, else later. */
  highlight(el: HTMLElement, lang: string): void;
}

/**
 * createCodeHighlighter returns a highlighter that sanitises every answer
 * with sanitize before it reaches the DOM. ask answers the jobs: by default
 * a worker, started when first needed.
 */
export function createCodeHighlighter(sanitize: Sanitizer, ask: Highlight = inWorker()): CodeHighlighter {
  const cache = new Map<string, DocumentFragment>();
  let cached = 0; // characters of code in cache
  // Code elements waiting for an answer, by job key.
  const waiting = new Map<string, HTMLElement[]>();
  const answers: { key: string; code: string; html: string }[] = [];
  let draining = false;

  function place(el: HTMLElement, code: string, frag: DocumentFragment) {
    // A block whose text changed since is someone else's now.
    if (el.textContent !== code) return;
    el.replaceChildren(frag.cloneNode(true));
  }

  function drain() {
    draining = false;
    while (answers.length && frameBudget.left()) {
      const { key, code, html } = answers.shift()!;
      const els = waiting.get(key) ?? [];
      waiting.delete(key);
      const frag = frameBudget.run(() => sanitize(html));
      // highlight.js writes spans around text, nothing else: an answer
      // with anything more is not what was asked for, and stays out.
      if (frag.querySelector(':not(span)')) continue;
      remember(key, frag);
      for (const el of els) frameBudget.run(() => place(el, code, frag));
    }
    if (answers.length) later();
  }

  function later() {
    if (draining) return;
    draining = true;
    nextFrame(drain);
  }

  function remember(key: string, frag: DocumentFragment) {
    if (cache.delete(key)) cached -= key.length;
    cache.set(key, frag);
    cached += key.length;
    while (cache.size > CACHE_ENTRIES || cached > CACHE_CHARS) {
      const oldest = cache.keys().next().value!;
      cache.delete(oldest);
      cached -= oldest.length;
    }
  }

  return {
    highlight(el, lang) {
      const code = el.textContent ?? '';
      if (!code || code.length > MAX_HIGHLIGHT_CHARS) return;
      const key = `${lang}\u0000${code}`;
      const known = cache.get(key);
      if (known) {
        remember(key, known);
        place(el, code, known);
        return;
      }
      const queued = waiting.get(key);
      if (queued) {
        queued.push(el);
        return;
      }
      waiting.set(key, [el]);
      ask(code, lang).then(
        (html) => {
          answers.push({ key, code, html });
          later();
        },
        () => waiting.delete(key), // the block stays plain
      );
    },
  };
}

// inWorker answers jobs in a worker, or in the window where there is none.
function inWorker(): Highlight {
  let worker: Worker | null = null;
  let idle: ReturnType<typeof setTimeout> | undefined;
  let next = 0;
  let broken = typeof Worker === 'undefined';
  const pending = new Map<number, { job: HighlightJob; resolve: (html: string) => void; reject: (e: unknown) => void }>();

  const inWindow: Highlight = async (code, lang) => (await import('./highlight')).highlight(code, lang);

  function stop() {
    worker?.terminate();
    worker = null;
  }

  function start(): Worker {
    const w = new Worker(new URL('./highlight.worker.ts', import.meta.url), { type: 'module', name: 'highlight' });
    w.onmessage = (e: MessageEvent<HighlightDone>) => {
      const p = pending.get(e.data.id);
      if (!p) return;
      pending.delete(e.data.id);
      p.resolve(e.data.html);
      if (pending.size === 0) idle = setTimeout(stop, WORKER_IDLE_MS);
    };
    // A worker that cannot start (or dies) leaves its jobs to the window.
    w.onerror = (e) => {
      e.preventDefault();
      broken = true;
      stop();
      for (const { job, resolve, reject } of pending.values()) inWindow(job.code, job.lang).then(resolve, reject);
      pending.clear();
    };
    return w;
  }

  return (code, lang) => {
    if (!broken && !worker) {
      try {
        worker = start();
      } catch {
        broken = true; // refused outright (a policy): the window answers
      }
    }
    if (broken || !worker) return inWindow(code, lang);
    clearTimeout(idle);
    const job: HighlightJob = { id: ++next, code, lang };
    return new Promise((resolve, reject) => {
      pending.set(job.id, { job, resolve, reject });
      worker!.postMessage(job);
    });
  };
}
