// looksSecret mirrors Go's mcpconfig.LooksSecret: whether the value of an
// env variable or header belongs in the OS keychain. The server form uses it
// to switch "Keep in keychain" on by default; the user can always override
// it per value. Keep in step with backend/mcpconfig (summary.go, preview.go).

export type PairKind = 'env' | 'header';

const SECRET_NAME = /token|key|secret|passw|pwd|auth|sig|credential|cookie|session/i;
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie']);
const KEY_PREFIXES =
  'sk-|sk_|pk_live_|rk_live_|ghp_|gho_|ghu_|ghs_|ghr_|github_pat_|glpat-|glrt-|xox[abprs]-|xapp-|AKIA|AIza|ya29\\.|hf_|npm_|pypi-|shpat_|dop_v1_|gsk_|pplx-|lin_api_';
const SECRET_PREFIX = new RegExp(`^(${KEY_PREFIXES})[A-Za-z0-9_\\-]{8,}`);
const JWT = /^eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*$/;
const AUTH_SCHEME = /^(?:bearer|basic|token|digest|apikey|api-key)\s+/i;
const KEYCHAIN_REF = '${keychain:';

/** looksSecret reports whether a literal value of an env variable or header is a secret. */
export function looksSecret(kind: PairKind, name: string, value: string): boolean {
  if (value.includes(KEYCHAIN_REF)) return false;
  const cred = value.slice(value.match(AUTH_SCHEME)?.[0].length ?? 0);
  if (value === '' || onlyRefs(kind === 'header' ? cred : value)) return false;
  return secretByName(kind, name) || looksLikeKey(value) || looksLikeKey(cred);
}

/** secretByName reports whether a name alone says its value is a secret (before any value is typed). */
export function secretByName(kind: PairKind, name: string): boolean {
  return kind === 'header' ? SECRET_HEADERS.has(name.toLowerCase()) || SECRET_NAME.test(name) : SECRET_NAME.test(name);
}

/** onlyRefs: the value is nothing but ${…} references (and spaces), so it holds no secret itself. */
function onlyRefs(v: string): boolean {
  if (!v.includes('${')) return false;
  const rest = v.replace(/\$\$/g, '').replace(/\$\{[^}]*\}/g, '');
  return rest.trim() === '';
}

function looksLikeKey(v: string): boolean {
  return SECRET_PREFIX.test(v) || JWT.test(v) || looksRandom(v);
}

// looksRandom mirrors Go's looksRandom: a long string of key alphabets,
// not a path, mixing letters and digits, with high entropy.
function looksRandom(v: string): boolean {
  const n = v.length;
  if (n < 20 || n > 4096 || '/.~'.includes(v[0]) || v.includes('//') || (v.includes('/') && v.includes('.'))) return false;
  let lower = false;
  let upper = false;
  let digit = false;
  let hex = true;
  const counts = new Map<string, number>();
  for (const c of v) {
    if (c >= 'a' && c <= 'z') {
      lower = true;
      hex &&= c <= 'f';
    } else if (c >= 'A' && c <= 'Z') {
      upper = true;
      hex &&= c <= 'F';
    } else if (c >= '0' && c <= '9') digit = true;
    else if ('+/=_-.'.includes(c)) hex &&= c === '-';
    else return false;
    counts.set(c, (counts.get(c) ?? 0) + 1);
  }
  let bits = 6;
  if (!digit || !(lower || upper)) return false;
  if (hex && n >= 32) bits = 4;
  else if (n < 32 && !(lower && upper)) return false;
  let h = 0;
  for (const k of counts.values()) {
    const p = k / n;
    h -= p * Math.log2(p);
  }
  return h >= 0.8 * Math.min(Math.log2(n), bits);
}
