// How a tool call was allowed (or refused), in words. The audit log keeps
// the approval as Go names it; unknown names are shown as they are.

const APPROVALS: Record<string, { short: string; long: string }> = {
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

/** APPROVAL_NAMES are the approvals with words of their own. */
export const APPROVAL_NAMES = Object.keys(APPROVALS);

/**
 * approvalKeys returns the message keys naming an approval, or null when
 * it has none. A Tools-screen call is "user": the user ran it by hand.
 */
export function approvalKeys(approval: string, source = ''): { short: string; long: string } | null {
  if (source === 'tools' && approval === 'user') return { short: 'audit.approval.tools', long: 'audit.approval.toolsLong' };
  return APPROVALS[approval] ?? null;
}
