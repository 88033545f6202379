import type { ImportItem, ImportPreview, ImportResult } from '../api';

/**
 * ImportReport is an import problem kept on screen until the user dismisses
 * it (issue 12): a file that could not be read at all, or the entries of a
 * file that were left out because of their mistakes. Errors never vanish by
 * themselves.
 */
export interface ImportReport {
  id: number;
  /** The file as the preview named it. */
  file: string;
  /** Why the whole file could not be read: Go's message, which starts with file:line:col. "" when the file was read. */
  failure: string;
  /** The entries left out, each with its problems and their positions. */
  skipped: ImportItem[];
  /** How many servers of the file were imported (0 after a failure). */
  imported: number;
}

/** MAX_REPORTS bounds the reports kept: the oldest goes first. */
const MAX_REPORTS = 5;

/** ImportReports holds the import problems shown until dismissed. */
export class ImportReports {
  #items = $state<ImportReport[]>([]);
  #next = 1;

  get items(): readonly ImportReport[] {
    return this.#items;
  }

  /** failed keeps why a whole file could not be read. */
  failed(file: string, message: string): void {
    this.#add({ file, failure: message, skipped: [], imported: 0 });
  }

  /** imported keeps the entries of an imported preview that were left out for their mistakes; nothing when there were none. */
  imported(preview: ImportPreview, result: ImportResult): void {
    const skipped = preview.items.filter((i) => i.problems.length > 0);
    if (skipped.length === 0) return;
    this.#add({ file: preview.file, failure: '', skipped, imported: result.added.length + result.replaced.length });
  }

  /** read drops a failure of a file that has now been read: it is no longer true. */
  read(file: string): void {
    this.#items = this.#items.filter((r) => !(r.file === file && r.failure !== ''));
  }

  dismiss(id: number): void {
    this.#items = this.#items.filter((r) => r.id !== id);
  }

  #add(r: Omit<ImportReport, 'id'>): void {
    // A newer report on the same file replaces the older one.
    this.#items = [...this.#items.filter((x) => x.file !== r.file), { id: this.#next++, ...r }].slice(-MAX_REPORTS);
  }
}
