import { type SQL, and, asc, count, desc, eq, ilike, inArray, or } from "drizzle-orm";
import { INBOX_PAGE_SIZE, type RequestFilter } from "../../../contract/admin-inbox";
import type { ReplacementSettings, StaffRequestPage } from "../../../contract/answers/admin-inbox";
import { alias } from "drizzle-orm/pg-core";
import type { Database, Executor } from "../../db/client";
import { orderProducts, productOptions, products, requests, stockCredentials, users } from "../../db/schema";
import { type StaffActor, recordAudit } from "../staff/audit";
import { containsPattern, countRows, readPage } from "../shared/paging";
import { newId } from "../../db/ids";
import { badRequest, conflict, notFound } from "../../errors";
import { sealedColumns } from "../stock/secrets";
import { INBOX_MESSAGES, customerEmail } from "./admin-inbox";
import { deliverReplacement, fillFromStock } from "./replacement-delivery";
import {
  REQUEST_MESSAGES,
  type RequestDeps,
  type RequestView,
  mailRequestOutcome,
  pendingRequestForUpdate,
  requestViews,
} from "./request-records";

/*
 * The staff's side of requests (ADR 020, ADR 029): the queue, the products' replacement settings, and
 * completing, rejecting or answering a request, each audited in the transaction that makes it.
 */

/** The staff member who resolved a request, beside the customer who made it. */
const resolver = alias(users, "resolver");

export async function listStaffRequests(
  db: Executor,
  query: { filter: RequestFilter; search: string; page: number },
): Promise<StaffRequestPage> {
  const conditions: SQL[] = [];
  if (query.filter !== "all") conditions.push(eq(requests.status, query.filter));
  if (query.search) {
    const pattern = containsPattern(query.search);
    conditions.push(
      or(ilike(users.email, pattern), ilike(orderProducts.title, pattern), eq(requests.orderId, query.search))!,
    );
  }
  const where = and(...conditions);
  // The oldest pending request first: the queue is worked in the order customers asked.
  const { pager, rows } = await readPage(
    db,
    db
      .select({
        request: requests,
        email: customerEmail,
        productId: products.id,
        productTitle: orderProducts.title,
        optionTitle: productOptions.title,
        optionId: productOptions.id,
        autoReplace: products.autoReplace,
        replacementLimit: products.replacementLimit,
        resolvedBy: resolver.email,
      })
      .from(requests)
      .innerJoin(users, eq(users.id, requests.userId))
      .innerJoin(orderProducts, eq(orderProducts.id, requests.orderProductId))
      .innerJoin(productOptions, eq(productOptions.id, orderProducts.optionId))
      .innerJoin(products, eq(products.id, orderProducts.productId))
      .leftJoin(resolver, eq(resolver.id, requests.resolvedBy))
      .$dynamic(),
    {
      counted: countRows(db)
        .from(requests)
        .innerJoin(users, eq(users.id, requests.userId))
        .innerJoin(orderProducts, eq(orderProducts.id, requests.orderProductId))
        .$dynamic(),
      where,
      orderBy: [query.filter === "pending" ? asc(requests.createdAt) : desc(requests.createdAt), desc(requests.id)],
      page: query.page,
      pageSize: INBOX_PAGE_SIZE,
    },
  );
  const optionIds = [...new Set(rows.map((row) => row.optionId))];
  const stock =
    optionIds.length === 0
      ? []
      : await db
          .select({ optionId: stockCredentials.optionId, available: count() })
          .from(stockCredentials)
          .where(and(inArray(stockCredentials.optionId, optionIds), eq(stockCredentials.status, "available")))
          .groupBy(stockCredentials.optionId);
  return {
    records: rows.map(({ request, ...row }) => ({
      _id: request.id,
      kind: request.kind,
      status: request.status,
      message: request.message,
      answer: request.answer,
      credentialIndex: request.credentialIndex,
      customer: { _id: request.userId, email: row.email },
      orderId: request.orderId,
      product: {
        _id: row.productId,
        title: row.productTitle,
        optionTitle: row.optionTitle,
        autoReplace: row.autoReplace,
        replacementLimit: row.replacementLimit,
      },
      availableStock: Number(stock.find((entry) => entry.optionId === row.optionId)?.available ?? 0),
      createdAt: request.createdAt.toISOString(),
      resolvedAt: request.resolvedAt?.toISOString() ?? null,
      resolvedBy: row.resolvedBy ?? null,
    })),
    pager,
  };
}

export async function listReplacementSettings(db: Executor): Promise<ReplacementSettings[]> {
  return db
    .select({
      _id: products.id,
      title: products.title,
      autoReplace: products.autoReplace,
      replacementLimit: products.replacementLimit,
    })
    .from(products)
    .orderBy(asc(products.position), asc(products.title));
}

/** A product's automatic replacement switch and how often one credential may be replaced. */
export async function setReplacementSettings(
  db: Database,
  actor: StaffActor,
  productId: string,
  input: { autoReplace: boolean; replacementLimit: number },
): Promise<ReplacementSettings> {
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(products).where(eq(products.id, productId)).for("update");
    if (!before) throw notFound(INBOX_MESSAGES.productNotFound);
    await tx.update(products).set(input).where(eq(products.id, productId));
    await recordAudit(tx, actor, {
      action: "product.replacement-settings",
      objectType: "product",
      objectId: productId,
      objectLabel: before.title,
      before: { autoReplace: before.autoReplace, replacementLimit: before.replacementLimit },
      after: input,
    });
    return { _id: productId, title: before.title, ...input };
  });
}

/** "username:password" (the password may hold colons); both parts required. */
function parseCredential(text: string): { username: string; password: string } {
  const colon = text.indexOf(":");
  const username = colon === -1 ? "" : text.slice(0, colon).trim();
  const password = colon === -1 ? "" : text.slice(colon + 1).trim();
  if (!username || !password || /[\r\n]/.test(text.trim())) {
    throw badRequest(REQUEST_MESSAGES.badCredential, { credential: [REQUEST_MESSAGES.badCredential] });
  }
  return { username, password };
}

/** Which pending request staff resolve, and who (`actor` is written to the audit log). */
type StaffResolution = { requestId: string; staffUserId: string | null; now?: Date; actor?: StaffActor };

/**
 * Staff complete a pending replacement: with a credential from the option's stock, or with one they
 * paste (it is added to the option's stock as delivered). The back office calls this.
 */
export async function completeReplacement(
  deps: Pick<RequestDeps, "db" | "config">,
  input: StaffResolution & { credential?: string },
): Promise<RequestView> {
  const now = input.now ?? new Date();
  const pasted = input.credential?.trim() ? parseCredential(input.credential) : null;
  return deps.db.transaction(async (tx) => {
    const request = await pendingRequestForUpdate(tx, input.requestId);
    if (request.kind !== "replacement") throw badRequest(REQUEST_MESSAGES.notReplacement);
    if (input.actor) {
      // The credential itself never goes in the log.
      await recordAudit(tx, input.actor, {
        action: "request.complete",
        objectType: "request",
        objectId: request.id,
        objectLabel: `replacement on order ${request.orderId}`,
        before: { status: "pending" },
        after: { status: "completed", source: pasted ? "pasted" : "stock" },
      });
    }
    if (!pasted) {
      const filled = await fillFromStock(tx, deps.config, request, input.staffUserId, now);
      if (!filled) throw conflict(REQUEST_MESSAGES.noStock);
      return filled;
    }
    const [line] = await tx.select().from(orderProducts).where(eq(orderProducts.id, request.orderProductId));
    const lineId = newId();
    const [credential] = await tx
      .insert(stockCredentials)
      .values({
        optionId: line.optionId,
        ...sealedColumns(pasted),
        status: "reserved",
        orderProductId: lineId,
        createdAt: now,
      })
      .returning({ id: stockCredentials.id });
    return deliverReplacement(tx, deps.config, {
      request,
      line,
      lineId,
      credentialId: credential.id,
      staffUserId: input.staffUserId,
      now,
    });
  });
}

/** A rejection with its reason, or an answer (staff must write one: 400 naming the field when it is blank). */
async function resolveWithWords(
  deps: Pick<RequestDeps, "db" | "config">,
  input: StaffResolution & { words: string },
  outcome: "rejected" | "completed",
): Promise<RequestView> {
  const words = input.words.trim();
  if (!words) {
    const [field, message] =
      outcome === "rejected"
        ? ["reason", REQUEST_MESSAGES.reasonRequired]
        : ["answer", REQUEST_MESSAGES.answerRequired];
    throw badRequest(message, { [field]: [message] });
  }
  const now = input.now ?? new Date();
  return deps.db.transaction(async (tx) => {
    const request = await pendingRequestForUpdate(tx, input.requestId);
    if (outcome === "completed" && request.kind !== "other") throw badRequest(REQUEST_MESSAGES.notOther);
    if (input.actor) {
      await recordAudit(tx, input.actor, {
        action: outcome === "rejected" ? "request.reject" : "request.answer",
        objectType: "request",
        objectId: request.id,
        objectLabel: `${request.kind} on order ${request.orderId}`,
        before: { status: "pending" },
        after: { status: outcome, words },
      });
    }
    const [resolved] = await tx
      .update(requests)
      .set({ status: outcome, answer: words, resolvedAt: now, resolvedBy: input.staffUserId })
      .where(eq(requests.id, request.id))
      .returning();
    const [line] = await tx
      .select({ title: orderProducts.title })
      .from(orderProducts)
      .where(eq(orderProducts.id, request.orderProductId));
    await mailRequestOutcome(tx, deps.config, resolved, line.title, now);
    return (await requestViews(tx, [resolved]))[0];
  });
}

/** Staff decline a pending request (of either kind) with a reason the customer sees on the order. */
export async function rejectRequest(
  deps: Pick<RequestDeps, "db" | "config">,
  input: StaffResolution & { reason: string },
): Promise<RequestView> {
  return resolveWithWords(deps, { ...input, words: input.reason }, "rejected");
}

/** Staff answer an other request: it is completed, with the answer shown on the order. */
export async function answerRequest(
  deps: Pick<RequestDeps, "db" | "config">,
  input: StaffResolution & { answer: string },
): Promise<RequestView> {
  return resolveWithWords(deps, { ...input, words: input.answer }, "completed");
}
