import { codedText } from '../i18n/errors';
import { errorMessage } from './backend';

/**
 * ApiError is a failed backend call. Go sends a code and params with the
 * English message (backend/usererr); message reads the error in the
 * current locale (errors.<code> in the catalogue), english keeps Go's text.
 */
export class ApiError extends Error {
  readonly english: string;
  readonly code?: string;
  readonly params?: Record<string, unknown>;
  /** The form field the error is about, when Go names one. */
  readonly field?: string;

  constructor(english: string, code?: string, params?: Record<string, unknown>, field?: string) {
    super(english);
    this.name = 'ApiError';
    this.english = english;
    this.code = code || undefined;
    this.params = params;
    this.field = field || undefined;
    // Read when shown, so it follows the language chosen since.
    Object.defineProperty(this, 'message', {
      get: () => codedText({ code: this.code, params: this.params, message: this.english }),
      configurable: true,
    });
  }

  /**
   * from turns any rejection of a backend call into an ApiError. Wails
   * rejects with new Error(value), which keeps only text, so Go sends a
   * coded failure as the JSON text of {code, params, message, field}
   * (usererr.Format); a plain message is English as is.
   */
  static from(reason: unknown): ApiError {
    if (reason instanceof ApiError) return reason;
    const payload = reason && typeof reason === 'object' && !(reason instanceof Error) ? reason : decode(errorMessage(reason));
    if (payload) {
      const r = payload as { code?: unknown; params?: unknown; field?: unknown; message?: unknown };
      const params = r.params && typeof r.params === 'object' ? (r.params as Record<string, unknown>) : undefined;
      return new ApiError(str(r.message) ?? errorMessage(reason), str(r.code), params, str(r.field));
    }
    return new ApiError(errorMessage(reason));
  }
}

/** decode returns the payload in the JSON text of a coded failure, or null for a plain message. */
function decode(text: string): object | null {
  if (!text.startsWith('{"')) return null;
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' && typeof (v as { message?: unknown }).message === 'string' ? v : null;
  } catch {
    return null;
  }
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/**
 * errorText is the one way to show a failure: an ApiError (or a coded
 * failure Go sent in an event) in the current locale, anything else by
 * its message.
 */
export function errorText(e: unknown): string {
  if (e instanceof ApiError) return e.message;
  if (e && typeof e === 'object' && 'code' in e && 'message' in e) return ApiError.from(e).message;
  return errorMessage(e);
}

/** call runs one backend call and turns any rejection into an ApiError. */
export async function call<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    throw ApiError.from(e);
  }
}
