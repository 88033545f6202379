// Remote images (issue 11): the window never fetches one itself. Go keeps
// which hosts the user allowed, per conversation or per server, and fetches
// an allowed image as a data: URL.

import { backend } from './backend';
import { call } from './call';

/** RemoteScope is where remote images are allowed: a conversation (its id as text) or a server (its id). */
export interface RemoteScope {
  kind: 'conversation' | 'server';
  id: string;
}

/** RemoteGrant is one host allowed to show images in one scope. */
export interface RemoteGrant {
  scope: RemoteScope;
  host: string;
  /** The conversation's title ("" when untitled) or the server's id. */
  label: string;
  /** When it was allowed (RFC 3339). */
  grantedAt: string;
}

/** conversationScope is the scope of a conversation's replies and tool results. */
export const conversationScope = (id: number): RemoteScope => ({ kind: 'conversation', id: String(id) });

/** serverScope is the scope of a server's content on the Tools, Resources and Prompts screens, and of its tool icons. */
export const serverScope = (id: string): RemoteScope => ({ kind: 'server', id });

/** remoteImageGrants lists the allowed hosts, newest first. */
export const remoteImageGrants = (): Promise<RemoteGrant[]> =>
  call(() => backend().settings.RemoteImageGrants()).then((g) => g ?? []);

/** allowRemoteImages lets images from host load in scope until revoked. */
export const allowRemoteImages = (scope: RemoteScope, host: string): Promise<RemoteGrant> =>
  call(() => backend().settings.AllowRemoteImages(scope, host));

/** revokeRemoteImages stops images from host loading in scope. */
export const revokeRemoteImages = (scope: RemoteScope, host: string): Promise<void> =>
  call(() => backend().settings.RevokeRemoteImages(scope, host));

/** fetchRemoteImage fetches an allowed image through Go; it resolves to a data: URL. */
export const fetchRemoteImage = (scope: RemoteScope, url: string): Promise<string> =>
  call(() => backend().settings.FetchRemoteImage(scope, url));
