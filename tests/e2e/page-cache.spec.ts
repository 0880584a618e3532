import { createHash } from "node:crypto";
import { expect, test } from "@playwright/test";
import { newAccount, signInThroughForm } from "../support/e2e-staff";

// HTTP-level behaviour of the anonymous page cache; one browser project is enough.
test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "HTTP-only checks run in the js project");

function nonceOf(csp: string | undefined) {
  return /'nonce-([^']+)'/.exec(csp ?? "")?.[1];
}

const inlineScriptsOf = (html: string) =>
  [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)]
    .filter(([, attributes, code]) => !/\bsrc=/.test(attributes) && code !== "")
    .map(([, , code]) => code);

test("a cookie-less visitor gets a stored page whose CSP allows exactly its own inline scripts", async ({
  request,
}) => {
  const url = `/faqs?page-cache-test=${Date.now()}`;
  const first = await request.get(url, { headers: { cookie: "" } });
  const second = await request.get(url, { headers: { cookie: "" } });
  expect(first.status()).toBe(200);
  expect(first.headers()["x-page-cache"]).toBe("MISS");
  expect(second.headers()["x-page-cache"]).toBe("HIT");

  // The rendering answers with its nonce; the stored page by the hashes of the scripts that carried it.
  const nonce = nonceOf(first.headers()["content-security-policy"]);
  expect(nonce).toBeTruthy();
  const stored = second.headers()["content-security-policy"];
  expect(nonceOf(stored)).toBeUndefined();
  const html = await second.text();
  expect(html).not.toContain(`nonce="${nonce}"`);
  const scripts = inlineScriptsOf(html);
  expect(scripts.length).toBeGreaterThan(0);
  for (const code of scripts) {
    expect(stored).toContain(`'sha256-${createHash("sha256").update(code).digest("base64")}'`);
  }
  // Every header a rendered page carries, the stored one carries too.
  for (const name of ["x-content-type-options", "x-frame-options", "referrer-policy", "permissions-policy"]) {
    expect(second.headers()[name]).toBe(first.headers()[name]);
  }
  expect(second.headers()["x-request-id"]).toBeTruthy();
});

test("a stored page is compressed once, in the encoding each visitor takes", async ({ request }) => {
  const url = `/faqs?page-cache-encoding=${Date.now()}`;
  // The first visitor's rendering is stored; every later one is sent the stored bytes.
  await request.get(url, { headers: { cookie: "" } });
  const plain = await request.get(url, { headers: { cookie: "", "accept-encoding": "identity" } });
  expect(plain.headers()["x-page-cache"]).toBe("HIT");
  const html = await plain.text();
  for (const [asked, expected] of [
    ["br, gzip", "br"],
    ["gzip, deflate", "gzip"],
    ["identity", undefined],
  ] as const) {
    const answer = await request.get(url, { headers: { cookie: "", "accept-encoding": asked } });
    expect(answer.headers()["x-page-cache"]).toBe("HIT");
    expect(answer.headers()["content-encoding"]).toBe(expected);
    expect(answer.headers()["vary"]).toContain("Accept-Encoding");
    expect(await answer.text()).toBe(html);
  }
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
