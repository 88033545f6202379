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

  /** from turns any rejection of a backend call into an ApiError. */
  static from(reason: unknown): ApiError {
    if (reason instanceof ApiError) return reason;
    if (reason && typeof reason === 'object' && !(reason instanceof Error)) {
      const r = reason as { code?: unknown; params?: unknown; field?: unknown };
      const params = r.params && typeof r.params === 'object' ? (r.params as Record<string, unknown>) : undefined;
      return new ApiError(errorMessage(reason), str(r.code), params, str(r.field));
    }
    return new ApiError(errorMessage(reason));
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
