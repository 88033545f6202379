import { backend } from './backend';
import { call } from './call';

/** copyText puts text on the system clipboard. */
export const copyText = (text: string): Promise<void> => call(() => backend().copyText(text));

/**
 * openURL opens a link outside the app: an http(s) page in the system
 * browser, a mailto address in the mail program. Go checks it and refuses
 * anything else with the reason (settings.Service.OpenLink); the app's
 * window itself never navigates.
 */
export const openURL = (url: string): Promise<void> => call(() => backend().settings.OpenLink(url));
