// How a tool call was allowed (or refused), in words. The audit log keeps
// the approval as Go names it; unknown names are shown as they are.
import type { Approval } from '../../api';

// Every approval Go writes has its words: a new value in Go's store.Approval
// (generated into the contract) fails to compile here until it has them.
const APPROVALS: Record<Exclude<Approval, ''>, { short: string; long: string }> = {
  user: { short: 'audit.approval.user', long: 'audit.approval.userLong' },
  conversation: { short: 'audit.approval.conversation', long: 'audit.approval.conversationLong' },
  always: { short: 'audit.approval.always', long: 'audit.approval.alwaysLong' },
  'server-auto': { short: 'audit.approval.serverAuto', long: 'audit.approval.serverAutoLong' },
  never: { short: 'audit.approval.never', long: 'audit.approval.neverLong' },
  validation: { short: 'audit.approval.validation', long: 'audit.approval.validationLong' },
  cli: { short: 'audit.approval.cli', long: 'audit.approval.cliLong' },
  'approve-auto': { short: 'audit.approval.modeAuto', long: 'audit.approval.modeAutoLong' },
  'approve-never': { short: 'audit.approval.modeNever', long: 'audit.approval.modeNeverLong' },
  'read-only': { short: 'audit.approval.readOnly', long: 'audit.approval.readOnlyLong' },
};

const BY_NAME: ReadonlyMap<string, { short: string; long: string }> = new Map(Object.entries(APPROVALS));

/**
 * approvalKeys returns the message keys naming an approval, or null when
 * it has none. A Tools-screen call is "user": the user ran it by hand.
 */
export function approvalKeys(approval: string, source = ''): { short: string; long: string } | null {
  if (source === 'tools' && approval === 'user') return { short: 'audit.approval.tools', long: 'audit.approval.toolsLong' };
  return BY_NAME.get(approval) ?? null;
}
