// measureReplyFrames runs in the page (a classic script, no imports): it
// clicks Send in the frame after it is called and records the
// requestAnimationFrame deltas from the first streamed text of the reply
// until its message is complete and ends with `end`. It is shared by
// bench.mjs (evaluated in Chromium against the dev build) and
// window-frames.mjs (built into a probe of the production window, where the
// real WebKitGTK draws). Where the engine has long-animation-frame entries
// (Chromium), it also returns what each frame over 50 ms held.
// eslint-disable-next-line no-unused-vars
globalThis.measureReplyFrames = function measureReplyFrames(end, timeoutMs = 120000) {
  const frames = [];
  let first = 0, last = 0, sent = 0;
  const loafs = [];
  const lo = typeof PerformanceObserver === 'function' && PerformanceObserver.supportedEntryTypes?.includes('long-animation-frame')
    ? new PerformanceObserver((l) => loafs.push(...l.getEntries())) : null;
  lo?.observe({ type: 'long-animation-frame' });
  const latest = () => [...document.querySelectorAll('[data-testid="message-assistant"]')].at(-1);
  return new Promise((resolve, reject) => {
    const give = setTimeout(() => reject(new Error(`the reply did not complete within ${timeoutMs / 1000} s (status ${latest()?.dataset.status})`)), timeoutMs);
    const finish = () => {
      clearTimeout(give);
      lo?.disconnect();
      const text = latest().querySelector('[data-testid="message-markdown"]').textContent;
      const long = loafs.filter((e) => e.startTime >= first && e.duration > 50).map((e) => ({
        duration: e.duration,
        at: e.startTime - first,
        styleAndLayout: e.startTime + e.duration - e.styleAndLayoutStart,
        render: e.startTime + e.duration - e.renderStart,
        scripts: e.scripts.map((x) => ({ at: `${x.invoker} ${x.sourceFunctionName}@${x.sourceURL.split('/').pop()}:${x.sourceCharPosition}`, duration: x.duration, forced: x.forcedStyleAndLayoutDuration }))
          .sort((a, b) => b.duration - a.duration).slice(0, 4),
      }));
      resolve({ frames, firstText: first - sent, stream: last - first, chars: text.length, long });
    };
    const tick = (t) => {
      const m = latest();
      const md = m?.querySelector('[data-testid="message-markdown"]');
      if (!first && md && md.textContent.trim()) first = t;
      if (first) {
        if (last) frames.push(t - last);
        last = t;
      }
      if (first && m.dataset.status === 'complete' && md.textContent.includes(end)) return finish();
      if (first && m.dataset.status && m.dataset.status !== 'streaming' && m.dataset.status !== 'complete') {
        clearTimeout(give);
        lo?.disconnect();
        return reject(new Error(`the reply ended ${m.dataset.status}`));
      }
      requestAnimationFrame(tick);
    };
    requestAnimationFrame((t) => {
      sent = t;
      document.querySelector('[data-testid="composer-send"]').click();
      requestAnimationFrame(tick);
    });
  });
};

// measureIdleFrames records the requestAnimationFrame deltas of the page
// doing nothing for ms: the engine's own frame rate, the floor of the
// figures above. With touch, one small fixed element changes its text in
// every frame: what drawing the least change costs the engine.
globalThis.measureIdleFrames = function measureIdleFrames(ms, touch = false) {
  const frames = [];
  let last = 0, start = 0, n = 0;
  const el = touch ? document.body.appendChild(document.createElement('span')) : null;
  if (el) el.style.cssText = 'position:fixed;right:4px;bottom:4px;font:12px monospace;z-index:99999';
  return new Promise((resolve) => {
    const tick = (t) => {
      if (!start) start = t;
      if (last) frames.push(t - last);
      last = t;
      if (el) el.textContent = String(n++ % 10);
      if (t - start >= ms) {
        el?.remove();
        return resolve({ frames });
      }
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
};
