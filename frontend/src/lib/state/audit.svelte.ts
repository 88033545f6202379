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
