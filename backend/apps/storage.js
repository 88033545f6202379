((initial) => {
  // A view runs on an opaque origin, where the browser's Web Storage throws:
  // give it storage of its own, in memory, starting from what it kept when
  // last shown (in chat, kept with its tool call), so a view that touches
  // localStorage does not fail and finds its state again. It never reaches
  // the app's storage (another origin altogether). Changes to localStorage
  // go to the host (mcpdesk/storage), a moment after the last one.
  let timer = 0;
  const tell = (m) => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      const items = {};
      for (const [k, v] of m) items[k] = v;
      parent.postMessage({ jsonrpc: '2.0', method: 'mcpdesk/storage', params: { items } }, '*');
    }, 200);
  };
  const make = (start, persist) => {
    const m = new Map(Object.entries(start || {}).filter(([, v]) => typeof v === 'string'));
    const changed = () => { if (persist) tell(m); };
    return {
      get length() { return m.size; },
      key: (i) => { const k = Array.from(m.keys())[i]; return k === undefined ? null : k; },
      getItem: (k) => { k = String(k); return m.has(k) ? m.get(k) : null; },
      setItem: (k, v) => { m.set(String(k), String(v)); changed(); },
      removeItem: (k) => { m.delete(String(k)); changed(); },
      clear: () => { m.clear(); changed(); },
    };
  };
  for (const [name, start, persist] of [['localStorage', initial, true], ['sessionStorage', null, false]]) {
    let usable = false;
    try { usable = !!window[name]; } catch (e) { usable = false; }
    if (!usable) {
      try { Object.defineProperty(window, name, { value: make(start, persist), configurable: true, enumerable: true }); } catch (e) { /* left as it is */ }
    }
  }
})
