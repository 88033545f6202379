// The import preview's hook into the keychain: how many literal secrets the
// chosen servers carry, and moving them into the OS keychain once imported.

import { moveSecretsToKeychain, type ImportItem, type ImportResult } from '../../api';

/** literalSecrets counts the env values and headers of items that are secrets written in plain text. */
export function literalSecrets(items: readonly ImportItem[]): number {
  return items.reduce((n, i) => n + [...i.env, ...i.headers].filter((p) => p.value.secret).length, 0);
}

/** moveImportedSecrets moves the secrets of the servers an import added or replaced into the keychain. */
export async function moveImportedSecrets(r: ImportResult): Promise<number> {
  const ids = [...r.added, ...r.replaced];
  return ids.length > 0 ? moveSecretsToKeychain(ids) : 0;
}
