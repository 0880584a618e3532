import { expect, type Page, test } from "@playwright/test";
import { CONTACT_ORDER_NOT_FOUND } from "../../contract/contact";
import { call } from "../support/e2e-api";
import { readMailTo } from "../support/e2e-mail";
import { expectNoOverflow, newStaff, signInThroughForm } from "../support/e2e-staff";
import { answerHumanCheckQuestion } from "../support/human-check";

/*
 * Guest support (issue 26 item 3, ADR 039) on a phone, JS on and off: a guest without an account follows the
 * FAQ's contact link, writes with an email and the human check, gets the conversation's link by mail, staff
 * answer from the back office's API, and the guest follows the answer mail's link and replies.
 */

test.use({ viewport: { width: 390, height: 844 } });

/** The builtin human check accepts a token 2 s after it was issued; a person is never that quick. */
const HUMAN_CHECK_MIN_AGE_MS = 2_100;
const LINK = /https?:\/\/[^/\s"]+(\/contact\/[A-Za-z0-9_-]{22})/;

async function send(page: Page, renderedAt: number) {
  const wait = HUMAN_CHECK_MIN_AGE_MS - (Date.now() - renderedAt);
  if (wait > 0) await page.waitForTimeout(wait);
  await page.getByRole("button", { name: "Send Message" }).click();
}

test("a guest writes from the FAQ, staff answer, and the guest replies through the mailed link", async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(90_000);
  const email = `contact_${testInfo.project.name.replace("-", "")}_${Date.now().toString(36)}${testInfo.workerIndex}@example.com`;

  await page.goto("/faqs");
  await page.locator("#contact").getByRole("link", { name: "Contact support" }).click();
  await expect(page).toHaveURL(/\/contact$/);
  let renderedAt = Date.now();
  await expect(page.getByRole("heading", { level: 1, name: "Contact Support" })).toBeVisible();
  await expectNoOverflow(page, "/contact");

  // An order id that is not this email's is refused beside its field, saying nothing about whose it is.
  await page.getByLabel("Email Address").fill(email);
  await page.getByLabel("Order ID (optional)").fill("gWwCti4aIQ7vdHgY-vB4_p");
  await page.getByLabel("Message").fill("My streaming plan asks for a code.\nWhat should I do?");
  await send(page, renderedAt);
  await expect(page.getByText(CONTACT_ORDER_NOT_FOUND)).toBeVisible();
  await expect(page.getByLabel("Message")).toHaveValue("My streaming plan asks for a code.\nWhat should I do?");

  // A form shown again asks a visible question (ADR 019).
  await page.getByLabel("Order ID (optional)").fill("");
  await answerHumanCheckQuestion(page.locator("form#contact"));
  renderedAt = Date.now();
  await send(page, renderedAt);
  await expect(page).toHaveURL(/\/contact\/sent$/);
  await expect(page.getByRole("heading", { level: 1, name: "Message sent" })).toBeVisible();
  await expect(page.getByText("We mailed you a link to the conversation")).toBeVisible();
  await expectNoOverflow(page, "/contact/sent");

  const confirmation = await readMailTo(email, /^Subject: We received your message/m);
  const firstLink = LINK.exec(confirmation)![1];

  // Staff find the guest's ticket in the inbox and answer it.
  const staff = await newStaff(request, testInfo, "support");
  const inbox = await call<{ records: { _id: string; customer: { email: string; guest: boolean } }[] }>(
    request,
    "GET",
    `/v1/admin/tickets?filter=waiting&search=${encodeURIComponent(email)}`,
    undefined,
    staff.token,
  );
  expect(inbox.records).toHaveLength(1);
  expect(inbox.records[0].customer).toMatchObject({ email, guest: true });
  await call(
    request,
    "POST",
    `/v1/admin/tickets/${inbox.records[0]._id}/reply`,
    { message: "Sign out of every device, then sign in again." },
    staff.token,
  );

  const answerMail = await readMailTo(email, /^Subject: Support replied: My streaming plan asks for a code\.$/m);
  expect(answerMail).toContain("Sign out of every device, then sign in again.");
  const answerLink = LINK.exec(answerMail)![1];
  expect(answerLink).not.toBe(firstLink);

  await page.goto(answerLink);
  await expect(page.getByRole("heading", { level: 1, name: "My streaming plan asks for a code." })).toBeVisible();
  const messages = page.getByRole("list", { name: "Messages" }).getByRole("listitem");
  await expect(messages).toHaveCount(2);
  await expect(messages.nth(0)).toContainText("You");
  await expect(messages.nth(1)).toContainText("Admin");
  await expect(messages.nth(1)).toContainText("Sign out of every device, then sign in again.");
  await expectNoOverflow(page, "the conversation");

  await page.getByLabel("Your message").fill("That worked, thank you!");
  await page.getByRole("button", { name: "Send Message" }).click();
  await expect(messages).toHaveCount(3);
  await expect(messages.nth(2)).toContainText("That worked, thank you!");
  await expect(page.getByLabel("Your message")).toHaveValue("");
  await expect(page).toHaveURL(new RegExp(`${answerLink}$`));

  // The confirmation's link opens the same conversation, which no cache keeps.
  const opened = await page.goto(firstLink);
  expect(opened?.headers()["cache-control"]).toContain("no-store");
  await expect(messages).toHaveCount(3);

  // In the back office the ticket shows the guest's email, waiting for staff again.
  await signInThroughForm(page, staff.username, staff.password);
  await expect(page).toHaveURL(/\/admin$/);
  await page.goto(`/admin/tickets?${new URLSearchParams({ filter: "waiting", search: email })}`);
  await expect(page.getByText(`${email} (guest)`)).toBeVisible();
  await page.getByRole("link", { name: "My streaming plan asks for a code." }).click();
  await expect(page.getByText("no account: replies are mailed with a link to the conversation")).toBeVisible();
  const conversation = page.getByRole("list", { name: "Conversation" }).getByRole("listitem");
  await expect(conversation).toHaveCount(3);
  await expect(conversation.nth(2)).toContainText("Guest");
  await expect(conversation.nth(2)).toContainText("That worked, thank you!");
  await expectNoOverflow(page, "the back office's guest ticket");
});

test("the contact form is never shared from the page cache: two visitors get two human-check tokens", async ({
  request,
}) => {
  test.skip(test.info().project.name !== "js", "plain HTTP: once is enough");
  const tokenOf = (html: string) => /name="g-recaptcha-response" value="([^"]+)"/.exec(html)?.[1];
  const first = await request.get("/contact", { headers: { cookie: "" } });
  const second = await request.get("/contact", { headers: { cookie: "" } });
  const tokens = [tokenOf(await first.text()), tokenOf(await second.text())];
  expect(tokens[0]).toBeTruthy();
  expect(tokens[1]).not.toBe(tokens[0]);
});

test("a link that opens no conversation shows the not-found page with the way back to the form", async ({ page }) => {
  const response = await page.goto("/contact/AAAAAAAAAAAAAAAAAAAAAA");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Conversation not found" })).toBeVisible();
  await page.getByRole("link", { name: "Contact Support" }).last().click();
  await expect(page).toHaveURL(/\/contact$/);
});
