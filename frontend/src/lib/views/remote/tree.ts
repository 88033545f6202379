// The app's side of MCP-UI's remote DOM (issue 15): the tree a remote-DOM
// script built in its sandbox, as @remote-dom/core's RemoteReceiver keeps
// it, fed only with mutations that pass the checks below. The sandbox is
// hostile: every record is checked for shape and size before any of a
// batch is applied, and the tree has a ceiling, so a script cannot make
// the app's window draw without end. Event listeners cross as ids
// ({[FN]: id}); calling one asks the sandbox to run it there.
import {
  MUTATION_TYPE_INSERT_CHILD,
  MUTATION_TYPE_REMOVE_CHILD,
  MUTATION_TYPE_UPDATE_PROPERTY,
  MUTATION_TYPE_UPDATE_TEXT,
  NODE_TYPE_COMMENT,
  NODE_TYPE_ELEMENT,
  NODE_TYPE_TEXT,
  UPDATE_PROPERTY_TYPE_ATTRIBUTE,
  UPDATE_PROPERTY_TYPE_EVENT_LISTENER,
  UPDATE_PROPERTY_TYPE_PROPERTY,
  type RemoteMutationRecord,
  type RemoteNodeSerialization,
} from '@remote-dom/core';
import { RemoteReceiver, type RemoteReceiverNode, type RemoteReceiverParent } from '@remote-dom/core/receivers';
import { FN } from './elements';

/** The most nodes a tree may hold, and the most records one batch may carry. */
export const MAX_NODES = 5000;
export const MAX_RECORDS = 5000;
/** The longest text or attribute value, and the longest id or name. */
export const MAX_TEXT = 100_000;
const MAX_NAME = 128;

type Listener = (...args: unknown[]) => void;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isId = (v: unknown): v is string => typeof v === 'string' && v !== '' && v.length <= MAX_NAME;
const isIndex = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= MAX_NODES;
const TAG = /^[a-z][a-z0-9-]{0,63}$/;

class Refused extends Error {}

export class RemoteTree {
  readonly receiver = new RemoteReceiver();
  readonly #call: (fn: number, args: unknown[]) => void;
  #size = 0;

  /** call asks the sandbox to run its listener fn with args. */
  constructor(call: (fn: number, args: unknown[]) => void) {
    this.#call = call;
  }

  /** How many nodes the tree holds. */
  get size(): number {
    return this.#size;
  }

  /**
   * apply checks a batch of mutations and applies them: it returns why it
   * refused them ('' when applied). A batch with a malformed record is
   * refused whole; one that would take the tree past MAX_NODES is applied
   * up to that record (the caller stops showing the tree then).
   */
  apply(records: unknown): string {
    try {
      if (!Array.isArray(records) || records.length > MAX_RECORDS) throw new Refused(`a batch must be a list of at most ${MAX_RECORDS} mutations`);
      const clean = records.map((r) => this.#record(r));
      for (const r of clean) {
        if (r[0] === MUTATION_TYPE_INSERT_CHILD) {
          const n = count(r[2]);
          if (this.#size + n > MAX_NODES) throw new Refused(`the UI built more than ${MAX_NODES} elements`);
          if (ids(r[2]).some((id) => this.receiver.get({ id }))) throw new Refused('a node was inserted with the id of one the tree holds');
          // An insertion under a parent the tree no longer holds is dropped.
          if (this.receiver.get<RemoteReceiverParent>({ id: r[1] })) this.#size += n;
        } else if (r[0] === MUTATION_TYPE_REMOVE_CHILD) {
          const gone = this.receiver.get<RemoteReceiverParent>({ id: r[1] })?.children[r[2]];
          if (gone) this.#size -= nodeCount(gone);
        }
        this.receiver.connection.mutate([r]);
      }
      return '';
    } catch (e) {
      if (e instanceof Refused) return e.message;
      throw e;
    }
  }

  #record(r: unknown): RemoteMutationRecord {
    if (!Array.isArray(r)) throw new Refused('a mutation is not a list');
    switch (r[0]) {
      case MUTATION_TYPE_INSERT_CHILD: {
        const [, parent, child, index] = r;
        if (!isId(parent) || !isIndex(index)) throw new Refused('an insertion needs a parent id and an index');
        return [MUTATION_TYPE_INSERT_CHILD, parent, this.#node(child, { n: 0 }, 0), index];
      }
      case MUTATION_TYPE_REMOVE_CHILD: {
        const [, parent, index] = r;
        if (!isId(parent) || !isIndex(index)) throw new Refused('a removal needs a parent id and an index');
        return [MUTATION_TYPE_REMOVE_CHILD, parent, index];
      }
      case MUTATION_TYPE_UPDATE_TEXT: {
        const [, id, text] = r;
        if (!isId(id) || typeof text !== 'string' || text.length > MAX_TEXT) throw new Refused(`a text update needs an id and a text of at most ${MAX_TEXT} characters`);
        return [MUTATION_TYPE_UPDATE_TEXT, id, text];
      }
      case MUTATION_TYPE_UPDATE_PROPERTY: {
        const [, id, name, value, kind = UPDATE_PROPERTY_TYPE_PROPERTY] = r;
        if (!isId(id) || !isId(name)) throw new Refused('a property update needs an id and a name');
        if (kind === UPDATE_PROPERTY_TYPE_EVENT_LISTENER) return [MUTATION_TYPE_UPDATE_PROPERTY, id, name, this.#listener(value), kind];
        if (kind === UPDATE_PROPERTY_TYPE_ATTRIBUTE) return [MUTATION_TYPE_UPDATE_PROPERTY, id, name, this.#attribute(value), kind];
        if (kind === UPDATE_PROPERTY_TYPE_PROPERTY) return [MUTATION_TYPE_UPDATE_PROPERTY, id, name, this.#value(value), kind];
        throw new Refused('a property update of an unknown kind');
      }
    }
    throw new Refused('a mutation of an unknown kind');
  }

  #node(v: unknown, counted: { n: number }, depth: number): RemoteNodeSerialization {
    if (!isObject(v) || !isId(v.id)) throw new Refused('a node needs an id');
    if (++counted.n > MAX_NODES) throw new Refused(`the UI built more than ${MAX_NODES} elements`);
    if (depth > 64) throw new Refused('the UI nests deeper than 64 elements');
    if (v.type === NODE_TYPE_TEXT || v.type === NODE_TYPE_COMMENT) {
      if (typeof v.data !== 'string' || v.data.length > MAX_TEXT) throw new Refused(`a text needs at most ${MAX_TEXT} characters`);
      return { id: v.id, type: v.type, data: v.data };
    }
    if (v.type !== NODE_TYPE_ELEMENT || typeof v.element !== 'string' || !TAG.test(v.element)) throw new Refused('an element needs a tag name');
    if (!Array.isArray(v.children)) throw new Refused('an element needs a list of children');
    const attributes: Record<string, string> = {};
    for (const [k, x] of Object.entries(isObject(v.attributes) ? v.attributes : {})) {
      if (!isId(k)) throw new Refused('an attribute needs a name');
      const a = this.#attribute(x);
      if (a !== undefined) attributes[k] = a;
    }
    const properties: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(isObject(v.properties) ? v.properties : {})) {
      if (!isId(k)) throw new Refused('a property needs a name');
      properties[k] = this.#value(x);
    }
    const eventListeners: Record<string, Listener> = {};
    for (const [k, x] of Object.entries(isObject(v.eventListeners) ? v.eventListeners : {})) {
      if (!isId(k)) throw new Refused('an event needs a name');
      const l = this.#listener(x);
      if (l) eventListeners[k] = l;
    }
    return {
      id: v.id,
      type: NODE_TYPE_ELEMENT,
      element: v.element,
      attributes,
      properties,
      eventListeners,
      children: v.children.map((c) => this.#node(c, counted, depth + 1)),
    };
  }

  #attribute(v: unknown): string | undefined {
    if (v === null || v === undefined) return undefined;
    if (typeof v !== 'string' || v.length > MAX_TEXT) throw new Refused(`an attribute needs a text of at most ${MAX_TEXT} characters`);
    return v;
  }

  /** A property keeps JSON values only (functions are the listeners', and those come as events). */
  #value(v: unknown): unknown {
    const json = JSON.stringify(v ?? null);
    if (json.length > MAX_TEXT) throw new Refused(`a property is larger than ${MAX_TEXT} characters`);
    return JSON.parse(json, (_k, x) => (isObject(x) && FN in x ? null : x));
  }

  #listener(v: unknown): Listener | undefined {
    if (v === null || v === undefined) return undefined;
    if (!isObject(v) || !Number.isInteger(v[FN])) throw new Refused('an event listener is not one of the sandbox’s functions');
    const fn = v[FN] as number;
    return (...args: unknown[]) => this.#call(fn, args.map((a) => this.#value(a)));
  }
}

function ids(n: RemoteNodeSerialization): string[] {
  return [n.id, ...('children' in n ? n.children.flatMap(ids) : [])];
}

function count(n: RemoteNodeSerialization): number {
  return 1 + ('children' in n ? n.children.reduce((s, c) => s + count(c), 0) : 0);
}

/** nodeCount is how many nodes a received subtree holds. */
export function nodeCount(n: RemoteReceiverNode): number {
  return 1 + ('children' in n ? n.children.reduce((s, c) => s + nodeCount(c), 0) : 0);
}
