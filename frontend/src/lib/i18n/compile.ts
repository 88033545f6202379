// compile turns a string table (en.json, zh-CN.json) into the form the
// window uses. It runs when the app is built (the `messages` plugin in
// vite.config.ts), so the window never parses ICU: a message with
// arguments, plurals or selects arrives as intl-messageformat's syntax tree,
// and every other message as its text. The ICU parser is then left out of
// the window's code (issue 16).

import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';

/** A message as the window gets it: its text, or its syntax tree. */
export type Message = string | MessageFormatElement[];

/** A compiled table: the source's nesting, with a Message at each leaf. */
export interface Table {
  [key: string]: Message | Table;
}

/**
 * A packed table, as the window's code holds it: each top-level entry of a
 * compiled table as JSON text, parsed when a message of it is first looked
 * up (index.ts). The window never builds the objects of the groups it does
 * not show: the English table whole held 0.6 MiB of the web process.
 */
export type Packed = Record<string, string>;

/** A source table, as en.json and zh-CN.json hold it. */
export interface Source {
  [key: string]: string | Source;
}

/**
 * compileTable compiles every message of src for locale. A message whose
 * tree is only text (no argument, or an escaped brace) becomes that text.
 * A message that is not valid ICU fails the build, naming its key.
 */
export function compileTable(src: Source, locale: string, prefix = ''): Table {
  const out: Table = {};
  for (const [k, v] of Object.entries(src)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v !== 'string') {
      out[k] = compileTable(v, locale, key);
      continue;
    }
    let ast: MessageFormatElement[];
    try {
      // As intl-messageformat would parse at run time, with tags read as
      // text (the window never formats rich text from its tables).
      ast = parse(v, { ignoreTag: true, locale: new Intl.Locale(locale) });
    } catch (e) {
      throw new Error(`${locale} message ${key}: ${(e as Error).message}: ${JSON.stringify(v)}`);
    }
    out[k] = textOnly(ast) ?? ast;
  }
  return out;
}

/** textOnly returns the text of a tree that is only text, else undefined. */
function textOnly(ast: MessageFormatElement[]): string | undefined {
  let text = '';
  for (const el of ast) {
    if (el.type !== TYPE.literal) return undefined;
    text += el.value;
  }
  return text;
}

/** packTable packs a compiled table: see Packed. */
export function packTable(table: Table): Packed {
  const out: Packed = {};
  for (const [k, v] of Object.entries(table)) out[k] = latin1JSON(JSON.stringify(v));
  return out;
}

// latin1JSON writes a JSON text's characters beyond Latin-1 as JSON escapes
// when that is smaller than two bytes for every character. The script
// engine keeps the text the window's code passes to JSON.parse, at one byte
// per character only when every one is Latin-1: an English group with a few
// dashes then takes half the memory. Text that is mostly Chinese (a fifth
// or more of its characters) stays as it is: its escapes would take more.
export function latin1JSON(json: string): string {
  const wide = json.match(/[^\x00-\xff]/g)?.length ?? 0;
  if (wide === 0 || 5 * wide >= json.length) return json;
  return json.replace(/[^\x00-\xff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
