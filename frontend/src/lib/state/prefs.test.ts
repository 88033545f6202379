import { afterEach, describe, expect, it } from 'vitest';
import { PAGE_PREFS_ID, PrefsStore, pagePrefs } from './prefs.svelte';

function block(text: string, type = 'application/json'): void {
  const el = document.createElement('script');
  el.type = type;
  el.id = PAGE_PREFS_ID;
  el.textContent = text;
  document.head.prepend(el);
}

afterEach(() => {
  document.getElementById(PAGE_PREFS_ID)?.remove();
  delete document.documentElement.dataset.theme;
});

describe('the preferences that come with the page (settings.InlinePrefs)', () => {
  it('are read once, taken out of the page, and applied by seed before any call', () => {
    block('{"theme":"dark","language":"en","quitOnClose":true,"notifyOff":["reply","nonsense"]}');
    const p = pagePrefs(document);
    expect(p).toEqual({ theme: 'dark', language: 'en', quitOnClose: true, notifyOff: ['reply'] });
    expect(document.getElementById(PAGE_PREFS_ID)).toBeNull();
    expect(pagePrefs(document)).toBeNull();

    const store = new PrefsStore();
    expect(store.loaded).toBe(false);
    expect(store.seed(p)).toBe(true);
    expect(store.loaded).toBe(true);
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(store.quitOnClose).toBe(true);
    expect(store.notifies('reply')).toBe(false);
    expect(store.notifies('approval')).toBe(true);
  });

  it('are not taken when they are not preferences this app knows: the page asks Go instead', () => {
    for (const text of ['', 'not json', 'null', '[]', '{"theme":"purple","language":"en"}', '{"theme":"dark","language":"fr"}', '{"language":"en"}']) {
      block(text);
      expect(pagePrefs(document), text).toBeNull();
      document.getElementById(PAGE_PREFS_ID)?.remove();
    }
    // Only the JSON data block counts: not a block of another type, not another element.
    block('{"theme":"dark","language":""}', 'text/plain');
    expect(pagePrefs(document)).toBeNull();
    document.getElementById(PAGE_PREFS_ID)?.remove();
    const div = document.createElement('div');
    div.id = PAGE_PREFS_ID;
    div.textContent = '{"theme":"dark","language":""}';
    document.body.append(div);
    expect(pagePrefs(document)).toBeNull();
    div.remove();

    const store = new PrefsStore();
    expect(store.seed(null)).toBe(false);
    expect(store.loaded).toBe(false);
  });
});
