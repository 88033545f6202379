import { auditLog, on, type AuditEntry, type AuditQuery, type AuditSource, type AuditStatus } from '../api';
import { presetRange, tzOffsetMinutes, type RangePreset } from './usage.svelte';

/** The audit log's range: a named one, or all time. */
export type AuditRange = RangePreset | 'all';
export const AUDIT_RANGES: readonly AuditRange[] = ['all', 'today', '7d', '30d', 'month', 'custom'];

/** AuditFilters are what the audit log is narrowed to; "" matches everything. */
export interface AuditFilters {
  range: AuditRange;
  /** The custom range's days, YYYY-MM-DD. */
  from: string;
  to: string;
  server: string;
  tool: string;
  status: AuditStatus | '';
  source: AuditSource | '';
  text: string;
}

export const AUDIT_PAGE_SIZE = 50;

/** AuditTarget names a chat tool call whose audit entry to show. */
export interface AuditTarget {
  conversationId: number;
  server: string;
  tool: string;
  /** The call's arguments as JSON text. */
  arguments: string;
}

/** canonical is JSON (given as text or as a value) with object keys sorted, or the text itself when it is not JSON. */
function canonical(text: unknown): string {
  if (typeof text !== 'string') text = JSON.stringify(text ?? {});
  const sort = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sort)
      : v && typeof v === 'object'
        ? Object.fromEntries(Object.keys(v as object).sort().map((k) => [k, sort((v as Record<string, unknown>)[k])]))
        : v;
  try {
    return JSON.stringify(sort(JSON.parse((text as string) || '{}')));
  } catch {
    return text as string;
  }
}

const NO_FILTERS: AuditFilters = { range: 'all', from: '', to: '', server: '', tool: '', status: '', source: '', text: '' };
const REFRESH_DELAY = 300;
/** Tool-call states after which the audit log has the call. */
const ENDED = new Set(['done', 'error', 'cancelled', 'declined']);

/**
 * AuditStore is the audit log screen's state (SPEC E2): filters, the page
 * on show, and which rows are open. While started it reloads the first page
 * when a chat's tool call ends (a later page stays put, so rows do not
 * shift under the reader); calls from the Tools screen and the command line
 * show when the log is opened again or refreshed.
 */
export class AuditStore {
  #filters = $state<AuditFilters>({ ...NO_FILTERS });
  #offset = $state(0);
  #entries = $state<AuditEntry[]>([]);
  #total = $state(0);
  #loaded = $state(false);
  #loading = $state(false);
  #error = $state('');
  #open = $state<Record<number, boolean>>({});
  #target: AuditTarget | null = null;
  #focusId = $state(0);
  #missing = $state(false);
  #seq = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #now: () => Date;
  readonly limit: number;

  constructor(limit = AUDIT_PAGE_SIZE, now: () => Date = () => new Date()) {
    this.limit = limit;
    this.#now = now;
  }

  get filters(): AuditFilters {
    return this.#filters;
  }

  /** filtered is true when any filter is set. */
  get filtered(): boolean {
    const f = this.#filters;
    return f.range !== 'all' || !!(f.server || f.tool || f.status || f.source || f.text.trim());
  }

  get offset(): number {
    return this.#offset;
  }

  get entries(): AuditEntry[] {
    return this.#entries;
  }

  /** total is how many entries match the filters in all. */
  get total(): number {
    return this.#total;
  }

  /** loaded is true once a page has been read (even if that failed: see error). */
  get loaded(): boolean {
    return this.#loaded;
  }

  get loading(): boolean {
    return this.#loading;
  }

  get error(): string {
    return this.#error;
  }

  get hasPrev(): boolean {
    return this.#offset > 0;
  }

  get hasNext(): boolean {
    return this.#offset + this.limit < this.#total;
  }

  /** query is what Audit is asked for. */
  get query(): AuditQuery {
    const f = this.#filters;
    let from = '';
    let to = '';
    if (f.range === 'custom') ({ from, to } = f);
    else if (f.range !== 'all') ({ from, to } = presetRange(f.range, this.#now()));
    return {
      from,
      to,
      tzOffsetMinutes: tzOffsetMinutes(this.#now()),
      server: f.server,
      tool: f.tool.trim(),
      status: f.status,
      source: f.source,
      text: f.text.trim(),
      limit: this.limit,
      offset: this.#offset,
    };
  }

  /** setFilters changes some filters and goes back to the first page. */
  setFilters(patch: Partial<AuditFilters>): void {
    const next = { ...this.#filters, ...patch };
    if (patch.range === 'custom' && !next.from && !next.to) {
      const r = presetRange('30d', this.#now());
      next.from = r.from;
      next.to = r.to;
    }
    if (next.range === 'custom' && next.from && next.to && next.from > next.to) return;
    this.#filters = next;
    this.#offset = 0;
    void this.load();
  }

  clearFilters(): void {
    this.#filters = { ...NO_FILTERS };
    this.#offset = 0;
    void this.load();
  }

  next(): void {
    if (!this.hasNext) return;
    this.#offset += this.limit;
    void this.load();
  }

  prev(): void {
    if (!this.hasPrev) return;
    this.#offset = Math.max(0, this.#offset - this.limit);
    void this.load();
  }

  /** focusId is the entry a reveal found, to scroll to and focus (0: none). */
  get focusId(): number {
    return this.#focusId;
  }

  /** missing is true when the last reveal found no entry for its call. */
  get missing(): boolean {
    return this.#missing;
  }

  /** focused tells that the revealed entry took the focus. */
  focused(): void {
    this.#focusId = 0;
  }

  /**
   * reveal shows the audit entry of a chat's tool call: the log narrowed to
   * its server and tool, the entry of its conversation (with the same
   * arguments, when one has them) opened and focused once the page arrives.
   */
  reveal(target: AuditTarget): Promise<void> {
    this.#target = target;
    this.#missing = false;
    this.#filters = { ...NO_FILTERS, server: target.server, tool: target.tool };
    this.#offset = 0;
    return this.load();
  }

  #find(entries: AuditEntry[], t: AuditTarget): AuditEntry | undefined {
    const mine = entries.filter((e) => e.source === 'chat' && e.conversationId === t.conversationId && e.server === t.server && e.tool === t.tool);
    const args = canonical(t.arguments);
    return mine.find((e) => canonical(e.arguments) === args) ?? mine[0];
  }

  isOpen(id: number): boolean {
    return !!this.#open[id];
  }

  toggle(id: number, open = !this.#open[id]): void {
    this.#open[id] = open;
  }

  /** load fetches the page of query; a later load wins over an earlier one still running. */
  async load(): Promise<void> {
    const seq = ++this.#seq;
    this.#loading = true;
    try {
      const page = await auditLog(this.query);
      if (seq !== this.#seq) return;
      // Filters can leave the current page past the end: show the last one.
      if (page.entries.length === 0 && page.total > 0 && this.#offset > 0) {
        this.#offset = Math.floor((page.total - 1) / this.limit) * this.limit;
        void this.load();
        return;
      }
      this.#entries = page.entries;
      this.#total = page.total;
      this.#error = '';
      const t = this.#target;
      if (t) {
        this.#target = null;
        const hit = this.#find(page.entries, t);
        this.#missing = !hit;
        if (hit) {
          this.#open[hit.id] = true;
          this.#focusId = hit.id;
        }
      }
    } catch (e) {
      if (seq === this.#seq) this.#error = (e as Error).message;
    } finally {
      if (seq === this.#seq) {
        this.#loading = false;
        this.#loaded = true;
      }
    }
  }

  /** start reloads the first page when a chat's tool call ends; returns the cleanup. */
  start(): () => void {
    const off = on('chat:tool-call', (p) => {
      if (this.#offset !== 0 || !ENDED.has(p.call.status)) return;
      clearTimeout(this.#timer);
      this.#timer = setTimeout(() => void this.load(), REFRESH_DELAY);
    });
    return () => {
      off();
      clearTimeout(this.#timer);
    };
  }
}
