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
});
