import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { coupons, products, stockCredentials, users } from "../../api/db/schema";
import { type PageTest, createPageTest } from "../support/pages";
import { addToCart, createCustomer, createListing } from "../support/shop";
import { route } from "../support/routes";

const newProductPage = await route("admin.catalogue.new");
const newCouponPage = await route("admin.coupons.new");
const customerExportPage = await route("admin.customers.$customerId.export");
const stockPage = await route("admin.stock.$optionId");
const staffPage = await route("admin.staff");

/*
 * Back-office forms, posted to their actions: a product, a coupon (sent twice), a stock import, a customer's data
 * download, and an owner's reset of a staff member's two-factor sign-in.
 */

let page: PageTest;
let managerToken: string;
beforeAll(async () => {
  page = await createPageTest();
  managerToken = (await createCustomer(page.db, { role: "manager" })).token;
});
afterAll(() => page.close());

describe("the new-product form", () => {
  it("creates the product and goes on to its page with a toast; a missing title stays in the form", async () => {
    page.jar.clear();
    await page.signIn(managerToken);
    const title = `Page-test product ${randomBytes(3).toString("hex")}`;
    const created = await page.post(newProductPage, "/admin/catalogue/new", {
      title,
      fulfilMode: "auto",
      idempotencyKey: `product-${title}`,
    });
    expect(created.status).toBe(302);
    expect(created.location).toMatch(/^\/admin\/catalogue\/[\w-]{22}$/);
    expect(created.toast?.type).toBe("success");
    const productId = created.location!.split("/").at(-1)!;
    const [row] = await page.db.select().from(products).where(eq(products.id, productId));
    expect(row.title).toBe(title);

    const untitled = await page.post(newProductPage, "/admin/catalogue/new", { title: "", fulfilMode: "auto" });
    expect(untitled.status).toBe(400);
    expect(untitled.data.result.error.title).toEqual([expect.any(String)]);
  });

  it("sends a customer to the dashboard and creates nothing", async () => {
    page.jar.clear();
    await page.signIn((await createCustomer(page.db)).token);
    const refused = await page.post(newProductPage, "/admin/catalogue/new", { title: "Sneaky", fulfilMode: "auto" });
    expect(refused).toMatchObject({ status: 302, location: "/dashboard" });
    expect(await page.db.select().from(products).where(eq(products.title, "Sneaky"))).toEqual([]);
  });
});

describe("the new-coupon form", () => {
  it("creates one coupon even when the same form is posted twice", async () => {
    page.jar.clear();
    await page.signIn(managerToken);
    const code = `PAGE${randomBytes(3).toString("hex").toUpperCase()}`;
    const form = { code, kind: "percent", amount: "10", active: "on", idempotencyKey: `coupon-${code}` };
    const [first, second] = [
      await page.post(newCouponPage, "/admin/coupons/new", form),
      await page.post(newCouponPage, "/admin/coupons/new", form),
    ];
    for (const answer of [first, second]) {
      expect(answer).toMatchObject({ status: 302, location: "/admin/coupons", toast: { type: "success" } });
    }
    expect(await page.db.select().from(coupons).where(eq(coupons.code, code))).toHaveLength(1);
  });

  it("shows a percentage over 100 under its field and creates nothing", async () => {
    page.jar.clear();
    await page.signIn(managerToken);
    const code = `PAGE${randomBytes(3).toString("hex").toUpperCase()}`;
    const refused = await page.post(newCouponPage, "/admin/coupons/new", { code, kind: "percent", amount: "150" });
    expect(refused.status).toBe(400);
    expect(refused.data.result.error.amount).toEqual([expect.any(String)]);
    expect(await page.db.select().from(coupons).where(eq(coupons.code, code))).toEqual([]);
  });
});

describe("the stock import form", () => {
  it("adds the good lines, reports the bad ones, and comes back to the option with the report", async () => {
    page.jar.clear();
    await page.signIn(managerToken);
    const listing = await createListing(page.db, { stock: 0 });
    const before = await page.db.select().from(stockCredentials).where(eq(stockCredentials.optionId, listing.optionId));
    const imported = await page.post(
      stockPage,
      `/admin/stock/${listing.optionId}`,
      { intent: "import", text: "alice:secret-1\nbob:secret-2\nnot a credential", label: "page test" },
      { optionId: listing.optionId },
    );
    expect(imported.status).toBe(302);
    expect(imported.location).toMatch(new RegExp(`^/admin/stock/${listing.optionId}\\?`));
    expect(imported.toast?.type).toBe("success");
    const after = await page.db.select().from(stockCredentials).where(eq(stockCredentials.optionId, listing.optionId));
    expect(after.length - before.length).toBe(2);
  });
});

describe("a customer's data download", () => {
  it("is a file of their orders without the usernames and passwords they bought (ADR 054)", async () => {
    const customer = await createCustomer(page.db, { balanceCents: 500 });
    const listing = await createListing(page.db, { stock: 0 });
    const sold = {
      username: `login-${randomBytes(6).toString("hex")}`,
      password: `pw-${randomBytes(6).toString("hex")}`,
    };
    await page.db.insert(stockCredentials).values({ optionId: listing.optionId, ...sold });
    await addToCart(page.shop, customer.token, listing.optionId, 1);
    const order = await page.shop.post("/v1/order/create", { paymentMethod: "balance" }, { token: customer.token });
    expect(order.status).toBe(201);

    page.jar.clear();
    await page.signIn(managerToken);
    const path = `/admin/customers/${customer.id}/export`;
    const file = await page.post(customerExportPage, path, {}, { customerId: customer.id });
    expect(file.status).toBe(200);
    expect(file.headers.get("content-disposition")).toMatch(/^attachment; /);
    const text = JSON.stringify(file.data);
    expect(text).toContain(order.body.payload.orderId);
    expect(text).not.toContain(sold.username);
    expect(text).not.toContain(sold.password);
  });
});

describe("the staff page's two-factor reset form (issue 37 item 8)", () => {
  it("resets another member's two-factor for an owner who ticked the box, ending their sessions; a manager gets the not-found page", async () => {
    const owner = await createCustomer(page.db, { role: "owner" });
    const member = await createCustomer(page.db, { role: "support" });
    await page.db
      .update(users)
      .set({ totpSecret: "sealed-secret", totpEnabledAt: new Date() })
      .where(eq(users.id, member.id));
    const form = { intent: "reset-two-factor", memberId: member.id, confirmed: "on" };

    page.jar.clear();
    await page.signIn(managerToken);
    expect((await page.post(staffPage, "/admin/staff", form)).status).toBe(404);
    expect((await page.shop.get("/v1/admin/me", { token: member.token })).status).toBe(200);

    page.jar.clear();
    await page.signIn(owner.token);
    const listed = await page.load(staffPage, "/admin/staff");
    expect(listed.data.records.find((record: { _id: string }) => record._id === member.id).twoFactor).toBe(true);
    // Without the box ticked (the browser requires it): nothing changes.
    const unticked = await page.post(staffPage, "/admin/staff", { intent: "reset-two-factor", memberId: member.id });
    expect(unticked).toMatchObject({ status: 302, location: "/admin/staff", toast: { type: "error" } });
    expect((await page.shop.get("/v1/admin/me", { token: member.token })).status).toBe(200);

    const reset = await page.post(staffPage, "/admin/staff", form);
    expect(reset).toMatchObject({ status: 302, location: "/admin/staff", toast: { type: "success" } });
    expect(reset.toast?.message).toContain(member.email);
    const [row] = await page.db.select().from(users).where(eq(users.id, member.id));
    expect(row).toMatchObject({ totpSecret: null, totpEnabledAt: null });
    expect((await page.shop.get("/v1/admin/me", { token: member.token })).status).toBe(401);

    // A second post finds nothing to reset, and says so.
    const again = await page.post(staffPage, "/admin/staff", form);
    expect(again).toMatchObject({ status: 302, location: "/admin/staff", toast: { type: "error" } });
  });
});
