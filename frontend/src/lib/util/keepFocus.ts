// keepFocus keeps the keyboard's place when the control that has the focus
// goes away under it (issue 12, point 15): a Run button that turns into Stop
// while the call runs, and back. Without it the focus falls to <body> and a
// keyboard user starts again from the top of the page.

const FOCUSABLE = 'button:not(:disabled), a[href], input:not(:disabled), select:not(:disabled), textarea:not(:disabled), [tabindex]:not([tabindex="-1"])';

/** lost reports whether the focus has fallen out of the page's controls (to <body> or nowhere). */
export function focusLost(): boolean {
  const a = document.activeElement;
  return !a || a === document.body || a === document.documentElement;
}

/**
 * keepFocus is a Svelte action: while the focus is inside node, a focused
 * control that is removed or disabled hands the focus to the first control
 * inside node that matches selector (by default any enabled focusable one).
 * Focus that leaves node on purpose (Tab, a click elsewhere, another window)
 * is left alone.
 */
export function keepFocus(node: HTMLElement, selector: string = FOCUSABLE) {
  let inside = false;
  const onin = () => (inside = true);
  const onout = (e: FocusEvent) => {
    const to = e.relatedTarget as Node | null;
    if (to) {
      inside = node.contains(to);
      return;
    }
    // Focus going nowhere: the control was removed or disabled (handled
    // below), or the user clicked outside or left the window (it is still
    // there and enabled: let go).
    const was = e.target as HTMLElement;
    setTimeout(() => {
      if (was.isConnected && !(was as HTMLButtonElement).disabled) inside = node.contains(document.activeElement);
    }, 0);
  };
  const restore = () => {
    if (!inside) return;
    const a = document.activeElement as HTMLButtonElement | null;
    if (!focusLost() && !(a !== null && node.contains(a) && a.disabled)) return;
    const next = [...node.querySelectorAll<HTMLElement>(selector)].find((el) => !el.closest('[inert]') && !(el as HTMLButtonElement).disabled);
    next?.focus();
  };
  const observer = new MutationObserver(restore);
  observer.observe(node, { childList: true, subtree: true, attributes: true, attributeFilter: ['disabled'] });
  node.addEventListener('focusin', onin);
  node.addEventListener('focusout', onout);
  return {
    destroy() {
      observer.disconnect();
      node.removeEventListener('focusin', onin);
      node.removeEventListener('focusout', onout);
    },
  };
}
