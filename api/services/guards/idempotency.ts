import { createHash } from "node:crypto";
import { and, eq, isNull, lt, lte } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { idempotencyKeys } from "../../db/schema";
import { AppError, conflict } from "../../errors";

/*
 * Idempotency-Key (docs/api-orders.md): the first request with a key does the work and its answer is
 * kept for IDEMPOTENCY_TTL_MS; a repeat with the same key and body gets that answer, even while the
 * first is still running (it waits for it). Keys are scoped per account (a guest checkout: per email).
 * Only successes are kept: a refusal changed nothing, so it frees the key for a corrected retry.
 */

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/** How long a repeat waits for the first request's answer (a provider may take 20 s to open a checkout). */
export const IN_FLIGHT_WAIT_MS = 25_000;
/** A claim still unanswered after this was left by a process that died: a repeat may take it over. */
const ABANDONED_AFTER_MS = 2 * 60 * 1000;
const POLL_MS = 100;

export const IDEMPOTENCY_MESSAGES = {
  otherBody: "This Idempotency-Key was already used with a different request. Use a new key for a new request.",
  inProgress: "A request with this Idempotency-Key is still in progress. Please try again in a moment.",
} as const;

export type Answer = { status: 200 | 201; message: string; payload: unknown };
export type IdempotentRequest = { scope: string; route: string; key: string | undefined; body: unknown; now?: Date };

/** Canonical JSON (sorted keys), so the same body in another key order is the same request. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, item]) => item !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([name, item]) => `${JSON.stringify(name)}:${canonical(item)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

export const fingerprintOf = (body: unknown) => createHash("sha256").update(canonical(body)).digest("base64url");

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `work` once per (scope, route, key). Without a key it simply runs. Answers the result and whether
 * it is a replay of an earlier one.
 */
export async function answerOnce(
  db: Executor,
  request: IdempotentRequest,
  work: () => Promise<Answer>,
): Promise<Answer & { replayed: boolean }> {
  if (request.key === undefined) return { ...(await work()), replayed: false };
  const id = { scope: request.scope, route: request.route, key: request.key };
  const where = and(
    eq(idempotencyKeys.scope, id.scope),
    eq(idempotencyKeys.route, id.route),
    eq(idempotencyKeys.key, id.key),
  );
  const fingerprint = fingerprintOf(request.body);
  const now = request.now ?? new Date();
  const deadline = Date.now() + IN_FLIGHT_WAIT_MS;

  for (;;) {
    await db.delete(idempotencyKeys).where(and(where, lte(idempotencyKeys.expiresAt, now)));
    const claimed = await db
      .insert(idempotencyKeys)
      .values({ ...id, fingerprint, createdAt: now, expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS) })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });
    const [row] = claimed.length > 0 ? [] : await db.select().from(idempotencyKeys).where(where);
    if (row && row.fingerprint !== fingerprint) throw new AppError(422, IDEMPOTENCY_MESSAGES.otherBody);
    if (row?.status) {
      const answer = row.answer as Omit<Answer, "status">;
      return {
        status: row.status as Answer["status"],
        message: answer.message,
        payload: answer.payload,
        replayed: true,
      };
    }
    const tookOver =
      row !== undefined &&
      (
        await db
          .update(idempotencyKeys)
          .set({ createdAt: now })
          .where(
            and(
              where,
              isNull(idempotencyKeys.status),
              lt(idempotencyKeys.createdAt, new Date(now.getTime() - ABANDONED_AFTER_MS)),
            ),
          )
          .returning({ key: idempotencyKeys.key })
      ).length > 0;
    if (claimed.length > 0 || tookOver) return { ...(await runClaimed(db, where, work)), replayed: false };
    // The first request is running (row in flight) or just failed and freed the key (no row): look again.
    if (Date.now() >= deadline) throw conflict(IDEMPOTENCY_MESSAGES.inProgress);
    await sleep(POLL_MS);
  }
}

async function runClaimed(db: Executor, where: ReturnType<typeof and>, work: () => Promise<Answer>): Promise<Answer> {
  let answer: Answer;
  try {
    answer = await work();
  } catch (error) {
    await db.delete(idempotencyKeys).where(where);
    throw error;
  }
  await db
    .update(idempotencyKeys)
    .set({ status: answer.status, answer: { message: answer.message, payload: answer.payload } })
    .where(where);
  return answer;
}

/** Forgets answers past their time; run by the periodic job. */
export async function purgeExpiredIdempotencyKeys(db: Executor, now = new Date()): Promise<number> {
  const purged = await db
    .delete(idempotencyKeys)
    .where(lte(idempotencyKeys.expiresAt, now))
    .returning({ key: idempotencyKeys.key });
  return purged.length;
}
