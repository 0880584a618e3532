import { DrizzleQueryError } from "drizzle-orm/errors";

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

/** PostgreSQL's SQLSTATE: five digits or capitals ("23505", "22P05"), carried by both drivers' errors. */
const SQLSTATE = /^[0-9A-Z]{5}$/;

/**
 * What a log line may say about an unexpected error: its class and code, and its message and stack
 * only when no database error is in its cause chain. A failed query's message holds the query's
 * parameters (drizzle's "Failed query: … params: …"), and a driver's message may quote a value.
 */
export function describeError(error: unknown): Record<string, unknown> {
  const chain: unknown[] = [];
  for (let link = error; link instanceof Error && chain.length < 5; link = link.cause) chain.push(link);
  const codes = chain.map((link) => (link as { code?: unknown }).code).filter((code) => typeof code === "string");
  const fromDatabase =
    chain.some((link) => link instanceof DrizzleQueryError) || codes.some((code) => SQLSTATE.test(code));
  const names = chain.map((link) => (link as Error).constructor.name).join(" < ") || typeof error;
  if (fromDatabase) return { class: names, code: codes[0] };
  return {
    class: names,
    code: codes[0],
    message: error instanceof Error ? error.message : String(error),
    stack: error instanceof Error ? error.stack : undefined,
  };
}
