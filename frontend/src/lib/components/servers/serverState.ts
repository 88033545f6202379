import type { ServerState } from '../../api';

/** STATE_LABEL is the i18n key naming each server state (one list for every screen). */
export const STATE_LABEL: Record<ServerState, string> = {
  disabled: 'server.state.disabled',
  connecting: 'server.state.connecting',
  connected: 'server.state.connected',
  failed: 'server.state.failed',
  restarting: 'server.state.restarting',
  'needs-sign-in': 'server.state.needsSignIn',
};
