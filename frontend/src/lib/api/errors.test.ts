import { afterEach, describe, expect, it } from 'vitest';
import { setLocale } from '../i18n';
import { ApiError, call, errorText } from './call';

// Go sends {code, params, message} (backend/usererr); the UI words the code
// in the user's language and keeps the English for logs (issue 12).
describe('ApiError', () => {
  afterEach(() => setLocale('en'));

  const timeout = { code: 'call.timeout', params: { server: 'files', timeout: { ms: 30_000 } }, message: 'files › read: server "files" did not answer within 30 s' };

  it('translates a coded error with its params, durations written for the locale', async () => {
    setLocale('zh-CN');
    const err = await call(() => Promise.reject(timeout)).catch((e) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err.code).toBe('call.timeout');
    expect(err.english).toBe(timeout.message);
    expect(err.message).toBe('服务器 “files” 在 30秒 内没有响应（每收到一次进度通知会重新计时）。');
    expect(err.message).not.toMatch(/did not answer/);
  });

  it('decodes the JSON text Wails delivers as the message of an Error', async () => {
    setLocale('zh-CN');
    const err = await call(() => Promise.reject(new Error(JSON.stringify(timeout)))).catch((e) => e);
    expect(err.code).toBe('call.timeout');
    expect(err.english).toBe(timeout.message);
    expect(err.message).toContain('30秒');
    expect(ApiError.from(new Error('{not json')).message).toBe('{not json');
  });

  it('follows the language chosen after the error arrived', () => {
    const err = ApiError.from(timeout);
    setLocale('en');
    expect(err.message).toBe('Server “files” did not answer within 30 sec (the limit restarts with each progress notification).');
    setLocale('zh-CN');
    expect(errorText(err)).toContain('30秒');
  });

  it('shows the English message when the catalogue has no words for the code, or there is none', () => {
    setLocale('zh-CN');
    expect(ApiError.from({ code: 'no.suchCode', message: 'something odd' }).message).toBe('something odd');
    expect(ApiError.from({ message: 'plain' }).message).toBe('plain');
    expect(ApiError.from('a string').message).toBe('a string');
    expect(errorText(new Error('an Error'))).toBe('an Error');
  });

  it('words select params (config problems) and keeps the field a form marks', () => {
    setLocale('zh-CN');
    const e = ApiError.from({ code: 'config.notString', params: { kind: 'array' }, message: 'must be a string, not an array', field: 'command' });
    expect(e.message).toBe('必须是字符串，而不是数组。');
    expect(e.field).toBe('command');
  });
});
