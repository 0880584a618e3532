import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { balanceLedger, emailBlocklist, categories, coupons, faqs, products, socialLinks } from "../../api/db/schema";
import { IDEMPOTENCY_MESSAGES } from "../../api/services/guards/idempotency";
import { type ShopTestApi, createCustomer, createShopTestApi } from "../support/shop";

/*
 * Issue 26 item 6: a back-office create form posted twice (a double click without JavaScript) makes one
 * object. Each form carries a one-time key sent as Idempotency-Key; posts with the same key, even at the
 * same moment, make one object and answer it twice. PGlite and, with TEST_DATABASE_URL, PostgreSQL.
 */

let client: ShopTestApi;
let manager: Awaited<ReturnType<typeof createCustomer>>;
let owner: Awaited<ReturnType<typeof createCustomer>>;

beforeAll(async () => {
  client = await createShopTestApi({ RATE_LIMIT_SCALE: "100" });
  manager = await createCustomer(client.db, { role: "manager" });
  owner = await createCustomer(client.db, { role: "owner" });
});
afterAll(() => client.close());

let counter = 0;
const fresh = (prefix: string) => `${prefix}${Date.now().toString(36)}${++counter}`;

/** The same post sent `times` times at once with one key. */
function postedAtOnce(path: string, body: unknown, key: string, token = manager.token, times = 3) {
  return Promise.all(
    Array.from({ length: times }, () => client.post(path, body, { token, headers: { "Idempotency-Key": key } })),
  );
}

describe("back-office creates with an Idempotency-Key", () => {
  it("a product posted three times at once with one key is made once, and every post answers it", async () => {
    const title = fresh("Once ");
    const answers = await postedAtOnce("/v1/admin/catalogue/products", { title, fulfilMode: "auto" }, fresh("k"));
    expect(answers.map((answer) => answer.status)).toEqual([201, 201, 201]);
    const ids = new Set(answers.map((answer) => answer.body.payload._id));
    expect(ids.size).toBe(1);
    expect(answers.filter((answer) => answer.headers.get("Idempotent-Replayed") === "true")).toHaveLength(2);
    expect(await client.db.select().from(products).where(eq(products.title, title))).toHaveLength(1);
  });

  it("a coupon, a category, an FAQ question, a social link and a blocklist entry are each made once", async () => {
    const code = fresh("ONCE").toUpperCase();
    const coupon = await postedAtOnce("/v1/admin/coupons", { code, kind: "percent", amount: 10 }, fresh("k"));
    expect(coupon.map((answer) => answer.status)).toEqual([201, 201, 201]);
    expect(await client.db.select().from(coupons).where(eq(coupons.code, code))).toHaveLength(1);

    const name = fresh("Once ");
    const category = await postedAtOnce("/v1/admin/catalogue/categories", { name }, fresh("k"));
    expect(category.map((answer) => answer.status)).toEqual([201, 201, 201]);
    expect(await client.db.select().from(categories).where(eq(categories.name, name))).toHaveLength(1);

    const question = fresh("Once? ");
    const faq = await postedAtOnce("/v1/admin/faqs", { question, answer: "Yes." }, fresh("k"), owner.token);
    expect(faq.map((answer) => answer.status)).toEqual([201, 201, 201]);
    expect(await client.db.select().from(faqs).where(eq(faqs.question, question))).toHaveLength(1);

    const linkName = fresh("Once");
    const link = await postedAtOnce(
      "/v1/admin/social-links",
      { name: linkName, link: "https://social.example/once" },
      fresh("k"),
      owner.token,
    );
    expect(link.map((answer) => answer.status)).toEqual([201, 201, 201]);
    expect(await client.db.select().from(socialLinks).where(eq(socialLinks.name, linkName))).toHaveLength(1);

    const pattern = `*@${fresh("once")}.example`;
    const blocked = await postedAtOnce("/v1/admin/blocklist", { pattern, note: "" }, fresh("k"));
    expect(blocked.map((answer) => answer.status)).toEqual([201, 201, 201]);
    expect(await client.db.select().from(emailBlocklist).where(eq(emailBlocklist.pattern, pattern))).toHaveLength(1);
  });

  it("a balance credit posted twice with one key credits once", async () => {
    const shopper = await createCustomer(client.db);
    const answers = await postedAtOnce(
      `/v1/admin/customers/${shopper.id}/balance`,
      { direction: "credit", amount: 5, reason: "goodwill" },
      fresh("k"),
    );
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(answers.map((answer) => answer.body.payload.balance)).toEqual([5, 5, 5]);
    expect(await client.db.select().from(balanceLedger).where(eq(balanceLedger.userId, shopper.id))).toHaveLength(1);
  });

  it("a new key makes a new object; the same key with another body is refused; none keeps making one each", async () => {
    const first = fresh("Twice ");
    const key = fresh("k");
    const made = await client.post(
      "/v1/admin/catalogue/categories",
      { name: first },
      { token: manager.token, headers: { "Idempotency-Key": key } },
    );
    expect(made.status).toBe(201);
    const other = await client.post(
      "/v1/admin/catalogue/categories",
      { name: fresh("Other ") },
      { token: manager.token, headers: { "Idempotency-Key": key } },
    );
    expect(other).toMatchObject({ status: 422, body: { message: IDEMPOTENCY_MESSAGES.otherBody } });
    // Another staff member's key of the same value is theirs alone.
    const owners = await client.post(
      "/v1/admin/catalogue/categories",
      { name: first },
      { token: owner.token, headers: { "Idempotency-Key": key } },
    );
    expect(owners.status).toBe(201);
    expect(owners.body.payload._id).not.toBe(made.body.payload._id);
  });
});
