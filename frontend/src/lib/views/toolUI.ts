// A tool's MCP Apps metadata (_meta.ui), read as Go reads it
// (backend/apps.UIOf): a ui:// resourceUri (or the deprecated flat
// "ui/resourceUri"), and a visibility of "model" and/or "app" — anything
// malformed reads as none and the default visibility.
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
  const ui = meta.ui;
  if (ui && typeof ui === 'object' && !Array.isArray(ui)) {
    const u = ui as Record<string, unknown>;
    if (isUI(u.resourceUri)) out.resourceUri = u.resourceUri;
    if (Array.isArray(u.visibility)) {
      const vis = [...new Set(u.visibility.filter((v): v is 'model' | 'app' => v === 'model' || v === 'app'))];
      if (vis.length > 0) out.visibility = vis;
    }
  }
  if (!out.resourceUri && isUI(meta['ui/resourceUri'])) out.resourceUri = meta['ui/resourceUri'];
  return out;
}
