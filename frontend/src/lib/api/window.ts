import { backend, type WindowBackend } from './backend';

/** appWindow sizes, raises and hides the app's one window (quick chat, SPEC F2). */
export function appWindow(): WindowBackend {
  return backend().window;
}
