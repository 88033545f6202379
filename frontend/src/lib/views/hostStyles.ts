// The app's look as MCP Apps' standard CSS variables (McpUiHostContext
// styles.variables, specification 2026-01-26), so a view can match the
// window it is shown in. Read from the app's own stylesheet rules — :root
// for light, :root[data-theme="dark"] over it for dark — rather than from
// the page's computed style, so the Tools tab's emulator can ask for the
// theme the app is not showing.

/** The standard variables MCP Desk fills, and the app's variable each comes from. */
const MAP: readonly [standard: string, ours: string][] = [
  ['--color-background-primary', '--bg'],
  ['--color-background-secondary', '--bg-app'],
  ['--color-background-tertiary', '--bg-sunken'],
  ['--color-background-danger', '--red-soft'],
  ['--color-background-success', '--green-soft'],
  ['--color-background-warning', '--amber-soft'],
  ['--color-text-primary', '--text'],
  ['--color-text-secondary', '--text-muted'],
  ['--color-text-tertiary', '--text-faint'],
  ['--color-text-danger', '--red'],
  ['--color-text-success', '--green'],
  ['--color-text-warning', '--amber'],
  ['--color-text-info', '--blue'],
  ['--color-border-primary', '--border'],
  ['--color-border-secondary', '--border-strong'],
  ['--color-ring-primary', '--accent'],
  ['--font-sans', '--font-sans'],
  ['--font-mono', '--font-mono'],
  ['--border-radius-sm', '--radius-sm'],
  ['--border-radius-md', '--radius'],
  ['--border-radius-lg', '--radius-lg'],
  ['--shadow-lg', '--shadow-lg'],
];

const cache = new Map<string, Record<string, string>>();

/**
 * themeVariables returns every variable the app's stylesheet sets for theme
 * (its own names): what MCP Desk's components need to draw in a theme the
 * app is not showing (a remote-DOM UI under the emulator's theme).
 */
export function themeVariables(theme: 'light' | 'dark'): Record<string, string> {
  const hit = cache.get(theme);
  if (hit) return hit;
  const light: Record<string, string> = {};
  const dark: Record<string, string> = {};
  for (const sheet of Array.from(document.styleSheets)) {
    let rules: CSSRuleList;
    try {
      rules = sheet.cssRules;
    } catch {
      continue; // another origin's sheet
    }
    for (const r of Array.from(rules)) {
      if (!(r instanceof CSSStyleRule)) continue;
      const sel = r.selectorText.replace(/'/g, '"').replace(/\s+/g, '');
      const into = sel === ':root' ? light : sel === ':root[data-theme="dark"]' ? dark : null;
      if (!into) continue;
      for (const name of Array.from(r.style)) {
        if (name.startsWith('--')) into[name] = r.style.getPropertyValue(name).trim();
      }
    }
  }
  const values = theme === 'dark' ? { ...light, ...dark } : light;
  if (Object.keys(values).length > 0) cache.set(theme, values);
  return values;
}

/** hostStyleVariables returns the standard variables for theme (empty when the stylesheet cannot be read). */
export function hostStyleVariables(theme: 'light' | 'dark'): Record<string, string> {
  const values = themeVariables(theme);
  const out: Record<string, string> = {};
  for (const [standard, ours] of MAP) if (values[ours]) out[standard] = values[ours];
  return out;
}
