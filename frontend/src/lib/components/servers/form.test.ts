import { describe, expect, it } from 'vitest';
import { spec } from '../../../test/fakes/fake';
import { modelFrom, pairRows, specFrom, toPairs } from './form';

describe('server form model', () => {
  it('round-trips a spec, withholding nothing it was given', () => {
    const s = spec({
      id: 'x',
      command: 'npx',
      args: ['-y', 'pkg'],
      env: [{ key: 'A', value: '', keep: true, secret: true }],
      cwd: '/w',
      timeoutMs: 1000,
      maxConcurrency: 2,
      maxMessageBytes: 100_000, // not a whole number of MB: comes back exactly
      protocolVersion: '2025-11-25',
      enabled: false,
    });
    expect(specFrom(modelFrom(s))).toEqual(s);
  });

  it('shows the message limit in MB and sends it in bytes', () => {
    const m = modelFrom(spec({ id: 'x', command: 'c', maxMessageBytes: 64 << 20 }));
    expect(m.maxMessage).toBe('64');
    m.maxMessage = '0.5';
    expect(specFrom(m).maxMessageBytes).toBe(512 * 1024);
    m.maxMessage = ' ';
    expect(specFrom(m).maxMessageBytes).toBe(0);
  });

  it('drops blank rows and empty args', () => {
    const m = modelFrom(spec({ id: 'x', command: 'c', args: ['a', '', 'b'] }));
    m.env.push(...pairRows([{ key: '', value: '', keep: false }]));
    expect(specFrom(m).args).toEqual(['a', 'b']);
    expect(specFrom(m).env).toEqual([]);
  });

  it('sends only the fields of the chosen transport', () => {
    const m = modelFrom(spec({ id: 'x', command: 'c', args: ['a'], env: [{ key: 'K', value: 'v', keep: false }], cwd: '/w' }));
    m.type = 'sse';
    m.url = ' http://h/sse ';
    const s = specFrom(m);
    expect(s).toMatchObject({ type: 'sse', url: 'http://h/sse', command: '', args: [], env: [], cwd: '' });
  });

  it('sends kept values without a value', () => {
    const rows = pairRows([{ key: 'T', value: '', keep: true }]);
    rows[0].value = 'ignored';
    expect(toPairs(rows)).toEqual([{ key: 'T', value: '', keep: true, secret: true }]);
  });
});
