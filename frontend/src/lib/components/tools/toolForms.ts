// The argument forms of the Tools screen, kept for the session: a form
// keeps what the user typed while the tool's input schema stays the same.
// They live here, loaded with the screen, not in the tools store: the form
// engine and its JSON Schema validator stay out of the window's memory
// until the Tools screen opens (issue 16).

import type { Tool } from '../../api';
import { runKey, type ToolsStore } from '../../state/tools.svelte';
import { SchemaFormModel } from '../schemaform/model.svelte';

type Held = Map<string, { schema: string; model: SchemaFormModel }>;

// Per store: each app (and each component test) has its own.
const forms = new WeakMap<ToolsStore, Held>();

/**
 * formFor returns the argument form of a tool, kept while the tool's
 * input schema stays the same. When the schema changed (list_changed),
 * a new form starts from what the old one held.
 */
export function formFor(tools: ToolsStore, server: string, tool: Tool): SchemaFormModel {
  let held = forms.get(tools);
  if (!held) forms.set(tools, (held = new Map()));
  const key = runKey(server, tool.name);
  const schemaText = JSON.stringify(tool.inputSchema ?? {});
  const old = held.get(key);
  if (old && old.schema === schemaText) return old.model;
  const model = new SchemaFormModel(tool.inputSchema ?? { type: 'object' }, old?.model.value);
  held.set(key, { schema: schemaText, model });
  return model;
}
