import { SvelteMap } from 'svelte/reactivity';
import {
  allowRemoteImages,
  fetchRemoteImage,
  remoteImageGrants,
  revokeRemoteImages,
  type RemoteGrant,
  type RemoteScope,
} from '../api';

/** RemoteImage is what became of one remote image in one scope. */
export type RemoteImage = { state: 'loading' } | { state: 'loaded'; url: string } | { state: 'error'; message: string };

/** How many characters of fetched images are kept for re-renders (≈ 120 MB of data: URLs). */
const CACHE_CHARS = 120_000_000;

const scopeKey = (s: RemoteScope) => `${s.kind}:${s.id}`;
/** plain copies a scope out of reactive state, for the backend call. */
const plain = (s: RemoteScope): RemoteScope => ({ kind: s.kind, id: s.id });
const imageKey = (s: RemoteScope, url: string) => `${scopeKey(s)}\n${url}`;

/**
 * RemoteImages holds which hosts may show images where (the grants Go
 * keeps, per conversation or server) and the images fetched through Go this
 * session, as data: URLs. The webview never fetches a remote image: a
 * placeholder (content/remoteImages.ts) asks allowed() and image().
 */
export class RemoteImages {
  #grants = $state<RemoteGrant[]>([]);
  #loaded = $state(false);
  #loadError = $state('');
  #loading: Promise<void> | null = null;
  #images = new SvelteMap<string, RemoteImage>();
  #chars = 0;

  /** The allowed hosts, newest first. */
  get grants(): RemoteGrant[] {
    return this.#grants;
  }

  /** The grants have been read from Go (or reading them failed). */
  get loaded(): boolean {
    return this.#loaded;
  }

  get loadError(): string {
    return this.#loadError;
  }

  /** load reads the grants from Go once; force reads them again. */
  load(force = false): Promise<void> {
    if (this.#loading && !force) return this.#loading;
    this.#loading = remoteImageGrants()
      .then((g) => {
        this.#grants = g;
        this.#loadError = '';
      })
      .catch((e: Error) => {
        this.#loadError = e.message;
      })
      .finally(() => (this.#loaded = true));
    return this.#loading;
  }

  /** allowed reports whether images from host may load in scope. */
  allowed(scope: RemoteScope, host: string): boolean {
    const k = scopeKey(scope);
    return this.#grants.some((g) => scopeKey(g.scope) === k && g.host === host);
  }

  /** allow lets images from host load in scope until revoked (Go keeps it). */
  async allow(scope: RemoteScope, host: string): Promise<void> {
    const g = await allowRemoteImages(plain(scope), host);
    // The placeholder names hosts as Go stores them (lower case, an IPv6
    // literal without brackets: sanitize.ts remoteHost), so g.host === host.
    if (!this.allowed(g.scope, g.host)) this.#grants = [g, ...this.#grants];
  }

  /** revoke stops images from the grant's host loading in its scope; images shown from it go back to placeholders. */
  async revoke(g: RemoteGrant): Promise<void> {
    await revokeRemoteImages(plain(g.scope), g.host);
    const k = scopeKey(g.scope);
    this.#grants = this.#grants.filter((x) => !(scopeKey(x.scope) === k && x.host === g.host));
    for (const key of [...this.#images.keys()]) {
      if (!key.startsWith(`${k}\n`)) continue;
      try {
        if (new URL(key.slice(k.length + 1)).hostname.replace(/^\[|\]$/g, '').toLowerCase() === g.host) this.#forget(key);
      } catch {
        this.#forget(key);
      }
    }
  }

  /** image says what became of url in scope; undefined until request(). */
  image(scope: RemoteScope, url: string): RemoteImage | undefined {
    return this.#images.get(imageKey(scope, url));
  }

  /** request fetches url for scope through Go, once; retry fetches a failed one again. */
  request(scope: RemoteScope, url: string, retry = false): void {
    const key = imageKey(scope, url);
    const had = this.#images.get(key);
    if (had && !(retry && had.state === 'error')) return;
    this.#images.set(key, { state: 'loading' });
    fetchRemoteImage(plain(scope), url).then(
      (data) => {
        if (this.#images.get(key)?.state !== 'loading') return; // revoked meanwhile
        this.#images.set(key, { state: 'loaded', url: data });
        this.#chars += data.length;
        this.#trim(key);
      },
      (e: Error) => {
        if (this.#images.get(key)?.state === 'loading') this.#images.set(key, { state: 'error', message: e.message });
      },
    );
  }

  #forget(key: string): void {
    const had = this.#images.get(key);
    if (had?.state === 'loaded') this.#chars -= had.url.length;
    this.#images.delete(key);
  }

  // #trim drops the oldest fetched images (not keep) while the cache is too big.
  #trim(keep: string): void {
    for (const [key, v] of this.#images) {
      if (this.#chars <= CACHE_CHARS) return;
      if (key !== keep && v.state === 'loaded') this.#forget(key);
    }
  }
}
