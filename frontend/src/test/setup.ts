import '@testing-library/jest-dom/vitest';
import { afterEach, beforeEach } from 'vitest';
import { setBackend } from '../lib/api';
import { loadLocale, setLocale } from '../lib/i18n';
import { installMatchMedia } from './media';
import { preloadScreens } from '../lib/components/shell/screens.svelte';

// The app loads screens on first use; tests switch screens and look at
// them at once, so every screen is loaded before they run.
await preloadScreens();
// Chinese loads when chosen; tests switch to it and read it at once.
await loadLocale('zh-CN');

beforeEach(() => {
  installMatchMedia(false);
  setLocale('en');
  document.documentElement.removeAttribute('data-theme');
});

afterEach(() => {
  setBackend(null);
});
