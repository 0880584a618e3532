import type { Executor } from "../../api/db/client";
import { newId } from "../../api/db/ids";
import { deliveredCredentials, orderProducts, orders, stockCredentials } from "../../api/db/schema";

const STATUSES = ["completed", "completed", "partiallyComplete", "pending", "expired", "cancelled"] as const;
/** Rows per insert statement, well under PostgreSQL's 65,535 bind parameters. */
const BATCH = 500;

/**
 * A long order history for one customer, written straight to the tables: `count` orders a minute apart
 * (newest now), statuses in turn, one or two lines each, and a delivered credential on every line of a
 * completed order. It measures what the customer area costs as the history grows.
 */
export async function seedOrderHistory(
  db: Executor,
  customer: { userId: string; email: string },
  listing: { productId: string; optionId: string },
  count: number,
  now = new Date(),
) {
  const orderRows: (typeof orders.$inferInsert)[] = [];
  const lineRows: (typeof orderProducts.$inferInsert)[] = [];
  const credentialRows: (typeof stockCredentials.$inferInsert)[] = [];
  const deliveryRows: (typeof deliveredCredentials.$inferInsert)[] = [];
  for (let index = 0; index < count; index++) {
    const orderId = newId();
    const status = STATUSES[index % STATUSES.length];
    const createdAt = new Date(now.getTime() - (count - index) * 60_000);
    const lineCount = index % 2 === 0 ? 1 : 2;
    orderRows.push({
      id: orderId,
      userId: customer.userId,
      email: customer.email,
      status,
      subtotalCents: 500 * lineCount,
      priceCents: 500 * lineCount,
      paymentMethod: "balance",
      createdAt,
      updatedAt: createdAt,
      paidAt: status === "completed" || status === "partiallyComplete" ? createdAt : null,
    });
    for (let line = 0; line < lineCount; line++) {
      const lineId = newId();
      lineRows.push({
        id: lineId,
        orderId,
        productId: listing.productId,
        optionId: listing.optionId,
        title: `History item ${line + 1}`,
        fulfilMode: "auto",
        durationDays: 30,
        unitPriceCents: 500,
        quantity: 1,
        priceCents: 500,
        createdAt,
      });
      if (status !== "completed") continue;
      const credentialId = newId();
      credentialRows.push({
        id: credentialId,
        optionId: listing.optionId,
        username: `history${index}-${line}`,
        password: `secret${index}`,
        status: "delivered",
        orderProductId: lineId,
      });
      deliveryRows.push({
        orderProductId: lineId,
        credentialId,
        position: 0,
        deliveredAt: createdAt,
        expiresAt: new Date(createdAt.getTime() + 30 * 86_400_000),
      });
    }
  }
  for (const [table, rows] of [
    [orders, orderRows],
    [orderProducts, lineRows],
    [stockCredentials, credentialRows],
    [deliveredCredentials, deliveryRows],
  ] as const) {
    for (let start = 0; start < rows.length; start += BATCH) {
      await db.insert(table).values(rows.slice(start, start + BATCH) as never);
    }
  }
}
