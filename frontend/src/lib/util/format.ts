/** clockTime formats Unix milliseconds as local HH:MM:SS.mmm. */
export function clockTime(ms: number): string {
  const d = new Date(ms);
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}.${p(d.getMilliseconds(), 3)}`;
}

/** latency formats a latency in milliseconds: one decimal below 10, whole above. */
export function latency(ms: number): string {
  if (ms < 10) return String(Math.round(ms * 10) / 10);
  return String(Math.round(ms));
}

/** commandLine renders a command and its args for display, quoting where needed. */
export function commandLine(command: string, args: readonly string[]): string {
  return [command, ...args].map(quote).join(' ');
}

function quote(word: string): string {
  if (word === '') return "''";
  if (/^[A-Za-z0-9_@%+=:,./~-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
