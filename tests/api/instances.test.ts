import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, asc, eq, gte, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatabaseHandle, openDatabase } from "../../api/db/client";
import {
  mailOutbox,
  notificationOutbox,
  orders,
  productOptions,
  products,
  stockCredentials,
  warrantyDurations,
} from "../../api/db/schema";
import { enqueueMail } from "../../api/mail/outbox";
import { expireUnpaidOrders } from "../../api/services/orders/settlement";
import { createLeastPrivilegeDatabase } from "../support/database";
import { startSmtpReceiver, startWebhookReceiver } from "../support/receivers";
import { ApiServerProcess, freePort } from "../support/server-process";
import { TEST_CREDENTIALS_KEY } from "../support/credentials-key";

/*
 * Two server processes on one PostgreSQL database, as behind a load balancer (README, "Several
 * instances"). Each instance runs the mailer, the notification sender and the expiry job; the
 * database, not the process, decides who takes a row, so each row is processed once. PostgreSQL only:
 * a second process cannot open an embedded PGlite.
 */

const adminUrl = process.env.TEST_DATABASE_URL;
const WEBHOOK_SECRET = "instances-test-webhook-secret-0123456789abcdef";
const CATALOGUE_CACHE_MS = 1_000;

type Answer = { status: number; body: { success: boolean; message: string; payload?: any } };

let scratch: Awaited<ReturnType<typeof createLeastPrivilegeDatabase>> | undefined;
let instances: ApiServerProcess[] = [];
let dataDirs: string[] = [];
let database: DatabaseHandle;
let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type CallOptions = { token?: string; ip?: string };

async function call(
  instance: ApiServerProcess,
  method: string,
  url: string,
  body?: unknown,
  { token, ip = "198.51.100.1" }: CallOptions = {},
): Promise<Answer> {
  const headers: Record<string, string> = { accept: "application/json", "x-forwarded-for": ip };
  if (body !== undefined) headers["content-type"] = "application/json";
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await fetch(instance.baseUrl + url, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  return { status: response.status, body: await response.json() };
}

async function waitFor(check: () => Promise<boolean> | boolean, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

beforeAll(async () => {
  if (!adminUrl) return;
  scratch = await createLeastPrivilegeDatabase(adminUrl, "store_instances");
  smtp = await startSmtpReceiver();
  receiver = await startWebhookReceiver(WEBHOOK_SECRET);
  const ports = [await freePort(), await freePort()];
  dataDirs = ports.map(() => mkdtempSync(path.join(tmpdir(), "store-instance-")));
  const env = (index: number) => ({
    NODE_ENV: "production",
    SESSION_SECRET: "instances-test-session-secret-that-is-long-enough",
    CREDENTIALS_KEY: TEST_CREDENTIALS_KEY,
    DATABASE_URL: scratch!.url,
    DATABASE_MIGRATION_URL: scratch!.migrationUrl,
    DATA_DIR: dataDirs[index],
    PUBLIC_URL: "http://store.test",
    SMTP_URL: smtp.url,
    NOTIFY_WEBHOOK_URL: receiver.url,
    NOTIFY_WEBHOOK_SECRET: WEBHOOK_SECRET,
    SANDBOX_PAYMENTS: "true",
    // Only the first one seeds; the second starts on the seeded database, as a second instance would.
    SEED_DEMO: index === 0 ? "true" : "false",
    CATALOGUE_CACHE_MS: String(CATALOGUE_CACHE_MS),
    RATE_LIMIT_SCALE: "1",
    // As behind a load balancer: each test client says which address it is.
    TRUST_PROXY: "true",
    LOG_LEVEL: "error",
  });
  instances = ports.map((port, index) => new ApiServerProcess(port, env(index)));
  await instances[0].start(60_000);
  await instances[1].start(60_000);
  database = await openDatabase(scratch.url, { migrationUrl: scratch.migrationUrl });
}, 120_000);

afterAll(async () => {
  await Promise.all(instances.map((instance) => instance.kill()));
  await database?.close();
  await smtp?.close();
  await receiver?.close();
  await scratch?.drop();
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!adminUrl)("two instances on one PostgreSQL database", () => {
  it("send each queued mail once between them", async () => {
    const subjects = Array.from({ length: 60 }, (_, index) => `Two instances mail ${index}`);
    const ids: string[] = [];
    for (const subject of subjects)
      ids.push(await enqueueMail(database.db, { to: "a@example.com", subject, text: "-" }));

    await waitFor(
      async () => {
        const pending = await database.db
          .select({ n: sql<number>`count(*)`.mapWith(Number) })
          .from(mailOutbox)
          .where(sql`${mailOutbox.id} in ${ids} and ${mailOutbox.status} <> 'sent'`);
        return pending[0].n === 0;
      },
      30_000,
      "both mailers to send the queue",
    );
    const received = smtp.subjects.filter((subject) => subject.startsWith("Two instances mail"));
    expect(received.sort()).toEqual([...subjects].sort());
  });

  it("post each operator notification once, signed", async () => {
    const keys = Array.from({ length: 40 }, (_, index) => `test.instances:${index}`);
    await database.db.insert(notificationOutbox).values(
      keys.map((key) => ({
        event: "order.paid",
        idempotencyKey: key,
        payload: { event: "order.paid", data: { key } },
      })),
    );
    await waitFor(
      () => keys.every((key) => receiver.deliveries.some((delivery) => delivery.key === key)),
      30_000,
      "both senders to post the notifications",
    );
    await sleep(2_500); // one more round of both senders: nothing is posted twice
    const posted = receiver.deliveries.filter((delivery) => delivery.key.startsWith("test.instances:"));
    expect(posted.map((delivery) => delivery.key).sort()).toEqual([...keys].sort());
    expect(posted.every((delivery) => delivery.verified)).toBe(true);
  });

  it("expire each unpaid order once when both expiry jobs run at the same moment", async () => {
    const freeCredentials = sql<number>`(select count(*) from ${stockCredentials} s
      where s.option_id = ${productOptions.id} and s.status = 'available')`.mapWith(Number);
    const [option] = await database.db
      .select({ optionId: productOptions.id, duration: warrantyDurations.durationDays })
      .from(productOptions)
      .innerJoin(products, eq(products.id, productOptions.productId))
      .innerJoin(warrantyDurations, eq(warrantyDurations.optionId, productOptions.id))
      .where(
        and(
          eq(productOptions.active, true),
          eq(products.active, true),
          eq(products.fulfilMode, "auto"),
          gte(freeCredentials, 12),
        ),
      )
      .orderBy(asc(warrantyDurations.priceCents))
      .limit(1);
    const availableNow = async () =>
      (
        await database.db
          .select({ n: sql<number>`count(*)`.mapWith(Number) })
          .from(stockCredentials)
          .where(sql`${stockCredentials.optionId} = ${option.optionId} and ${stockCredentials.status} = 'available'`)
      )[0].n;
    const before = await availableNow();

    const orderIds: string[] = [];
    for (let index = 0; index < 12; index++) {
      // A buyer per order, each from an address of their own, alternating between the instances.
      const instance = instances[index % 2];
      const as = { ip: `203.0.113.${index + 10}` };
      const password = "two instances passphrase";
      const username = `expiry${index}`;
      const registered = await call(
        instance,
        "POST",
        "/v1/user/register",
        { username, email: `${username}@example.com`, password, password2: password },
        as,
      );
      expect(registered.status, registered.body.message).toBe(201);
      const buyer = { ...as, token: registered.body.payload.token as string };
      const line = { optionId: option.optionId, duration: option.duration, quantity: 1 };
      expect((await call(instance, "POST", "/v1/cart/add", line, buyer)).status).toBe(200);
      const checkout = await call(instance, "POST", "/v1/order/create", { paymentMethod: "sandbox" }, buyer);
      expect(checkout.status, checkout.body.message).toBe(201);
      orderIds.push(checkout.body.payload.orderId);
    }
    expect(await availableNow()).toBe(before - 12);

    // The two instances' expiry jobs, each on its own connection pool, run at the same moment.
    const later = new Date(Date.now() + 24 * 60 * 60_000);
    const second = await openDatabase(scratch!.url, { migrationUrl: scratch!.migrationUrl });
    const [first, other] = await Promise.all([
      expireUnpaidOrders(database.db, later),
      expireUnpaidOrders(second.db, later),
    ]).finally(() => second.close());
    expect(first + other).toBeGreaterThanOrEqual(12);
    const states = await database.db.select({ status: orders.status }).from(orders).where(inArray(orders.id, orderIds));
    expect(states).toHaveLength(12);
    expect(new Set(states.map((row) => row.status))).toEqual(new Set(["expired"]));
    expect(await availableNow()).toBe(before);
  });

  it("hold a rate limit across both instances", async () => {
    const email = "limited@example.com";
    const answers: number[] = [];
    for (let index = 0; index < 6; index++) {
      answers.push((await call(instances[index % 2], "POST", "/v1/user/forget-password", { email })).status);
    }
    // Three a quarter hour per e-mail address, counted in the database, not per process.
    expect(answers.slice(0, 3).every((status) => status === 200)).toBe(true);
    expect(answers.slice(3)).toEqual([429, 429, 429]);
  });

  it("show a catalogue change on both within the cache interval", async () => {
    const [product] = await database.db
      .select({ id: products.id })
      .from(products)
      .where(eq(products.active, true))
      .limit(1);
    const titleOn = async (instance: ApiServerProcess) => {
      const answer = await call(instance, "GET", "/v1/product/read");
      return (answer.body.payload as { _id: string; title: string }[]).find((row) => row._id === product.id)?.title;
    };
    // Both caches are warm before the change.
    await titleOn(instances[0]);
    await titleOn(instances[1]);
    const title = `Renamed on another instance ${Date.now()}`;
    await database.db.update(products).set({ title }).where(eq(products.id, product.id));
    const changedAt = Date.now();
    for (const instance of instances) {
      await waitFor(async () => (await titleOn(instance)) === title, CATALOGUE_CACHE_MS + 1_500, "the new title");
    }
    expect(Date.now() - changedAt).toBeLessThanOrEqual(CATALOGUE_CACHE_MS + 1_500);
  });
});
