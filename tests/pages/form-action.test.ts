import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { type PageTest, createPageTest } from "../support/pages";
import { route } from "../support/routes";
import { HONEYPOT_FIELD, HONEYPOT_REFUSAL } from "../../app/lib/honeypot";
import { formAction, schemaFields } from "../../app/lib/form-action.server";
import { createCustomer, createListing } from "../support/shop";

const settingsPage = await route("settings");
const signupPage = await route("signup");
const keysPage = await route("admin.keys");
const keysCsvPage = await route("admin.keys.csv");
const notificationsPage = await route("admin.notifications");
const cartPage = await route("cart");
const loginPage = await route("login");

/* The one form-action path (ADR 049): its reply shape, what it keeps out of a reply, and how it maps refusals. */

let page: PageTest;
beforeAll(async () => {
  page = await createPageTest();
});
afterAll(() => page.close());

const PASSWORD = "correct horse battery staple";
const fresh = () => `f${randomBytes(5).toString("hex")}`;

describe("formAction", () => {
  it("replies to a schema refusal with the form's id, its field errors and no password", async () => {
    page.jar.clear();
    const refused = await page.post(signupPage, "/signup", {
      username: fresh(),
      email: "not an email",
      password: PASSWORD,
      password2: PASSWORD,
    });
    expect(refused.status).toBe(400);
    expect(refused.data.form).toBe("signup");
    expect(refused.data.result.error.email).toBeDefined();
    expect(JSON.stringify(refused.data)).not.toContain(PASSWORD);
  });

  it("refuses a filled honeypot before calling the API: no account is made", async () => {
    page.jar.clear();
    const name = fresh();
    const refused = await page.post(signupPage, "/signup", {
      username: name,
      email: `${name}@example.com`,
      password: PASSWORD,
      password2: PASSWORD,
      [HONEYPOT_FIELD]: "bot",
    });
    expect(refused.status).toBe(400);
    expect(refused.data.result.error[""]).toEqual([HONEYPOT_REFUSAL]);
    const login = await page.shop.post("/v1/user/login", { username: name, password: PASSWORD });
    expect(login.status).toBe(401);
  });

  it("signs in on success, and puts an API refusal that names no field on the whole form", async () => {
    page.jar.clear();
    const name = fresh();
    const account = { username: name, email: `${name}@example.com`, password: PASSWORD, password2: PASSWORD };
    const made = await page.post(signupPage, "/signup", account);
    expect(made.status).toBe(302);
    expect(page.jar.has("token")).toBe(true);
    page.jar.clear();
    const taken = await page.post(signupPage, "/signup", { ...account, email: `${fresh()}@example.com` });
    expect(taken.status).toBe(400);
    // The API names no field for a taken name: the message is the whole form's.
    expect(taken.data.result.error[""]).toEqual(["This username is already taken. Please choose another one."]);
    expect(JSON.stringify(taken.data)).not.toContain(PASSWORD);
  });

  it("answers 400 to an intent no form of the page sends, and changes nothing", async () => {
    page.jar.clear();
    const name = fresh();
    const made = await page.shop.post("/v1/user/register", {
      username: name,
      email: `${name}@example.com`,
      password: PASSWORD,
      password2: PASSWORD,
    });
    await page.signIn(made.body.payload.token);
    const refused = await page.post(settingsPage, "/settings", { intent: "promote", username: `${name}x` });
    expect(refused.status).toBe(400);
    const profile = await page.shop.get("/v1/user/profile", { token: made.body.payload.token });
    expect(profile.body.payload.username).toBe(name);
  });

  it("finds a schema's fields through refinements and unions", () => {
    const base = z.object({ a: z.string(), b: z.string() });
    expect(schemaFields(base.refine(() => true))).toEqual(["a", "b"]);
    expect(schemaFields(z.union([base, z.object({ c: z.string() })]))).toEqual(["a", "b", "c"]);
  });

  it("gives `done` the submission: key generation empties its form and shows the new codes once", async () => {
    const manager = await createCustomer(page.db, { role: "manager" });
    const listing = await createListing(page.db);
    page.jar.clear();
    await page.signIn(manager.token);
    const batchId = randomBytes(16).toString("base64url").slice(0, 22);
    const fields = { intent: "generate", plan: `${listing.optionId}:30`, quantity: "1", count: "2", batchId };
    const generated = await page.post(keysPage, "/admin/keys", fields);
    expect(generated.status).toBe(200);
    expect(generated.data.form).toBe("key-generate");
    // resetForm: the page shows an empty form beside the codes, not the values just posted.
    expect(generated.data.result.initialValue).toBeNull();
    expect(generated.data.extra.codes).toHaveLength(2);
  });

  it("answers a form that renders no errors with an error toast on its page (toast mode)", async () => {
    const owner = await createCustomer(page.db, { role: "owner" });
    page.jar.clear();
    await page.signIn(owner.token);
    // The schema's refusal: its first message.
    const csv = await page.post(keysCsvPage, "/admin/keys/csv", { plan: "nonsense", quantity: "1", count: "1" });
    expect(csv).toMatchObject({
      status: 302,
      location: "/admin/keys",
      toast: { type: "error", message: "Choose a plan" },
    });
    // `message` puts one text on every refusal of the schema.
    const retry = await page.post(notificationsPage, "/admin/notifications", { intent: "retry" });
    expect(retry).toMatchObject({
      status: 302,
      location: "/admin/notifications",
      toast: { type: "error", message: "Notification not found" },
    });
    // The API's refusal: its message, through `message` (a refused coupon says which one still applies).
    page.jar.clear();
    const coupon = await page.post(cartPage, "/cart", { intent: "coupon", coupon: "NOPE-NOPE", redirectTo: "/cart" });
    expect(coupon).toMatchObject({ status: 302, location: "/cart", toast: { type: "error" } });
    expect(coupon.toast?.message).not.toBe("");
  });

  it("starts a spent two-factor step over on the sign-in form; a code it refuses asks again on the code step", async () => {
    page.jar.clear();
    const challenge = "spent-or-never-issued";
    const short = await page.post(loginPage, "/login", { intent: "two-factor", challenge, code: "12" });
    expect(short.status).toBe(400);
    expect(short.data).toMatchObject({ form: "login-code", extra: { challenge } });
    expect(short.data.result.error.code).toBeDefined();
    const spent = await page.post(loginPage, "/login", { intent: "two-factor", challenge, code: "123456" });
    expect(spent.status).toBe(401);
    expect(spent.data.form).toBe("login");
    expect(spent.data.extra).toBeUndefined();
    expect(spent.data.result.error[""]).toHaveLength(1);
    expect(JSON.stringify(spent.data)).not.toContain("123456");
  });

  it("refuses a post over the size cap on the form's field, before reading or calling anything", async () => {
    const schema = z.object({ file: z.string() });
    let called = false;
    const refused = await formAction("too large", {
      form: "upload",
      schema,
      tooLarge: { file: "The file is too large" },
      call: async () => {
        called = true;
        return { ok: true, status: 200, message: "", payload: null };
      },
      done: () => new Response(null, { status: 204 }),
    });
    expect(called).toBe(false);
    expect(refused).toMatchObject({ type: "DataWithResponseInit", init: { status: 400 } });
    const reply = (refused as unknown as { data: { form: string; result: { error: Record<string, string[]> } } }).data;
    expect(reply.form).toBe("upload");
    expect(reply.result.error.file).toEqual(["The file is too large"]);
  });
});
