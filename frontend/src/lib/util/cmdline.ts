/** ParsedCommand is a shell-like command line split into its parts. */
export interface ParsedCommand {
  /** Leading VAR=value assignments, in order. */
  env: Array<{ key: string; value: string }>;
  command: string;
  args: string[];
}

const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)=([\s\S]*)$/;

/**
 * splitCommandLine splits a command line the way a POSIX shell would for
 * the common cases: whitespace separates words; '…' is literal; "…" allows
 * \" \\ \$ \` escapes; outside quotes a backslash escapes whitespace, quotes
 * and itself (so Windows paths like C:\tools\x survive); backslash-newline
 * continues the line. Leading NAME=value words become env. No expansion.
 * Throws on an unterminated quote.
 */
export function splitCommandLine(line: string): ParsedCommand {
  const words = splitWords(line);
  const env: ParsedCommand['env'] = [];
  let i = 0;
  for (; i < words.length; i++) {
    const m = words[i].quotedEq ? null : ASSIGNMENT.exec(words[i].text);
    if (!m) break;
    env.push({ key: m[1], value: m[2] });
  }
  const rest = words.slice(i).map((w) => w.text);
  return { env, command: rest[0] ?? '', args: rest.slice(1) };
}

interface Word {
  text: string;
  // quotedEq is true when the first '=' was inside quotes, so the word is
  // not an assignment.
  quotedEq: boolean;
}

function splitWords(line: string): Word[] {
  const out: Word[] = [];
  let cur = '';
  let inWord = false;
  let quotedEq = false;
  let sawEq = false;
  const push = () => {
    if (inWord) out.push({ text: cur, quotedEq });
    cur = '';
    inWord = false;
    quotedEq = false;
    sawEq = false;
  };
  const add = (ch: string, quoted: boolean) => {
    if (ch === '=' && !sawEq) {
      sawEq = true;
      quotedEq = quoted;
    }
    cur += ch;
    inWord = true;
  };
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (ch === '\\') {
      const next = line[i + 1];
      if (next === '\n') {
        i++;
        continue;
      }
      if (next === '\r' && line[i + 2] === '\n') {
        i += 2;
        continue;
      }
      if (next !== undefined && /[\s'"\\]/.test(next)) {
        add(next, true);
        i++;
        continue;
      }
      add(ch, false);
      continue;
    }
    if (ch === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw new Error('unterminated single quote');
      for (const c of line.slice(i + 1, end)) add(c, true);
      inWord = true;
      i = end;
      continue;
    }
    if (ch === '"') {
      let j = i + 1;
      for (; j < line.length && line[j] !== '"'; j++) {
        if (line[j] === '\\' && j + 1 < line.length && /["\\$`]/.test(line[j + 1])) j++;
        add(line[j], true);
      }
      if (j >= line.length) throw new Error('unterminated double quote');
      inWord = true;
      i = j;
      continue;
    }
    if (/\s/.test(ch)) {
      push();
      continue;
    }
    add(ch, false);
  }
  push();
  return out;
}
