// Client-side validation of the server form. Each check returns an i18n
// key; the backend validates again and its message is shown if it refuses.

export const SERVER_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const ENV_NAME = /^[^=\s\0]+$/;

export function validateId(id: string, taken: readonly string[]): string | undefined {
  if (!id.trim()) return 'form.error.idRequired';
  if (!SERVER_ID_PATTERN.test(id)) return 'form.error.idPattern';
  if (taken.includes(id)) return 'form.error.idTaken';
  return undefined;
}

export function validateCommand(command: string): string | undefined {
  return command.trim() ? undefined : 'form.error.commandRequired';
}

export function validateURL(url: string): string | undefined {
  const u = url.trim();
  if (!u) return 'form.error.urlRequired';
  try {
    const parsed = new URL(u);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'form.error.urlScheme';
    if (!parsed.hostname) return 'form.error.urlInvalid';
  } catch {
    return /^[a-z][a-z0-9+.-]*:/i.test(u) ? 'form.error.urlScheme' : 'form.error.urlInvalid';
  }
  return undefined;
}

/** validatePairKeys checks env or header names; returns errors by row index. */
export function validatePairKeys(
  rows: ReadonlyArray<{ key: string; value: string; keep: boolean }>,
  kind: 'env' | 'header',
): Record<number, string> {
  const errors: Record<number, string> = {};
  const seen = new Set<string>();
  rows.forEach((r, i) => {
    const key = r.key.trim();
    if (!key) {
      if (r.value || r.keep) errors[i] = 'form.error.keyRequired';
      return;
    }
    const norm = kind === 'header' ? key.toLowerCase() : key;
    if (seen.has(norm)) errors[i] = 'form.error.keyDuplicate';
    else if (kind === 'env' && !ENV_NAME.test(key)) errors[i] = 'form.error.envName';
    else if (kind === 'header' && !HEADER_NAME.test(key)) errors[i] = 'form.error.headerName';
    seen.add(norm);
  });
  return errors;
}

/** validateInt checks an optional whole number in [min, max]. */
/**
 * validateNumber checks an optional decimal number (e.g. "0.5") against a
 * range; like validateInt it returns an i18n key, or undefined when valid.
 */
export function validateNumber(text: string, min: number, max: number): string | undefined {
  const t = text.trim();
  if (!t) return undefined;
  if (!/^(\d+(\.\d*)?|\.\d+)$/.test(t)) return 'form.error.number';
  const n = Number(t);
  if (n < min || n > max) return 'form.error.range';
  return undefined;
}

export function validateInt(text: string, min: number, max: number): string | undefined {
  const t = text.trim();
  if (!t) return undefined;
  if (!/^\d+$/.test(t)) return 'form.error.wholeNumber';
  const n = Number(t);
  if (n < min || n > max) return 'form.error.range';
  return undefined;
}
