import { and, asc, eq, sql } from "drizzle-orm";
import type { Executor } from "../api/db/client";
import { products, productOptions, users, warrantyDurations } from "../api/db/schema";
import { createSession } from "../api/services/accounts/sessions";

/*
 * `npm run bench`: POST /v1/order/create with BUYERS customers checking out at once (issue 18: p95 <= 50 ms on the
 * PostgreSQL server). Each buyer adds one unit to their server cart, then orders it, paid from their balance, so
 * every order takes a credential, debits a balance and writes its delivery mail: the whole checkout, with no
 * gateway in the way. Only the order/create call is timed.
 */

export const BUYERS = 20;
const ORDERS_PER_BUYER = 25;
const STOCK = BUYERS * ORDERS_PER_BUYER + 100;
/** The goal holds on the PostgreSQL server; the embedded database runs one transaction at a time. */
export const CHECKOUT_P95_GOAL_MS = 50;

export type CheckoutFixture = { tokens: string[]; optionId: string; duration: number };

/** The buyers (with ample balance and sessions) and stock for the plan they buy, written before the server starts. */
export async function seedBuyers(db: Executor): Promise<CheckoutFixture> {
  const [plan] = await db
    .select({ optionId: productOptions.id, duration: warrantyDurations.durationDays })
    .from(productOptions)
    .innerJoin(products, eq(products.id, productOptions.productId))
    .innerJoin(warrantyDurations, eq(warrantyDurations.optionId, productOptions.id))
    .where(and(eq(products.fulfilMode, "auto"), eq(products.minQuantity, 1)))
    .orderBy(asc(products.position), asc(productOptions.position))
    .limit(1);
  if (!plan) throw new Error("the demo catalogue has no automatic plan to buy");
  await db.execute(sql`
    insert into stock_credentials (id, option_id, username, password)
    select 'bc' || lpad(g::text, 20, '0'), ${plan.optionId}, 'bench' || g || '@mail.example', 'pw' || g
    from generate_series(1, ${STOCK}) g`);
  const tokens: string[] = [];
  for (let index = 1; index <= BUYERS; index++) {
    const [buyer] = await db
      .insert(users)
      .values({
        username: `bench_buyer_${index}`,
        email: `bench_buyer_${index}@example.com`,
        passwordHash: "not-a-password-hash",
        balanceCents: 10_000_000,
      })
      .returning({ id: users.id });
    tokens.push(await createSession(db, buyer.id));
  }
  return { tokens, ...plan };
}

export type CheckoutFigures = {
  buyers: number;
  orders: number;
  seconds: number;
  ordersPerSecond: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  /** Answers other than 201, by status: none expected. */
  refusals: Record<string, number>;
};

const percentile = (sorted: number[], share: number) => sorted[Math.ceil(sorted.length * share) - 1] ?? 0;

/** Every buyer, at once, orders ORDERS_PER_BUYER times in a row. */
export async function measureCheckout(base: string, fixture: CheckoutFixture): Promise<CheckoutFigures> {
  const latencies: number[] = [];
  const refusals: Record<string, number> = {};
  const post = (path: string, token: string, body: unknown) =>
    fetch(base + path, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });
  const buyer = async (token: string) => {
    for (let order = 0; order < ORDERS_PER_BUYER; order++) {
      const added = await post("/v1/cart/add", token, {
        optionId: fixture.optionId,
        quantity: 1,
        duration: fixture.duration,
      });
      await added.arrayBuffer();
      if (!added.ok) throw new Error(`cart/add answered ${added.status}`);
      const started = performance.now();
      const created = await post("/v1/order/create", token, {
        coupon: "",
        paymentMethod: "balance",
        message: "",
        isGuest: false,
      });
      await created.arrayBuffer();
      latencies.push(performance.now() - started);
      if (created.status !== 201) refusals[created.status] = (refusals[created.status] ?? 0) + 1;
    }
  };
  const started = performance.now();
  await Promise.all(fixture.tokens.map(buyer));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    buyers: fixture.tokens.length,
    orders: latencies.length,
    seconds: Number(seconds.toFixed(1)),
    ordersPerSecond: Math.round(latencies.length / seconds),
    p50Ms: Math.round(percentile(latencies, 0.5)),
    p95Ms: Math.round(percentile(latencies, 0.95)),
    p99Ms: Math.round(percentile(latencies, 0.99)),
    refusals,
  };
}
