import { errorMessage } from './backend';

/** ApiError is a failed backend call; message is the text to show as is. */
export class ApiError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ApiError';
  }
}

/** call runs one backend call and turns any rejection into an ApiError. */
export async function call<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    throw e instanceof ApiError ? e : new ApiError(errorMessage(e));
  }
}
