import { describe, expect, it } from 'vitest';
import type { Tool } from '../api';
import { uiOf } from './toolUI';

const tool = (meta: unknown) => ({ name: 't', inputSchema: { type: 'object' }, _meta: meta }) as unknown as Tool;

describe('uiOf', () => {
  it('reads resourceUri and visibility as Go does', () => {
    expect(uiOf(tool({ ui: { resourceUri: 'ui://a/b', visibility: ['app', 'app'] } }))).toEqual({ resourceUri: 'ui://a/b', visibility: ['app'] });
    expect(uiOf(tool({ 'ui/resourceUri': 'ui://old/x' }))).toEqual({ resourceUri: 'ui://old/x', visibility: ['model', 'app'] });
    expect(uiOf(tool({ ui: { resourceUri: 'https://evil.example/x', visibility: ['root'] } }))).toEqual({ visibility: ['model', 'app'] });
    expect(uiOf(tool({ ui: 'garbage' }))).toEqual({ visibility: ['model', 'app'] });
    expect(uiOf(tool(undefined))).toEqual({ visibility: ['model', 'app'] });
    expect(uiOf(undefined)).toEqual({ visibility: ['model', 'app'] });
  });

  it('reads the Apps SDK keys where MCP Apps says nothing, as Go does', () => {
    expect(uiOf(tool({ 'openai/outputTemplate': 'ui://widget/b.html' }))).toEqual({ resourceUri: 'ui://widget/b.html', visibility: ['model'] });
    expect(uiOf(tool({ 'openai/outputTemplate': 'ui://widget/b.html', 'openai/widgetAccessible': true }))).toEqual({
      resourceUri: 'ui://widget/b.html',
      visibility: ['model', 'app'],
    });
    expect(uiOf(tool({ 'openai/widgetAccessible': true, 'openai/visibility': 'private' }))).toEqual({ visibility: ['app'] });
    expect(uiOf(tool({ 'openai/visibility': 'private' }))).toEqual({ visibility: [] });
    expect(uiOf(tool({ 'openai/outputTemplate': 'https://evil.example/w' }))).toEqual({ visibility: ['model'] });
    expect(
      uiOf(tool({ ui: { resourceUri: 'ui://w/v', visibility: ['app'] }, 'openai/outputTemplate': 'ui://widget/b.html', 'openai/visibility': 'public' })),
    ).toEqual({ resourceUri: 'ui://w/v', visibility: ['app'] });
  });
});
