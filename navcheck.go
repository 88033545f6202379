package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/wailsapp/wails/v2/pkg/runtime"

	"mcpdesk/backend/apps"
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
	time.Sleep(500 * time.Millisecond)
	a.checkFrames(ctx)
}

// frameCheckKey is the UI-state key the hostile view tries to write.
const frameCheckKey = "mcpdesk-frame-check"

// checkFrames shows a hostile MCP Apps view the way a real one is shown
// (its sandbox page, the relay, the about:srcdoc frame) and lets it try to
// reach the Go bindings through WebKit's bridge — from its own frame, from
// an about:blank frame it makes, through the relay page and the top page —
// and to read the app's DOM and storage (its own storage is an in-memory
// one of its own: it reaches for the app's through the top window). It reports what each attempt did;
// then Go reports whether the UI state it tried to write was written.
// The window check fails unless the attempts were made and none landed.
func (a *App) checkFrames(ctx context.Context) {
	page := a.core.Pool.ViewPages().Add(apps.View{Server: "frame-check", URI: "ui://frame-check/hostile",
		HTML: hostileView, Policy: apps.Build(nil)})
	defer a.core.Pool.ViewPages().Remove(page.Token)
	got := make(chan string, 1)
	runtime.EventsOn(ctx, frameCheckEvent, func(data ...any) {
		if len(data) > 0 {
			select {
			case got <- fmt.Sprint(data[0]):
			default:
			}
		}
	})
	path, _ := json.Marshal(page.Path)
	runtime.WindowExecJS(ctx, fmt.Sprintf(frameProbe, frameCheckEvent, path))
	var report string
	select {
	case report = <-got:
	case <-time.After(15 * time.Second):
		report = "no report from the view"
	case <-ctx.Done():
		return
	}
	// Calls that got through would be handled by now.
	time.Sleep(time.Second)
	stored, err := a.bound.Settings.UIState(frameCheckKey)
	a.logger.Info("frame check", "report", report, "stored", stored, "err", err, "gated", a.nav.BridgeGated())
}

const frameCheckEvent = "mcpdesk:frame-check"

// frameProbe frames the page as the app frames a view: %[1]q is the
// event, %[2]s the page's path as a JSON string.
const frameProbe = `(() => {
  const f = document.createElement('iframe');
  f.setAttribute('sandbox', 'allow-scripts');
  f.style.cssText = 'position:fixed;left:0;top:0;width:240px;height:120px;border:0;opacity:0.01';
  f.src = %[2]s;
  window.addEventListener('message', (e) => {
    if (e.source !== f.contentWindow) return;
    window.runtime.EventsEmit(%[1]q, JSON.stringify(e.data));
    f.remove();
  });
  document.body.append(f);
})();`

// hostileView tries every way out it has and posts what happened.
const hostileView = `<!doctype html><html><body><script>
const r = { origin: String(self.origin) };
const call = (tag) => 'C' + JSON.stringify({ name: 'settings.Service.SaveUIState', args: ['` + frameCheckKey + `', tag], callbackID: 'frame-' + tag });
const post = (w, tag) => { try { w.webkit.messageHandlers.external.postMessage(call(tag)); return 'sent'; } catch (e) { return 'threw ' + e.name; } };
r.own = post(window, 'view');
const blank = document.createElement('iframe');
document.body.append(blank);
r.blank = post(blank.contentWindow, 'blank');
r.relay = post(parent, 'relay');
r.top = post(top, 'top');
try { r.appDom = String(top.document.title); } catch (e) { r.appDom = 'threw ' + e.name; }
try { top.localStorage.setItem('x', '1'); r.storage = 'written'; } catch (e) { r.storage = 'threw ' + e.name; }
try { document.cookie = 'a=1'; r.cookie = document.cookie ? 'set' : 'none'; } catch (e) { r.cookie = 'threw ' + e.name; }
try { r.go = typeof window.go + '/' + typeof top.go; } catch (e) { r.go = typeof window.go + '/threw ' + e.name; }
parent.postMessage(r, '*');
</script></body></html>`

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
