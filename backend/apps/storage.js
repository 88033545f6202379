(() => {
  // A view runs on an opaque origin, where the browser's Web Storage throws:
  // give it storage of its own, in memory, for as long as it is shown, so a
  // view that touches localStorage at load does not fail. It never reaches
  // the app's storage (another origin altogether).
  const make = () => {
    const m = new Map();
    return {
      get length() { return m.size; },
      key: (i) => { const k = Array.from(m.keys())[i]; return k === undefined ? null : k; },
      getItem: (k) => { k = String(k); return m.has(k) ? m.get(k) : null; },
      setItem: (k, v) => { m.set(String(k), String(v)); },
      removeItem: (k) => { m.delete(String(k)); },
      clear: () => { m.clear(); },
    };
  };
  for (const name of ['localStorage', 'sessionStorage']) {
    let usable = false;
    try { usable = !!window[name]; } catch (e) { usable = false; }
    if (!usable) {
      try { Object.defineProperty(window, name, { value: make(), configurable: true, enumerable: true }); } catch (e) { /* left as it is */ }
    }
  }
})();
