/** A failure the client caused or may see: it becomes an envelope with this status, never a 500. */
export class AppError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 422 | 429 | 503,
    message: string,
    readonly errors?: Record<string, string[]>,
    /** Flags the envelope carries beside message and errors, for a client to act on. */
    readonly flags?: { humanCheckRequired?: true },
  ) {
    super(message);
    this.name = "AppError";
  }
}

export const badRequest = (message: string, errors?: Record<string, string[]>) => new AppError(400, message, errors);
export const unauthorized = (message = "Please sign in to continue") => new AppError(401, message);
export const forbidden = (message = "You are not allowed to do that") => new AppError(403, message);
export const notFound = (message: string) => new AppError(404, message);
export const conflict = (message: string) => new AppError(409, message);
export const tooManyRequests = (message = "Too many attempts. Please wait a moment and try again.") =>
  new AppError(429, message);
