(() => {
  // window.openai for an Apps SDK widget, spoken as MCP Apps (see pages.go).
  const parent = window.parent;
  const pending = new Map();
  let nextId = 1;
  const post = (m) => parent.postMessage(Object.assign({ jsonrpc: '2.0' }, m), '*');
  const call = (method, params) =>
    new Promise((resolve, reject) => {
      const id = 'openai-' + nextId++;
      pending.set(id, { resolve, reject });
      post({ id, method, params });
    });
  const globals = {
    theme: 'light',
    locale: 'en',
    displayMode: 'inline',
    maxHeight: undefined,
    safeArea: { insets: { top: 0, right: 0, bottom: 0, left: 0 } },
    userAgent: { device: { type: 'desktop' }, capabilities: { hover: true, touch: false } },
    view: { mode: 'inline' },
    toolInput: {},
    toolOutput: null,
    toolResponseMetadata: null,
    widgetState: null,
  };
  const set = (change) => {
    if (Object.keys(change).length === 0) return;
    Object.assign(globals, change);
    window.dispatchEvent(new CustomEvent('openai:set_globals', { detail: { globals: change } }));
  };
  const fromContext = (c) => {
    const g = {};
    if (!c || typeof c !== 'object') return g;
    if (c.theme === 'light' || c.theme === 'dark') g.theme = c.theme;
    if (typeof c.locale === 'string') g.locale = c.locale;
    if (typeof c.displayMode === 'string') {
      g.displayMode = c.displayMode;
      g.view = { mode: c.displayMode };
    }
    const dims = c.containerDimensions;
    if (dims && typeof dims.maxHeight === 'number') g.maxHeight = dims.maxHeight;
    if (c.safeAreaInsets && typeof c.safeAreaInsets === 'object') g.safeArea = { insets: c.safeAreaInsets };
    if (c.platform || c.deviceCapabilities) {
      const caps = c.deviceCapabilities || {};
      g.userAgent = {
        device: { type: c.platform === 'mobile' ? 'mobile' : 'desktop' },
        capabilities: { hover: caps.hover !== false, touch: caps.touch === true },
      };
    }
    if (Object.prototype.hasOwnProperty.call(c, 'widgetState')) g.widgetState = c.widgetState === undefined ? null : c.widgetState;
    return g;
  };
  const textOf = (r) =>
    r && Array.isArray(r.content)
      ? r.content.filter((b) => b && b.type === 'text').map((b) => b.text).join('\n')
      : '';

  window.addEventListener('message', (e) => {
    if (e.source !== parent) return;
    const m = e.data;
    if (!m || typeof m !== 'object' || m.jsonrpc !== '2.0') return;
    if (typeof m.method !== 'string') {
      const p = pending.get(m.id);
      if (!p) return;
      pending.delete(m.id);
      if (m.error) p.reject(new Error(String(m.error.message || 'error')));
      else p.resolve(m.result);
      return;
    }
    const params = m.params || {};
    switch (m.method) {
      case 'ui/notifications/tool-input':
        set({ toolInput: params.arguments || {} });
        break;
      case 'ui/notifications/tool-result':
        set({
          toolOutput: params.structuredContent === undefined ? null : params.structuredContent,
          toolResponseMetadata: params._meta === undefined ? null : params._meta,
        });
        break;
      case 'ui/notifications/host-context-changed':
        set(fromContext(params));
        break;
      case 'ui/resource-teardown':
      case 'ping':
        if (m.id !== undefined) post({ id: m.id, result: {} });
        break;
    }
  });

  const api = {
    callTool: (name, args) =>
      call('tools/call', { name: String(name), arguments: args || {} }).then((r) => Object.assign({ result: textOf(r) }, r)),
    sendFollowUpMessage: (o) =>
      call('ui/message', { role: 'user', content: [{ type: 'text', text: String((o && o.prompt) || '') }] }).then(() => undefined),
    openExternal: (o) => call('ui/open-link', { url: String((o && o.href) || '') }).then(() => undefined),
    requestDisplayMode: (o) => call('ui/request-display-mode', { mode: String((o && o.mode) || 'inline') }),
    setWidgetState: (state) => {
      set({ widgetState: state });
      return call('mcpdesk/widget-state', { state }).then(() => undefined);
    },
    notifyIntrinsicHeight: (h) => {
      if (typeof h === 'number') post({ method: 'ui/notifications/size-changed', params: { height: h } });
    },
    requestClose: () => post({ method: 'ui/notifications/request-teardown' }),
  };
  for (const k of Object.keys(globals)) Object.defineProperty(api, k, { get: () => globals[k], enumerable: true });
  Object.defineProperty(window, 'openai', { value: Object.freeze(api), enumerable: true });

  call('ui/initialize', {
    protocolVersion: '2026-01-26',
    appInfo: { name: 'Apps SDK widget', version: '1' },
    appCapabilities: {},
  }).then((r) => {
    set(fromContext(r && r.hostContext));
    post({ method: 'ui/notifications/initialized', params: {} });
  });

  // Apps SDK widgets leave their height to the host: report it.
  const report = () => {
    const h = Math.ceil(document.documentElement.scrollHeight);
    post({ method: 'ui/notifications/size-changed', params: { height: h } });
  };
  const watch = () => new ResizeObserver(report).observe(document.documentElement);
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', watch);
  else watch();
})();
