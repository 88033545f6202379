// The remote-image part of FakeBackend's settings service: grants per
// conversation or server, and fetches answered from a table of URLs. Its
// checks and error texts follow backend/remotecontent.

import type { RemoteGrant, RemoteScope } from '../../lib/api/remote';

export interface FakeRemoteOptions {
  /** Hosts allowed at start. */
  grants?: RemoteGrant[];
  /** What FetchRemoteImage returns by URL: a data: URL, or an Error whose message it fails with. */
  images?: Record<string, string | Error>;
}

/** What FakeRemote needs from the rest of the fake. */
export interface FakeRemoteHost {
  record(method: string, args: unknown[]): void;
  /** The title of a conversation, or undefined when it does not exist. */
  conversationTitle(id: number): string | undefined;
}

/** normalizeHost mirrors remotecontent.NormalizeHost for the hosts tests use. */
function normalizeHost(host: string): string {
  const h = host.trim().toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');
  if (!h) throw new Error('host: empty');
  return h;
}

function scopeText(s: RemoteScope): string {
  return s.kind === 'conversation' ? `conversation ${s.id}` : `server "${s.id}"`;
}

function checkScope(s: RemoteScope): void {
  if (s.kind === 'conversation') {
    if (!/^[1-9]\d*$/.test(s.id)) throw new Error(`scope: conversation id must be a positive number, not "${s.id}"`);
  } else if (s.kind === 'server') {
    if (!s.id) throw new Error('scope: name the server');
  } else {
    throw new Error(`scope: kind must be "conversation" or "server", not "${(s as { kind: string }).kind}"`);
  }
}

const same = (a: RemoteScope, b: RemoteScope) => a.kind === b.kind && a.id === b.id;

/** FakeRemote keeps grants and answers fetches like remotecontent.Images. */
export class FakeRemote {
  grants: RemoteGrant[];
  images: Record<string, string | Error>;
  /** URLs fetched, in order (only fetches that passed the checks). */
  readonly fetched: string[] = [];

  constructor(
    o: FakeRemoteOptions,
    readonly host: FakeRemoteHost,
  ) {
    this.grants = structuredClone(o.grants ?? []);
    this.images = o.images ?? {};
  }

  allowed(scope: RemoteScope, host: string): boolean {
    return this.grants.some((g) => same(g.scope, scope) && g.host === host);
  }

  async list(): Promise<RemoteGrant[]> {
    this.host.record('RemoteImageGrants', []);
    // Grants of deleted conversations are forgotten.
    this.grants = this.grants.filter((g) => g.scope.kind !== 'conversation' || this.host.conversationTitle(Number(g.scope.id)) !== undefined);
    return structuredClone(this.grants)
      .map((g) => ({ ...g, label: g.scope.kind === 'conversation' ? (this.host.conversationTitle(Number(g.scope.id)) ?? '') : g.scope.id }))
      .sort((a, b) => b.grantedAt.localeCompare(a.grantedAt));
  }

  async allow(scope: RemoteScope, host: string): Promise<RemoteGrant> {
    this.host.record('AllowRemoteImages', [scope, host]);
    let h: string;
    try {
      h = normalizeHost(host);
      checkScope(scope);
    } catch (e) {
      throw `allow remote images: ${(e as Error).message}`;
    }
    let label = scope.id;
    if (scope.kind === 'conversation') {
      const title = this.host.conversationTitle(Number(scope.id));
      if (title === undefined) throw `allow remote images: ${scopeText(scope)} does not exist`;
      label = title;
    }
    let g = this.grants.find((x) => same(x.scope, scope) && x.host === h);
    if (!g) {
      g = { scope: { ...scope }, host: h, label, grantedAt: new Date().toISOString() };
      this.grants.push(g);
    }
    return { ...structuredClone(g), label };
  }

  async revoke(scope: RemoteScope, host: string): Promise<void> {
    this.host.record('RevokeRemoteImages', [scope, host]);
    const h = normalizeHost(host);
    this.grants = this.grants.filter((g) => !(same(g.scope, scope) && g.host === h));
  }

  async fetch(scope: RemoteScope, url: string): Promise<string> {
    this.host.record('FetchRemoteImage', [scope, url]);
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      throw `load image: bad URL: ${url}`;
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw `load image: "${url}" is not an http or https URL`;
    const host = normalizeHost(u.hostname);
    if (!this.allowed(scope, host)) throw `load image from ${host}: images from ${host} are not allowed in ${scopeText(scope)}`;
    this.fetched.push(url);
    const answer = this.images[url];
    if (answer === undefined) throw `load image from ${host}: the server answered 404 Not Found`;
    if (answer instanceof Error) throw `load image from ${host}: ${answer.message}`;
    return answer;
  }
}
