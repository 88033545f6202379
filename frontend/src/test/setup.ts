import '@testing-library/jest-dom/vitest';
import { afterEach, beforeEach } from 'vitest';
import { setBackend } from '../lib/api';
import { setLocale } from '../lib/i18n';
import { installMatchMedia } from './media';

beforeEach(() => {
  installMatchMedia(false);
  setLocale('en');
  document.documentElement.removeAttribute('data-theme');
});

afterEach(() => {
  setBackend(null);
});
