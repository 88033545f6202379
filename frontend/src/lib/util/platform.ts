/** MOD is how the platform writes the primary shortcut modifier. */
export const MOD: string =
  typeof navigator !== 'undefined' && /Mac|iP(hone|ad|od)/.test(navigator.platform) ? '⌘' : 'Ctrl+';
