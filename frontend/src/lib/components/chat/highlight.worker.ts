// The chat's code highlighter, off the window's main thread (issue 16: no
// frame over 50 ms while a reply arrives). highlight.js compiles a grammar
// the first time a block uses it (Java: 54 ms in V8), and a long block
// takes as long again; here neither holds a frame. It takes { id, code,
// lang } and answers { id, html }: highlight.js's spans around the code,
// escaped. The window sanitises that again all the same (codeHighlight.ts).

import { highlight } from './highlight';

export interface HighlightJob {
  id: number;
  code: string;
  lang: string;
}

export interface HighlightDone {
  id: number;
  html: string;
}

self.onmessage = (e: MessageEvent<HighlightJob>) => {
  const { id, code, lang } = e.data;
  const done: HighlightDone = { id, html: highlight(code, lang) };
  self.postMessage(done);
};
