import { describe, expect, it } from "vitest";
import { createStoreCookies } from "~/lib/cookies.server";

const settings = { sessionSecrets: ["unit-test-secret-that-is-long-enough-0123456789"], servedOverHttps: false };
const cookies = createStoreCookies(settings);
const optionA = "AAAAAAAAAAAAAAAAAAAAAA";

/** A request that carries the cookies of these Set-Cookie values, as a browser would send them back. */
function requestWith(...setCookies: string[]): Request {
  const cookie = setCookies.map((setCookie) => setCookie.split(";")[0]).join("; ");
  return new Request("http://store.test/", { headers: { cookie } });
}

/** The attributes of a Set-Cookie value, lower-cased, without its name=value. */
function attributes(setCookie: string): string[] {
  return setCookie
    .split(";")
    .slice(1)
    .map((attribute) => attribute.trim().toLowerCase());
}

describe("the store's cookies", () => {
  it("round-trip each cookie's value", async () => {
    const token = "t".repeat(43);
    const lines: [string, number, number][] = [[optionA, 30, 2]];
    const request = requestWith(
      await cookies.token.serialize(token),
      await cookies.footprint.serialize("1"),
      await cookies.cart.serialize(lines),
      await cookies.coupon.serialize("SPRING10"),
      await cookies.announcementDismissed.serialize("0123456789abcdef"),
    );
    expect(await cookies.token.read(request)).toBe(token);
    expect(await cookies.footprint.read(request)).toBe("1");
    expect(await cookies.cart.read(request)).toEqual(lines);
    expect(await cookies.coupon.read(request)).toBe("SPRING10");
    expect(await cookies.announcementDismissed.read(request)).toBe("0123456789abcdef");
  });

  it("keep today's names, lifetimes and flags", async () => {
    const token = await cookies.token.serialize("t");
    expect(token.startsWith("token=")).toBe(true);
    expect(attributes(token).sort()).toEqual(["httponly", "max-age=2592000", "path=/", "samesite=lax"]);
    const footprint = await cookies.footprint.serialize("1");
    expect(footprint.startsWith("footprint=")).toBe(true);
    // Scripts may read it: it says "signed in" and nothing else.
    expect(attributes(footprint).sort()).toEqual(["max-age=2592000", "path=/", "samesite=lax"]);
    expect(attributes(await cookies.cart.serialize([])).sort()).toEqual([
      "httponly",
      "max-age=2592000",
      "path=/",
      "samesite=lax",
    ]);
    expect(attributes(await cookies.coupon.serialize("X")).sort()).toEqual([
      "httponly",
      "max-age=86400",
      "path=/",
      "samesite=lax",
    ]);
    // Kept for a year and through sign-out: it says "this browser", not "signed in".
    expect(attributes(await cookies.device.serialize("d")).sort()).toEqual([
      "httponly",
      "max-age=31536000",
      "path=/",
      "samesite=lax",
    ]);
  });

  it("are Secure when the store is served over https", async () => {
    const secure = createStoreCookies({ ...settings, servedOverHttps: true });
    for (const setCookie of [
      await secure.token.serialize("t"),
      await secure.footprint.serialize("1"),
      await secure.cart.serialize([]),
      await secure.coupon.serialize("X"),
      await secure.device.serialize("d"),
      // Behind a TLS proxy the request URL says http: the flag comes from the settings, never from the URL.
      await secure.announcementDismissed.serialize("0123456789abcdef"),
    ]) {
      expect(attributes(setCookie)).toContain("secure");
    }
    expect(attributes(await cookies.token.serialize("t"))).not.toContain("secure");
  });

  it("clear a cookie with an empty value that expires now", async () => {
    const cleared = await cookies.token.clear();
    expect(cleared.split(";")[0]).toBe("token=");
    expect(attributes(cleared)).toContain("max-age=0");
    expect(await cookies.token.read(requestWith(cleared))).toBeUndefined();
  });

  it("reject a signed value that was tampered with, or signed with another secret", async () => {
    const signed = (await cookies.coupon.serialize("SPRING10")).split(";")[0];
    const [value, signature] = signed.slice("coupon=".length).split(".");
    const forged = encodeURIComponent(btoa(JSON.stringify("FREE100")));
    expect(forged).not.toBe(value);
    const tampered = new Request("http://store.test/", { headers: { cookie: `coupon=${forged}.${signature}` } });
    expect(cookies.coupon.sent(tampered)).toBe(true);
    expect(await cookies.coupon.read(tampered)).toBeUndefined();

    const foreign = createStoreCookies({ ...settings, sessionSecrets: ["another-secret-that-is-long-enough-0123456"] });
    expect(await cookies.coupon.read(requestWith(await foreign.coupon.serialize("SPRING10")))).toBeUndefined();
  });

  it("verify with every secret while signing with the first (rotation)", async () => {
    const rotated = createStoreCookies({
      ...settings,
      sessionSecrets: ["a-new-secret-that-is-long-enough-0123456789", ...settings.sessionSecrets],
    });
    const before = await cookies.coupon.serialize("SPRING10");
    expect(await rotated.coupon.read(requestWith(before))).toBe("SPRING10");
  });

  it("read a value that is not in the cookie's format as absent", async () => {
    const garbage = new Request("http://store.test/", { headers: { cookie: "cart=%%%not-base64; token=" } });
    expect(await cookies.cart.read(garbage)).toBeUndefined();
    expect(await cookies.token.read(garbage)).toBeUndefined();
    const unsignedCart = requestWith(`cart=${encodeURIComponent(btoa(JSON.stringify([[optionA, 30, 1000]])))}`);
    expect(await cookies.cart.read(unsignedCart)).toBeUndefined();
    expect(cookies.cart.sent(new Request("http://store.test/", { headers: { cookie: "xcart=1" } }))).toBe(false);
  });
});
