import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orders, ticketMessages, users } from "../../api/db/schema";
import { issueChallenge } from "../../api/services/guards/human-check";
import { generateKeys } from "../../api/services/keys/redeem-keys";
import { type PageTest, createPageTest } from "../support/pages";
import { createCustomer, createListing } from "../support/shop";
import { route } from "../support/routes";

const loginPage = await route("login");
const redeemPage = await route("redeem-key");
const settingsPage = await route("settings");
const ticketPage = await route("tickets.$ticketId");

/* Sign-in, settings, a ticket message and a redeemed key, posted to their actions as a browser without JavaScript. */

let page: PageTest;
beforeAll(async () => {
  page = await createPageTest();
});
afterAll(() => page.close());

const PASSWORD = "correct horse battery staple";

async function registered() {
  const name = `p${randomBytes(5).toString("hex")}`;
  const email = `${name}@example.com`;
  const answer = await page.shop.post("/v1/user/register", {
    username: name,
    email,
    password: PASSWORD,
    password2: PASSWORD,
  });
  if (answer.status !== 201) throw new Error(`register: ${answer.status} ${answer.body.message}`);
  return { name, email, token: answer.body.payload.token as string };
}

describe("the sign-in form", () => {
  it("refuses a wrong password in the form, keeping the password out of the reply, and signs nobody in", async () => {
    page.jar.clear();
    const account = await registered();
    const refused = await page.post(loginPage, "/login", { username: account.email, password: "wrong password here" });
    expect(refused.status).toBe(400);
    expect(refused.data.result.error).toBeDefined();
    expect(JSON.stringify(refused.data)).not.toContain("wrong password here");
    expect(page.jar.has("token")).toBe(false);
  });

  it("signs in with the right one: the session cookie, a redirect and a welcome toast", async () => {
    page.jar.clear();
    const account = await registered();
    const signedIn = await page.post(loginPage, "/login", {
      username: account.name,
      password: PASSWORD,
      redirectTo: "/dashboard",
    });
    expect(signedIn.status).toBe(302);
    expect(signedIn.location).toBe("/dashboard");
    expect(signedIn.toast).toMatchObject({ type: "success", message: "Welcome back" });
    expect(page.jar.has("token")).toBe(true);
    expect(signedIn.headers.getSetCookie().find((cookie) => cookie.startsWith("token="))).toMatch(/HttpOnly/i);
  });
});

describe("the settings forms", () => {
  it("change the username with a toast, and refuse a taken one in its own card", async () => {
    page.jar.clear();
    const [account, other] = [await registered(), await registered()];
    await page.signIn(account.token);
    const renamed = await page.post(settingsPage, "/settings", { intent: "username", username: `${account.name}x` });
    expect(renamed).toMatchObject({ status: 302, location: "/settings", toast: { type: "success" } });
    const [row] = await page.db.select().from(users).where(eq(users.email, account.email));
    expect(row.username).toBe(`${account.name}x`);

    const taken = await page.post(settingsPage, "/settings", { intent: "username", username: other.name });
    expect(taken.status).toBe(400);
    expect(taken.data).toMatchObject({
      form: "settings-username",
      result: { error: { "": ["This username is already taken. Please choose another one."] } },
    });
  });

  it("send a visitor who is not signed in to the sign-in page", async () => {
    page.jar.clear();
    const refused = await page.post(settingsPage, "/settings", { intent: "username", username: "nobody" });
    expect(refused.status).toBe(302);
    expect(refused.location).toMatch(/^\/login/);
  });
});

describe("a ticket's message form", () => {
  it("adds the customer's message and comes back to the conversation; an empty one stays in the form", async () => {
    page.jar.clear();
    const customer = await createCustomer(page.db);
    const opened = await page.shop.post(
      "/v1/ticket/create",
      { orderId: "", subject: "Where is my order?", message: "It has not arrived." },
      { token: customer.token },
    );
    expect(opened.status).toBe(201);
    const ticketId = opened.body.payload._id as string;
    await page.signIn(customer.token);

    const sent = await page.post(ticketPage, `/tickets/${ticketId}`, { message: "Any news?" }, { ticketId });
    expect(sent).toMatchObject({ status: 302, location: `/tickets/${ticketId}`, toast: { type: "success" } });
    const messages = await page.db.select().from(ticketMessages).where(eq(ticketMessages.ticketId, ticketId));
    expect(messages.map((message) => message.message)).toContain("Any news?");

    const empty = await page.post(ticketPage, `/tickets/${ticketId}`, { message: "  " }, { ticketId });
    expect(empty.status).toBe(400);
    expect(empty.data.result.error.message).toEqual(["Message is required"]);
  });
});

describe("the redeem-key form", () => {
  it("turns a key into a delivered order and opens it; the same key again is refused in the form", async () => {
    page.jar.clear();
    const listing = await createListing(page.db, { stock: 2 });
    const { codes } = await generateKeys(page.db, {
      optionId: listing.optionId,
      durationDays: 30,
      quantity: 1,
      count: 1,
    });
    const email = `redeem-${randomBytes(4).toString("hex")}@example.com`;
    const humanAnswer = () => issueChallenge(page.shop.config, new Date(Date.now() - 5_000)).token!;

    const redeemed = await page.post(redeemPage, "/redeem-key", {
      email,
      key: codes[0],
      "g-recaptcha-response": humanAnswer(),
    });
    expect(redeemed.status).toBe(302);
    expect(redeemed.location).toMatch(/^\/find-order\?id=/);
    expect(redeemed.toast?.type).toBe("success");
    const orderId = new URL(redeemed.location!, "http://x").searchParams.get("id")!;
    const [order] = await page.db.select().from(orders).where(eq(orders.id, orderId));
    expect(order).toMatchObject({ status: "completed", paymentMethod: "key", priceCents: 0 });

    const again = await page.post(redeemPage, "/redeem-key", {
      email,
      key: codes[0],
      "g-recaptcha-response": humanAnswer(),
    });
    expect(again.status).toBe(400);
    expect(again.data.result.error).toBeDefined();
  });
});
