// Markdown → sanitised HTML for resource previews and prompt messages.

import DOMPurify from 'dompurify';
import { Marked } from 'marked';

// A private instance, so options set here never leak into other users of marked.
const md = new Marked({ gfm: true, breaks: false, async: false });

/** Tags and attributes removed on top of DOMPurify's defaults. */
const FORBID_TAGS = ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe', 'object', 'embed'];
const FORBID_ATTR = ['style', 'srcset'];

/**
 * renderMarkdown turns GitHub-flavoured markdown into HTML with every script,
 * event handler, javascript: URL and form element removed. Links stay as
 * plain <a href>; the component showing them decides what a click does.
 */
export function renderMarkdown(text: string): string {
  const html = md.parse(text, { async: false });
  return DOMPurify.sanitize(html, { FORBID_TAGS, FORBID_ATTR });
}
