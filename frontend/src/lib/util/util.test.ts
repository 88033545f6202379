import { describe, expect, it } from 'vitest';
import { splitCommandLine } from './cmdline';
import { commandLine, formatDuration } from './format';
import { highlightJSON } from './json';
import { validateCommand, validateId, validateInt, validatePairKeys, validateURL } from './validate';

describe('splitCommandLine', () => {
  it.each([
    ['npx -y @modelcontextprotocol/server-everything', [], 'npx', ['-y', '@modelcontextprotocol/server-everything']],
    ['  uvx   mcp-server-time  ', [], 'uvx', ['mcp-server-time']],
    [`node "/path with spaces/index.js" --name 'it''s'`, [], 'node', ['/path with spaces/index.js', '--name', 'its']],
    [`echo "say \\"hi\\"" a\\ b`, [], 'echo', ['say "hi"', 'a b']],
    ['C:\\tools\\server.exe --dir C:\\data', [], 'C:\\tools\\server.exe', ['--dir', 'C:\\data']],
    ['FOO=1 BAR="a b" npx pkg', [['FOO', '1'], ['BAR', 'a b']], 'npx', ['pkg']],
    ['npx pkg KEY=value', [], 'npx', ['pkg', 'KEY=value']],
    ['"A=b" cmd', [], 'A=b', ['cmd']],
    ['docker run \\\n  -i --rm \\\n  mcp/fetch', [], 'docker', ['run', '-i', '--rm', 'mcp/fetch']],
    ['cmd ""', [], 'cmd', ['']],
    ['', [], '', []],
  ])('%s', (line, env, command, args) => {
    const p = splitCommandLine(line);
    expect(p.env.map((e) => [e.key, e.value])).toEqual(env);
    expect(p.command).toBe(command);
    expect(p.args).toEqual(args);
  });

  it('rejects unterminated quotes', () => {
    expect(() => splitCommandLine(`npx "oops`)).toThrow(/double quote/);
    expect(() => splitCommandLine(`npx 'oops`)).toThrow(/single quote/);
  });
});

describe('validation', () => {
  it('checks ids', () => {
    expect(validateId('', [])).toBe('form.error.idRequired');
    expect(validateId('a', [])).toBeUndefined();
    expect(validateId('A1._-z', [])).toBeUndefined();
    expect(validateId('-a', [])).toBe('form.error.idPattern');
    expect(validateId('a b', [])).toBe('form.error.idPattern');
    expect(validateId('x'.repeat(64), [])).toBeUndefined();
    expect(validateId('x'.repeat(65), [])).toBe('form.error.idPattern');
    expect(validateId('dup', ['dup'])).toBe('form.error.idTaken');
  });

  it('checks commands and URLs', () => {
    expect(validateCommand('  ')).toBe('form.error.commandRequired');
    expect(validateCommand('npx')).toBeUndefined();
    expect(validateURL('')).toBe('form.error.urlRequired');
    expect(validateURL('http://localhost:3001/mcp')).toBeUndefined();
    expect(validateURL('https://example.com')).toBeUndefined();
    expect(validateURL('ws://example.com')).toBe('form.error.urlScheme');
    expect(validateURL('example.com/mcp')).toBe('form.error.urlInvalid');
  });

  it('checks env and header names by row', () => {
    const rows = (keys: string[]) => keys.map((key) => ({ key, value: 'v', keep: false }));
    expect(validatePairKeys(rows(['A', 'B']), 'env')).toEqual({});
    expect(validatePairKeys(rows(['A', 'A']), 'env')).toEqual({ 1: 'form.error.keyDuplicate' });
    expect(validatePairKeys(rows(['A=B']), 'env')).toEqual({ 0: 'form.error.envName' });
    expect(validatePairKeys(rows(['', 'X']), 'env')).toEqual({ 0: 'form.error.keyRequired' });
    expect(validatePairKeys([{ key: '', value: '', keep: false }], 'env')).toEqual({});
    expect(validatePairKeys(rows(['Authorization', 'authorization']), 'header')).toEqual({ 1: 'form.error.keyDuplicate' });
    expect(validatePairKeys(rows(['X Token']), 'header')).toEqual({ 0: 'form.error.headerName' });
  });

  it('checks whole numbers in range', () => {
    expect(validateInt('', 1, 64)).toBeUndefined();
    expect(validateInt('4', 1, 64)).toBeUndefined();
    expect(validateInt('4.5', 1, 64)).toBe('form.error.wholeNumber');
    expect(validateInt('0', 1, 64)).toBe('form.error.range');
  });
});

describe('formatting', () => {
  it('quotes command lines for display', () => {
    expect(commandLine('npx', ['-y', 'pkg@1.0', '/a b', "it's", ''])).toBe(`npx -y pkg@1.0 '/a b' 'it'\\''s' ''`);
  });

  it('formats latency', () => {
    expect(formatDuration(0.42, 'en')).toBe('0.4 ms');
    expect(formatDuration(7.5, 'en')).toBe('7.5 ms');
    expect(formatDuration(42.4, 'en')).toBe('42 ms');
    expect(formatDuration(12345, 'en')).toBe('12.3 sec');
  });

  it('highlights JSON and escapes HTML', () => {
    const html = highlightJSON(JSON.stringify({ a: '<b>', n: 1.5, t: true, z: null }, null, 2));
    expect(html).toContain('<span class="j-key">&quot;a&quot;</span>:');
    expect(html).toContain('<span class="j-str">&quot;&lt;b&gt;&quot;</span>');
    expect(html).toContain('<span class="j-num">1.5</span>');
    expect(html).toContain('<span class="j-lit">true</span>');
    expect(html).not.toContain('<b>');
  });
});
