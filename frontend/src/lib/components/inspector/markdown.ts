// Markdown → sanitised HTML for resource previews, prompt messages and tool
// results: the shared allow-list (lib/content/sanitize.ts), with every
// remote image swapped for a placeholder.

import { Marked } from 'marked';
import { createSanitizer, fragmentHTML, placeholdRemoteImages } from '../../content/sanitize';

// A private instance, so options set here never leak into other users of marked.
const md = new Marked({ gfm: true, breaks: false, async: false });

const sanitize = createSanitizer('inspector');

/**
 * renderMarkdown turns GitHub-flavoured markdown into HTML that keeps only
 * the elements and attributes the allow-list names: no script, event
 * handler, style, form, frame, SVG or MathML; links only to http(s) and
 * mailto; remote images as placeholders that load nothing. The component
 * showing it decides what a click on a link does. With resourceBase (the
 * URI of the resource shown), links to other resources of the same scheme
 * are kept as data-resource-uri (content/sanitize.ts).
 */
export function renderMarkdown(text: string, resourceBase?: string): string {
  const frag = sanitize(md.parse(text, { async: false }), { resourceBase });
  placeholdRemoteImages(frag);
  return fragmentHTML(frag);
}
