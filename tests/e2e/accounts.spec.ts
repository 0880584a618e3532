import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { type APIRequestContext, expect, type Page, type TestInfo, test } from "@playwright/test";
import { e2eDataDir } from "../../playwright.config";

/*
 * Journeys 4, 5 and 6: create an account, sign out and in (the guest cart follows), reset a
 * forgotten password with the mailed code, change username, email and password; JS on and off.
 */

type Account = { username: string; email: string; password: string };

let accountCounter = 0;
/** A fresh account per test and project, so the two projects and reruns never collide. */
function newAccount(testInfo: TestInfo): Account {
  accountCounter++;
  const username = `e2e_${testInfo.project.name.replace("-", "")}_${Date.now().toString(36)}${accountCounter}${testInfo.workerIndex}`;
  return { username, email: `${username}@example.com`, password: `correct horse ${username}` };
}

function header(page: Page) {
  return page.getByRole("banner");
}

async function signUp(page: Page, account: Account) {
  await page.goto("/signup");
  await page.getByLabel("Username", { exact: true }).fill(account.username);
  await page.getByLabel("Email", { exact: true }).fill(account.email);
  await page.getByLabel("Password", { exact: true }).fill(account.password);
  await page.getByLabel("Confirm password", { exact: true }).fill(account.password);
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole("heading", { level: 1, name: `Hello, ${account.username}!` })).toBeVisible();
}

async function fillSignIn(page: Page, login: string, password: string) {
  await page.getByLabel("Username or email").fill(login);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign In" }).click();
}

async function signIn(page: Page, login: string, password: string) {
  await page.goto("/login");
  await fillSignIn(page, login, password);
  await expect(page).toHaveURL(/\/dashboard$/);
}

/** The flash toast sits over the header's right end; without JS it stays until closed, as a visitor would. */
async function closeToast(page: Page) {
  // Without JS the toast comes at the end of the streamed document.
  await page.waitForLoadState("load");
  const close = page.getByLabel("Close notification");
  if (await close.isVisible()) await close.click();
}

async function signOut(page: Page) {
  await closeToast(page);
  await header(page).getByRole("button", { name: "Log out" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole("status").filter({ hasText: "You have signed out" })).toBeVisible();
  await expect(header(page).getByRole("link", { name: "Sign In" })).toBeVisible();
}

function formError(page: Page, text: string) {
  return page.getByRole("main").getByRole("alert").filter({ hasText: text });
}

/** The code in the newest reset mail to `email` that the e2e server wrote to its outbox. */
async function readResetCode(email: string): Promise<string> {
  const outbox = path.join(e2eDataDir, "outbox");
  let code: string | undefined;
  await expect
    .poll(
      async () => {
        const names = (await readdir(outbox).catch(() => [] as string[]))
          .filter((name) => name.endsWith(".eml"))
          .sort()
          .reverse();
        for (const name of names) {
          const mail = await readFile(path.join(outbox, name), "utf8");
          if (!new RegExp(`^To: ${email}$`, "mi").test(mail)) continue;
          code = /Your code: (\d{6})/.exec(mail)?.[1];
          if (code) return code;
        }
        return undefined;
      },
      { timeout: 15_000, message: `a reset mail to ${email}` },
    )
    .toMatch(/^\d{6}$/);
  return code!;
}

type Product = { _id: string; title: string; minQuantity: number; maxQuantity: number | null };
type Option = {
  _id: string;
  title: string;
  availableStock: number;
  subOptions: { title: string; duration: number; price: number }[];
};

/** A plan of the demo catalogue that a guest can put in the cart. */
async function purchasablePlan(request: APIRequestContext) {
  const products = ((await (await request.get("/v1/product/read")).json()) as { payload: Product[] }).payload;
  for (const product of products.filter((candidate) => candidate.minQuantity === 1)) {
    const options = (
      (await (await request.get(`/v1/product/option/read/${product._id}`)).json()) as { payload: Option[] }
    ).payload;
    const option = options.find((candidate) => candidate.availableStock >= 5 && candidate.subOptions.length > 0);
    if (option) return { product, option };
  }
  throw new Error("the demo catalogue has no plan in stock");
}

test("create an account, sign out and sign in again; pages follow the session", async ({ page }, testInfo) => {
  const account = newAccount(testInfo);
  await signUp(page, account);
  await expect(page.getByRole("status").filter({ hasText: "Your account has been created" })).toBeVisible();
  const banner = header(page);
  await expect(banner.getByRole("link", { name: "Dashboard" })).toHaveAttribute("aria-current", "page");
  await expect(banner.getByRole("link", { name: "Tickets" })).toBeVisible();
  await expect(banner.getByTestId("header-balance")).toHaveText("$0.00");
  await expect(banner.getByRole("link", { name: "Settings" })).toBeVisible();
  await expect(banner.getByRole("link", { name: "Sign In" })).toHaveCount(0);
  const cookies = await page.context().cookies();
  expect(cookies.find((cookie) => cookie.name === "token")).toMatchObject({
    httpOnly: true,
    sameSite: "Lax",
    path: "/",
  });
  expect(cookies.find((cookie) => cookie.name === "footprint")).toMatchObject({ httpOnly: false });

  // Logged-out-only pages send a signed-in user to the dashboard.
  for (const address of ["/", "/login", "/signup", "/forgot", `/reset?email=${account.email}`]) {
    await page.goto(address);
    await expect(page).toHaveURL(/\/dashboard$/);
  }

  await signOut(page);
  expect((await page.context().cookies()).map((cookie) => cookie.name)).not.toContain("token");
  // Login-required pages send a guest to sign in and come back afterwards.
  await page.goto("/settings");
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fsettings$/);
  await fillSignIn(page, account.email, account.password);
  await expect(page).toHaveURL(/\/settings$/);
  await expect(page.getByRole("heading", { level: 1, name: "Settings" })).toBeVisible();
});

test("an unknown path is a 404 for a guest and leads a signed-in customer to the dashboard", async ({
  page,
}, testInfo) => {
  const missing = await page.goto("/no-such-page-here");
  expect(missing?.status()).toBe(404);
  await signUp(page, newAccount(testInfo));
  await page.goto("/no-such-page-here");
  await expect(page).toHaveURL(/\/dashboard$/);
});

test("a revoked session is dropped and the visitor lands on the home page", async ({
  page,
  context,
  baseURL,
}, testInfo) => {
  const account = newAccount(testInfo);
  await signUp(page, account);
  const token = (await context.cookies()).find((cookie) => cookie.name === "token")!;
  await signOut(page);
  // The old token, replayed: the API revoked it at sign-out.
  await context.addCookies([{ name: "token", value: token.value, url: baseURL }]);
  await page.goto("/shop");
  await expect(page).toHaveURL(new RegExp(`^${baseURL}/$`));
  expect((await context.cookies()).map((cookie) => cookie.name)).not.toContain("token");
});

test("a wrong password is refused with the server's message", async ({ page, javaScriptEnabled }, testInfo) => {
  const account = newAccount(testInfo);
  await signUp(page, account);
  await signOut(page);
  await fillSignIn(page, account.username, "not the password at all");
  await expect(formError(page, "Invalid username or password")).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  // The username stays; the reloaded page (JS off) never gets the password back.
  await expect(page.getByLabel("Username or email")).toHaveValue(account.username);
  if (!javaScriptEnabled) await expect(page.getByLabel("Password", { exact: true })).toHaveValue("");
});

test("sign-up needs matching passwords and a free username", async ({ page }, testInfo) => {
  const account = newAccount(testInfo);
  await page.goto("/signup");
  await expect(page.getByRole("heading", { name: "Why choose us?" })).toBeVisible();
  await page.getByLabel("Username", { exact: true }).fill(account.username);
  await page.getByLabel("Email", { exact: true }).fill(account.email);
  await page.getByLabel("Password", { exact: true }).fill(account.password);
  await page.getByLabel("Confirm password", { exact: true }).fill(`${account.password}!`);
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(page.getByText("Passwords do not match")).toBeVisible();
  await expect(page).toHaveURL(/\/signup$/);

  await signUp(page, account);
  await signOut(page);
  await page.goto("/signup");
  await page.getByLabel("Username", { exact: true }).fill(account.username);
  await page.getByLabel("Email", { exact: true }).fill(`other.${account.email}`);
  await page.getByLabel("Password", { exact: true }).fill(account.password);
  await page.getByLabel("Confirm password", { exact: true }).fill(account.password);
  await page.getByRole("button", { name: "Create Account" }).click();
  await expect(formError(page, "This username is already taken")).toBeVisible();
});

async function addPlanToCart(page: Page, plan: Awaited<ReturnType<typeof purchasablePlan>>, quantity: number) {
  const { product, option } = plan;
  await page.goto(`/shop/${product._id}?option=${option._id}`);
  const dialog = page.getByRole("dialog", { name: product.title });
  const durationTitle = option.subOptions[0].title.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  await dialog.getByRole("radio", { name: new RegExp(`^${durationTitle}`) }).check();
  await dialog.getByRole("spinbutton", { name: "Quantity" }).fill(String(quantity));
  await dialog.getByRole("button", { name: "Add to Cart" }).click();
  await expect(page).toHaveURL(/cart=open/);
}

test("the guest cart follows into the account at sign-in", async ({ page, request }, testInfo) => {
  const account = newAccount(testInfo);
  await signUp(page, account);
  await signOut(page);

  const plan = await purchasablePlan(request);
  const { product } = plan;
  await addPlanToCart(page, plan, 2);
  await expect(page.getByTestId("cart-count")).toHaveText("1");

  await signIn(page, account.username, account.password);
  await expect(page.getByTestId("cart-count")).toHaveText("1");
  await page.goto("/cart");
  const line = page.getByTestId("cart-line");
  await expect(line).toHaveCount(1);
  await expect(line).toContainText(product.title);
  await expect(page.getByRole("spinbutton", { name: /^Quantity of/ })).toHaveValue("2");

  // The cookie cart was emptied: after signing out the guest cart is empty; the account keeps its cart.
  await signOut(page);
  await expect(page.getByTestId("cart-count")).toHaveText("0");
  await signIn(page, account.email, account.password);
  await expect(page.getByTestId("cart-count")).toHaveText("1");
});

test("forgot password: the mailed code sets a new password", async ({ page }, testInfo) => {
  const account = newAccount(testInfo);
  await signUp(page, account);
  await signOut(page);

  await page.goto("/reset");
  await expect(page).toHaveURL(/\/forgot$/);
  await page.getByLabel("Email").fill(account.email);
  await page.getByRole("button", { name: "Send Code" }).click();
  await expect(page).toHaveURL(new RegExp(`/reset\\?email=${encodeURIComponent(account.email)}$`));
  await expect(page.getByRole("status").filter({ hasText: "If an account exists for that email" })).toBeVisible();

  const code = await readResetCode(account.email);
  const wrongCode = code === "000000" ? "111111" : "000000";
  const newPassword = `${account.password} renewed`;
  await page.getByLabel("Code from the email").fill(wrongCode);
  await page.getByLabel("New password", { exact: true }).fill(newPassword);
  await page.getByLabel("Confirm new password").fill(newPassword);
  await page.getByRole("button", { name: "Reset Password" }).click();
  await expect(page.getByText("The code is invalid or has expired")).toBeVisible();

  await page.getByLabel("Code from the email").fill(code);
  await page.getByLabel("New password", { exact: true }).fill(newPassword);
  await page.getByLabel("Confirm new password").fill(newPassword);
  await page.getByRole("button", { name: "Reset Password" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole("status").filter({ hasText: "Your password has been reset" })).toBeVisible();

  await signOut(page);
  await fillSignIn(page, account.username, account.password);
  await expect(formError(page, "Invalid username or password")).toBeVisible();
  await fillSignIn(page, account.username, newPassword);
  await expect(page).toHaveURL(/\/dashboard$/);
});

test("the forgot form refuses a filled honeypot", async ({ page }, testInfo) => {
  const account = newAccount(testInfo);
  await page.goto("/forgot");
  await page.getByLabel("Email").fill(account.email);
  await page.locator('input[name="name__confirm"]').fill("I am a bot", { force: true });
  await page.getByRole("button", { name: "Send Code" }).click();
  await expect(formError(page, "We could not accept this form")).toBeVisible();
  await expect(page).toHaveURL(/\/forgot$/);
});

test("settings change the username, the email and the password", async ({ page }, testInfo) => {
  const account = newAccount(testInfo);
  await signUp(page, account);
  await closeToast(page);
  await header(page).getByRole("link", { name: "Settings" }).click();
  await expect(page).toHaveURL(/\/settings$/);

  const usernameCard = page.getByRole("region", { name: "Username", exact: true });
  const emailCard = page.getByRole("region", { name: "Email", exact: true });
  const passwordCard = page.getByRole("region", { name: "Password", exact: true });
  const renamed = `${account.username}_x`;
  await usernameCard.getByLabel("Username").fill(renamed);
  await usernameCard.getByRole("button", { name: "Change Username" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Your username has been updated" })).toBeVisible();
  await expect(usernameCard.getByLabel("Username")).toHaveValue(renamed);

  // A current password given is checked; just after signing in, none is needed (ADR 035).
  const newEmail = `new.${account.email}`;
  await emailCard.getByLabel("Email").fill(newEmail);
  await emailCard.getByLabel("Current password").fill("a wrong current password");
  await emailCard.getByRole("button", { name: "Change Email" }).click();
  await expect(emailCard.getByText("Your current password is not correct")).toBeVisible();
  await emailCard.getByLabel("Email").fill(newEmail);
  await emailCard.getByLabel("Current password").fill("");
  await emailCard.getByRole("button", { name: "Change Email" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Your email has been updated" })).toBeVisible();
  await expect(emailCard.getByLabel("Email")).toHaveValue(newEmail);

  const newPassword = `${account.password} changed`;
  await passwordCard.getByLabel("Current password").fill(account.password);
  await passwordCard.getByLabel("New password", { exact: true }).fill(newPassword);
  await passwordCard.getByLabel("Confirm new password").fill(`${newPassword}?`);
  await passwordCard.getByRole("button", { name: "Change Password" }).click();
  await expect(passwordCard.getByText("Passwords do not match")).toBeVisible();
  await passwordCard.getByLabel("Current password").fill(account.password);
  await passwordCard.getByLabel("New password", { exact: true }).fill(newPassword);
  await passwordCard.getByLabel("Confirm new password").fill(newPassword);
  await passwordCard.getByRole("button", { name: "Change Password" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Your password has been updated" })).toBeVisible();
  // This browser stays signed in with the session the change answered.
  await page.goto("/dashboard");
  await expect(page.getByRole("heading", { level: 1, name: `Hello, ${renamed}!` })).toBeVisible();

  await signOut(page);
  await fillSignIn(page, renamed, account.password);
  await expect(formError(page, "Invalid username or password")).toBeVisible();
  await fillSignIn(page, account.email, newPassword);
  await expect(formError(page, "Invalid username or password")).toBeVisible();
  await fillSignIn(page, newEmail, newPassword);
  await expect(page).toHaveURL(/\/dashboard$/);
});

test("a signed-in customer's cart panel works on the server cart", async ({ page, request }, testInfo) => {
  const account = newAccount(testInfo);
  await signUp(page, account);
  const plan = await purchasablePlan(request);
  await addPlanToCart(page, plan, 1);
  await expect(page.getByRole("status").filter({ hasText: "Product added to cart" })).toBeVisible();
  const panel = page.getByRole("dialog", { name: "Your Cart" });
  await expect(panel.getByTestId("cart-line")).toContainText(plan.product.title);
  await panel.getByRole("button", { name: /^Increase quantity/ }).click();
  await expect(panel.getByRole("spinbutton", { name: /^Quantity of/ })).toHaveValue("2");
  await expect(panel.getByTestId("cart-subtotal")).toHaveText(`$${(plan.option.subOptions[0].price * 2).toFixed(2)}`);

  // The cart belongs to the account, not to this browser's cookie.
  await page.goto("/dashboard");
  await signOut(page);
  await expect(page.getByTestId("cart-count")).toHaveText("0");
  await signIn(page, account.username, account.password);
  await page.goto("/cart");
  await expect(page.getByRole("spinbutton", { name: /^Quantity of/ })).toHaveValue("2");
  await page.getByRole("button", { name: /^Remove Item/ }).click();
  await expect(page.getByText("Your cart is empty.")).toBeVisible();
  await expect(page.getByTestId("cart-count")).toHaveText("0");
});

test("the account pages have no serious or critical accessibility violations", async ({
  page,
  javaScriptEnabled,
}, testInfo) => {
  // axe runs as a script in the page; the no-JS markup is the same server render.
  test.skip(!javaScriptEnabled, "axe needs JavaScript in the page");
  test.setTimeout(60_000);
  async function violations(address: string) {
    await page.goto(address, { waitUntil: "networkidle" });
    const results = await new AxeBuilder({ page })
      .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"])
      .analyze();
    return results.violations
      .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
      .map((violation) => ({
        address,
        rule: violation.id,
        targets: violation.nodes.slice(0, 5).map((node) => node.target.join(" ")),
      }));
  }
  const found = [];
  for (const address of ["/login", "/signup", "/forgot", "/reset?email=someone%40example.com"])
    found.push(...(await violations(address)));
  await signUp(page, newAccount(testInfo));
  for (const address of ["/dashboard", "/settings"]) found.push(...(await violations(address)));
  expect(found, JSON.stringify(found, null, 2)).toEqual([]);
});
