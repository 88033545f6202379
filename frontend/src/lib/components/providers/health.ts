// Words for a provider's verdict (providers.Health): the UI translates its
// code with its parameters (providerHealth.code.* and .hint.*), never Go's
// English sentence.
import type { Health } from '../../api';

type Translate = (key: string, opts?: { values?: Record<string, string | number> }) => string;

/** healthLabel is the short label of a verdict ("Key rejected (401)", "OPENAI_API_KEY is not set"). */
export function healthLabel(t: Translate, h: Health): string {
  return t(`providerHealth.code.${h.code}`, { values: values(h) });
}

/** healthHint says what to do about a verdict. */
export function healthHint(t: Translate, h: Health): string {
  return t(`providerHealth.hint.${h.code}`, { values: values(h) });
}

/** healthWhen says when and how a Test or a chat found the verdict; "" for the settings' own verdicts. */
export function healthWhen(t: Translate, h: Health, locale: string | null | undefined): string {
  if (!h.at) return '';
  const d = new Date(h.at);
  if (Number.isNaN(d.getTime())) return '';
  const time = new Intl.DateTimeFormat(locale || undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' }).format(d);
  return t(h.source === 'chat' ? 'providerHealth.chatAt' : 'providerHealth.testedAt', { values: { time } });
}

function values(h: Health): Record<string, string> {
  return { status: '', name: '', host: '', model: '', reason: '', ...(h.params ?? {}) };
}
