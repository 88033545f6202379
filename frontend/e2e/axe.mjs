// axe-core (the pinned dev dependency) for the E2E specs: WCAG 2.0–2.2 A
// and AA rules on the page or on the elements that match a selector.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

const source = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '../node_modules/axe-core/axe.min.js'), 'utf8');

// axeViolations lists what axe finds as "rule: target — why in <html>" lines.
// axe runs under the app's CSP: its source is evaluated through the DevTools
// protocol (no script tag, no eval in the page). It first waits (2 s at
// most) for running CSS transitions and finite animations to end: right
// after a theme switch the buttons are still fading between the two themes'
// colours (0.12 s), and a colour measured half-way is neither theme's (on a
// fast machine axe ran inside that window and reported contrast failures no
// user ever sees).
export async function axeViolations(page, selector = null) {
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.evaluate(source);
  return page.evaluate(
    async ([sel, tags]) => {
      // Only what ends: a spinner runs forever, and its "finished" never comes.
      const ending = document.getAnimations().filter((a) => a.effect?.getComputedTiming().endTime !== Infinity);
      await Promise.race([Promise.all(ending.map((a) => a.finished.catch(() => {}))), new Promise((r) => setTimeout(r, 2000))]);
      const res = await window.axe.run(sel ?? document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
      return res.violations.flatMap((v) =>
        v.nodes.map((n) => `${v.id}: ${n.target.join(' ')} — ${(n.failureSummary || '').replace(/\s+/g, ' ').slice(0, 220)} in ${n.html.slice(0, 160)}`),
      );
    },
    [selector, AXE_TAGS],
  );
}
