package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/wailsapp/wails/v2/pkg/runtime"
)

// navCheckEvent carries the page's reports of the navigation check.
const navCheckEvent = "mcpdesk:navigation-check"

// checkNavigation is the real window's self-check of its web security,
// run when MCPDESK_CHECK_NAVIGATION names a URL (build/scripts/
// window-check.sh; nothing else sets it). Once the navigation guard
// watches the window, the page reports whether its CSP refuses eval and
// an injected inline script, then tries to leave for target; a moment
// later it reports where it is. Each report is a log line the script
// reads; the second proves the page stayed and the bindings still answer.
func (a *App) checkNavigation(ctx context.Context, target string) {
	select {
	case <-a.nav.Watching():
	case <-time.After(30 * time.Second):
		a.logger.Warn("navigation check: the navigation guard did not start")
		return
	}
	reported := make(chan struct{}, 1)
	runtime.EventsOn(ctx, navCheckEvent, func(data ...any) {
		if len(data) > 0 {
			report := fmt.Sprint(data[0])
			a.logger.Info("navigation check", "report", report)
			if strings.Contains(report, `"step":"csp"`) {
				select {
				case reported <- struct{}{}:
				default:
				}
			}
		}
	})
	to, _ := json.Marshal(target)
	// The page may be loaded again right after it said it was ready (the
	// first-load watchdog, WebKitGTK's blank first load): a probe run in
	// the page that went away never reports, so it is run again.
probe:
	for attempt := 1; attempt <= 3; attempt++ {
		runtime.WindowExecJS(ctx, fmt.Sprintf(navCheckProbe, navCheckEvent, to))
		select {
		case <-reported:
			break probe
		case <-time.After(5 * time.Second):
			a.logger.Warn("navigation check: the page did not report; probing again", "attempt", attempt)
		case <-ctx.Done():
			return
		}
	}
	// Give the navigation time to happen, were it allowed.
	time.Sleep(3 * time.Second)
	runtime.WindowExecJS(ctx, fmt.Sprintf(navCheckAfter, navCheckEvent))
}

// navCheckProbe: %[1]q is the event, %[2]s the target as a JSON string.
const navCheckProbe = `(async () => {
  const r = { step: 'csp', violations: 0, navigationApi: 'navigation' in window };
  document.addEventListener('securitypolicyviolation', () => { r.violations++; });
  try { (0, eval)('1'); r.eval = 'ran'; } catch { r.eval = 'refused'; }
  const s = document.createElement('script');
  s.textContent = 'window.__mcpdeskCanary = 1';
  document.head.append(s);
  await new Promise((done) => setTimeout(done, 500));
  r.inlineScript = window.__mcpdeskCanary === 1 ? 'ran' : 'refused';
  // Vectors WebKit follows on a click, as a sanitiser bypass would leave
  // them in rendered content: the page's guard must cancel each click.
  const box = document.createElement('div');
  box.setAttribute('data-external-links', '');
  box.innerHTML = '<math><mtext id="v-math" href="' + %[2]s + '">m</mtext></math>' +
    '<svg><a id="v-svg" href="' + %[2]s + '"><text>s</text></a></svg>' +
    '<map name="v"><area id="v-area" shape="rect" coords="0,0,9,9" href="' + %[2]s + '"></map>';
  document.body.append(box);
  r.clicks = {};
  for (const id of ['v-math', 'v-svg', 'v-area']) {
    const e = new MouseEvent('click', { bubbles: true, cancelable: true, view: window });
    document.getElementById(id).dispatchEvent(e);
    r.clicks[id] = e.defaultPrevented ? 'prevented' : 'followed';
  }
  box.remove();
  window.runtime.EventsEmit(%[1]q, JSON.stringify(r));
  // Below the page's guard: a script sets the location.
  location.href = %[2]s;
})();`

// navCheckAfter: %[1]q is the event.
const navCheckAfter = `window.runtime.EventsEmit(%[1]q, JSON.stringify({
  step: 'after', page: location.protocol + '//' + location.host,
  app: !!document.querySelector('[data-testid="nav-servers"]'),
}));`
