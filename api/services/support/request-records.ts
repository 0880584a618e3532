import { and, eq, inArray, isNull } from "drizzle-orm";
import { OPEN_OTHER_REQUESTS_PER_LINE } from "../../../contract/request";
import type { Config } from "../../config";
import type { Database, Executor } from "../../db/client";
import { orderProducts, orders, requests, stockCredentials, users } from "../../db/schema";
import { conflict, notFound } from "../../errors";
import type { Logger } from "../../logger";
import { enqueueMail } from "../../mail/outbox";
import { requestResolvedMail } from "../../mail/templates";
import type { OrderRequest } from "../../../contract/answers/request";
import { credentialColumns, revealCredential } from "../stock/secrets";

/*
 * What every path of a request shares (ADR 020): the messages, the rows and the customer's view of a
 * request, the lock a resolution takes and the mail that tells the customer. The customer's side is
 * requests.ts, delivery of a replacement replacement-delivery.ts, the staff's side admin-requests.ts.
 */

export const REQUEST_MESSAGES = {
  orderNotFound: "Order not found",
  notYourOrder:
    "This order belongs to another account. Sign in with the account that placed it to make a request about it.",
  productNotInOrder: "This product is not part of the order",
  notDelivered: "This order has no delivered credentials yet",
  credentialNotFound: "This product of the order has no credential with that number",
  alreadyReplaced: "This credential was already replaced. Its replacement is shown on the order.",
  refunded: "This product was refunded to your balance, so its credentials can no longer be replaced.",
  alreadyRequested:
    "A replacement for this credential is already requested. We deliver it on this order as soon as it is ready.",
  tooManyOpen: `You have ${OPEN_OTHER_REQUESTS_PER_LINE} open requests on this product. Please wait for our answer.`,
  requestNotFound: "Request not found",
  noStock: "There is no stock for this option. Paste a credential or wait for stock.",
  notReplacement: "This is not a replacement request: answer it instead",
  notOther: "A replacement request is completed with a credential, not answered",
  badCredential: "Paste one credential as username:password",
  reasonRequired: "Please give the customer a reason",
  answerRequired: "Please write an answer",
  replaced: "Your replacement is ready: the new credentials are on the order.",
  requested: "Replacement requested. We deliver it on this order as soon as it is ready and email you.",
  sent: "Request sent. We answer within 24 hours.",
} as const;

export type RequestDeps = { db: Database; config: Config; logger?: Logger };

export type RequestView = OrderRequest;

export type LineKey = { orderId: string; productId: string; productOptionId: string };
export type RequestRow = typeof requests.$inferSelect;
export type LineRow = typeof orderProducts.$inferSelect;

/** The customer's view of requests: a completed replacement shows its credential, unless the line was refunded. */
export async function requestViews(db: Executor, rows: RequestRow[]): Promise<RequestView[]> {
  const credentialIds = rows.flatMap((row) => (row.replacementCredentialId ? [row.replacementCredentialId] : []));
  const credentials =
    credentialIds.length === 0
      ? []
      : await db
          .select({ id: stockCredentials.id, ...credentialColumns })
          .from(stockCredentials)
          // A replacement on a line refunded since is withdrawn from the customer's view too (ADR 028).
          .innerJoin(orderProducts, eq(orderProducts.id, stockCredentials.orderProductId))
          .where(and(inArray(stockCredentials.id, credentialIds), isNull(orderProducts.refundedAt)));
  return rows.map((row) => {
    const sealed = credentials.find((candidate) => candidate.id === row.replacementCredentialId);
    const credential = sealed && revealCredential(sealed);
    return {
      _id: row.id,
      kind: row.kind,
      index: row.credentialIndex,
      status: row.status,
      createdAt: row.createdAt.toISOString(),
      resolvedAt: row.resolvedAt?.toISOString() ?? null,
      message: row.message,
      creds: row.status === "completed" && credential ? [`${credential.username}:${credential.password}`] : [],
      reason: row.status === "rejected" ? row.answer : null,
      answer: row.kind === "other" && row.status === "completed" ? row.answer : null,
    };
  });
}

/** Mails the customer that staff or stock resolved their request. */
export async function mailRequestOutcome(
  tx: Executor,
  config: Pick<Config, "publicUrl">,
  request: RequestRow,
  productTitle: string,
  now: Date,
): Promise<void> {
  // The request's foreign key cascades, so its customer exists.
  const [owner] = await tx.select({ email: users.email }).from(users).where(eq(users.id, request.userId));
  const mail = requestResolvedMail({
    to: owner.email,
    orderId: request.orderId,
    productTitle,
    kind: request.kind,
    outcome: request.status === "rejected" ? "rejected" : "completed",
    publicUrl: config.publicUrl,
  });
  await enqueueMail(tx, mail, now);
}

/** A pending request, locked after its order (the order every path locks in, so none deadlock). */
export async function pendingRequestForUpdate(tx: Executor, requestId: string): Promise<RequestRow> {
  const [found] = await tx.select({ orderId: requests.orderId }).from(requests).where(eq(requests.id, requestId));
  if (!found) throw notFound(REQUEST_MESSAGES.requestNotFound);
  await tx.select({ id: orders.id }).from(orders).where(eq(orders.id, found.orderId)).for("update");
  const [request] = await tx.select().from(requests).where(eq(requests.id, requestId)).for("update");
  if (request.status !== "pending") throw conflict(`This request is already ${request.status}`);
  return request;
}
