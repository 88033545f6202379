// Dropping files from the desktop: the window's config import and the
// composer's attachments both take them. The browser's own handling of a
// drop (opening the file) is prevented wherever files are taken.

/** carriesFiles reports whether a drag carries files. */
export const carriesFiles = (e: DragEvent): boolean => [...(e.dataTransfer?.types ?? [])].includes('Files');

interface Options {
  /** Called with the files dropped. */
  ondrop: (files: FileList, e: DragEvent) => void;
  /** False while files are not taken (the default: always taken). */
  enabled?: () => boolean;
  /** Keep the drag from the elements around (the window's own drop). */
  contain?: boolean;
}

/**
 * FileDrop takes files dragged over an element: spread its handlers on it
 * (or on <svelte:window>). over is true while files are above it; entering
 * and leaving its children nest, so it is counted, not toggled.
 */
export class FileDrop {
  #depth = $state(0);
  readonly #opts: Options;

  constructor(opts: Options) {
    this.#opts = opts;
  }

  get over(): boolean {
    return this.#depth > 0;
  }

  /** claim takes the event when it carries files and files are taken now. */
  #claim(e: DragEvent): boolean {
    if (!carriesFiles(e) || this.#opts.enabled?.() === false) return false;
    e.preventDefault();
    if (this.#opts.contain) e.stopPropagation();
    return true;
  }

  ondragenter = (e: DragEvent): void => {
    if (this.#claim(e)) this.#depth++;
  };

  ondragover = (e: DragEvent): void => {
    if (this.#claim(e) && e.dataTransfer) e.dataTransfer.dropEffect = 'copy';
  };

  ondragleave = (e: DragEvent): void => {
    if (this.#claim(e)) this.#depth = Math.max(0, this.#depth - 1);
  };

  ondrop = (e: DragEvent): void => {
    if (!this.#claim(e)) return;
    this.#depth = 0;
    if (e.dataTransfer?.files) this.#opts.ondrop(e.dataTransfer.files, e);
  };
}
