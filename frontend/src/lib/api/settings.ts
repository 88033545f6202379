// Typed wrappers over the settings service.

import { backend } from './backend';
import { call } from './call';
import type { AppInfo, DesktopStatus, KeychainStatus, Notification, Prefs } from './types';

export const appInfo = (): Promise<AppInfo> => call(() => backend().settings.Info());

/** openDataFolder shows the data folder in the system's file manager. */
export const openDataFolder = (): Promise<void> => call(() => backend().settings.OpenDataFolder());

/** desktopStatus says whether a tray icon is shown and which global shortcut opens quick chat. */
export const desktopStatus = (): Promise<DesktopStatus> => call(() => backend().settings.Desktop());

/** windowReady tells the app the window hears its events: what the launch asked for (quick chat, a notification's conversation) happens now. */
export const windowReady = (): Promise<void> => call(() => backend().settings.WindowReady());

/** keychainStatus is the OS keychain's status of this run (one self-test per start; the first may wait for the OS to unlock it). */
export const keychainStatus = (): Promise<KeychainStatus> => call(() => backend().settings.KeychainStatus());

/** recheckKeychain runs the keychain self-test again. */
export const recheckKeychain = (): Promise<KeychainStatus> => call(() => backend().settings.RecheckKeychain());

export async function loadPrefs(): Promise<Prefs> {
  const p = await call(() => backend().settings.Prefs());
  return { theme: p?.theme || 'system', language: p?.language ?? '', quitOnClose: p?.quitOnClose ?? false, notifyOff: p?.notifyOff ?? null };
}

/** notify shows a desktop notification unless its kind is turned off; true when sent. */
export const notify = (n: Notification): Promise<boolean> => call(() => backend().settings.Notify(n));

export const savePrefs = (p: Prefs): Promise<Prefs> => call(() => backend().settings.SavePrefs(p));

/** uiState reads one remembered UI value; "" when unset. */
export const uiState = (key: string): Promise<string> => call(() => backend().settings.UIState(key));

/** saveUIState remembers one UI value (panel sizes, open states). */
export const saveUIState = (key: string, value: string): Promise<void> =>
  call(() => backend().settings.SaveUIState(key, value));
