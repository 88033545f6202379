// How the Servers screen words a server's start: the reason a start failed
// in the user's language, and the one toast that says what adding, saving
// or enabling a server did.

import type { ServerStatus, ServerView } from '../../api';
import { t } from '../../i18n';
import { codedText } from '../../i18n/errors';
import type { Toasts } from '../../state/toasts.svelte';
import { formatBytes } from '../inspector/preview';

/**
 * problemText words a failure the backend names (status.problem) in the
 * user's language; undefined when it names none, and Go's error text is
 * all there is.
 */
export function problemText(st: Pick<ServerStatus, 'problem'>): string | undefined {
  const p = st.problem;
  if (!p) return undefined;
  switch (p.code) {
    case 'messageTooLarge':
      return t('limits.messageTooLarge', { size: formatBytes(p.limit ?? 0) });
    case 'programNotFound':
      // A program given as a path is looked for there, not on the PATH.
      return /[/\\]/.test(p.program ?? '')
        ? t('serversTruth.problem.programPathMissing', { program: p.program ?? '' })
        : t('serversTruth.problem.programNotFound', { program: p.program ?? '' });
    case 'programNotExecutable':
      return t('serversTruth.problem.programNotExecutable', { program: p.program ?? '' });
    case 'exitedAtStart':
      return t('serversTruth.problem.exitedAtStart');
    default: {
      // A code of backend/usererr, worded from errors.<code>.
      const text = codedText({ code: p.code, params: p.params, message: '' });
      return text || undefined;
    }
  }
}

/** failureReason is why a server failed, worded if possible, else Go's text. */
export function failureReason(st: ServerStatus): string {
  return problemText(st) ?? st.error ?? t('serversTruth.problem.unknown');
}

export type StartAction = 'added' | 'saved' | 'enabled';

/**
 * showStartOutcome shows one toast for a server that was added, saved or
 * turned on, from the outcome its first start had when Go answered: a
 * success when it connected (or did not need to start), a warning with the
 * reason when it failed, and a note when it is still starting.
 */
export function showStartOutcome(toasts: Toasts, view: ServerView, action: StartAction): number {
  const id = view.spec.id;
  const st = view.status;
  switch (st.state) {
    case 'failed':
    case 'restarting':
      return toasts.warning(`serversTruth.${action}ButFailed`, { id, reason: failureReason(st) });
    case 'connecting':
      return toasts.info(`serversTruth.${action}Starting`, { id });
    default:
      if (action === 'enabled') return toasts.success('serversTruth.enabled', { id });
      return toasts.success(action === 'added' ? 'toast.serverAdded' : 'toast.serverSaved', { id });
  }
}
