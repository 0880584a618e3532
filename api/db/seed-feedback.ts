import type { Executor } from "./client";
import { normaliseKeyCode } from "../../contract/redeem-key";
import { keyHash } from "../services/keys/redeem-keys";
import { demoCustomers, demoKeys, demoReviews } from "./demo-feedback";
import { demoDeliveryNotes, demoDescription, demoProducts, warrantyPriceCents, warrantyTitle } from "./demo-data";
import { demoPictureAddress } from "./demo-art/pictures";
import { demoId, newId } from "./ids";
import {
  deliveredCredentials,
  feedback,
  orderProducts,
  orders,
  payments,
  redeemKeys,
  stockCredentials,
  users,
} from "./schema";
import { sealedColumns } from "../services/stock/secrets";

const DAY_MS = 24 * 60 * 60 * 1000;
/** Not an argon2 hash: nobody can sign in to a demo customer. */
const NO_PASSWORD = "!demo-customer";

/**
 * Demo customers with a paid, delivered order per review and their feedback, written as checkout would
 * leave them (a paid payment, a delivered credential of its own, so the shop's stock stays as seeded).
 * Orders get random ids like every order: a demo order is no easier to look up than a real one. Only
 * customers this call creates get orders, so seeding again adds nothing.
 */
export async function seedDemoFeedback(db: Executor, now = new Date()): Promise<void> {
  const created = await db
    .insert(users)
    .values(
      demoCustomers.map((name, index) => ({
        id: demoId("customer", name),
        username: name,
        email: `${name}@example.com`,
        passwordHash: NO_PASSWORD,
        createdAt: new Date(now.getTime() - (90 + index) * DAY_MS),
      })),
    )
    .onConflictDoNothing()
    .returning({ id: users.id, email: users.email });
  const newCustomers = new Map(created.map((customer) => [customer.id, customer.email]));
  if (newCustomers.size === 0) return;

  const orderRows: (typeof orders.$inferInsert)[] = [];
  const lineRows: (typeof orderProducts.$inferInsert)[] = [];
  const paymentRows: (typeof payments.$inferInsert)[] = [];
  const credentialRows: (typeof stockCredentials.$inferInsert)[] = [];
  const deliveryRows: (typeof deliveredCredentials.$inferInsert)[] = [];
  const feedbackRows: (typeof feedback.$inferInsert)[] = [];
  demoReviews.forEach((review, index) => {
    const customerName = demoCustomers[index % demoCustomers.length];
    const userId = demoId("customer", customerName);
    const email = newCustomers.get(userId);
    const product = demoProducts.find((candidate) => candidate.slug === review.product);
    const option = product?.options[review.option];
    if (!email || !product || !option) return;
    const days = product.warrantyDays[0];
    const priceCents = warrantyPriceCents(option.monthlyCents, days);
    const paidAt = new Date(now.getTime() - review.daysAgo * DAY_MS - index * 60_000);
    const orderId = newId();
    const lineId = newId();
    const credentialId = newId();
    const productId = demoId("product", product.slug);
    const optionId = demoId("option", `${product.slug}:${review.option}`);
    orderRows.push({
      id: orderId,
      userId,
      email,
      status: "completed",
      subtotalCents: priceCents,
      priceCents,
      paymentMethod: "stripe",
      createdAt: paidAt,
      updatedAt: paidAt,
      paidAt,
    });
    lineRows.push({
      id: lineId,
      orderId,
      productId,
      optionId,
      title: product.title,
      subtitle: warrantyTitle(days),
      picture: demoPictureAddress(product),
      description: demoDescription(product),
      deliveryNotes: demoDeliveryNotes(product),
      fulfilMode: "auto",
      durationDays: days,
      unitPriceCents: priceCents,
      quantity: 1,
      priceCents,
      createdAt: paidAt,
    });
    paymentRows.push({
      purpose: "order",
      orderId,
      userId,
      gateway: "stripe",
      providerReference: `demo-${orderId}`,
      amountCents: priceCents,
      status: "paid",
      createdAt: paidAt,
      paidAt,
    });
    credentialRows.push({
      id: credentialId,
      optionId,
      ...sealedColumns({ username: `${customerName}.${index + 1}@mail.example`, password: newId().slice(0, 14) }),
      status: "delivered",
      orderProductId: lineId,
      createdAt: paidAt,
      deliveredAt: paidAt,
    });
    deliveryRows.push({
      orderProductId: lineId,
      credentialId,
      position: 0,
      deliveredAt: paidAt,
      expiresAt: new Date(paidAt.getTime() + days * DAY_MS),
    });
    const writtenAt = new Date(paidAt.getTime() + 2 * 60 * 60_000);
    feedbackRows.push({
      userId,
      orderProductId: lineId,
      productId,
      optionId,
      stars: review.stars,
      message: review.message,
      createdAt: writtenAt,
      updatedAt: writtenAt,
    });
  });
  if (orderRows.length === 0) return;
  await db.insert(orders).values(orderRows);
  await db.insert(orderProducts).values(lineRows);
  await db.insert(payments).values(paymentRows);
  await db.insert(stockCredentials).values(credentialRows);
  await db.insert(deliveredCredentials).values(deliveryRows);
  await db.insert(feedback).values(feedbackRows);
}

/** The demo redeem keys, unused; stable ids, so seeding again neither adds nor revives one. */
export async function seedDemoKeys(db: Executor): Promise<void> {
  await db
    .insert(redeemKeys)
    .values(
      demoKeys.map((key) => {
        const normalised = normaliseKeyCode(key.code)!;
        const product = demoProducts.find((candidate) => candidate.slug === key.product)!;
        return {
          id: demoId("redeem-key", normalised),
          keyHash: keyHash(normalised),
          codeHint: normalised.slice(-4),
          batchId: demoId("redeem-batch", "demo"),
          optionId: demoId("option", `${key.product}:${key.option}`),
          durationDays: product.warrantyDays[0],
          quantity: 1,
        };
      }),
    )
    .onConflictDoNothing();
}
