// The backend's events: names and payloads are generated from Go
// (events.Catalog, backend/contract); this module adds the subscription.

import { backend } from './backend';
import type { EventMap, EventName } from './generated/contract';

export { EVENT_NAMES } from './generated/contract';
export type { EventMap, EventName, QuickChatPayload, UsageChangedPayload } from './generated/contract';

/**
 * on subscribes fn to one backend event and returns the unsubscribe, so a
 * component can write `$effect(() => on('mcp:server-status', fn))`.
 */
export function on<K extends EventName>(name: K, fn: (payload: EventMap[K]) => void): () => void {
  return backend().on(name, (payload) => fn(payload as EventMap[K]));
}
