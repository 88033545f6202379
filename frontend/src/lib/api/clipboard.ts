import { backend } from './backend';
import { call } from './call';

/** copyText puts text on the system clipboard. */
export const copyText = (text: string): Promise<void> => call(() => backend().copyText(text));
