import type { Context } from "hono";
import type { ApiEnv } from "./context";
import { badRequest } from "./errors";
import { type Answered, ok } from "./http";
import { requireUser } from "./middleware/auth";
import { type Answer, type IdempotentRequest, answerOnce } from "./services/guards/idempotency";

export const IDEMPOTENCY_HEADER = "Idempotency-Key";
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
export const INVALID_KEY = "Idempotency-Key must be 1 to 255 visible ASCII characters";

/** The request's Idempotency-Key header, if any; a malformed one is a 400. */
export function idempotencyKeyOf(c: Context<ApiEnv>): string | undefined {
  const value = c.req.header(IDEMPOTENCY_HEADER);
  if (value === undefined) return undefined;
  if (!KEY_PATTERN.test(value)) throw badRequest(INVALID_KEY, { [IDEMPOTENCY_HEADER]: [INVALID_KEY] });
  return value;
}

/** Answers `work`'s envelope once per Idempotency-Key; a replay says so in `Idempotent-Replayed: true`. */
export async function okOnce<T>(
  c: Context<ApiEnv>,
  request: Omit<IdempotentRequest, "key">,
  work: () => Promise<Answer & { payload: T }>,
): Promise<Answered<T>> {
  const answer = await answerOnce(c.get("db"), { ...request, key: idempotencyKeyOf(c) }, work);
  if (answer.replayed) c.header("Idempotent-Replayed", "true");
  // A replay answers what `work` answered the first time for this route, so it is a T as well.
  return ok(c, answer.payload as T, answer.message, answer.status);
}

/**
 * A back-office create answered once per Idempotency-Key: the form renders one key, so a form posted twice
 * (a double click without JavaScript, a resent request) makes one object and both posts get its answer.
 * Keys are the staff account's own and apart per method and path.
 */
export function createdOnce<T>(
  c: Context<ApiEnv>,
  body: unknown,
  work: () => Promise<{ payload: T; message: string; status?: 200 | 201 }>,
): Promise<Answered<T>> {
  const user = requireUser(c);
  return okOnce(c, { scope: `user:${user.id}`, route: `${c.req.method} ${c.req.path}`, body }, async () => {
    const { payload, message, status = 201 } = await work();
    return { status, message, payload };
  });
}
