// Remote images (issue 11): the window never fetches one itself. Go keeps
// which hosts the user allowed, per conversation or per server, and fetches
// an allowed image as a data: URL.

import { backend } from './backend';
import { call } from './call';
import type { RemoteGrant, RemoteScope } from './generated/contract';

export type { RemoteGrant, RemoteScope } from './generated/contract';

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
