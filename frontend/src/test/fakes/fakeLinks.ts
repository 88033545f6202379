// checkLink is the fake backend's copy of Go's settings.CheckLink
// (backend/settings/links.go): the same rules, the same error texts.

const MAX_LINK_LENGTH = 8192;

export function checkLink(link: string): void {
  if (link === '') throw new Error('open link: the link is empty');
  const bytes = new TextEncoder().encode(link).length;
  if (bytes > MAX_LINK_LENGTH) throw new Error(`open link: the link is ${bytes} bytes long, more than the ${MAX_LINK_LENGTH} allowed`);
  // Control (Cc), format (Cf) and space characters (Zs, Zl, Zp).
  const bad = /[\p{Cc}\p{Cf}\p{Zs}\p{Zl}\p{Zp}]/u.exec(link);
  if (bad) {
    const cp = bad[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
    throw new Error(`open link: the link contains a space, control or invisible character (U+${cp} at byte ${new TextEncoder().encode(link.slice(0, bad.index)).length}), which could hide where it goes`);
  }
  const m = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(link);
  if (!m) throw new Error(`open link: ${JSON.stringify(link.slice(0, 80))} is not a full link (http, https or mailto)`);
  const scheme = m[1].toLowerCase();
  const rest = link.slice(m[0].length);
  if (scheme === 'http' || scheme === 'https') {
    const authority = rest.startsWith('//') ? rest.slice(2).split(/[/?#]/)[0] : '';
    const host = authority.replace(/^.*@/, '').replace(/:\d*$/, '');
    if (!host) throw new Error(`open link: the ${scheme}: link ${JSON.stringify(link.slice(0, 80))} has no host`);
    if (authority.includes('@')) {
      throw new Error(`open link: the link to ${host} carries a user name before the host (${JSON.stringify(authority.split('@')[0].split(':')[0] + '@')}), which is how links hide where they go`);
    }
    return;
  }
  if (scheme === 'mailto') {
    if (rest === '') throw new Error('open link: the mailto: link has no address');
    return;
  }
  throw new Error(`open link: only http, https and mailto links open outside the app, not ${scheme}: links`);
}
