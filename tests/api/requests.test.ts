import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OPEN_OTHER_REQUESTS_PER_LINE } from "../../contract/request";
import {
  deliveredCredentials,
  mailOutbox,
  orderProducts,
  orders,
  products,
  requests,
  stockCredentials,
} from "../../api/db/schema";
import { HUMAN_CHECK_FAILED, issueChallenge } from "../../api/services/guards/human-check";
import { REQUEST_MESSAGES } from "../../api/services/support/request-records";
import { answerRequest, completeReplacement, rejectRequest } from "../../api/services/support/admin-requests";
import { fillWaitingReplacements } from "../../api/services/support/replacement-delivery";
import { limitReachedMessage } from "../../api/services/support/requests";
import { type ShopTestApi, addToCart, createCustomer, createListing, createShopTestApi } from "../support/shop";

/*
 * Warranty replacements and other requests (issue 13, ADR 020): every rule of /v1/request/* and of the
 * staff service calls, on PGlite and (TEST_DATABASE_URL) PostgreSQL; the races at the end run on
 * PostgreSQL only.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
const PROBLEM = "The password is refused since this morning";

/** A builtin human-check answer old enough to pass. */
const humanAnswer = (client: ShopTestApi) => issueChallenge(client.config, new Date(Date.now() - 5_000)).token!;

type Listing = Awaited<ReturnType<typeof createListing>>;
type Bought = { orderId: string; listing: Listing; customer: Awaited<ReturnType<typeof createCustomer>> };

/** A customer who bought `quantity` of a fresh listing from their balance: a completed, delivered order. */
async function buy(
  client: ShopTestApi,
  options: { stock?: number; quantity?: number; listing?: Listing } = {},
): Promise<Bought> {
  const quantity = options.quantity ?? 1;
  const listing = options.listing ?? (await createListing(client.db, { stock: options.stock ?? 5, priceCents: 500 }));
  const customer = await createCustomer(client.db, { balanceCents: 500 * quantity });
  await addToCart(client, customer.token, listing.optionId, quantity);
  const created = await client.post("/v1/order/create", { paymentMethod: "balance" }, { token: customer.token });
  expect(created.status).toBe(201);
  return { orderId: created.body.payload.orderId, listing, customer };
}

function line(bought: Bought) {
  return { orderId: bought.orderId, productId: bought.listing.productId, productOptionId: bought.listing.optionId };
}

function replace(client: ShopTestApi, bought: Bought, fields: Record<string, unknown> = {}, token?: string) {
  return client.post(
    "/v1/request/createReplacement",
    { ...line(bought), index: 0, message: PROBLEM, "g-recaptcha-response": humanAnswer(client), ...fields },
    { token: token ?? bought.customer.token },
  );
}

async function readOrder(client: ShopTestApi, orderId: string) {
  const answer = await client.get(`/v1/order/read/${orderId}`);
  expect(answer.status).toBe(200);
  return answer.body.payload as {
    products: { creds: string[]; credIndexes: number[]; isReplacement: boolean; expiry: string; price: number }[];
  };
}

async function history(client: ShopTestApi, bought: Bought) {
  const answer = await client.post("/v1/request/getRequests", line(bought), { token: bought.customer.token });
  expect(answer.status).toBe(200);
  return answer.body.payload as { _id: string; status: string; creds: string[]; reason: string | null }[];
}

async function mailsTo(client: ShopTestApi, email: string) {
  return client.db.select().from(mailOutbox).where(eq(mailOutbox.to, email));
}

/** Mail of the order itself aside: the request mails only. */
async function requestMailsTo(client: ShopTestApi, email: string) {
  return (await mailsTo(client, email)).filter((mail) => !/^Your order /.test(mail.subject));
}

async function setProduct(client: ShopTestApi, productId: string, values: Partial<typeof products.$inferInsert>) {
  await client.db.update(products).set(values).where(eq(products.id, productId));
}

async function addStock(client: ShopTestApi, optionId: string, count: number) {
  await client.db.insert(stockCredentials).values(
    Array.from({ length: count }, (_, index) => ({
      optionId,
      username: `restock${index}-${Math.random().toString(36).slice(2, 8)}`,
      password: `fresh${index}`,
    })),
  );
}

let client: ShopTestApi;
beforeAll(async () => {
  client = await createShopTestApi({ RATE_LIMIT_SCALE: "100" });
});
afterAll(() => client.close());

describe("POST /v1/request/createReplacement", () => {
  it("replaces a credential at once from stock: a free replacement line, the old one never sold again", async () => {
    const bought = await buy(client, { stock: 5, quantity: 2 });
    const before = await readOrder(client, bought.orderId);
    expect(before.products).toHaveLength(1);
    expect(before.products[0].credIndexes).toEqual([0, 1]);
    const [oldCredential, keptCredential] = before.products[0].creds;

    const answer = await replace(client, bought, { index: 0 });
    expect(answer.status).toBe(201);
    expect(answer.body.message).toBe(REQUEST_MESSAGES.replaced);
    expect(answer.body.payload).toMatchObject({ kind: "replacement", index: 0, status: "completed", message: PROBLEM });
    expect(answer.body.payload.creds).toHaveLength(1);
    const [newCredential] = answer.body.payload.creds;
    expect(newCredential).not.toBe(oldCredential);

    const after = await readOrder(client, bought.orderId);
    expect(after.products).toHaveLength(2);
    expect(after.products[0]).toMatchObject({ creds: [keptCredential], credIndexes: [1], isReplacement: false });
    expect(after.products[1]).toMatchObject({
      creds: [newCredential],
      credIndexes: [2],
      isReplacement: true,
      price: 0,
      expiry: before.products[0].expiry,
    });

    const [oldStock] = await client.db
      .select({ status: stockCredentials.status })
      .from(stockCredentials)
      .where(eq(stockCredentials.username, oldCredential.split(":")[0]));
    expect(oldStock.status).toBe("replaced");
    // What the shop sells: 5 - 2 bought - 1 replacement, and the replaced one is not back on sale.
    const option = await client.get(`/v1/product/option/readOne/${bought.listing.optionId}`);
    expect(option.body.payload.availableStock).toBe(2);

    expect((await history(client, bought)).map((row) => [row.status, row.creds])).toEqual([
      ["completed", [newCredential]],
    ]);
    const mails = await requestMailsTo(client, bought.customer.email);
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe(`Your replacement for ${bought.listing.title} is ready`);
    expect(mails[0].text).toContain(`/find-order?id=${bought.orderId}`);
    expect(mails[0].text).not.toContain(newCredential.split(":")[1]);

    // The replaced credential's index is spent; the replacement has its own.
    expect((await replace(client, bought, { index: 0 })).body.message).toBe(REQUEST_MESSAGES.alreadyReplaced);
    expect((await replace(client, bought, { index: 2 })).status).toBe(201);
  });

  it("keeps the original warranty end: a replacement late in the warranty does not extend it", async () => {
    const bought = await buy(client);
    const [original] = await client.db
      .select({ expiresAt: deliveredCredentials.expiresAt, deliveredAt: deliveredCredentials.deliveredAt })
      .from(deliveredCredentials)
      .innerJoin(orderProducts, eq(orderProducts.id, deliveredCredentials.orderProductId))
      .where(eq(orderProducts.orderId, bought.orderId));
    expect(original.expiresAt!.getTime() - original.deliveredAt.getTime()).toBe(30 * DAY_MS);
    // 20 days in: the warranty still runs for 10 more; delivered "now", the replacement would run for 30.
    await client.db
      .update(deliveredCredentials)
      .set({ expiresAt: new Date(Date.now() + 10 * DAY_MS) })
      .where(
        inArray(
          deliveredCredentials.orderProductId,
          client.db
            .select({ id: orderProducts.id })
            .from(orderProducts)
            .where(eq(orderProducts.orderId, bought.orderId)),
        ),
      );
    const end = (await readOrder(client, bought.orderId)).products[0].expiry;

    expect((await replace(client, bought)).status).toBe(201);
    const order = await readOrder(client, bought.orderId);
    expect(order.products[1]).toMatchObject({ isReplacement: true, expiry: end });
    // And the replacement's replacement keeps it too.
    expect((await replace(client, bought, { index: 1 })).status).toBe(201);
    expect((await readOrder(client, bought.orderId)).products[2]).toMatchObject({ isReplacement: true, expiry: end });
  });

  it("waits for staff when the option is sold out: one open request per credential, completed later", async () => {
    const bought = await buy(client, { stock: 1 });
    const answer = await replace(client, bought);
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({
      message: REQUEST_MESSAGES.requested,
      payload: { status: "pending", creds: [] },
    });
    const again = await replace(client, bought);
    expect(again).toMatchObject({ status: 409, body: { message: REQUEST_MESSAGES.alreadyRequested } });
    expect(await requestMailsTo(client, bought.customer.email)).toHaveLength(0);

    const requestId = answer.body.payload._id as string;
    await expect(completeReplacement(client.deps, { requestId, staffUserId: null })).rejects.toMatchObject({
      status: 409,
      message: REQUEST_MESSAGES.noStock,
    });
    await expect(
      completeReplacement(client.deps, { requestId, staffUserId: null, credential: "no-colon" }),
    ).rejects.toMatchObject({ status: 400, message: REQUEST_MESSAGES.badCredential });
    const completed = await completeReplacement(client.deps, {
      requestId,
      staffUserId: null,
      credential: " fresh-user : pa:ss ",
    });
    expect(completed).toMatchObject({ status: "completed", creds: ["fresh-user:pa:ss"] });
    const order = await readOrder(client, bought.orderId);
    expect(order.products.map((product) => product.creds)).toEqual([[], ["fresh-user:pa:ss"]]);
    expect((await requestMailsTo(client, bought.customer.email)).map((mail) => mail.subject)).toEqual([
      `Your replacement for ${bought.listing.title} is ready`,
    ]);
    await expect(completeReplacement(client.deps, { requestId, staffUserId: null })).rejects.toMatchObject({
      status: 409,
      message: "This request is already completed",
    });
  });

  it("fills waiting replacements when stock arrives, oldest first, while it lasts", async () => {
    const listing = await createListing(client.db, { stock: 3, priceCents: 500 });
    const first = await buy(client, { listing });
    const second = await buy(client, { listing });
    const third = await buy(client, { listing });
    const requestIds: string[] = [];
    for (const bought of [first, second, third]) {
      const answer = await replace(client, bought);
      expect(answer.body.payload.status).toBe("pending");
      requestIds.push(answer.body.payload._id);
    }
    expect(await fillWaitingReplacements(client.db, listing.optionId, client.config)).toBe(0);
    await addStock(client, listing.optionId, 2);
    expect(await fillWaitingReplacements(client.db, listing.optionId, client.config)).toBe(2);
    expect((await history(client, first))[0].status).toBe("completed");
    expect((await history(client, second))[0].status).toBe("completed");
    expect((await history(client, third))[0].status).toBe("pending");
    expect((await readOrder(client, first.orderId)).products[1].isReplacement).toBe(true);
    await addStock(client, listing.optionId, 1);
    expect(await fillWaitingReplacements(client.db, listing.optionId, client.config)).toBe(1);
    expect((await history(client, third))[0].status).toBe("completed");
  });

  it("leaves every request to staff when the product's automatic replacement is off", async () => {
    const bought = await buy(client, { stock: 5 });
    await setProduct(client, bought.listing.productId, { autoReplace: false });
    const answer = await replace(client, bought);
    expect(answer.body.payload.status).toBe("pending");
    expect(await fillWaitingReplacements(client.db, bought.listing.optionId, client.config)).toBe(0);
    const completed = await completeReplacement(client.deps, { requestId: answer.body.payload._id, staffUserId: null });
    expect(completed.status).toBe("completed");
  });

  it("refuses a credential that reached the product's replacement limit", async () => {
    const bought = await buy(client, { stock: 5 });
    await setProduct(client, bought.listing.productId, { replacementLimit: 2 });
    expect((await replace(client, bought, { index: 0 })).body.payload.status).toBe("completed");
    expect((await replace(client, bought, { index: 1 })).body.payload.status).toBe("completed");
    const refused = await replace(client, bought, { index: 2 });
    expect(refused).toMatchObject({ status: 409, body: { message: limitReachedMessage(2) } });
    expect(limitReachedMessage(3)).toContain("replaced 3 times");
    const [{ count }] = await client.db
      .select({ count: requests.id })
      .from(requests)
      .where(eq(requests.orderId, bought.orderId))
      .then((rows) => [{ count: rows.length }]);
    expect(count).toBe(2);
  });

  it("refuses an ended warranty with the date it ended", async () => {
    const bought = await buy(client);
    const ended = new Date("2026-01-15T12:00:00Z");
    const [lineRow] = await client.db
      .select({ id: orderProducts.id })
      .from(orderProducts)
      .where(eq(orderProducts.orderId, bought.orderId));
    await client.db
      .update(deliveredCredentials)
      .set({ expiresAt: ended })
      .where(eq(deliveredCredentials.orderProductId, lineRow.id));
    const refused = await replace(client, bought);
    expect(refused).toMatchObject({
      status: 409,
      body: { message: "The warranty of this credential ended on Jan 15, 2026. It can no longer be replaced." },
    });
  });

  it("is for the order's owner only, signed in, about a delivered credential of the order", async () => {
    const bought = await buy(client);
    const stranger = await createCustomer(client.db);
    const foreign = await replace(client, bought, {}, stranger.token);
    expect(foreign).toMatchObject({ status: 403, body: { message: REQUEST_MESSAGES.notYourOrder } });
    const foreignHistory = await client.post("/v1/request/getRequests", line(bought), { token: stranger.token });
    expect(foreignHistory.status).toBe(403);
    const signedOut = await client.post("/v1/request/createReplacement", {
      ...line(bought),
      index: 0,
      message: PROBLEM,
    });
    expect(signedOut.status).toBe(401);

    const unknownOrder = await replace(client, bought, { orderId: "AAAAAAAAAAAAAAAAAAAAAA" });
    expect(unknownOrder).toMatchObject({ status: 404, body: { message: REQUEST_MESSAGES.orderNotFound } });
    const otherProduct = await replace(client, bought, { productOptionId: "AAAAAAAAAAAAAAAAAAAAAA" });
    expect(otherProduct).toMatchObject({ status: 404, body: { message: REQUEST_MESSAGES.productNotInOrder } });
    const noSuchCredential = await replace(client, bought, { index: 7 });
    expect(noSuchCredential).toMatchObject({ status: 404, body: { message: REQUEST_MESSAGES.credentialNotFound } });

    // An unpaid order has nothing delivered.
    const listing = await createListing(client.db, { stock: 2 });
    await addToCart(client, bought.customer.token, listing.optionId, 1);
    const unpaid = await client.post(
      "/v1/order/create",
      { paymentMethod: "sandbox" },
      { token: bought.customer.token },
    );
    expect(unpaid.status).toBe(201);
    const pending = await replace(client, bought, {
      orderId: unpaid.body.payload.orderId,
      productId: listing.productId,
      productOptionId: listing.optionId,
    });
    expect(pending).toMatchObject({ status: 409, body: { message: REQUEST_MESSAGES.notDelivered } });

    const requestRows = await client.db.select().from(requests).where(eq(requests.userId, stranger.id));
    expect(requestRows).toHaveLength(0);
    expect(await client.db.select().from(requests).where(eq(requests.orderId, bought.orderId))).toHaveLength(0);
  });

  it("needs a described problem and a passed human check", async () => {
    const bought = await buy(client);
    const empty = await replace(client, bought, { message: "   " });
    expect(empty).toMatchObject({ status: 400, body: { message: "Please describe the problem" } });
    const vague = await replace(client, bought, { message: "Not work" });
    expect(vague.status).toBe(400);
    expect(vague.body.errors.message).toEqual(["Please tell us a little more: what happens when you sign in?"]);
    const noCheck = await replace(client, bought, { "g-recaptcha-response": undefined });
    expect(noCheck).toMatchObject({ status: 400, body: { message: HUMAN_CHECK_FAILED } });
    const tooFast = await replace(client, bought, { "g-recaptcha-response": issueChallenge(client.config).token });
    // The page asks its question then, instead of an error about a check the person never saw (ADR 038).
    expect(tooFast).toMatchObject({ status: 400, body: { message: HUMAN_CHECK_FAILED, humanCheckRequired: true } });
    const token = humanAnswer(client);
    expect((await replace(client, bought, { "g-recaptcha-response": token })).status).toBe(201);
    // A spent answer does not pass twice (a replayed form is refused before it can do anything).
    const replayed = await replace(client, bought, { index: 0, "g-recaptcha-response": token });
    expect(replayed).toMatchObject({ status: 400, body: { message: HUMAN_CHECK_FAILED } });
    const badIndex = await replace(client, bought, { index: -1 });
    expect(badIndex.status).toBe(400);
  });

  it("limits replacement requests to 10 an hour per account", async () => {
    const limited = await createShopTestApi();
    try {
      const bought = await buy(limited, { stock: 30 });
      for (let attempt = 0; attempt < 10; attempt++) {
        // Refused by the human check, but counted: the limit stands before it.
        const answer = await replace(limited, bought, { "g-recaptcha-response": "x" });
        expect(answer.status).toBe(400);
      }
      const over = await replace(limited, bought);
      expect(over.status).toBe(429);
      expect(over.headers.get("retry-after")).toMatch(/^\d+$/);
    } finally {
      await limited.close();
    }
  });
});

describe("rejections and other requests", () => {
  it("shows a rejection's reason in the history and mails the customer", async () => {
    const bought = await buy(client, { stock: 1 });
    const answer = await replace(client, bought);
    const requestId = answer.body.payload._id as string;
    await expect(rejectRequest(client.deps, { requestId, staffUserId: null, reason: "  " })).rejects.toMatchObject({
      status: 400,
    });
    const rejected = await rejectRequest(client.deps, {
      requestId,
      staffUserId: null,
      reason: "The account works: sign in with the email, not the username.",
    });
    expect(rejected).toMatchObject({
      status: "rejected",
      reason: "The account works: sign in with the email, not the username.",
    });
    expect((await history(client, bought))[0]).toMatchObject({ status: "rejected", reason: rejected.reason });
    const mails = await requestMailsTo(client, bought.customer.email);
    expect(mails.map((mail) => mail.subject)).toEqual([
      `Your replacement request for ${bought.listing.title} was declined`,
    ]);
    expect(mails[0].text).not.toContain("sign in with the email");
    // Rejected, the credential may be asked about again.
    expect((await replace(client, bought)).body.payload.status).toBe("pending");
  });

  it("takes other requests on an order line, answered by staff, at most 3 open", async () => {
    const bought = await buy(client);
    const ask = (message: string, token = bought.customer.token) =>
      client.post("/v1/request/createRequest", { ...line(bought), message }, { token });
    const empty = await ask(" ");
    expect(empty).toMatchObject({ status: 400, body: { message: "Message is required" } });
    const stranger = await createCustomer(client.db);
    expect((await ask("Mine?", stranger.token)).status).toBe(403);

    const created = await ask("Can I change the profile name?");
    expect(created).toMatchObject({
      status: 201,
      body: { message: REQUEST_MESSAGES.sent, payload: { kind: "other", index: null, status: "pending" } },
    });
    for (let count = 1; count < OPEN_OTHER_REQUESTS_PER_LINE; count++)
      expect((await ask(`Question ${count}`)).status).toBe(201);
    expect(await ask("One more")).toMatchObject({ status: 409, body: { message: REQUEST_MESSAGES.tooManyOpen } });

    const requestId = created.body.payload._id as string;
    await expect(completeReplacement(client.deps, { requestId, staffUserId: null })).rejects.toMatchObject({
      status: 400,
    });
    const answered = await answerRequest(client.deps, {
      requestId,
      staffUserId: null,
      answer: "Yes, under Profiles.",
    });
    expect(answered).toMatchObject({ status: "completed", answer: "Yes, under Profiles.", reason: null });
    const rows = await history(client, bought);
    expect(rows.find((row) => row._id === requestId)).toMatchObject({
      status: "completed",
      answer: "Yes, under Profiles.",
    });
    expect((await requestMailsTo(client, bought.customer.email)).map((mail) => mail.subject)).toEqual([
      `We answered your request about ${bought.listing.title}`,
    ]);
    expect((await ask("Now there is room")).status).toBe(201);
  });
});

/*
 * Races that only a real PostgreSQL server can show: PGlite runs one transaction at a time.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)("replacements under concurrency (PostgreSQL)", () => {
  it("two replacement requests for one credential at once make one request (stock or not)", async () => {
    for (const stock of [5, 1]) {
      const bought = await buy(client, { stock });
      const answers = await Promise.all([replace(client, bought), replace(client, bought)]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
      const rows = await client.db.select().from(requests).where(eq(requests.orderId, bought.orderId));
      expect(rows).toHaveLength(1);
      const delivered = await client.db
        .select()
        .from(deliveredCredentials)
        .innerJoin(orderProducts, eq(orderProducts.id, deliveredCredentials.orderProductId))
        .where(eq(orderProducts.orderId, bought.orderId));
      expect(delivered).toHaveLength(stock > 1 ? 2 : 1);
    }
  });

  it("replacements of different credentials of one order at once each get their own index", async () => {
    const bought = await buy(client, { stock: 10, quantity: 3 });
    const answers = await Promise.all([0, 1, 2].map((index) => replace(client, bought, { index })));
    expect(answers.every((answer) => answer.status === 201 && answer.body.payload.status === "completed")).toBe(true);
    const order = await readOrder(client, bought.orderId);
    expect(order.products.flatMap((product) => product.credIndexes).sort()).toEqual([3, 4, 5]);
  });

  it("20 replacements racing for 5 credentials deliver 5; the others wait", async () => {
    const listing = await createListing(client.db, { stock: 20, priceCents: 500 });
    const buyers: Bought[] = [];
    for (let count = 0; count < 20; count++) buyers.push(await buy(client, { listing }));
    await addStock(client, listing.optionId, 5);

    const answers = await Promise.all(buyers.map((bought) => replace(client, bought)));
    expect(answers.every((answer) => answer.status === 201)).toBe(true);
    const statuses = answers.map((answer) => answer.body.payload.status as string);
    expect(statuses.filter((status) => status === "completed")).toHaveLength(5);
    expect(statuses.filter((status) => status === "pending")).toHaveLength(15);

    const handedOut = answers.flatMap((answer) => answer.body.payload.creds as string[]);
    expect(new Set(handedOut).size).toBe(5);
    const left = await client.db
      .select({ id: stockCredentials.id })
      .from(stockCredentials)
      .where(and(eq(stockCredentials.optionId, listing.optionId), eq(stockCredentials.status, "available")));
    expect(left).toHaveLength(0);
    const replacementLines = await client.db
      .select({ id: orderProducts.id })
      .from(orderProducts)
      .innerJoin(orders, eq(orders.id, orderProducts.orderId))
      .where(and(eq(orderProducts.optionId, listing.optionId), eq(orderProducts.isReplacement, true)));
    expect(replacementLines).toHaveLength(5);
  });
});
