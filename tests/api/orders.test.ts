import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../api/db/ids";
import {
  balanceLedger,
  mailOutbox,
  orderProducts,
  orders,
  payments,
  stockCredentials,
  users,
} from "../../api/db/schema";
import { RESERVATION_MS } from "../../api/services/order-create";
import { maskEmail } from "../../api/services/orders/presentation";
import { expireUnpaidOrders } from "../../api/services/order-settlement";
import { submitSandboxPayment } from "../../api/services/payments/events";
import { claimCredentials } from "../../api/services/stock/claims";
import { type FakeGateways, startFakeGateways } from "../support/fake-gateways";
import { type ShopTestApi, addToCart, createCustomer, createListing, createShopTestApi } from "../support/shop";

let client: ShopTestApi;

beforeAll(async () => {
  client = await createShopTestApi();
});
afterAll(() => client.close());

async function stockByStatus(optionId: string) {
  const rows = await client.db
    .select({ status: stockCredentials.status })
    .from(stockCredentials)
    .where(eq(stockCredentials.optionId, optionId));
  const counts: Record<string, number> = {};
  for (const row of rows) counts[row.status] = (counts[row.status] ?? 0) + 1;
  return counts;
}

async function balanceOf(userId: string) {
  const [row] = await client.db.select({ balanceCents: users.balanceCents }).from(users).where(eq(users.id, userId));
  return row.balanceCents;
}

describe("POST /v1/order/create with balance", () => {
  it("debits the balance, delivers at once, records the ledger, clears the cart and queues the mail", async () => {
    const listing = await createListing(client.db, { title: "Streaming", priceCents: 500, stock: 3 });
    const customer = await createCustomer(client.db, { balanceCents: 2000 });
    await addToCart(client, customer.token, listing.optionId, 2);

    const created = await client.post(
      "/v1/order/create",
      { coupon: "", paymentMethod: "balance", message: "thanks", isGuest: false },
      { token: customer.token },
    );
    expect(created.status).toBe(201);
    const { orderId } = created.body.payload;
    expect(orderId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(created.body.payload.paymentUrl).toBeUndefined();

    expect(await balanceOf(customer.id)).toBe(1000);
    const ledger = await client.db.select().from(balanceLedger).where(eq(balanceLedger.userId, customer.id));
    expect(ledger).toMatchObject([{ type: "out", amountCents: 1000, balanceAfterCents: 1000, orderId }]);
    expect(await stockByStatus(listing.optionId)).toEqual({ delivered: 2, available: 1 });

    const read = await client.get(`/v1/order/read/${orderId}`);
    expect(read.status).toBe(200);
    expect(read.body.payload).toMatchObject({
      _id: orderId,
      status: "completed",
      price: 10,
      paymentMethod: "balance",
      products: [
        {
          product: listing.productId,
          productOption: listing.optionId,
          title: "Streaming",
          subtitle: "1 Month Warranty",
          fullFillmode: "auto",
          deliveryNotes: "Sign in at the provider; do not change the password.",
          isReplacement: false,
          price: 10,
          quantity: 2,
          duration: 30,
        },
      ],
    });
    const [line] = read.body.payload.products;
    expect(line.creds).toHaveLength(2);
    expect(line.creds[0]).toMatch(/^user\d-.{4}:pass\d$/);
    expect(new Date(line.expiry).getTime()).toBeGreaterThan(Date.now() + 29 * 86_400_000);

    const cart = await client.get("/v1/cart/read", { token: customer.token });
    expect(cart.body.payload.cartItems).toEqual([]);
    const mails = await client.db.select().from(mailOutbox).where(eq(mailOutbox.to, customer.email));
    expect(mails).toHaveLength(1);
    expect(mails[0].text).toContain(`${client.config.publicUrl}/find-order?id=${orderId}`);
    expect(mails[0].text).not.toContain("/forgot");
  });

  it("refuses a balance that is too small and writes nothing", async () => {
    const listing = await createListing(client.db, { priceCents: 700, stock: 2 });
    const customer = await createCustomer(client.db, { balanceCents: 500 });
    await addToCart(client, customer.token, listing.optionId, 1);
    const answer = await client.post("/v1/order/create", { paymentMethod: "balance" }, { token: customer.token });
    expect(answer.status).toBe(409);
    expect(answer.body.message).toBe("Insufficient balance");
    expect(await balanceOf(customer.id)).toBe(500);
    expect(await stockByStatus(listing.optionId)).toEqual({ available: 2 });
    expect(await client.db.select().from(orders).where(eq(orders.userId, customer.id))).toEqual([]);
    const cart = await client.get("/v1/cart/read", { token: customer.token });
    expect(cart.body.payload.cartItems).toHaveLength(1);
  });

  it("refuses an empty cart, a missing sign-in and an unknown payment method", async () => {
    const customer = await createCustomer(client.db, { balanceCents: 500 });
    const empty = await client.post("/v1/order/create", { paymentMethod: "balance" }, { token: customer.token });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe("Your cart is empty");
    const guest = await client.post("/v1/order/create", { paymentMethod: "balance" });
    expect(guest.status).toBe(401);
    const bogus = await client.post("/v1/order/create", { paymentMethod: "paypal" }, { token: customer.token });
    expect(bogus.status).toBe(400);
    expect(bogus.body.message).toBe("paymentMethod: Please choose a payment method");
    // coinbase is a known method, but not configured in this process
    const listing = await createListing(client.db, { stock: 1 });
    await addToCart(client, customer.token, listing.optionId, 1);
    const unconfigured = await client.post(
      "/v1/order/create",
      { paymentMethod: "coinbase" },
      { token: customer.token },
    );
    expect(unconfigured.status).toBe(400);
    expect(unconfigured.body.message).toBe("This payment method is not available. Please choose another one.");
  });

  it("refuses with the number left when the stock is smaller than the cart", async () => {
    const listing = await createListing(client.db, {
      title: "Music",
      optionTitle: "Family",
      priceCents: 100,
      stock: 3,
    });
    const customer = await createCustomer(client.db, { balanceCents: 5000 });
    await addToCart(client, customer.token, listing.optionId, 3);
    await client.db
      .update(stockCredentials)
      .set({ status: "void" })
      .where(
        and(
          eq(stockCredentials.optionId, listing.optionId),
          eq(stockCredentials.username, `user0-${listing.optionId.slice(0, 4)}`),
        ),
      );
    const answer = await client.post("/v1/order/create", { paymentMethod: "balance" }, { token: customer.token });
    expect(answer.status).toBe(409);
    expect(answer.body.message).toBe("Sorry, only 2 left of Music — Family");
    expect(await balanceOf(customer.id)).toBe(5000);
  });
});

describe("POST /v1/order/create with the sandbox gateway", () => {
  it("reserves stock, answers the payment page, hides credentials until paid, then delivers", async () => {
    const listing = await createListing(client.db, { priceCents: 1250, stock: 2 });
    const customer = await createCustomer(client.db, { autoCreated: true });
    await addToCart(client, customer.token, listing.optionId, 1);
    const created = await client.post(
      "/v1/order/create",
      { paymentMethod: "sandbox", isGuest: true },
      { token: customer.token },
    );
    expect(created.status).toBe(201);
    const { orderId, paymentUrl } = created.body.payload;
    const [payment] = await client.db.select().from(payments).where(eq(payments.orderId, orderId));
    expect(paymentUrl).toBe(`${client.config.publicUrl}/pay/sandbox/${payment.id}`);
    expect(payment).toMatchObject({
      gateway: "sandbox",
      amountCents: 1250,
      status: "pending",
      providerReference: `sandbox_${payment.id}`,
    });
    expect(await stockByStatus(listing.optionId)).toEqual({ reserved: 1, available: 1 });
    const [reserved] = await client.db.select().from(stockCredentials).where(eq(stockCredentials.status, "reserved"));
    expect(reserved.reservedUntil!.getTime()).toBeGreaterThan(Date.now() + RESERVATION_MS - 60_000);

    const pending = await client.get(`/v1/order/read/${orderId}`);
    expect(pending.body.payload.status).toBe("pending");
    expect(pending.body.payload.products[0].creds).toEqual([]);
    expect(pending.body.payload.products[0].deliveryNotes).toBe("");
    expect((await client.get("/v1/cart/read", { token: customer.token })).body.payload.cartItems).toEqual([]);

    const paid = await submitSandboxPayment(client.deps, payment.id, "paid");
    expect(paid).toEqual({ outcome: "applied", orderId, purpose: "order" });
    const done = await client.get(`/v1/order/read/${orderId}`);
    expect(done.body.payload.status).toBe("completed");
    expect(done.body.payload.products[0].creds).toHaveLength(1);
    expect(await stockByStatus(listing.optionId)).toEqual({ delivered: 1, available: 1 });
    const [mail] = await client.db.select().from(mailOutbox).where(eq(mailOutbox.to, customer.email));
    expect(mail.text).toContain(`/find-order?id=${orderId}`);
    expect(mail.text).toContain(`${client.config.publicUrl}/forgot`);
  });

  it("Cancel on the sandbox page cancels the order and releases its stock at once", async () => {
    const listing = await createListing(client.db, { stock: 1 });
    const customer = await createCustomer(client.db);
    await addToCart(client, customer.token, listing.optionId, 1);
    const created = await client.post("/v1/order/create", { paymentMethod: "sandbox" }, { token: customer.token });
    const [payment] = await client.db.select().from(payments).where(eq(payments.orderId, created.body.payload.orderId));
    await submitSandboxPayment(client.deps, payment.id, "failed");
    const read = await client.get(`/v1/order/read/${created.body.payload.orderId}`);
    expect(read.body.payload.status).toBe("cancelled");
    expect(await stockByStatus(listing.optionId)).toEqual({ available: 1 });
  });

  it("reserves nothing for a manual product and leaves it to the admin after payment: processing", async () => {
    const listing = await createListing(client.db, { fulfilMode: "manual", priceCents: 300 });
    const customer = await createCustomer(client.db);
    await addToCart(client, customer.token, listing.optionId, 2);
    const created = await client.post("/v1/order/create", { paymentMethod: "sandbox" }, { token: customer.token });
    expect(created.status).toBe(201);
    const [payment] = await client.db.select().from(payments).where(eq(payments.orderId, created.body.payload.orderId));
    await submitSandboxPayment(client.deps, payment.id, "paid");
    const read = await client.get(`/v1/order/read/${created.body.payload.orderId}`);
    expect(read.body.payload.status).toBe("processing");
    expect(read.body.payload.products[0]).toMatchObject({ fullFillmode: "manual", creds: [], quantity: 2, price: 6 });
  });

  it("limits how many unpaid orders one account may hold", async () => {
    const listing = await createListing(client.db, { stock: 10 });
    const customer = await createCustomer(client.db);
    for (let attempt = 0; attempt < 3; attempt++) {
      await addToCart(client, customer.token, listing.optionId, 1);
      expect(
        (await client.post("/v1/order/create", { paymentMethod: "sandbox" }, { token: customer.token })).status,
      ).toBe(201);
    }
    await addToCart(client, customer.token, listing.optionId, 1);
    const fourth = await client.post("/v1/order/create", { paymentMethod: "sandbox" }, { token: customer.token });
    expect(fourth.status).toBe(429);
    expect(fourth.body.message).toMatch(/3 unpaid orders/);
    // Room frees up when the oldest reservation expires, about 30 minutes from now.
    const retryAfter = Number(fourth.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(25 * 60);
    expect(retryAfter).toBeLessThanOrEqual(RESERVATION_MS / 1000);
    expect(await stockByStatus(listing.optionId)).toEqual({ reserved: 3, available: 7 });
  });

  it("limits how many unpaid orders one address may hold", async () => {
    const listing = await createListing(client.db, { stock: 10 });
    const ip = "198.18.0.99";
    for (let attempt = 0; attempt < 5; attempt++) {
      const customer = await createCustomer(client.db);
      await addToCart(client, customer.token, listing.optionId, 1);
      expect(
        (await client.post("/v1/order/create", { paymentMethod: "sandbox" }, { token: customer.token, ip })).status,
      ).toBe(201);
    }
    const customer = await createCustomer(client.db);
    await addToCart(client, customer.token, listing.optionId, 1);
    const sixth = await client.post("/v1/order/create", { paymentMethod: "sandbox" }, { token: customer.token, ip });
    expect(sixth.status).toBe(429);
    expect(Number(sixth.headers.get("retry-after"))).toBeGreaterThan(25 * 60);
  });
});

describe("the unpaid-order cap per address under RATE_LIMIT_SCALE", () => {
  it("grows with the scale, as every other per-address limit does", async () => {
    const scaled = await createShopTestApi({ RATE_LIMIT_SCALE: "2" });
    try {
      const listing = await createListing(scaled.db, { stock: 20 });
      const ip = "198.18.0.77";
      const statuses = [];
      for (let attempt = 0; attempt < 11; attempt++) {
        const customer = await createCustomer(scaled.db);
        await addToCart(scaled, customer.token, listing.optionId, 1);
        const created = await scaled.post(
          "/v1/order/create",
          { paymentMethod: "sandbox" },
          { token: customer.token, ip },
        );
        statuses.push(created.status);
      }
      expect(statuses.slice(0, 10)).toEqual(Array(10).fill(201));
      expect(statuses[10]).toBe(429);
    } finally {
      await scaled.close();
    }
  });
});

describe("expiry and late payment", () => {
  it("expires unpaid orders after the reservation time and puts their stock back on sale", async () => {
    const listing = await createListing(client.db, { stock: 2 });
    const customer = await createCustomer(client.db);
    await addToCart(client, customer.token, listing.optionId, 2);
    const created = await client.post("/v1/order/create", { paymentMethod: "sandbox" }, { token: customer.token });
    const orderId = created.body.payload.orderId;

    expect(await expireUnpaidOrders(client.db, new Date(Date.now() + RESERVATION_MS - 60_000))).toBe(0);
    expect(await expireUnpaidOrders(client.db, new Date(Date.now() + RESERVATION_MS + 60_000))).toBeGreaterThanOrEqual(
      1,
    );
    expect((await client.get(`/v1/order/read/${orderId}`)).body.payload.status).toBe("expired");
    expect(await stockByStatus(listing.optionId)).toEqual({ available: 2 });
    const [payment] = await client.db.select().from(payments).where(eq(payments.orderId, orderId));
    expect(payment.status).toBe("expired");
  });

  it("honours a late payment: delivers what is left and credits the rest to the balance", async () => {
    const listing = await createListing(client.db, { priceCents: 400, stock: 2 });
    const late = await createCustomer(client.db);
    await addToCart(client, late.token, listing.optionId, 2);
    const created = await client.post("/v1/order/create", { paymentMethod: "sandbox" }, { token: late.token });
    const orderId = created.body.payload.orderId;
    await expireUnpaidOrders(client.db, new Date(Date.now() + RESERVATION_MS + 60_000));

    // Someone else buys one of the two released credentials meanwhile.
    const quick = await createCustomer(client.db, { balanceCents: 400 });
    await addToCart(client, quick.token, listing.optionId, 1);
    expect((await client.post("/v1/order/create", { paymentMethod: "balance" }, { token: quick.token })).status).toBe(
      201,
    );

    const [payment] = await client.db.select().from(payments).where(eq(payments.orderId, orderId));
    expect((await submitSandboxPayment(client.deps, payment.id, "paid")).outcome).toBe("applied");
    const read = await client.get(`/v1/order/read/${orderId}`);
    expect(read.body.payload.status).toBe("partiallyComplete");
    expect(read.body.payload.products[0].creds).toHaveLength(1);
    expect(await balanceOf(late.id)).toBe(400);
    const ledger = await client.db.select().from(balanceLedger).where(eq(balanceLedger.userId, late.id));
    expect(ledger).toMatchObject([{ type: "refund", amountCents: 400, balanceAfterCents: 400, orderId }]);
    expect(await stockByStatus(listing.optionId)).toEqual({ delivered: 2 });
  });
});

describe("a line's reservations", () => {
  it("never exceed its quantity: a second reservation for a line is refused by the database, and the order stays whole", async () => {
    const listing = await createListing(client.db, { priceCents: 500, stock: 4 });
    const customer = await createCustomer(client.db);
    await addToCart(client, customer.token, listing.optionId, 1);
    const created = await client.post("/v1/order/create", { paymentMethod: "sandbox" }, { token: customer.token });
    const { orderId } = created.body.payload;
    const [line] = await client.db.select().from(orderProducts).where(eq(orderProducts.orderId, orderId));
    const held = async () =>
      (
        await client.db
          .select({ id: stockCredentials.id })
          .from(stockCredentials)
          .where(and(eq(stockCredentials.orderProductId, line.id), eq(stockCredentials.status, "reserved")))
      ).length;
    expect(await held()).toBe(1);

    // What a checkout retried after an interruption, or a payment applied while its reservation lapses, would
    // do if it reserved for the line once more.
    const again = await client.db
      .transaction((tx) =>
        claimCredentials(tx, {
          optionId: listing.optionId,
          orderProductId: line.id,
          quantity: 1,
          reservedUntil: new Date(Date.now() + RESERVATION_MS),
        }),
      )
      .then(
        () => "reserved twice",
        (error: { cause?: { code?: string; message?: string } }) => [error.cause?.code, error.cause?.message],
      );
    expect(again).toEqual(["23514", expect.stringContaining("would hold 2 reserved credentials for a quantity of 1")]);
    expect(await held()).toBe(1);
    expect(await stockByStatus(listing.optionId)).toEqual({ reserved: 1, available: 3 });

    const [payment] = await client.db.select().from(payments).where(eq(payments.orderId, orderId));
    await submitSandboxPayment(client.deps, payment.id, "paid");
    expect(await stockByStatus(listing.optionId)).toEqual({ delivered: 1, available: 3 });
  });
});

describe("a gateway that cannot open a checkout", () => {
  let fake: FakeGateways;
  let withCoinbase: ShopTestApi;
  beforeAll(async () => {
    fake = await startFakeGateways();
    withCoinbase = await createShopTestApi({
      COINBASE_API_KEY: fake.credentials.coinbase.apiKey,
      COINBASE_WEBHOOK_SECRET: fake.credentials.coinbase.webhookSecret,
      COINBASE_API_BASE: fake.credentials.coinbase.apiBase,
    });
  });
  afterAll(async () => {
    await withCoinbase.close();
    await fake.close();
  });

  it("answers the provider's checkout URL when it works", async () => {
    const listing = await createListing(withCoinbase.db, { stock: 1 });
    const customer = await createCustomer(withCoinbase.db);
    await addToCart(withCoinbase, customer.token, listing.optionId, 1);
    const created = await withCoinbase.post(
      "/v1/order/create",
      { paymentMethod: "coinbase" },
      { token: customer.token },
    );
    expect(created.status).toBe(201);
    expect(created.body.payload.paymentUrl).toMatch(/^https:\/\/commerce\.coinbase\.test\/charges\//);
    const [charge] = fake.requestsTo("coinbase");
    expect(JSON.parse(charge.body).local_price).toEqual({ amount: "5.00", currency: "USD" });
  });

  it("cancels the order, releases its stock, keeps the cart and answers 503", async () => {
    const listing = await createListing(withCoinbase.db, { stock: 1 });
    const customer = await createCustomer(withCoinbase.db);
    await addToCart(withCoinbase, customer.token, listing.optionId, 1);
    fake.answerNextWith("coinbase", 503, "upstream down");
    const answer = await withCoinbase.post(
      "/v1/order/create",
      { paymentMethod: "coinbase" },
      { token: customer.token },
    );
    expect(answer.status).toBe(503);
    expect(answer.body.message).toMatch(/cannot be reached right now/);
    const [order] = await withCoinbase.db.select().from(orders).where(eq(orders.userId, customer.id));
    expect(order.status).toBe("cancelled");
    const stock = await withCoinbase.db
      .select()
      .from(stockCredentials)
      .where(eq(stockCredentials.optionId, listing.optionId));
    expect(stock.map((row) => row.status)).toEqual(["available"]);
    const cart = await withCoinbase.get("/v1/cart/read", { token: customer.token });
    expect(cart.body.payload.cartItems).toHaveLength(1);
  });

  it("lists only gateways that are enabled and usable, and the sandbox", async () => {
    const { body } = await withCoinbase.get("/v1/payment_gateway/read");
    expect(body.payload).toEqual([
      { name: "coinbase", label: "Crypto", status: true },
      { name: "shoppy", label: "Paypal", status: false },
      { name: "stripe", label: "Credit/Debit Card", status: false },
      { name: "balance", label: "Balance", status: true },
      { name: "sandbox", label: "Sandbox (test payments)", status: true },
    ]);
  });
});

describe("reading orders", () => {
  it("answers 400 for a malformed id and 404 for an unknown one", async () => {
    const malformed = await client.get("/v1/order/read/not-an-id");
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toBe("Invalid order id");
    const unknown = await client.get(`/v1/order/read/${newId()}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe("Order not found");
  });

  it("rate-limits lookups per address", async () => {
    const ip = "198.18.7.7";
    const id = newId();
    for (let attempt = 0; attempt < 60; attempt++) {
      expect((await client.get(`/v1/order/read/${id}`, { ip })).status).toBe(404);
    }
    const limited = await client.get(`/v1/order/read/${id}`, { ip });
    expect(limited.status).toBe(429);
    expect((await client.get(`/v1/order/read/${id}`)).status).toBe(404);
  });

  it("lists the customer's own orders, paged, hiding pending orders older than 48 hours", async () => {
    const listing = await createListing(client.db, { title: "Paged", priceCents: 100, stock: 20 });
    const customer = await createCustomer(client.db, { balanceCents: 10_000 });
    const other = await createCustomer(client.db, { balanceCents: 1000 });
    for (let index = 0; index < 11; index++) {
      await addToCart(client, customer.token, listing.optionId, 1);
      await client.post("/v1/order/create", { paymentMethod: "balance" }, { token: customer.token });
    }
    await addToCart(client, other.token, listing.optionId, 1);
    await client.post("/v1/order/create", { paymentMethod: "balance" }, { token: other.token });
    await addToCart(client, customer.token, listing.optionId, 1);
    const stale = await client.post("/v1/order/create", { paymentMethod: "sandbox" }, { token: customer.token });
    await client.db
      .update(orders)
      .set({ createdAt: new Date(Date.now() - 49 * 3_600_000) })
      .where(eq(orders.id, stale.body.payload.orderId));

    const first = await client.post(
      "/v1/order/read",
      { page: 1, search: "", sortBy: "createdAt" },
      { token: customer.token },
    );
    expect(first.status).toBe(200);
    expect(first.body.payload.records).toHaveLength(10);
    expect(first.body.payload.pager).toEqual({ page: 1, previous: null, next: 2, total: 11, pages: 2 });
    const second = await client.post("/v1/order/read", { page: 2, sortBy: "createdAt" }, { token: customer.token });
    expect(second.body.payload.records).toHaveLength(1);
    expect(second.body.payload.pager).toEqual({ page: 2, previous: 1, next: null, total: 11, pages: 2 });
    expect(second.body.payload.records[0].products[0].creds).toHaveLength(1);

    const pendingOnly = await client.post("/v1/order/read", { page: 1, status: "pending" }, { token: customer.token });
    expect(pendingOnly.body.payload.records).toEqual([]);
    const search = await client.post(
      "/v1/order/read",
      { page: 1, search: "nothing like this" },
      { token: customer.token },
    );
    expect(search.body.payload.pager.total).toBe(0);
    const byTitle = await client.post("/v1/order/read", { page: 1, search: "paged" }, { token: customer.token });
    expect(byTitle.body.payload.pager.total).toBe(11);
    expect((await client.post("/v1/order/read", { page: 1 })).status).toBe(401);
  });

  it("never lists another customer's orders, even searched by their id", async () => {
    const listing = await createListing(client.db, { title: "Private", priceCents: 100, stock: 2 });
    const owner = await createCustomer(client.db, { balanceCents: 1000 });
    const stranger = await createCustomer(client.db);
    await addToCart(client, owner.token, listing.optionId, 1);
    const created = await client.post("/v1/order/create", { paymentMethod: "balance" }, { token: owner.token });
    const orderId = created.body.payload.orderId;

    for (const query of [{ page: 1 }, { page: 1, search: orderId }, { page: 1, search: "Private", status: "" }]) {
      const answer = await client.post("/v1/order/read", query, { token: stranger.token });
      expect(answer.status).toBe(200);
      expect(answer.body.payload.records).toEqual([]);
      expect(answer.body.payload.pager.total).toBe(0);
    }
    const own = await client.post("/v1/order/read", { page: 1, search: orderId }, { token: owner.token });
    expect(own.body.payload.records.map((order: { _id: string }) => order._id)).toEqual([orderId]);
  });

  it("answers a page past the end with no records and a way back, and 400 to bad input without changing anything", async () => {
    const listing = await createListing(client.db, { title: "Bounds", priceCents: 100, stock: 1 });
    const customer = await createCustomer(client.db, { balanceCents: 1000 });
    await addToCart(client, customer.token, listing.optionId, 1);
    await client.post("/v1/order/create", { paymentMethod: "balance" }, { token: customer.token });

    const beyond = await client.post("/v1/order/read", { page: 7 }, { token: customer.token });
    expect(beyond.status).toBe(200);
    expect(beyond.body.payload.records).toEqual([]);
    expect(beyond.body.payload.pager).toEqual({ page: 7, previous: 1, next: null, total: 1, pages: 1 });

    const before = await balanceOf(customer.id);
    for (const bad of [
      { page: 0 },
      { page: -1 },
      { page: 1.5 },
      { page: "two" },
      { page: 100_001 },
      { page: 1, sortBy: "title" },
      { page: 1, status: "lost" },
      { page: 1, search: "x".repeat(201) },
      { page: 1, search: 42 },
    ]) {
      const answer = await client.post("/v1/order/read", bad, { token: customer.token });
      expect(answer.status, JSON.stringify(bad)).toBe(400);
      expect(answer.body.success).toBe(false);
    }
    expect(await balanceOf(customer.id)).toBe(before);
    const after = await client.post("/v1/order/read", { page: 1, status: "" }, { token: customer.token });
    expect(after.body.payload.pager.total).toBe(1);
  });

  it("shows recent paid orders with masked emails and no ids or credentials", async () => {
    const { body } = await client.get("/v1/order/recent");
    expect(body.success).toBe(true);
    expect(body.payload.length).toBeGreaterThan(0);
    expect(body.payload.length).toBeLessThanOrEqual(20);
    for (const recent of body.payload) {
      expect(Object.keys(recent).sort()).toEqual(["email", "productTitle", "quantity", "timeAgo"]);
      expect(recent.email).toMatch(/^.{1,2}\*\*\*@.\*\*\*\.com$/);
    }
    expect(maskEmail("jonas@gmail.com")).toBe("jo***@g***.com");
  });
});
