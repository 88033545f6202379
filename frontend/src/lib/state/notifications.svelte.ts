import { notify, on, type Notification } from '../api';
import { t } from '../i18n';
import type { ChatStore } from './chat.svelte';
import type { Layout } from './layout.svelte';

/** A tool call that ran this long is worth a notification when it ends (a task, a build, a crawl). */
export const LONG_CALL_MS = 10_000;

/**
 * Notifications sends desktop notifications (issue 16) while the window is
 * hidden or unfocused: a reply finished, an approval or a question waits,
 * a long tool call ended. Go sends them (each kind can be turned off in
 * Settings) and calls back on a click: window:open-conversation, after the
 * window was shown, opens that conversation here.
 */
export class Notifications {
  readonly #chat: ChatStore;
  readonly #layout: Layout;
  /** away says the user is not looking at the window (tests replace it). */
  away: () => boolean = () => typeof document !== 'undefined' && (document.visibilityState !== 'visible' || !document.hasFocus());

  constructor(chat: ChatStore, layout: Layout) {
    this.#chat = chat;
    this.#layout = layout;
  }

  /** start follows the events that may notify; returns the cleanup. */
  start(): () => void {
    const stops = [
      on('chat:done', (p) => {
        if (p.reason === 'stop') this.#send('reply', t('notify.reply'), this.#where(p.conversationId), p.conversationId);
      }),
      on('chat:approval', (p) =>
        this.#send('approval', t('notify.approval'), t('notify.approvalBody', { tool: `${p.server} / ${p.tool}`, where: this.#where(p.conversationId) }), p.conversationId),
      ),
      on('chat:sampling', (p) =>
        this.#send('question', t('notify.sampling', { server: p.server }), this.#where(p.conversationId), p.conversationId),
      ),
      on('mcp:elicitation', (p) => this.#send('question', t('notify.elicitation', { server: p.server }), p.message, 0)),
      on('chat:tool-call', (p) => {
        const c = p.call;
        if ((c.status === 'done' || c.status === 'error') && (c.durationMs ?? 0) >= LONG_CALL_MS) {
          this.#send('task', t(c.status === 'done' ? 'notify.taskDone' : 'notify.taskFailed', { tool: `${c.server} / ${c.tool}` }), this.#where(p.conversationId), p.conversationId);
        }
      }),
      on('window:open-conversation', (p) => void this.open(p.conversationId)),
    ];
    return () => stops.forEach((s) => s());
  }

  /** open shows a conversation: the user clicked its notification. */
  async open(id: number): Promise<void> {
    this.#layout.go('chat');
    if (id > 0 && this.#chat.current?.id !== id) await this.#chat.open(id);
  }

  #where(conversationId: number): string {
    const title = this.#chat.list.find((c) => c.id === conversationId)?.title || this.#chat.current?.title || '';
    return title ? t('notify.in', { title }) : '';
  }

  #send(kind: Notification['kind'], title: string, body: string, conversation: number): void {
    if (!this.away()) return;
    // Not sent (turned off, no daemon): the window shows it when it is looked at.
    void notify({ kind, title, body, conversation }).catch(() => {});
  }
}
