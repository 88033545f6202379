// A tool's MCP Apps metadata (_meta.ui), read as Go reads it
// (backend/apps.UIOf): a ui:// resourceUri (or the deprecated flat
// "ui/resourceUri"), and a visibility of "model" and/or "app" — anything
// malformed reads as none and the default visibility. Where MCP Apps' keys
// say nothing, the Apps SDK's: openai/outputTemplate is the view, the model
// may call the tool unless openai/visibility is "private", a widget only
// when openai/widgetAccessible is true.
import type { Tool } from '../api';

export interface ToolUI {
  resourceUri?: string;
  visibility: ('model' | 'app')[];
}

const isUI = (v: unknown): v is string => typeof v === 'string' && v.length > 'ui://'.length && v.startsWith('ui://');

export function uiOf(tool: Tool | undefined): ToolUI {
  const meta = (tool as { _meta?: Record<string, unknown> } | undefined)?._meta;
  const out: ToolUI = { visibility: ['model', 'app'] };
  if (!meta || typeof meta !== 'object') return out;
  let given = false;
  const ui = meta.ui;
  if (ui && typeof ui === 'object' && !Array.isArray(ui)) {
    const u = ui as Record<string, unknown>;
    if (isUI(u.resourceUri)) out.resourceUri = u.resourceUri;
    if (Array.isArray(u.visibility)) {
      const vis = [...new Set(u.visibility.filter((v): v is 'model' | 'app' => v === 'model' || v === 'app'))];
      if (vis.length > 0) [out.visibility, given] = [vis, true];
    }
  }
  if (!out.resourceUri && isUI(meta['ui/resourceUri'])) out.resourceUri = meta['ui/resourceUri'];
  return withOpenAI(out, meta, given);
}

/** withOpenAI fills what MCP Apps' keys left unsaid from the Apps SDK's. */
function withOpenAI(out: ToolUI, meta: Record<string, unknown>, visibilityGiven: boolean): ToolUI {
  const tmpl = meta['openai/outputTemplate'];
  const accessible = meta['openai/widgetAccessible'];
  const vis = meta['openai/visibility'];
  if (!out.resourceUri && isUI(tmpl)) out.resourceUri = tmpl;
  if (visibilityGiven || (typeof tmpl !== 'string' && typeof accessible !== 'boolean' && typeof vis !== 'string')) return out;
  out.visibility = [];
  if (vis !== 'private') out.visibility.push('model');
  if (accessible === true) out.visibility.push('app');
  return out;
}
