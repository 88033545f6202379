// The frontend's only way to Go. Components import from here, never from
// frontend/wailsjs.
export * from './types';
export * from './mcp';
export * from './settings';
export * from './remote';
export * from './inspector';
export * from './views';
export * from './clipboard';
export * from './chat';
export * from './chatTypes';
export * from './providerTypes';
export * from './providers';
export * from './usage';
export * from './usageTypes';
export * from './trustTypes';
export * from './serverDetail';
export { on, EVENT_NAMES, type EventMap, type EventName, type QuickChatPayload } from './events';
export { appWindow } from './window';
export { ApiError, errorText } from './call';
export { setBackend, hasWails, type Backend } from './backend';
