import { randomBytes } from "node:crypto";
import { desc, eq } from "drizzle-orm";
import { generateSync } from "otplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  mailOutbox,
  orderProducts,
  orders,
  payments,
  requests,
  spins,
  ticketMessages,
  tickets,
  users,
} from "../../api/db/schema";
import { issueChallenge } from "../../api/services/guards/human-check";
import { CONTACT_ORDER_NOT_FOUND } from "../../contract/contact";
import { NO_SPINS_MESSAGE } from "../../contract/slots";
import { type PageTest, createPageTest } from "../support/pages";
import { route } from "../support/routes";
import { createCustomer, createListing } from "../support/shop";

const forgotPage = await route("forgot");
const resetPage = await route("reset");
const loginPage = await route("login");
const securityPage = await route("admin.security");
const cartPage = await route("cart");
const contactPage = await route("contact._index");
const conversationPage = await route("contact.$token");
const findOrderPage = await route("find-order");
const ticketsPage = await route("tickets");
const balancePage = await route("balance");
const slotsPage = await route("slots");
const litePage = await route("lite");
const landingPage = await route("_index");
const settingsPage = await route("settings");

/*
 * The storefront's forms (issue 41), posted as a browser without JavaScript: each proves what the person relies
 * on (where they land, the message, what changed in the store) and one refusal that changes nothing.
 */

let page: PageTest;
// One store for the file; a loaded machine can take a while to migrate it.
beforeAll(async () => {
  page = await createPageTest();
}, 180_000);
afterAll(() => page.close());

const PASSWORD = "correct horse battery staple";
const humanAnswer = () => issueChallenge(page.shop.config, new Date(Date.now() - 5_000)).token!;

async function registered(role?: "manager") {
  const name = `s${randomBytes(5).toString("hex")}`;
  const email = `${name}@example.com`;
  const answer = await page.shop.post("/v1/user/register", {
    username: name,
    email,
    password: PASSWORD,
    password2: PASSWORD,
  });
  if (answer.status !== 201) throw new Error(`register: ${answer.status} ${answer.body.message}`);
  if (role) await page.db.update(users).set({ role }).where(eq(users.email, email));
  return { name, email, token: answer.body.payload.token as string };
}

const lastMailTo = async (to: string) =>
  (
    await page.db.select().from(mailOutbox).where(eq(mailOutbox.to, to)).orderBy(desc(mailOutbox.createdAt)).limit(1)
  )[0];

describe("the forgotten-password and reset forms", () => {
  it("mail a code and go on to the reset form; the code sets the new password and signs in", async () => {
    page.jar.clear();
    const account = await registered();
    const badEmail = await page.post(forgotPage, "/forgot", { email: "not an email" });
    expect(badEmail.status).toBe(400);
    expect(badEmail.data.result.error.email).toEqual([expect.any(String)]);

    const asked = await page.post(forgotPage, "/forgot", { email: account.email });
    expect(asked).toMatchObject({
      status: 302,
      location: `/reset?${new URLSearchParams({ email: account.email })}`,
      toast: { type: "success" },
    });
    const otp = /Your code: (\d{6})/.exec((await lastMailTo(account.email)).text)![1];
    const [before] = await page.db.select().from(users).where(eq(users.email, account.email));
    const NEW = "an entirely new passphrase";

    const wrongCode = await page.post(resetPage, "/reset", {
      email: account.email,
      otp: otp === "000000" ? "111111" : "000000",
      password: NEW,
      password2: NEW,
    });
    expect(wrongCode.status).toBe(400);
    expect(wrongCode.data.result.error).toBeDefined();
    expect(JSON.stringify(wrongCode.data)).not.toContain(NEW);
    const [unchanged] = await page.db.select().from(users).where(eq(users.email, account.email));
    expect(unchanged.passwordHash).toBe(before.passwordHash);

    const reset = await page.post(resetPage, "/reset", { email: account.email, otp, password: NEW, password2: NEW });
    expect(reset.status).toBe(302);
    expect(reset.toast).toMatchObject({ type: "success", message: "Your password has been reset" });
    expect(page.jar.has("token")).toBe(true);
    const signIn = await page.shop.post("/v1/user/login", { username: account.name, password: NEW });
    expect(signIn.status).toBe(200);
  });
});

describe("the staff security page and the sign-in's code step", () => {
  it("enrols two-factor through the page, then asks for the code after the password and signs in with it", async () => {
    page.jar.clear();
    const staff = await registered("manager");
    await page.signIn(staff.token);
    const setup = await page.post(securityPage, "/admin/security", { intent: "setup" });
    expect(setup.status).toBe(200);
    const { secret, qrDataUri } = setup.data.extra as { secret: string; qrDataUri: string };
    expect(qrDataUri).toMatch(/^data:image\/svg\+xml;base64,/);
    const step = () => Math.floor(Date.now() / 1000 / 30);
    const codeAt = (at: number) => generateSync({ secret, epoch: at * 30 });

    const wrongEnrol = await page.post(securityPage, "/admin/security", { intent: "enable", code: "000000", secret });
    expect(wrongEnrol.status).toBe(400);
    expect(wrongEnrol.data.form).toBe("enable");
    const [pending] = await page.db.select().from(users).where(eq(users.email, staff.email));
    expect(pending.totpEnabledAt).toBeNull();

    const enabled = await page.post(securityPage, "/admin/security", {
      intent: "enable",
      code: codeAt(step()),
      secret,
    });
    expect(enabled.status).toBe(200);
    expect(enabled.data.extra.recoveryCodes).toHaveLength(10);

    page.jar.clear();
    const password = await page.post(loginPage, "/login", { username: staff.name, password: PASSWORD });
    expect(password.status).toBe(200);
    expect(password.data.form).toBe("login-code");
    expect(page.jar.has("token")).toBe(false);
    const challenge = password.data.extra.challenge as string;

    const wrong = await page.post(loginPage, "/login", { intent: "two-factor", challenge, code: "12345x" });
    expect(wrong.status).toBe(400);
    expect(wrong.data).toMatchObject({ form: "login-code", extra: { challenge } });
    expect(page.jar.has("token")).toBe(false);

    const signedIn = await page.post(loginPage, "/login", {
      intent: "two-factor",
      challenge,
      code: codeAt(step() + 1),
      redirectTo: "/admin",
    });
    expect(signedIn).toMatchObject({ status: 302, location: "/admin", toast: { type: "success" } });
    expect(page.jar.has("token")).toBe(true);
  });
});

describe("the guest checkout", () => {
  const addFields = (optionId: string) => ({
    intent: "add",
    optionId,
    warrantyOptionId: optionId,
    duration: "30",
    quantity: "1",
    redirectTo: "/cart",
  });

  it("refuses a missing email in the form, then opens the sandbox payment of a pending order for the guest", async () => {
    page.jar.clear();
    const listing = await createListing(page.db, { stock: 2 });
    await page.post(cartPage, "/cart", addFields(listing.optionId));
    const shown = await page.load(cartPage, "/cart");
    const checkout = {
      intent: "checkout",
      message: "",
      idempotencyKey: shown.data.checkout.checkoutKey,
      ...(shown.data.checkout.shownCart ? { shownCart: shown.data.checkout.shownCart } : {}),
      paymentMethod: "sandbox",
    };
    const email = `guest-${randomBytes(4).toString("hex")}@example.com`;
    const guestOrders = async () =>
      page.db
        .select({ id: orders.id, status: orders.status })
        .from(orders)
        .innerJoin(users, eq(users.id, orders.userId))
        .where(eq(users.email, email));

    const noEmail = await page.post(cartPage, "/cart", {
      ...checkout,
      email: "",
      "g-recaptcha-response": humanAnswer(),
    });
    expect(noEmail.status).toBe(400);
    expect(noEmail.data.result.error.email).toEqual([expect.any(String)]);
    expect(await guestOrders()).toEqual([]);

    const paid = await page.post(cartPage, "/cart", { ...checkout, email, "g-recaptcha-response": humanAnswer() });
    expect(paid.status).toBe(302);
    expect(paid.location).toMatch(/\/pay\/sandbox\/[\w-]+$/);
    const placed = await guestOrders();
    expect(placed).toEqual([expect.objectContaining({ status: "pending" })]);
    const lines = await page.db.select().from(orderProducts).where(eq(orderProducts.orderId, placed[0].id));
    expect(lines).toEqual([expect.objectContaining({ quantity: 1 })]);
  });
});

describe("the contact form and the guest's conversation", () => {
  it("opens a guest ticket and mails its link; the guest answers through the link", async () => {
    page.jar.clear();
    const email = `contact-${randomBytes(4).toString("hex")}@example.com`;
    const form = { email, message: "Where is my order?", "g-recaptcha-response": humanAnswer() };
    const foreign = await page.post(contactPage, "/contact", { ...form, orderId: "not-an-order-id" });
    expect(foreign.status).toBe(400);
    expect(foreign.data.result.error.orderId).toEqual([CONTACT_ORDER_NOT_FOUND]);
    expect(await page.db.select().from(tickets).where(eq(tickets.guestEmail, email))).toEqual([]);

    const sent = await page.post(contactPage, "/contact", {
      ...form,
      orderId: "",
      "g-recaptcha-response": humanAnswer(),
    });
    expect(sent).toMatchObject({ status: 303, location: "/contact/sent" });
    const [ticket] = await page.db.select().from(tickets).where(eq(tickets.guestEmail, email));
    expect(ticket.subject).toBeDefined();
    const token = decodeURIComponent(/\/contact\/([^\s"<>]+)/.exec((await lastMailTo(email)).text)![1]);

    const path = `/contact/${encodeURIComponent(token)}`;
    const empty = await page.post(conversationPage, path, { message: " " }, { token });
    expect(empty.status).toBe(400);
    const replied = await page.post(conversationPage, path, { message: "It came, thank you." }, { token });
    expect(replied).toMatchObject({ status: 302, location: path, toast: { type: "success" } });
    const messages = await page.db.select().from(ticketMessages).where(eq(ticketMessages.ticketId, ticket.id));
    expect(messages.map((message) => message.message)).toEqual(
      expect.arrayContaining(["Where is my order?", "It came, thank you."]),
    );

    const unknown = await page.post(conversationPage, "/contact/nope", { message: "Hello?" }, { token: "nope" });
    expect(unknown.status).toBe(404);
  });
});

describe("the order page's question form (find-order)", () => {
  it("sends the owner's question about a line and comes back to the order; an empty one stays in the form", async () => {
    page.jar.clear();
    const customer = await createCustomer(page.db, { balanceCents: 500 });
    const listing = await createListing(page.db, { stock: 1 });
    await page.shop.post(
      "/v1/cart/add",
      { optionId: listing.optionId, quantity: 1, duration: 30 },
      { token: customer.token },
    );
    const created = await page.shop.post("/v1/order/create", { paymentMethod: "balance" }, { token: customer.token });
    expect(created.status).toBe(201);
    const orderId: string = created.body.payload.orderId;
    await page.signIn(customer.token);
    const path = `/find-order?${new URLSearchParams({ id: orderId })}`;
    const line = { intent: "ask", productId: listing.productId, productOptionId: listing.optionId };
    const asked = () => page.db.select().from(requests).where(eq(requests.orderId, orderId));

    const empty = await page.post(findOrderPage, path, { ...line, message: "" });
    expect(empty.status).toBe(400);
    expect(empty.data.result.error.message).toEqual([expect.any(String)]);
    expect(await asked()).toEqual([]);

    const sent = await page.post(findOrderPage, path, { ...line, message: "Can I change the profile name?" });
    expect(sent).toMatchObject({ status: 302, location: path, toast: { type: "success" } });
    expect(await asked()).toEqual([expect.objectContaining({ kind: "other", userId: customer.id })]);
  });
});

describe("the new-ticket form", () => {
  it("opens the ticket and its conversation; a missing subject stays in the form", async () => {
    page.jar.clear();
    const customer = await createCustomer(page.db);
    await page.signIn(customer.token);
    const mine = () => page.db.select().from(tickets).where(eq(tickets.userId, customer.id));
    const untitled = await page.post(ticketsPage, "/tickets", { orderId: "", subject: "", message: "Hello" });
    expect(untitled.status).toBe(400);
    expect(untitled.data.result.error.subject).toEqual([expect.any(String)]);
    expect(await mine()).toEqual([]);

    const opened = await page.post(ticketsPage, "/tickets", { orderId: "", subject: "Login help", message: "Hello" });
    const [ticket] = await mine();
    expect(opened).toMatchObject({ status: 302, location: `/tickets/${ticket.id}`, toast: { type: "success" } });
    expect(ticket.subject).toBe("Login help");
  });
});

describe("the balance top-up form", () => {
  it("opens the chosen payment page for the amount; an amount under the minimum stays in the form", async () => {
    page.jar.clear();
    const customer = await createCustomer(page.db);
    await page.signIn(customer.token);
    const mine = () => page.db.select().from(payments).where(eq(payments.userId, customer.id));
    const tooSmall = await page.post(balancePage, "/balance", { balance: "0", paymentMethod: "sandbox" });
    expect(tooSmall.status).toBe(400);
    expect(tooSmall.data.result.error.balance).toEqual([expect.any(String)]);
    expect(await mine()).toEqual([]);

    const opened = await page.post(balancePage, "/balance", { balance: "10", paymentMethod: "sandbox" });
    expect(opened.status).toBe(302);
    const [payment] = await mine();
    expect(payment).toMatchObject({ amountCents: 1000, status: "pending" });
    expect(opened.location).toContain(payment.id);
  });
});

describe("the slots page's spin button", () => {
  it("spins the day's free spin and shows it; the next press says there is none left", async () => {
    page.jar.clear();
    // A new account holds one spin: its count starts the day before it was made.
    const customer = await createCustomer(page.db);
    await page.signIn(customer.token);
    const spun = await page.post(slotsPage, "/slots", {});
    const [spin] = await page.db.select().from(spins).where(eq(spins.userId, customer.id));
    expect(spun).toMatchObject({ status: 302, location: `/slots?spin=${spin.id}` });

    const none = await page.post(slotsPage, "/slots", {});
    expect(none).toMatchObject({
      status: 302,
      location: "/slots",
      toast: { type: "error", message: NO_SPINS_MESSAGE },
    });
    expect(await page.db.select().from(spins).where(eq(spins.userId, customer.id))).toHaveLength(1);
  });

  it("sends a visitor who is not signed in to the sign-in page", async () => {
    page.jar.clear();
    const refused = await page.post(slotsPage, "/slots", {});
    expect(refused.status).toBe(302);
    expect(refused.location).toMatch(/^\/login/);
  });
});

describe("the settings page's delete-account form (privacy)", () => {
  it("keeps the account on a wrong password; the right one deletes it, signs out and goes home", async () => {
    page.jar.clear();
    const account = await registered();
    await page.signIn(account.token);
    const signInWorks = async () =>
      (await page.shop.post("/v1/user/login", { username: account.name, password: PASSWORD })).status === 200;

    const wrong = await page.post(settingsPage, "/settings", { intent: "delete", password: "not my password" });
    expect(wrong.status).toBe(400);
    expect(wrong.data.form).toBe("settings-delete");
    expect(JSON.stringify(wrong.data)).not.toContain("not my password");
    expect(await signInWorks()).toBe(true);

    const deleted = await page.post(settingsPage, "/settings", { intent: "delete", password: PASSWORD });
    expect(deleted).toMatchObject({ status: 302, location: "/", toast: { type: "success" } });
    expect(page.jar.has("token")).toBe(false);
    expect(await signInWorks()).toBe(false);
  });
});

describe("the light-mode switch and the announcement's dismiss button", () => {
  it("set their cookies and go back; an outside address or a malformed key is not followed", async () => {
    page.jar.clear();
    const on = await page.post(litePage, "/lite", { lite: "on", redirectTo: "/shop" });
    expect(on).toMatchObject({ status: 302, location: "/shop" });
    expect(page.jar.has("lite")).toBe(true);
    const outside = await page.post(litePage, "/lite", { redirectTo: "https://evil.example/" });
    expect(outside).toMatchObject({ status: 302, location: "/" });
    expect(page.jar.has("lite")).toBe(false);

    const dismissed = await page.post(landingPage, "/", {
      intent: "dismiss-announcement",
      announcement: "0123456789abcdef",
    });
    expect(dismissed).toMatchObject({ status: 303, location: "/" });
    // The cookie holds the key as JSON, base64-encoded (Remix's cookie encoding).
    const kept = page.jar.get("announcementDismissed")!;
    expect(Buffer.from(kept, "base64").toString()).toBe('"0123456789abcdef"');
    const malformed = await page.post(landingPage, "/", { intent: "dismiss-announcement", announcement: "<script>" });
    expect(malformed.status).toBe(400);
    expect(page.jar.get("announcementDismissed")).toBe(kept);
  });
});
