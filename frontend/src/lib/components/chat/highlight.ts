// Code highlighting for chat messages: highlight.js core with a set of
// common languages only, to keep the bundle small. Unknown or missing
// languages are shown as plain (escaped) text; there is no auto-detection,
// which is slow and often wrong on short snippets. It runs in a worker
// (highlight.worker.ts, asked by codeHighlight.ts); the window knows the
// names it takes from languages.ts, which a test holds to these grammars.

import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import csharp from 'highlight.js/lib/languages/csharp';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import dockerfile from 'highlight.js/lib/languages/dockerfile';
import go from 'highlight.js/lib/languages/go';
import ini from 'highlight.js/lib/languages/ini';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import markdown from 'highlight.js/lib/languages/markdown';
import php from 'highlight.js/lib/languages/php';
import plaintext from 'highlight.js/lib/languages/plaintext';
import python from 'highlight.js/lib/languages/python';
import ruby from 'highlight.js/lib/languages/ruby';
import rust from 'highlight.js/lib/languages/rust';
import shell from 'highlight.js/lib/languages/shell';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';
import { escapeHTML } from '../../util/json';

export const LANGUAGES = {
  bash, c, cpp, csharp, css, diff, dockerfile, go, ini, java, javascript, json, markdown, php, plaintext,
  python, ruby, rust, shell, sql, typescript, xml, yaml,
};
for (const [name, lang] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, lang);
/** Names models write that the grammars do not list as aliases, by grammar. */
export const EXTRA_ALIASES: Record<string, string[]> = {
  ini: ['toml'],
  json: ['jsonc', 'json5'],
  plaintext: ['text', 'txt', 'plain', 'console', 'output'],
};
for (const [languageName, aliases] of Object.entries(EXTRA_ALIASES)) hljs.registerAliases(aliases, { languageName });

/** highlight returns code as HTML with highlight.js spans; always escaped. */
export function highlight(code: string, lang: string): string {
  if (lang && hljs.getLanguage(lang)) {
    try {
      return hljs.highlight(code, { language: lang, ignoreIllegals: true }).value;
    } catch {
      // A grammar failure shows the code plain.
    }
  }
  return escapeHTML(code);
}
