import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  balanceLedger,
  coupons,
  deliveredCredentials,
  orderProducts,
  orders,
  payments,
  stockCredentials,
  users,
} from "../../api/db/schema";
import { signSandboxEvent } from "../../api/payments/sandbox";
import { debitBalance } from "../../api/services/payments/balance";
import { ORDER_MESSAGES, PENDING_ORDERS_PER_ADDRESS, RESERVATION_MS } from "../../api/services/order-create";
import { expireUnpaidOrders } from "../../api/services/order-settlement";
import { submitSandboxPayment } from "../../api/services/payments/events";
import { claimCredentials } from "../../api/services/stock/claims";
import { type ShopTestApi, addToCart, createCustomer, createListing, createShopTestApi, nextIp } from "../support/shop";

/*
 * Races that only a real PostgreSQL server can show: PGlite has one connection and runs transactions
 * one after another, so these would pass there whatever the code did.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)("checkout under concurrency (PostgreSQL)", () => {
  let client: ShopTestApi;
  beforeAll(async () => {
    client = await createShopTestApi();
  });
  afterAll(() => client.close());

  it("50 concurrent checkouts for 5 credentials make exactly 5 orders and refuse the rest", async () => {
    const listing = await createListing(client.db, { title: "Hot", optionTitle: "Private", stock: 5 });
    const buyers = await Promise.all(Array.from({ length: 50 }, () => createCustomer(client.db)));
    for (const buyer of buyers) await addToCart(client, buyer.token, listing.optionId, 1);

    const answers = await Promise.all(
      buyers.map((buyer) =>
        client.post("/v1/order/create", { paymentMethod: "sandbox" }, { token: buyer.token, ip: nextIp() }),
      ),
    );
    const created = answers.filter((answer) => answer.status === 201);
    const refused = answers.filter((answer) => answer.status === 409);
    expect(created).toHaveLength(5);
    expect(refused).toHaveLength(45);
    for (const answer of refused)
      expect(answer.body.message).toMatch(/^Sorry, (only \d+ left of Hot — Private|Hot — Private is sold out)$/);

    const reserved = await client.db
      .select({ id: stockCredentials.id, orderProductId: stockCredentials.orderProductId })
      .from(stockCredentials)
      .where(eq(stockCredentials.optionId, listing.optionId));
    expect(reserved.every((row) => row.orderProductId !== null)).toBe(true);
    expect(new Set(reserved.map((row) => row.orderProductId)).size).toBe(5);
    const [{ count }] = await client.db
      .select({ count: sql<number>`count(*)`.mapWith(Number) })
      .from(orderProducts)
      .where(eq(orderProducts.optionId, listing.optionId));
    expect(count).toBe(5);
  });

  it("20 concurrent debits that together exceed the balance never make it negative", async () => {
    const customer = await createCustomer(client.db, { balanceCents: 1000 });
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, () => client.db.transaction((tx) => debitBalance(tx, customer.id, 300))),
    );
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(3);
    for (const result of results) {
      if (result.status === "rejected") expect((result.reason as Error).message).toBe("Insufficient balance");
    }
    const [user] = await client.db
      .select({ balanceCents: users.balanceCents })
      .from(users)
      .where(eq(users.id, customer.id));
    expect(user.balanceCents).toBe(100);
    const ledger = await client.db.select().from(balanceLedger).where(eq(balanceLedger.userId, customer.id));
    expect(ledger).toHaveLength(3);
    expect(ledger.map((row) => row.balanceAfterCents).sort((a, b) => b - a)).toEqual([700, 400, 100]);
  });

  it("20 concurrent balance checkouts of one customer pay once per cart, never below zero", async () => {
    const listing = await createListing(client.db, { priceCents: 300, stock: 20 });
    const customer = await createCustomer(client.db, { balanceCents: 1000 });
    await addToCart(client, customer.token, listing.optionId, 2);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        client.post("/v1/order/create", { paymentMethod: "balance" }, { token: customer.token }),
      ),
    );
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(1);
    expect(
      answers.filter((answer) => answer.status === 400).every((answer) => answer.body.message === "Your cart is empty"),
    ).toBe(true);
    const [user] = await client.db
      .select({ balanceCents: users.balanceCents })
      .from(users)
      .where(eq(users.id, customer.id));
    expect(user.balanceCents).toBe(400);
  });

  it("5 simultaneous hosted checkouts of one cart make one order, and the cart is empty after it", async () => {
    const listing = await createListing(client.db, { priceCents: 399, stock: 10 });
    const customer = await createCustomer(client.db);
    await addToCart(client, customer.token, listing.optionId, 1);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        client.post("/v1/order/create", { paymentMethod: "sandbox" }, { token: customer.token }),
      ),
    );
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(1);
    for (const answer of answers.filter((answer) => answer.status !== 201)) {
      expect(answer).toMatchObject({ status: 400, body: { message: "Your cart is empty" } });
    }
    const made = await client.db.select({ id: orders.id }).from(orders).where(eq(orders.userId, customer.id));
    expect(made).toHaveLength(1);
    expect((await client.get("/v1/cart/read", { token: customer.token })).body.payload.cartItems).toEqual([]);
  });

  it("5 simultaneous checkouts with one Idempotency-Key make one order and get one answer", async () => {
    const listing = await createListing(client.db, { priceCents: 399, stock: 10 });
    const customer = await createCustomer(client.db);
    await addToCart(client, customer.token, listing.optionId, 1);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        client.post(
          "/v1/order/create",
          { paymentMethod: "sandbox" },
          { token: customer.token, headers: { "Idempotency-Key": "double-click" } },
        ),
      ),
    );
    expect(answers[0]).toMatchObject({ status: 201, body: { payload: { paymentUrl: expect.any(String) } } });
    for (const { status, body } of answers)
      expect({ status, body }).toEqual({ status: answers[0].status, body: answers[0].body });
    const made = await client.db.select({ id: orders.id }).from(orders).where(eq(orders.userId, customer.id));
    expect(made).toHaveLength(1);
  });

  it("a top-up sent 5 times at once with one Idempotency-Key opens one payment", async () => {
    const customer = await createCustomer(client.db);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        client.post(
          "/v1/balance/create",
          { paymentMethod: "sandbox", balance: 20 },
          { token: customer.token, headers: { "Idempotency-Key": "top-up" } },
        ),
      ),
    );
    expect(answers[0].status).toBe(201);
    for (const { status, body } of answers)
      expect({ status, body }).toEqual({ status: answers[0].status, body: answers[0].body });
    const opened = await client.db.select({ id: payments.id }).from(payments).where(eq(payments.userId, customer.id));
    expect(opened).toHaveLength(1);
  });

  it("20 accounts on one address ordering at once hold at most 5 unpaid orders", async () => {
    const listing = await createListing(client.db, { stock: 40 });
    const buyers = await Promise.all(Array.from({ length: 20 }, () => createCustomer(client.db)));
    for (const buyer of buyers) await addToCart(client, buyer.token, listing.optionId, 1);
    const address = nextIp();
    const answers = await Promise.all(
      buyers.map((buyer) =>
        client.post("/v1/order/create", { paymentMethod: "sandbox" }, { token: buyer.token, ip: address }),
      ),
    );
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(PENDING_ORDERS_PER_ADDRESS);
    const refused = answers.filter((answer) => answer.status === 429);
    expect(refused).toHaveLength(20 - PENDING_ORDERS_PER_ADDRESS);
    for (const answer of refused) expect(answer.body.message).toBe(ORDER_MESSAGES.tooManyPendingAddress);
    const [{ pending }] = await client.db
      .select({ pending: sql<number>`count(*)`.mapWith(Number) })
      .from(orders)
      .where(and(eq(orders.clientIp, address), eq(orders.status, "pending")));
    expect(pending).toBe(PENDING_ORDERS_PER_ADDRESS);
  });

  it("a coupon limited to one use succeeds once under 30 concurrent tries", async () => {
    const listing = await createListing(client.db, { priceCents: 1000, stock: 30 });
    await client.db.insert(coupons).values({ code: "ONCE", kind: "percent", amount: 50, maxUses: 1 });
    const buyers = await Promise.all(
      Array.from({ length: 30 }, () => createCustomer(client.db, { balanceCents: 1000 })),
    );
    for (const buyer of buyers) await addToCart(client, buyer.token, listing.optionId, 1);
    const answers = await Promise.all(
      buyers.map((buyer) =>
        client.post("/v1/order/create", { coupon: "once", paymentMethod: "balance" }, { token: buyer.token }),
      ),
    );
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(1);
    const refused = answers.filter((answer) => answer.status === 409);
    expect(refused).toHaveLength(29);
    for (const answer of refused) expect(answer.body.message).toBe("This coupon has reached its usage limit");
    const [coupon] = await client.db.select().from(coupons).where(eq(coupons.code, "ONCE"));
    expect(coupon.usedCount).toBe(1);
    const paid = await client.db.select().from(orders).where(eq(orders.couponId, coupon.id));
    expect(paid).toMatchObject([{ priceCents: 500, discountCents: 500, status: "completed" }]);
  });

  it("a webhook delivered 5 times at once, and 5 different paid events, deliver once", async () => {
    const listing = await createListing(client.db, { stock: 4 });
    const customer = await createCustomer(client.db);
    await addToCart(client, customer.token, listing.optionId, 2);
    const created = await client.post("/v1/order/create", { paymentMethod: "sandbox" }, { token: customer.token });
    const orderId = created.body.payload.orderId;
    const [payment] = await client.db.select().from(payments).where(eq(payments.orderId, orderId));
    const event = signSandboxEvent(
      { paymentId: payment.id, amountCents: payment.amountCents, currency: "USD", outcome: "paid" },
      client.config,
    );
    const others = Array.from({ length: 5 }, () =>
      signSandboxEvent(
        { paymentId: payment.id, amountCents: payment.amountCents, currency: "USD", outcome: "paid" },
        client.config,
      ),
    );
    const answers = await Promise.all([
      ...Array.from({ length: 5 }, () => client.post("/v1/webhooks/sandbox", event.body, { headers: event.headers })),
      ...others.map((other) => client.post("/v1/webhooks/sandbox", other.body, { headers: other.headers })),
    ]);
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    expect(answers.filter((answer) => answer.body.payload.outcome === "applied")).toHaveLength(1);
    const delivered = await client.db
      .select({ id: deliveredCredentials.id })
      .from(deliveredCredentials)
      .innerJoin(orderProducts, eq(orderProducts.id, deliveredCredentials.orderProductId))
      .where(eq(orderProducts.orderId, orderId));
    expect(delivered).toHaveLength(2);
    const read = await client.get(`/v1/order/read/${orderId}`);
    expect(read.body.payload.status).toBe("completed");
  });

  it("payments arriving while the expiry job runs are all honoured, without deadlocks", async () => {
    const listing = await createListing(client.db, { stock: 5 });
    const paymentIds: string[] = [];
    const orderIds: string[] = [];
    for (let index = 0; index < 5; index++) {
      const customer = await createCustomer(client.db);
      await addToCart(client, customer.token, listing.optionId, 1);
      const created = await client.post("/v1/order/create", { paymentMethod: "sandbox" }, { token: customer.token });
      orderIds.push(created.body.payload.orderId);
      const [payment] = await client.db
        .select()
        .from(payments)
        .where(eq(payments.orderId, created.body.payload.orderId));
      paymentIds.push(payment.id);
    }
    const later = new Date(Date.now() + RESERVATION_MS + 60_000);
    const [, ...outcomes] = await Promise.all([
      expireUnpaidOrders(client.db, later),
      ...paymentIds.map((paymentId) => submitSandboxPayment(client.deps, paymentId, "paid", later)),
    ]);
    expect(outcomes.map((outcome) => outcome.outcome)).toEqual(Array(5).fill("applied"));
    for (const orderId of orderIds) {
      expect((await client.get(`/v1/order/read/${orderId}`)).body.payload).toMatchObject({
        status: "completed",
        products: [{ creds: [expect.any(String)] }],
      });
    }
  });

  it("expiry jobs running at once on several instances expire each order once", async () => {
    const listing = await createListing(client.db, { stock: 6 });
    for (let index = 0; index < 6; index++) {
      const customer = await createCustomer(client.db);
      await addToCart(client, customer.token, listing.optionId, 1);
      expect(
        (await client.post("/v1/order/create", { paymentMethod: "sandbox" }, { token: customer.token })).status,
      ).toBe(201);
    }
    const later = new Date(Date.now() + RESERVATION_MS + 60_000);
    const [{ due }] = await client.db
      .select({ due: sql<number>`count(*)`.mapWith(Number) })
      .from(orders)
      .where(eq(orders.status, "pending"));
    const counts = await Promise.all([1, 2, 3].map(() => expireUnpaidOrders(client.db, later, 2)));
    let total = counts.reduce((sum, value) => sum + value, 0);
    while (true) {
      const more = await expireUnpaidOrders(client.db, later, 2);
      if (more === 0) break;
      total += more;
    }
    expect(total).toBe(due);
    const stock = await client.db
      .select({ status: stockCredentials.status })
      .from(stockCredentials)
      .where(eq(stockCredentials.optionId, listing.optionId));
    expect(stock.every((row) => row.status === "available")).toBe(true);
  });

  it("two transactions reserving for one line at once never take it past its quantity", async () => {
    const listing = await createListing(client.db, { stock: 6 });
    const customer = await createCustomer(client.db);
    await addToCart(client, customer.token, listing.optionId, 2);
    const created = await client.post("/v1/order/create", { paymentMethod: "sandbox" }, { token: customer.token });
    const [line] = await client.db
      .select({ id: orderProducts.id })
      .from(orderProducts)
      .where(eq(orderProducts.orderId, created.body.payload.orderId));
    const reservedFor = (lineId: string) =>
      client.db
        .select({ id: stockCredentials.id })
        .from(stockCredentials)
        .where(and(eq(stockCredentials.orderProductId, lineId), eq(stockCredentials.status, "reserved")));
    // One of its two reservations lapses, so each transaction alone may take one more.
    const [lapsed] = await reservedFor(line.id);
    await client.db
      .update(stockCredentials)
      .set({ status: "available", orderProductId: null, reservedUntil: null })
      .where(eq(stockCredentials.id, lapsed.id));
    const reserveOne = (tx: Parameters<Parameters<typeof client.db.transaction>[0]>[0]) =>
      claimCredentials(tx, {
        optionId: listing.optionId,
        orderProductId: line.id,
        quantity: 1,
        reservedUntil: new Date(Date.now() + RESERVATION_MS),
      });

    // The first holds its new reservation uncommitted until the second has either reserved too or is waiting.
    let second: Promise<string> | undefined;
    const first = client.db.transaction(async (tx) => {
      await reserveOne(tx);
      let secondDone = false;
      second = client.db
        .transaction(reserveOne)
        .then(
          () => "reserved",
          () => "refused",
        )
        .finally(() => (secondDone = true));
      for (;;) {
        const [{ waiting }] = await client.db
          .select({ waiting: sql<number>`count(*)`.mapWith(Number) })
          .from(sql`pg_locks`).where(sql`locktype = 'advisory' and classid = 7400003 and not granted
            and database = (select oid from pg_database where datname = current_database())`);
        if (secondDone || waiting > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    });
    await first;
    expect(await second).toBe("refused");
    expect(await reservedFor(line.id)).toHaveLength(2);
  });
});
