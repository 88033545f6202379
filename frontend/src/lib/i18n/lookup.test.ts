// How the window finds and fills a message (index.ts): keys built from a
// server's words never reach an object's inherited properties, and a
// missing key or value says so instead of throwing.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { setLocale, t } from './index';

afterEach(() => setLocale('en'));

describe('message lookup', () => {
  it('finds nested keys and formats plurals', () => {
    expect(t('nav.servers')).toBe('Servers');
    expect(t('tools.summary', { count: 1 })).toBe('1 tool');
    expect(t('tools.summary', { count: 3 })).toBe('3 tools');
  });

  it('answers a key that is not a message with the key, or the default given', () => {
    expect(t('nav.nothing')).toBe('nav.nothing');
    expect(t('nav')).toBe('nav'); // a group, not a message
    expect(t('nav.servers.deeper')).toBe('nav.servers.deeper');
  });

  it('never reads inherited properties, whatever a server names its step', () => {
    for (const step of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', '__proto__.constructor']) {
      const key = `signIn.step.${step}`;
      expect(t(key), key).toBe(key);
    }
    // Plain property access would answer "Object" to these.
    for (const key of ['constructor.name', 'nav.constructor.name', '__proto__.constructor.name', 'signIn.step.constructor.name']) {
      expect(t(key), key).toBe(key);
    }
  });

  it('reads as its key when a value the message needs is missing', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(t('tools.summary', {})).toBe('tools.summary');
    expect(warn).toHaveBeenCalled();
  });
});

describe('groups parsed on first use', () => {
  it('parses a group of the table when a message of it is first looked up, and once', async () => {
    vi.resetModules(); // a fresh i18n: no group parsed yet
    const i18n = await import('./index');
    const parse = vi.spyOn(JSON, 'parse');
    expect(i18n.t('nav.servers')).toBe('Servers');
    expect(i18n.t('nav.chat')).toBe('Chat');
    expect(i18n.t('tools.summary', { count: 2 })).toBe('2 tools');
    const parsed = parse.mock.calls.map(([text]) => String(text));
    expect(parsed).toHaveLength(2); // nav and tools, nothing else
    expect(parsed[0]).toContain('"servers":"Servers"');
    expect(parsed[1]).toContain('"summary":');
  });
});
