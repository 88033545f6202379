/**
 * arrowNav moves focus between the items of a list with ↑/↓, Home and End;
 * items are the elements matching selector inside the list. Returns true
 * when it handled the key.
 */
export function arrowNav(e: KeyboardEvent, list: HTMLElement, selector = '[data-nav-item]'): boolean {
  if (!['ArrowDown', 'ArrowUp', 'Home', 'End'].includes(e.key)) return false;
  const items = [...list.querySelectorAll<HTMLElement>(selector)];
  if (items.length === 0) return false;
  const i = items.indexOf(document.activeElement as HTMLElement);
  let next = 0;
  if (e.key === 'ArrowDown') next = i < 0 ? 0 : Math.min(items.length - 1, i + 1);
  else if (e.key === 'ArrowUp') next = i < 0 ? items.length - 1 : Math.max(0, i - 1);
  else if (e.key === 'End') next = items.length - 1;
  e.preventDefault();
  items[next].focus();
  return true;
}
