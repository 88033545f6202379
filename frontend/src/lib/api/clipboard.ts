import { backend } from './backend';
import { call } from './call';

/** copyText puts text on the system clipboard. */
export const copyText = (text: string): Promise<void> => call(() => backend().copyText(text));

/** openURL opens a web page in the system browser (http and https only). */
export function openURL(url: string): void {
  if (!/^https?:\/\//i.test(url)) throw new Error(`not a web address: ${url}`);
  backend().openURL(url);
}
