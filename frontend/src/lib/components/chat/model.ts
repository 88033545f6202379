import type { Attachment, ModelRef } from '../../api';
import type { ChatStore } from '../../state/chat.svelte';
import type { ProvidersStore } from '../../state/providers.svelte';

/**
 * chatModel is the model a conversation uses: its own; for a new chat the
 * default model, or the first one offered when there is no default. Read it
 * inside $derived: it follows the stores.
 */
export function chatModel(chat: ChatStore, providers: ProvidersStore): ModelRef | null {
  const s = chat.settings;
  if (s.provider && s.model) return { provider: s.provider, model: s.model };
  const d = providers.defaultModel;
  if (d && d.provider && d.model) return d;
  const p = providers.pickerModels.find((x) => x.models.length > 0);
  return p ? { provider: p.id, model: p.models[0].id } : null;
}

/** noModel is true once the picker was read and offers no model at all. */
export function noModel(providers: ProvidersStore): boolean {
  return providers.pickerLoaded && providers.pickerModels.length === 0;
}

/**
 * sendWith sends text, first fixing a new chat's model. A message sent while
 * the picker is still being read (quick chat opened a moment ago) waits for
 * it, so it goes with the model the screen is about to show rather than none.
 */
export async function sendWith(chat: ChatStore, providers: ProvidersStore, text: string, attachments: Attachment[] = []): Promise<boolean> {
  if (!chat.current && !chat.settings.model) {
    await providers.pickerReady();
    const model = chatModel(chat, providers);
    if (model) await chat.setSettings({ provider: model.provider, model: model.model });
  }
  await chat.send(text, attachments);
  return true;
}
