import { expect, test } from "@playwright/test";
import { newAccount, signInThroughForm } from "../support/e2e-staff";

// HTTP-level behaviour of the anonymous page cache; one browser project is enough.
test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "HTTP-only checks run in the js project");

function nonceOf(csp: string | undefined) {
  return /'nonce-([^']+)'/.exec(csp ?? "")?.[1];
}

test("a cookie-less visitor gets a cached page with a fresh nonce that matches its CSP", async ({ request }) => {
  const url = `/faqs?page-cache-test=${Date.now()}`;
  const first = await request.get(url, { headers: { cookie: "" } });
  const second = await request.get(url, { headers: { cookie: "" } });
  expect(first.status()).toBe(200);
  expect(first.headers()["x-page-cache"]).toBe("MISS");
  expect(second.headers()["x-page-cache"]).toBe("HIT");

  const nonces = [
    nonceOf(first.headers()["content-security-policy"]),
    nonceOf(second.headers()["content-security-policy"]),
  ];
  expect(nonces[0]).toBeTruthy();
  expect(nonces[1]).not.toBe(nonces[0]);
  const html = await second.text();
  const scriptNonces = new Set([...html.matchAll(/<script[^>]* nonce="([^"]+)"/g)].map((match) => match[1]));
  expect([...scriptNonces]).toEqual([nonces[1]]);
});

test("a page with a single-use human-check token is never shared: two visitors get two tokens", async ({ request }) => {
  const tokenOf = (html: string) => /name="g-recaptcha-response" value="([^"]+)"/.exec(html)?.[1];
  const first = await request.get("/redeem-key", { headers: { cookie: "" } });
  const second = await request.get("/redeem-key", { headers: { cookie: "" } });
  const tokens = [tokenOf(await first.text()), tokenOf(await second.text())];
  expect(tokens[0]).toBeTruthy();
  expect(tokens[1]).not.toBe(tokens[0]);
});

test("a visitor with cookies always gets a fresh rendering", async ({ request }) => {
  const url = `/faqs?page-cache-cookie=${Date.now()}`;
  await request.get(url, { headers: { cookie: "" } });
  const withCookie = await request.get(url, { headers: { cookie: "cart=anything" } });
  expect(withCookie.status()).toBe(200);
  expect(withCookie.headers()["x-page-cache"]).toBeUndefined();
});

test("answers that are not public 200 pages are not kept", async ({ request }) => {
  const url = `/no-such-page-${Date.now()}`;
  const first = await request.get(url, { headers: { cookie: "" } });
  const second = await request.get(url, { headers: { cookie: "" } });
  expect(first.status()).toBe(404);
  expect(second.headers()["x-page-cache"]).toBe("MISS");
});

test.describe("pages that depend on who asks answer Cache-Control: private, no-store (issue 25 item 8)", () => {
  test("a signed-in customer's pages, the back office and an order looked up by its id", async ({
    page,
    request,
  }, testInfo) => {
    const customer = await newAccount(request, testInfo, "cached");
    await signInThroughForm(page, customer.username, customer.password, "/dashboard");
    await expect(page).toHaveURL(/\/dashboard$/);
    // The browser's own cookies (the session's token and its footprint), sent as the browser sends them.
    const signedIn = page.request;
    for (const path of ["/dashboard", "/balance", "/settings", "/tickets", "/shop", "/faqs"]) {
      const response = await signedIn.get(path, { maxRedirects: 0 });
      expect(response.status(), path).toBe(200);
      expect(response.headers()["cache-control"], path).toBe("private, no-store");
    }
    for (const path of ["/admin", "/admin/customers", "/admin/audit", "/find-order?id=Q2hlY2tvdXQtb3JkZXItMQ"]) {
      for (const get of [
        () => request.get(path, { headers: { cookie: "" }, maxRedirects: 0 }),
        () => signedIn.get(path, { maxRedirects: 0 }),
      ]) {
        const first = await get();
        const second = await get();
        expect(first.headers()["cache-control"], path).toBe("private, no-store");
        expect(second.headers()["x-page-cache"], path).toBeUndefined();
      }
    }
    // A cookie-less visitor's public page is still the page cache's.
    const url = `/faqs?private-pages=${Date.now()}`;
    await request.get(url, { headers: { cookie: "" } });
    const shared = await request.get(url, { headers: { cookie: "" } });
    expect(shared.headers()["x-page-cache"]).toBe("HIT");
    expect(shared.headers()["cache-control"] ?? "").not.toContain("no-store");
  });
});
