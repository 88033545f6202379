// MCP-UI's remote-DOM elements (issue 15): the tags a remote-DOM script
// may build its UI from, with the attributes and events that cross from
// the sandbox to the app. The sandbox (sandbox.ts) defines them as remote
// elements; the app (RemoteNode.svelte) draws each with a component of its
// own. They are MCP-UI 5's basic library, the one its servers were written
// against.

export interface RemoteElementDefinition {
  tagName: string;
  remoteAttributes: string[];
  remoteEvents: string[];
}

export const REMOTE_ELEMENTS: readonly RemoteElementDefinition[] = [
  { tagName: 'ui-card', remoteAttributes: [], remoteEvents: [] },
  { tagName: 'ui-button', remoteAttributes: ['label', 'disabled'], remoteEvents: ['press', 'click'] },
  { tagName: 'ui-text', remoteAttributes: ['content'], remoteEvents: [] },
  { tagName: 'ui-stack', remoteAttributes: ['direction', 'spacing', 'align', 'justify'], remoteEvents: [] },
  { tagName: 'ui-image', remoteAttributes: ['src', 'alt', 'width', 'height'], remoteEvents: [] },
];

/** How the sandbox and the app talk: JSON-RPC notifications through the view's relay, like every view message. */
export const MUTATE = 'mcpdesk/remote-dom/mutate';
export const CALL = 'mcpdesk/remote-dom/call';
/** A function of the sandbox (an event listener) in a mutation: {[FN]: id}; the app calls it back by id. */
export const FN = '$mcpdeskFn';
