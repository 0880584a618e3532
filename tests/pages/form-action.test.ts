import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { HONEYPOT_FIELD, HONEYPOT_REFUSAL } from "../../app/components/account/honeypot";
import { schemaFields } from "../../app/lib/form-action.server";
import { type PageTest, createPageTest } from "../support/pages";
import { route } from "../support/routes";

const settingsPage = await route("settings");
const signupPage = await route("signup");

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
});
