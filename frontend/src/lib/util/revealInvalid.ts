// revealInvalid is what every form does when its submit is refused: the
// first field marked aria-invalid="true" (in document order) is scrolled to
// the middle of its scrolling container — with the message shown next to it —
// and gets the keyboard focus. A form that is refused without this seems to
// do nothing when the message is below the fold (issue 12, point 11).

import { tick } from 'svelte';

/**
 * What marks a problem: a control with aria-invalid="true", or a group
 * (switches, check boxes, a list) marked data-invalid="true" whose first
 * control then takes the focus.
 */
const INVALID = '[aria-invalid="true"], [data-invalid="true"]';
const CONTROL = 'input:not([disabled]), select:not([disabled]), textarea:not([disabled]), button:not([disabled])';

export interface RevealOptions {
  /** Shown instead when no field is marked (e.g. a summary of the problems). */
  fallback?: string;
  /** Skip waiting for Svelte to flush (the caller already did). */
  flushed?: boolean;
}

function visible(el: HTMLElement): boolean {
  if (el.closest('[inert], [hidden]')) return false;
  return !(el as HTMLInputElement).disabled;
}

/**
 * revealInvalid waits for Svelte to render the errors, then scrolls to and
 * focuses the first invalid field inside root, opening any <details> that
 * hides it. It returns the element it focused, or null when root holds no
 * invalid field (and no fallback).
 */
export async function revealInvalid(root: ParentNode | null | undefined, opts: RevealOptions = {}): Promise<HTMLElement | null> {
  if (!opts.flushed) await tick();
  if (!root) return null;
  const marked =
    [...root.querySelectorAll<HTMLElement>(INVALID)].find(visible) ??
    (opts.fallback ? root.querySelector<HTMLElement>(opts.fallback) : null);
  if (!marked) return null;
  const first = marked.matches(CONTROL) ? marked : (marked.querySelector<HTMLElement>(CONTROL) ?? marked);
  // A closed <details> (an "Advanced" section) hides the field: open it.
  for (let d = first.closest('details'); d; d = d.parentElement?.closest('details') ?? null) d.open = true;
  if (!first.matches('input, select, textarea, button, [tabindex]')) first.tabIndex = -1;
  // The field's wrapper holds its label and message: bring all of it into view.
  const wrap = marked.closest<HTMLElement>('[data-field], .field, fieldset, label');
  // (A wrapper without a box of its own, display: contents, cannot be scrolled to.)
  const box = wrap && getComputedStyle(wrap).display !== 'contents' ? wrap : marked;
  box.scrollIntoView?.({ block: 'center', inline: 'nearest' });
  first.focus({ preventScroll: true });
  return first;
}
