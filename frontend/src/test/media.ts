// A controllable matchMedia for jsdom, which has none.

type Listener = (e: MediaQueryListEvent) => void;

let dark = false;
const listeners = new Set<Listener>();

export function installMatchMedia(prefersDark: boolean): void {
  dark = prefersDark;
  listeners.clear();
  window.matchMedia = (query: string) =>
    ({
      get matches() {
        return query.includes('dark') ? dark : false;
      },
      media: query,
      onchange: null,
      addEventListener: (_: string, fn: Listener) => listeners.add(fn),
      removeEventListener: (_: string, fn: Listener) => listeners.delete(fn),
      addListener: (fn: Listener) => listeners.add(fn),
      removeListener: (fn: Listener) => listeners.delete(fn),
      dispatchEvent: () => true,
    }) as unknown as MediaQueryList;
}

/** setSystemDark flips the system colour scheme and notifies listeners. */
export function setSystemDark(value: boolean): void {
  dark = value;
  for (const fn of [...listeners]) fn({ matches: value, media: '(prefers-color-scheme: dark)' } as MediaQueryListEvent);
}
